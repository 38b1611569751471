package ui

import (
	"html"
	"testing"

	"github.com/vugu/vugu"
)

// unescapeText undoes html.EscapeString exactly, and agrees with
// html.UnescapeString on every text it accepts.
func TestUnescapeTextMatchesHTML(t *testing.T) {
	for _, s := range []string{"", "plain", "a & b", "<b>", `"quoted" 'single'`, "&amp;lt;", "&&;;", "tail &", "한국어 &#39;"} {
		if got, ok := unescapeText(html.EscapeString(s)); !ok || got != s {
			t.Errorf("unescapeText(EscapeString(%q)) = %q, %v", s, got, ok)
		}
	}
	for _, s := range []string{"a &amp; b", "&lt;&gt;&amp;&#39;&#34;", "&amp;amp;", "x&#34;y"} {
		if got, ok := unescapeText(s); !ok || got != html.UnescapeString(s) {
			t.Errorf("unescapeText(%q) = %q, %v; html.UnescapeString: %q", s, got, ok, html.UnescapeString(s))
		}
	}
	for _, s := range []string{"&nbsp;", "a & b", "&#x41;", "&#65;", "&lt", "&AMP;", "x &copy y"} {
		if _, ok := unescapeText(s); ok {
			t.Errorf("unescapeText(%q) accepted a reference html.EscapeString never writes", s)
		}
	}
}

// Text with a reference unescapeText does not know keeps its inner HTML:
// the browser decodes it, as it would have shown html.UnescapeString's.
func TestPrepareKeepsUnknownReferences(t *testing.T) {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "p", InnerHTML: ptr("1&nbsp;000")}
	prepareNode(n, nil)
	if n.InnerHTML == nil || *n.InnerHTML != "1&nbsp;000" || n.FirstChild != nil {
		t.Errorf("inner HTML %v, first child %v", n.InnerHTML, n.FirstChild)
	}
}
