package ui

import (
	"crypto/sha256"
	"fmt"
	"html"
	"reflect"
	"strings"
	"testing"

	"github.com/vugu/vugu"
)

// renderStrings is every text node and attribute value a build would send
// to the page, after Prepare.
func renderStrings(br *vugu.BuildResults) (texts []string, attrs []string) {
	var walk func(n *vugu.VGNode)
	walk = func(n *vugu.VGNode) {
		for ; n != nil; n = n.NextSibling {
			if n.Type == vugu.TextNode {
				texts = append(texts, n.Data)
			}
			for _, a := range n.Attr {
				attrs = append(attrs, a.Val)
			}
			walk(n.FirstChild)
		}
	}
	eachOut(br, walk)
	return texts, attrs
}

// A render never sends a string longer than MaxRenderString (the page froze
// on one: "requested instruction does not fit in the buffer"), whatever a
// session holds: hundreds of output lines in a row, a share link of tens of
// KiB in the copy-by-hand box and in the embed's link to the full app. The
// text on the page stays whole.
func TestRendersFitTheRenderer(t *testing.T) {
	var in []string
	for i := range 700 {
		// hex digests: a share link of this input does not compress away
		in = append(in, fmt.Sprintf("record-%04d with %x", i, sha256.Sum256([]byte{byte(i), byte(i >> 8)})))
	}
	for _, query := range []string{"", "?embed=1"} {
		at := newAppTest(t, "", "")
		at.p.Run("kafka-console-producer.sh --topic big", in)
		at.idle()
		at.p.Run("kafka-console-consumer.sh --topic big --from-beginning --max-messages 700", nil)
		at.idle()
		if query != "" {
			at.p.Embed = true
		} else {
			at.host.copyOK = false
			at.a.CopyLink()
			at.host.answerCopies()
		}
		at.frames(3, 1100e6) // the URL is written: the embed's link holds the session
		br := at.env.RunBuild(at.a)
		Prepare(br, at.a.HandlerPanic)
		texts, attrs := renderStrings(br)
		for _, s := range append(texts, attrs...) {
			if len(s) > MaxRenderString {
				t.Fatalf("%q: a render sends a string of %d bytes: %.80q...", query, len(s), s)
			}
		}
		all := strings.Join(texts, "")
		if at.a.Problem != "" {
			t.Errorf("%q: %s", query, at.a.Problem)
		}
		if query != "" {
			link := at.host.baseURL + at.a.WrittenHash()
			if len(link) <= MaxRenderString {
				t.Fatalf("the link has %d bytes: the test needs a longer session", len(link))
			}
			if !strings.Contains(at.render(nil).src, `href="`+html.EscapeString(link)+`"`) {
				t.Errorf("the embed's link to the full app is not the whole link")
			}
			continue
		}
		for _, want := range []string{"record-0000 with", "record-0699 with", "Processed a total of 700 messages"} {
			if !strings.Contains(all, want) {
				t.Errorf("the page lost %q", want)
			}
		}
		link := at.host.copied[len(at.host.copied)-1]
		if len(link) <= MaxRenderString {
			t.Fatalf("the link has %d bytes: the test needs a longer session", len(link))
		}
		if !strings.Contains(all, link) {
			t.Errorf("the copy-by-hand box does not hold the whole link")
		}
	}
}

// sameOut is a component that hands back one output (as TermChunk does
// while its chunk is unchanged).
type sameOut struct{ out *vugu.BuildOut }

func (c *sameOut) Build(*vugu.BuildIn) *vugu.BuildOut { return c.out }

// A Preparer leaves alone an output it prepared in the previous build:
// its handlers stay wrapped once, however many frames reuse it; a new
// output is prepared.
func TestPreparerSkipsReusedOutputs(t *testing.T) {
	btn := &vugu.VGNode{Type: vugu.ElementNode, Data: "button",
		DOMEventHandlerSpecList: []vugu.DOMEventHandlerSpec{{EventType: "click", Func: func(vugu.DOMEvent) {}}}}
	comp := &sameOut{out: &vugu.BuildOut{Out: []*vugu.VGNode{btn}}}
	root := &sameOut{}
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	build := func() *vugu.BuildResults {
		n := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
		n.AppendChild(&vugu.VGNode{Component: comp})
		root.out = &vugu.BuildOut{Out: []*vugu.VGNode{n}, Components: []vugu.Builder{comp}}
		return env.RunBuild(root)
	}
	var p Preparer
	p.Prepare(build(), nil)
	wrapped := reflect.ValueOf(btn.DOMEventHandlerSpecList[0].Func).Pointer()
	for range 3 {
		p.Prepare(build(), nil)
	}
	if reflect.ValueOf(btn.DOMEventHandlerSpecList[0].Func).Pointer() != wrapped {
		t.Error("a reused output was prepared again")
	}
	comp.out = &vugu.BuildOut{Out: []*vugu.VGNode{{Type: vugu.ElementNode, Data: "p", InnerHTML: ptr("a &amp; b")}}}
	p.Prepare(build(), nil)
	if n := comp.out.Out[0]; n.InnerHTML != nil || n.FirstChild == nil || n.FirstChild.Data != "a & b" {
		t.Error("a new output was not prepared")
	}
}

func ptr(s string) *string { return &s }
