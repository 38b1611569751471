package ui

import (
	"strings"

	"github.com/vugu/vugu"
)

// The generated Build methods (*_gen.go) build their static nodes through
// these helpers, not through composite literals: scripts/vugutrim rewrites
// vugugen's output so (make generate), to keep main.wasm small. Each
// builds exactly the node vugugen's literal did and appends it to parent
// as vugugen's AppendChild did.

// vgText appends a text node holding text to parent and returns it.
func vgText(parent *vugu.VGNode, text string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.TextNode, Data: text}
	parent.AppendChild(n)
	return n
}

// vgElem appends an element to parent and returns it: tag in namespace ns
// ("" for HTML, "svg"), with the attributes in attrs, keys and values in
// order joined by NUL bytes ("class\x00kd-bar\x00id\x00x"; "" for none).
// The element gets a slice of its own, as many long as it has attributes,
// which the Build method may append to.
func vgElem(parent *vugu.VGNode, ns, tag, attrs string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Namespace: ns, Data: tag}
	if attrs != "" {
		n.Attr = make([]vugu.VGAttribute, strings.Count(attrs, "\x00")/2+1)
		for i := range n.Attr {
			n.Attr[i].Key, attrs, _ = strings.Cut(attrs, "\x00")
			n.Attr[i].Val, attrs, _ = strings.Cut(attrs, "\x00")
		}
	}
	parent.AppendChild(n)
	return n
}

// vgElemAfter appends a text node holding text to parent, then the
// element vgElem appends, and returns the element: one call for the
// indentation before an element and the element.
func vgElemAfter(parent *vugu.VGNode, text, ns, tag, attrs string) *vugu.VGNode {
	vgText(parent, text)
	return vgElem(parent, ns, tag, attrs)
}

// vgOn adds a handler of the DOM event named event to n.
func vgOn(n *vugu.VGNode, event string, f func(vugu.DOMEvent)) {
	n.DOMEventHandlerSpecList = append(n.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: event, Func: f})
}

// vgAddAttr adds the attribute key with the value v to n, as
// n.AddAttrInterface(key, v) does. Generic, so that the value becomes an
// interface here, once for each type, not at every attribute of every
// template (a runtime call each, in wasm).
func vgAddAttr[T any](n *vugu.VGNode, key string, v T) {
	n.AddAttrInterface(key, v)
}

// vgSetHTML sets n's content to v, as n.SetInnerHTML(v) does (generic for the
// same reason as vgAddAttr).
func vgSetHTML[T any](n *vugu.VGNode, v T) {
	n.SetInnerHTML(v)
}
