package ui

import (
	"html"
	"strings"

	"github.com/vugu/vugu"
)

// Prepare readies a build for the DOM renderer; the render loop calls it
// between RunBuild and Render, for every component's output.
//
//   - Every event handler is wrapped so that a panic in it (in any component,
//     the diagram's included) is recovered and handed to onPanic instead of
//     killing the Go program: Vugu calls handlers from a JavaScript callback
//     with its event lock held, and a panic there leaves a dead page.
//   - An element with no children gets an empty innerHTML. Vugu v0.4.0
//     syncs an element's children only when it has some, so a list that
//     becomes empty (a cleared terminal, a new session's markers) would
//     keep its old children on the page.
//   - Text set with vg-content (a string, which Vugu HTML-escapes into
//     innerHTML) becomes a text node. Vugu re-sends the whole tree on every
//     render, and a render happens every animation frame while the cluster
//     plays: innerHTML would be re-parsed 60 times a second, dropping the
//     user's text selection in the terminal each time. A text node is only
//     rewritten when its text differs (with the shim in wasm/).
//
// onPanic runs with the event lock held, like the handler did.
func Prepare(br *vugu.BuildResults, onPanic func(event string, r any)) {
	if br == nil || br.Out == nil {
		return
	}
	seen := map[*vugu.BuildOut]bool{}
	var visitOut func(bo *vugu.BuildOut)
	visitOut = func(bo *vugu.BuildOut) {
		if bo == nil || seen[bo] {
			return
		}
		seen[bo] = true
		for _, n := range bo.Out {
			prepareNode(n, onPanic)
		}
		for _, c := range bo.Components {
			visitOut(br.ResultFor(c))
		}
	}
	visitOut(br.Out)
}

func prepareNode(n *vugu.VGNode, onPanic func(string, any)) {
	for ; n != nil; n = n.NextSibling {
		for i := range n.DOMEventHandlerSpecList {
			spec := &n.DOMEventHandlerSpecList[i]
			if spec.Func != nil {
				spec.Func = guardHandler(spec.EventType, spec.Func, onPanic)
			}
		}
		if n.InnerHTML != nil && n.FirstChild == nil && !strings.ContainsRune(*n.InnerHTML, '<') {
			// Escaped text (vg-content of a string, or static text): no
			// markup to keep.
			text := html.UnescapeString(*n.InnerHTML)
			n.InnerHTML = nil
			if text != "" {
				n.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: text})
			}
		}
		if n.FirstChild != nil {
			prepareNode(n.FirstChild, onPanic)
		} else if n.Type == vugu.ElementNode && n.InnerHTML == nil && n.Component == nil && !voidElements[strings.ToLower(n.Data)] {
			empty := ""
			n.InnerHTML = &empty
		}
	}
}

func guardHandler(event string, f func(vugu.DOMEvent), onPanic func(string, any)) func(vugu.DOMEvent) {
	return func(e vugu.DOMEvent) {
		defer func() {
			if r := recover(); r != nil && onPanic != nil {
				onPanic(event, r)
			}
		}()
		f(e)
	}
}

// voidElements have no children in HTML (setting their innerHTML is
// pointless).
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}
