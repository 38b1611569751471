package snapshot

import (
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/vugu/vugu"

	"kafkascope/core/player"
	"kafkascope/ui"
)

// The dashboard under a snapshot's diagram (SVG with Options.Dashboard):
// the page's Metrics panel (ui.Metrics, built as the page builds it, from
// the engine's own history) written as SVG: each metric's title, its
// value at the moment shown (red while its alert fires), what the step
// changed, and its plot (the panel's own paths), in columns across the
// diagram's width.
const (
	dashPad      = 12.0  // the strip's margin, px
	dashGap      = 16.0  // between columns
	dashColumn   = 300.0 // a column's width at least
	dashColumns  = 4     // at most
	dashRow      = 68.0  // a metric's height: its text, its change, its plot
	dashPlotTop  = 33.0  // the plot under the text
	dashPlotTall = 28.0
)

// dashboardCSS styles the strip. The page's plot rules (style.css) mix
// colours with color-mix() and keep strokes thin with vector-effect,
// which an SVG image read without the page (and package raster) does not
// have: these say the same with the diagram's colours.
const dashboardCSS = `.sd-title{font-size:12px;fill:var(--kd-fg)}` +
	`.sd-value{font-size:12px;font-weight:700;fill:var(--kd-fg)}` +
	`.sd-value[data-alert="true"]{fill:var(--kd-bad)}` +
	`.sd-change{font-size:11px;fill:var(--kd-muted)}` +
	`.sd-plot{fill:var(--kd-lane)}` +
	`.sd-rows .metric-line{fill:none;stroke:var(--kd-accent);stroke-width:1.5}` +
	`.sd-rows .metric-warn{fill:rgba(192,57,43,0.22);stroke:none}` +
	`.sd-rows .metric-marks{fill:none;stroke:var(--kd-muted);stroke-width:1;opacity:0.7}` +
	`.sd-rows .metric-now{fill:none;stroke:var(--kd-fg);stroke-width:1;opacity:0.55}`

// dashRowNodes is one metric's nodes in the panel's build.
type dashRowNodes struct {
	id, title, value, change string
	alert                    bool
	plot                     *vugu.VGNode
}

// dashboard writes the strip at y across width and answers its height (0
// when the session keeps no dashboard: nothing is written).
func dashboard(x *svgWriter, p *player.Player, y, width float64) (float64, error) {
	if p.Dashboard() == nil {
		return 0, nil
	}
	env, err := vugu.NewBuildEnv()
	if err != nil {
		return 0, err
	}
	app := ui.NewApp(p, nil)
	results := env.RunBuild(app.Metrics)
	var rows []dashRowNodes
	collectRows(results, results.Out.Out, &rows)
	if len(rows) == 0 {
		return 0, nil
	}
	cols := min(dashColumns, max(1, int((width-2*dashPad+dashGap)/(dashColumn+dashGap))))
	cw := (width - 2*dashPad - float64(cols-1)*dashGap) / float64(cols)
	fmt.Fprintf(&x.b, `<g class="sd-rows" transform="translate(0 %s)">`, num(y))
	for i, r := range rows {
		rx, ry := dashPad+float64(i%cols)*(cw+dashGap), float64(i/cols)*dashRow
		fmt.Fprintf(&x.b, `<g id="%s" transform="translate(%s %s)">`, r.id, num(rx), num(ry))
		fmt.Fprintf(&x.b, `<text class="sd-title" x="0" y="14">%s</text>`, r.title)
		fmt.Fprintf(&x.b, `<text class="sd-value" x="%s" y="14" text-anchor="end" data-alert="%t">%s</text>`, num(cw), r.alert, r.value)
		if r.change != "" {
			fmt.Fprintf(&x.b, `<text class="sd-change" x="0" y="28">%s</text>`, r.change)
		}
		fmt.Fprintf(&x.b, `<rect class="sd-plot" x="0" y="%s" width="%s" height="%s" rx="3"/>`, num(dashPlotTop), num(cw), num(dashPlotTall))
		if r.plot != nil {
			x.element(r.plot, fmt.Sprintf(` x="0" y="%s" width="%s" height="%s"`, num(dashPlotTop), num(cw), num(dashPlotTall)))
		}
		x.b.WriteString("</g>")
	}
	x.b.WriteString("</g>")
	lines := (len(rows) + cols - 1) / cols
	return float64(lines) * dashRow, nil
}

// collectRows finds the panel's rows (li.metric) in a build's output.
func collectRows(results *vugu.BuildResults, out []*vugu.VGNode, rows *[]dashRowNodes) {
	for _, n := range out {
		walk(results, n, func(n *vugu.VGNode) bool {
			if n.Data != "li" || !vgHasClass(n, "metric") {
				return true
			}
			r := dashRowNodes{id: "sd-" + strings.TrimPrefix(vgAttrOf(n, "id"), "metric-"), alert: vgAttrOf(n, "data-alert") == "true"}
			walk(results, n, func(c *vugu.VGNode) bool {
				switch {
				case vgHasClass(c, "metric-title"):
					r.title = innerText(c)
				case vgHasClass(c, "metric-value"):
					r.value = innerText(c)
				case vgHasClass(c, "metric-change"):
					r.change = innerText(c)
				case c.Data == "svg" && vgHasClass(c, "metric-plot"):
					r.plot = c
					return false
				}
				return true
			})
			*rows = append(*rows, r)
			return false
		})
	}
}

// walk visits n and what it holds (components' output included) while
// visit answers true.
func walk(results *vugu.BuildResults, n *vugu.VGNode, visit func(*vugu.VGNode) bool) {
	if n.Component != nil {
		for _, c := range results.ResultFor(n.Component).Out {
			walk(results, c, visit)
		}
		return
	}
	if n.Type == vugu.ElementNode && !visit(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(results, c, visit)
	}
}

func vgHasClass(n *vugu.VGNode, class string) bool {
	return slices.Contains(strings.Fields(vgAttrOf(n, "class")), class)
}

// innerText is an element's text as the build escaped it (vg-content), or
// its text children's.
func innerText(n *vugu.VGNode) string {
	if n.InnerHTML != nil {
		return *n.InnerHTML
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == vugu.TextNode {
			b.WriteString(html.EscapeString(c.Data))
		}
	}
	return b.String()
}
