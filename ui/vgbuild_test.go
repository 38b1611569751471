package ui

import (
	"reflect"
	"testing"

	"github.com/vugu/vugu"
)

// The helpers build the nodes vugugen's literals built (scripts/vugutrim
// rewrites the one into the other), and append them in the same way.
func TestVGBuildHelpers(t *testing.T) {
	lit := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	lit.AppendChild(&vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n  "})
	lit.AppendChild(&vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "svg", Data: "rect", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "kd-bg"}, {Namespace: "", Key: "x", Val: ""}}})
	lit.AppendChild(&vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n"})
	lit.AppendChild(&vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "button", Attr: []vugu.VGAttribute(nil)})

	got := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
	vgText(got, "\n  ")
	rect := vgElem(got, "svg", "rect", "class\x00kd-bg\x00x\x00")
	button := vgElemAfter(got, "\n", "", "button", "")

	if rect != got.FirstChild.NextSibling || button != got.LastChild || button.Attr != nil {
		t.Fatal("the helpers return other nodes than they append")
	}
	var ln, gn []vugu.VGNode
	for n := lit.FirstChild; n != nil; n = n.NextSibling {
		ln = append(ln, vugu.VGNode{Type: n.Type, Namespace: n.Namespace, Data: n.Data, Attr: n.Attr})
	}
	for n := got.FirstChild; n != nil; n = n.NextSibling {
		gn = append(gn, vugu.VGNode{Type: n.Type, Namespace: n.Namespace, Data: n.Data, Attr: n.Attr})
		if n.Parent != got {
			t.Errorf("%q: parent not set", n.Data)
		}
	}
	if !reflect.DeepEqual(ln, gn) {
		t.Errorf("helpers built %+v, the literals %+v", gn, ln)
	}
	if cap(rect.Attr) != 2 {
		t.Errorf("rect's attributes have capacity %d, want 2 (as the literal's)", cap(rect.Attr))
	}

	clicked := false
	vgOn(button, "click", func(vugu.DOMEvent) { clicked = true })
	if specs := button.DOMEventHandlerSpecList; len(specs) != 1 || specs[0].EventType != "click" || specs[0].Capture {
		t.Fatalf("handlers %+v", specs)
	}
	button.DOMEventHandlerSpecList[0].Func(nil)
	if !clicked {
		t.Error("the handler is not the one given")
	}
}
