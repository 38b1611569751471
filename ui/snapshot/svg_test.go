package snapshot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vugu/html"

	"kafkascope/core/player"
	"kafkascope/core/textdiff"
	"kafkascope/ui"
	"kafkascope/ui/internal/htmltest"
)

// snapshotStyle is the style a snapshot carries, from the page's files.
func snapshotStyle(t *testing.T) string {
	t.Helper()
	style, err := os.ReadFile("../../public/style.css")
	if err != nil {
		t.Fatal(err)
	}
	diagram, err := os.ReadFile("../../public/diagram.css")
	if err != nil {
		t.Fatal(err)
	}
	return Style(string(style), string(diagram))
}

// A snapshot of a scenario step is a well-formed SVG document holding the
// page's own drawings of that moment, element for element: the same
// broker cards, partition rows and replica strips, in the link's
// language, with the page's styles.
func TestSVGIsThePagesDiagram(t *testing.T) {
	for _, c := range []struct {
		link  string
		width float64 // the panel's, 0 for the default layout
	}{
		{"#scenario=04-isr&step=3&lang=ko", 0},
		{"#scenario=08-leader-election-on-crash&step=2&lang=en", 0},
		{"#scenario=08-leader-election-on-crash&step=2&lang=en", 390}, // a phone: the touch layout
	} {
		link := c.link
		t.Run(fmt.Sprintf("%s@%g", link, c.width), func(t *testing.T) {
			p := player.New()
			p.Boot("", link)
			if p.Error != "" {
				t.Fatalf("booting %s: %s", link, p.Error)
			}
			var out bytes.Buffer
			size, err := SVG(&out, p, snapshotStyle(t), c.width, Options{})
			if err != nil {
				t.Fatal(err)
			}
			svg := out.String()
			if c.width > 0 && size.Width > 2*c.width {
				t.Errorf("in a %g px panel the picture is %g px wide: not the narrow layout", c.width, size.Width)
			}

			// Well-formed XML, an SVG root with a size.
			dec := xml.NewDecoder(strings.NewReader(svg))
			var root *xml.StartElement
			for {
				tok, err := dec.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed XML: %v\n%.400s", err, svg)
				}
				if se, ok := tok.(xml.StartElement); ok && root == nil {
					root = &se
				}
			}
			if root == nil || root.Name.Local != "svg" || root.Name.Space != "http://www.w3.org/2000/svg" {
				t.Fatalf("root element %+v, want an svg in the SVG namespace", root)
			}
			// The size answered is the root's.
			if w, h := num(size.Width), num(size.Height); size.Width < 100 || size.Height < 100 ||
				attrOf(root, "width") != w || attrOf(root, "height") != h || attrOf(root, "viewBox") != "0 0 "+w+" "+h {
				t.Errorf("size %v, root %+v", size, root.Attr)
			}
			for _, want := range []string{"--kd-panel", "--mono:"} {
				if !strings.Contains(svg, want) {
					t.Errorf("the snapshot lacks %q", want)
				}
			}

			// The page's drawings, element for element.
			want := htmlDrawings(pageRender(t, p, c.width))
			doc, err := html.Parse(strings.NewReader(svg))
			if err != nil {
				t.Fatal(err)
			}
			got := htmlDrawings(doc) // the root: the drawings are in it
			if len(got) != 1 {
				t.Fatalf("%d outermost svg elements, want the root alone", len(got))
			}
			var drawn []*html.Node
			for c := got[0].FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "svg" {
					drawn = append(drawn, c)
				}
			}
			if len(drawn) != len(want) {
				t.Fatalf("%d drawings in the root, the page has %d", len(drawn), len(want))
			}
			for i := range want {
				if a, b := outline(want[i]), outline(drawn[i]); a != b {
					t.Fatalf("drawing %d differs from the page's:\n%s", i, textdiff.FirstLine(a, b, "page", "snapshot"))
				}
			}

			// What the outline compares is there: every broker's card and
			// every replica strip of the moment's partitions.
			snap := p.Snapshot()
			for _, b := range snap.Nodes {
				if n := len(findAll(doc, func(n *html.Node) bool {
					return hasClass(n, "kd-card") && htmltest.Attr(n, "data-broker") == fmt.Sprint(b.ID)
				})); n != 1 {
					t.Errorf("broker %d: %d cards in the snapshot", b.ID, n)
				}
			}
			if reps := len(findAll(doc, func(n *html.Node) bool { return hasClass(n, "kd-rep") })); reps == 0 {
				t.Error("the snapshot draws no replica strip")
			}
			if strings.HasSuffix(link, "lang=ko") && !strings.Contains(svg, "브로커") {
				t.Error("a Korean link's snapshot has no Korean text")
			}
		})
	}
}

// pageRender is the page's diagram of p's moment, as the page's own tests
// render it (vugu's static renderer), parsed.
func pageRender(t *testing.T, p *player.Player, width float64) *html.Node {
	t.Helper()
	doc, _ := htmltest.Render(t, &ui.Diagram{Player: p, Width: width})
	return doc
}

// findAll is every element under n that matches.
func findAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	if n.Type == html.ElementNode && match(n) {
		out = append(out, n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, findAll(c, match)...)
	}
	return out
}

func hasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(htmltest.Attr(n, "class")), class)
}

// htmlDrawings are the outermost <svg> elements under n, in order.
func htmlDrawings(n *html.Node) []*html.Node {
	if n.Type == html.ElementNode && n.Data == "svg" {
		return []*html.Node{n}
	}
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, htmlDrawings(c)...)
	}
	return out
}

// outline is a drawing's elements, one a line: name, class, data-*
// attributes and direct text (positions aside: the snapshot places each
// drawing at its own offset).
func outline(n *html.Node) string {
	var s strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type != html.ElementNode {
			return
		}
		fmt.Fprintf(&s, "%s%s class=%q", strings.Repeat(" ", depth), n.Data, htmltest.Attr(n, "class"))
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "data-") {
				fmt.Fprintf(&s, " %s=%q", a.Key, a.Val)
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
				fmt.Fprintf(&s, " %q", strings.TrimSpace(c.Data))
			}
		}
		s.WriteString("\n")
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return s.String()
}

// BenchmarkSVG is what a /snapshot.svg request does: replay a scenario
// link to its step, then draw it.
func BenchmarkSVG(b *testing.B) {
	style, err := os.ReadFile("../../public/diagram.css")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		p := player.New()
		p.Boot("", "#scenario=04-isr&step=3&lang=ko")
		var out bytes.Buffer
		if _, err := SVG(&out, p, string(style), 0, Options{}); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(out.Len()))
	}
}

// attrOf is an XML element's attribute ("" if it has none).
func attrOf(e *xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// The page's variables that the diagram reads are taken from the page's
// CSS as written and as the site minifies it (no ';' before a block's
// '}'), the light theme's (the first) where the dark one follows; nothing
// else of the page's CSS comes along, and the diagram's rules follow
// whole.
func TestStyleTakesThePagesVariables(t *testing.T) {
	const diagram = `.kd{--kd-panel:var(--panel, #fff);--kd-x:var(--kd-panel);font:var(--mono)}.kd-t{font-family:var(--sans,serif)}`
	for name, page := range map[string]string{
		"as written": ":root {\n  --bg: #fff;\n  --panel:#eee;\n  --sans:a, b;\n  --mono:c;\n}\n@media (x) { :root { --panel: #000; } }",
		"minified":   `:root{--bg:#fff;--panel:#eee;--sans:a, b;--mono:c}@media(x){:root{--panel:#000}}`,
		"last first": `:root{--x-panel:#111;--panel:#eee;--sans:a, b}@media(x){:root{--bg:#000;--mono:c}}`,
	} {
		if got, want := Style(page, diagram), `svg.kd{font-size:14px;--panel:#eee;--mono:c;--sans:a, b}`+diagram; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// With Options.Dashboard the picture has the Metrics panel's rows under
// the diagram: each metric's value as the page's panel reads it at that
// moment, its step change, and the panel's own plot paths; the picture
// grows by the strip. A session that keeps no dashboard (a simulator
// run) draws none.
func TestSVGDashboard(t *testing.T) {
	p := player.New()
	p.Boot("", "#scenario=28-on-call&step=3&lang=en")
	if p.Error != "" {
		t.Fatal(p.Error)
	}
	var plain, dash bytes.Buffer
	plainSize, err := SVG(&plain, p, snapshotStyle(t), 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	size, err := SVG(&dash, p, snapshotStyle(t), 0, Options{Dashboard: true})
	if err != nil {
		t.Fatal(err)
	}
	if size.Height <= plainSize.Height || size.Width != plainSize.Width {
		t.Errorf("with the dashboard %v, without %v", size, plainSize)
	}
	if err := xml.Unmarshal(dash.Bytes(), new(struct{})); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	panel, _ := htmltest.Render(t, ui.NewApp(p, nil).Metrics)
	svg := dash.String()
	for _, id := range []string{"urp", "offline", "under-min-isr", "active-controllers"} {
		li := htmltest.ByID(panel, "metric-"+id)
		if li == nil {
			t.Fatalf("the panel has no #metric-%s", id)
		}
		value := htmltest.TextOf(htmltest.ByClass(li, "metric-value"))
		want := fmt.Sprintf(`<g id="sd-%s"`, id)
		i := strings.Index(svg, want)
		if i < 0 {
			t.Fatalf("no %s in the picture", want)
		}
		row := svg[i:]
		row = row[:strings.Index(row, `<rect class="sd-plot"`)]
		if !strings.Contains(row, ">"+html.EscapeString(value)+"</text>") {
			t.Errorf("%s: the picture's row %q lacks the panel's value %q", id, row, value)
		}
		if d := htmltest.Attr(htmltest.ByClass(li, "metric-warn"), "d"); !strings.Contains(svg[i:], `d="`+d+`"`) {
			t.Errorf("%s: the panel's alert path %q is not in the picture", id, d)
		}
	}
	if !strings.Contains(svg, `class="sd-change"`) {
		t.Error("the step's changes are not in the picture")
	}

	sim := player.New()
	sim.Boot("", "#sim=1")
	if sim.Error != "" {
		t.Fatal(sim.Error)
	}
	var out bytes.Buffer
	if _, err := SVG(&out, sim, snapshotStyle(t), 0, Options{Dashboard: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "sd-rows") {
		t.Error("a simulator run, which keeps no dashboard, drew one")
	}
}
