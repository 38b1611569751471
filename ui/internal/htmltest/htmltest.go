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
