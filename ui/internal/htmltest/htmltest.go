package htmltest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vugu/html"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"
)

// Render builds c once and answers the HTML it renders, parsed, and as
// text.
func Render(t testing.TB, c vugu.Builder) (*html.Node, string) {
	t.Helper()
	var buf bytes.Buffer
	r := staticrender.New(&buf)
	env, err := vugu.NewBuildEnv(r.EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Render(env.RunBuild(c)); err != nil {
		t.Fatal(err)
	}
	root, err := html.Parse(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	return root, buf.String()
}

// Attr is n's attribute key ("" if it has none); HTML's attribute names
// are matched without regard to case.
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

// Contains reports whether inner is outer or one of its descendants.
func Contains(outer, inner *html.Node) bool {
	for n := inner; n != nil; n = n.Parent {
		if n == outer {
			return true
		}
	}
	return false
}

// ByID is the first element under n (n included) with the id, or nil.
func ByID(n *html.Node, id string) *html.Node {
	return first(n, func(c *html.Node) bool { return Attr(c, "id") == id })
}

// ByClass is the first element under n (n included) with the class, or
// nil.
func ByClass(n *html.Node, class string) *html.Node {
	return first(n, func(c *html.Node) bool {
		for _, f := range strings.Fields(Attr(c, "class")) {
			if f == class {
				return true
			}
		}
		return false
	})
}

func first(n *html.Node, match func(*html.Node) bool) *html.Node {
	if n == nil {
		return nil
	}
	if n.Type == html.ElementNode && match(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if f := first(c, match); f != nil {
			return f
		}
	}
	return nil
}

// TextOf is the text under n.
func TextOf(n *html.Node) string {
	if n == nil {
		return ""
	}
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(TextOf(c))
	}
	return b.String()
}
