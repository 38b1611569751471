package main

import "testing"

// build is vugugen's output for a template with a static element, static
// text, an element with a dynamic attribute, an event handler, and the
// component root, which has no parent.
const build = `package ui

import "github.com/vugu/vugu"

func (c *C) Build(vgin *vugu.BuildIn) (vgout *vugu.BuildOut) {
	vgout = &vugu.BuildOut{}
	var vgn *vugu.VGNode
	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "div", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "kd"}}}
	vgout.Out = append(vgout.Out, vgn)	// root for output
	{
		vgparent := vgn
		_ = vgparent
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n  "}
		vgparent.AppendChild(vgn)
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "svg", Data: "rect", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "kd-bg"}, vugu.VGAttribute{Namespace: "", Key: "x", Val: "0"}}}
		vgparent.AppendChild(vgn)
		vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "button", Attr: []vugu.VGAttribute(nil)}
		vgparent.AppendChild(vgn)
		vgn.AddAttrInterface("title", c.t("close"))
		vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{
			EventType:	"click",
			Func:		func(event vugu.DOMEvent) { c.act("x\n") },
			// TODO: implement capture, etc. mostly need to decide syntax
		})
	}
	return vgout
}
`

// compacted is build rewritten: the text and the element after it in one
// vgElemAfter call, the element with no attribute through vgElem, the
// dynamic attribute through vgAddAttr, the handler through vgOn.
const compacted = `package ui

import "github.com/vugu/vugu"

func (c *C) Build(vgin *vugu.BuildIn) (vgout *vugu.BuildOut) {
	vgout = &vugu.BuildOut{}
	var vgn *vugu.VGNode
	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "div", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "kd"}}}
	vgout.Out = append(vgout.Out, vgn)	// root for output
	{
		vgparent := vgn
		_ = vgparent
		vgn = vgElemAfter(vgparent, "\n  ", "svg", "rect", "class\x00kd-bg\x00x\x000")
		vgn = vgElem(vgparent, "", "button", "")
		vgAddAttr(vgn, "title", c.t("close"))
		vgOn(vgn, "click", func(event vugu.DOMEvent) { c.act("x\n") })
	}
	return vgout
}
`

func TestCompactRewritesStaticNodes(t *testing.T) {
	out, err := compact("c_gen.go", []byte(build))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != compacted {
		t.Fatalf("got:\n%s\nwant:\n%s", out, compacted)
	}
	// Once compacted, a file stays as it is (make generate-check).
	if again, err := compact("c_gen.go", out); err != nil || string(again) != string(out) {
		t.Fatalf("compacting twice changed the file (%v):\n%s", err, again)
	}
}

// A text node before anything but a static element is appended on its own.
func TestCompactTextAlone(t *testing.T) {
	src := "package ui\n\nfunc (c *C) Build() {\n\t{\n" +
		"\t\tvgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"a\"}\n\t\tvgparent.AppendChild(vgn)\n" +
		"\t\tvgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"b\"}\n\t\tvgparent.AppendChild(vgn)\n" +
		"\t\tvgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"p\", Attr: []vugu.VGAttribute(nil)}\n\t\tvgparent.AppendChild(vgn)\n" +
		"\t\tvgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"\\n\"}\n\t\tvgparent.AppendChild(vgn)\n" +
		"\t\tif c.x {\n\t\t}\n" +
		"\t\tvgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"c\"}\n\t\tvgparent.AppendChild(vgn)\n" +
		"\t}\n}\n"
	want := "package ui\n\nfunc (c *C) Build() {\n\t{\n" +
		"\t\tvgn = vgText(vgparent, \"a\")\n" +
		"\t\tvgn = vgElemAfter(vgparent, \"b\", \"\", \"p\", \"\")\n" +
		"\t\tvgn = vgText(vgparent, \"\\n\")\n" +
		"\t\tif c.x {\n\t\t}\n" +
		"\t\tvgn = vgText(vgparent, \"c\")\n" +
		"\t}\n}\n"
	out, err := compact("c_gen.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

// Nodes the helpers cannot build exactly as the literal does keep it: an
// attribute in a namespace, a NUL byte in a value, a node with another
// field, one not followed by AppendChild, a handler with Capture set.
func TestCompactLeavesOtherShapes(t *testing.T) {
	for _, stmt := range []string{
		"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"a\", Attr: []vugu.VGAttribute{{Namespace: \"xlink\", Key: \"href\", Val: \"#x\"}}}\n\t\tvgparent.AppendChild(vgn)",
		"vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: \"\", Data: \"a\", Attr: []vugu.VGAttribute{{Namespace: \"\", Key: \"title\", Val: \"a\\x00b\"}}}\n\t\tvgparent.AppendChild(vgn)",
		"vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"x\", Prop: 1}\n\t\tvgparent.AppendChild(vgn)",
		"vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: \"x\"}\n\t\tvgout.Out = append(vgout.Out, vgn)",
		"vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: label}\n\t\tvgparent.AppendChild(vgn)",
		"vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{EventType: \"click\", Capture: true, Func: f})",
	} {
		src := "package ui\n\nfunc (c *C) Build() {\n\t{\n\t\t" + stmt + "\n\t}\n}\n"
		out, err := compact("c_gen.go", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != src {
			t.Errorf("rewrote\n%s\ninto\n%s", stmt, out)
		}
	}
}

// Attributes and contents of any type go through the generic helpers; an
// untyped nil, which they could not take, keeps the method.
func TestCompactValueCalls(t *testing.T) {
	src := "package ui\n\nfunc (c *C) Build() {\n\tvgn.AddAttrInterface(\"title\", c.t(\"x\"))\n\tvgn.SetInnerHTML(vugu.HTML(\"&times;\"))\n\tvgn.AddAttrInterface(\"x\", nil)\n\tvgn.SetInnerHTML(nil)\n\tother.SetInnerHTML(v)\n}\n"
	want := "package ui\n\nfunc (c *C) Build() {\n\tvgAddAttr(vgn, \"title\", c.t(\"x\"))\n\tvgSetHTML(vgn, vugu.HTML(\"&times;\"))\n\tvgn.AddAttrInterface(\"x\", nil)\n\tvgn.SetInnerHTML(nil)\n\tother.SetInnerHTML(v)\n}\n"
	out, err := compact("c_gen.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}
