package player

import (
	"strings"
	"testing"
)

// The embed snippet fits the column it is pasted in with HTML and CSS
// alone (the host page runs no script of ours): the column's width up to
// 960 px, 600 px tall, and the same as attributes for a host that drops
// the style attribute. Its title names the scenario for screen readers.
func TestEmbedSnippetIsResponsive(t *testing.T) {
	p := New()
	p.Boot("", "#scenario=04-isr&step=1&lang=en")
	s := p.EmbedSnippet("https://k.test/", EmbedWidthMax, EmbedHeight)
	for _, want := range []string{
		`src="https://k.test/?embed=1#lang=en&amp;scenario=04-isr&amp;step=1"`,
		`width="100%"`, `height="600"`,
		`width:100%`, `max-width:960px`, `height:600px`, `border:0`,
		`title="kafkascope: ` + p.Scenario().Title(p.Lang) + `"`,
		`loading="lazy"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the snippet lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, `width="960"`) {
		t.Errorf("the snippet has a fixed width:\n%s", s)
	}
}
