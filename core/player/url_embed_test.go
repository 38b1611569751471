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

// panel=metrics in the query opens the dashboard beside the diagram, and
// an embed snippet made while it is shown keeps it; any other panel is the
// default one.
func TestPanelMetricsLink(t *testing.T) {
	p := New()
	p.Boot("?embed=1&panel=metrics", "#scenario=28-on-call&step=2")
	if !p.Embed || p.Panel != PanelMetrics {
		t.Fatalf("embed %v, panel %q; want an embed with the metrics panel", p.Embed, p.Panel)
	}
	s := p.EmbedSnippet("https://k.test/", EmbedWidthMax, EmbedHeight)
	if !strings.Contains(s, `src="https://k.test/?embed=1&amp;panel=metrics#`) {
		t.Errorf("the snippet lost the panel:\n%s", s)
	}
	for _, q := range []string{"?panel=Metrics", "?panel=disk", "?panel="} {
		if st, err := ParseURL(q, ""); err != nil || st.Panel != "" {
			t.Errorf("%s: panel %q, err %v; want the default panel", q, st.Panel, err)
		}
	}
}
