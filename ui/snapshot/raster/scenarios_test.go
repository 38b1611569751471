package raster

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/image/font/sfnt"

	"kafkascope/core/player"
	"kafkascope/core/scenario"
	"kafkascope/ui/snapshot"
)

// scenarioSnapshot is the snapshot of a scenario's step, as the Worker
// draws it (wasm/worker: replay, then ui/snapshot.SVG with the page's
// stylesheet).
func scenarioSnapshot(t *testing.T, style, fields string, width float64, opts snapshot.Options) []byte {
	t.Helper()
	p := player.New()
	p.Boot("", "#"+fields)
	if p.Error == "" {
		p.Settle(100000)
	}
	if p.Error != "" {
		t.Fatalf("%s: %s", fields, p.Error)
	}
	var out bytes.Buffer
	if _, err := snapshot.SVG(&out, p, style, width, opts); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func pageStyle(t *testing.T) string {
	t.Helper()
	page, err := os.ReadFile("../../../public/style.css")
	if err != nil {
		t.Fatal(err)
	}
	diagram, err := os.ReadFile("../../../public/diagram.css")
	if err != nil {
		t.Fatal(err)
	}
	return snapshot.Style(string(page), string(diagram))
}

// Every scenario's first and last step, in English and Korean (and one
// in the phone layout; the last with the dashboard), draws; and nothing in it is lost to this
// package's limits: every fill and stroke is a colour it reads, and
// every character has a glyph in its fonts or is a symbol it draws. A
// new label in a script the fonts lack, or a colour written as
// color-mix(), fails here rather than vanishing from link previews.
func TestEveryScenarioDraws(t *testing.T) {
	style := pageStyle(t)
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	fonts, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		for _, lang := range []string{"en", "ko"} {
			for _, step := range []int{1, len(s.Transcript.Steps)} {
				fields := fmt.Sprintf("scenario=%s&step=%d&lang=%s", s.ID, step, lang)
				width := 0.0
				if step == 1 && lang == "ko" {
					width = 390
				}
				// The last step with the dashboard under the diagram
				// (panel=metrics): its titles, values and changes too.
				doc := scenarioSnapshot(t, style, fields, width, snapshot.Options{Dashboard: step > 1})
				if _, err := Render(doc, 1); err != nil {
					t.Fatalf("%s: %v", fields, err)
				}
				root, _ := parseSVG(doc)
				var css strings.Builder
				collectStyles(root, &css)
				newSheet(css.String()).cascade(root, nil, 0)
				for _, problem := range audit(root, fonts) {
					t.Errorf("%s: %s", fields, problem)
				}
			}
		}
	}
}

// audit lists what in a styled document would not be drawn as a browser
// draws it.
func audit(e *element, fonts *fontSet) []string {
	var out []string
	if !notDrawn[e.tag] {
		for _, prop := range []string{"fill", "stroke"} {
			v := e.style.get(prop)
			if v == "" || v == "none" {
				continue
			}
			if _, ok := paint(v, e.style); !ok {
				out = append(out, fmt.Sprintf("<%s class=%q> %s: %q is not a colour this package reads", e.tag, e.attr("class"), prop, v))
			}
		}
		if e.tag == "text" {
			var buf sfnt.Buffer
			faces := fonts.faces(e.style)
			for _, r := range textContent(e) {
				found := unicode.IsSpace(r) || drawnSymbol(r)
				for _, f := range faces {
					if i, err := f.GlyphIndex(&buf, r); err == nil && i != 0 {
						found = true
					}
				}
				if !found {
					out = append(out, fmt.Sprintf("<text class=%q> %q: no glyph for %q", e.attr("class"), textContent(e), r))
				}
			}
		}
	}
	for _, c := range e.children {
		out = append(out, audit(c, fonts)...)
	}
	return out
}
