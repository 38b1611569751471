package ui

import (
	"math"
	"strconv"
	"strings"

	"kafkascope/core/dashboard"
	"kafkascope/core/sim"
)

// Metrics is the on-call dashboard: one small plot per metric of
// core/dashboard over the session's virtual time, on the scrubber's scale
// (0 to the end of the timeline) with its markers, the moment shown as a
// line, and the stretches where the metric's common alert fires shaded.
// Each row says the value now and, while a scenario plays, what the step
// changed.
//
// It draws from the engine's own history (Player.Dashboard), which the
// cluster samples from the same gauges and meters JmxTool reads: there is
// no second model. A plot's path is rebuilt only when its series grew or
// the timeline's scale changed, so a frame costs a comparison per row.
type Metrics struct {
	App *App

	rows      []metricRow
	keys      []brokerLine // the per-broker view's key
	cache     [dashboard.NumMetrics]plotCache
	perBroker bool // a line per broker instead of the cluster's total
}

// plotWidth and plotHeight are a plot's viewBox (the SVG stretches to the
// panel's width).
const (
	plotWidth  = 300
	plotHeight = 36
)

// metricRow is one metric as drawn.
type metricRow struct {
	ID       string
	Title    string
	Tip      string
	Value    string
	Change   string       // "0 → 3" while a scenario step changed it
	Alerting bool         // the alert's condition holds now
	Line     string       // the series' path (the cluster's total)
	Lines    []brokerLine // per broker, in the per-broker view
	Alert    string       // the alerting stretches' path (rectangles)
	Marks    string       // the timeline's markers
	NowX     string
	Peak     string // the highest value plotted (the plot's scale)
	Empty    bool   // no sample yet
}

// plotCache is a row's paths and what they were built from.
type plotCache struct {
	n          int      // points in the series
	end        sim.Time // the timeline's end
	now        sim.Time // the last sample time used
	line, warn string
	top        float64 // the highest value plotted (0: none)
}

// BeforeBuild reads the dashboard once per render.
func (c *Metrics) BeforeBuild() {
	c.rows = c.rows[:0]
	b := c.App.Player.Dashboard()
	c.keys = c.legend(b)
	if b == nil {
		return
	}
	p := c.App.Player
	now := p.Now()
	end := c.App.Bar.end()
	var changes []dashboard.Change
	if sc := p.Scenario(); sc != nil {
		if from, to, ok := sc.StepSpan(now); ok {
			changes = b.Changes(from, to)
		}
	}
	marks := c.markPath(end)
	for i, m := range dashboard.Metrics {
		s := &b.Series[i]
		title := c.App.T(m.Key)
		// The title may be cut short in a narrow panel: the tooltip has
		// all of it.
		row := metricRow{ID: "metric-" + m.Name, Title: title, Tip: title + "\n" + m.MBean, Marks: marks,
			NowX: strconv.FormatFloat(xOf(now, end), 'f', 1, 64)}
		v, ok := s.At(now)
		switch {
		case len(s.Points) == 0:
			row.Empty, row.Value = true, c.App.T("metrics.none")
		case !ok:
			row.Value = "–"
		default:
			row.Value = fmtMetric(m, v)
			row.Alerting = m.Alert != nil && m.Alert(v)
		}
		if m.AlertKey != "" {
			row.Tip += "\n" + c.App.T("metrics.alert") + " " + c.App.T(m.AlertKey)
		}
		for _, ch := range changes {
			if ch.ID == m.ID {
				row.Change = fmtMetric(m, ch.Before) + " → " + fmtMetric(m, ch.After)
			}
		}
		row.Line, row.Alert = c.plot(i, s, now, end)
		top := c.cache[i].top
		if c.perBroker {
			if lines, bt := c.brokerLines(b, i, now, end); len(lines) > 0 {
				row.Line, row.Lines, top = "", lines, bt
			}
		}
		if top > 0 {
			row.Peak = c.App.Tf("metrics.peak", fmtMetric(m, top))
		}
		c.rows = append(c.rows, row)
	}
}

// xOf is t's x in a plot.
func xOf(t, end sim.Time) float64 {
	if end <= 0 {
		return 0
	}
	return math.Min(math.Max(float64(t)/float64(end), 0), 1) * plotWidth
}

// plot is the row's step path and alert shading, rebuilt when its series
// or the scale changed.
func (c *Metrics) plot(i int, s *dashboard.Series, now, end sim.Time) (string, string) {
	pc := &c.cache[i]
	if pc.n == len(s.Points) && pc.end == end && pc.now == now {
		return pc.line, pc.warn
	}
	pc.n, pc.end, pc.now = len(s.Points), end, now
	pc.top = seriesTop(s, now)
	pc.line, pc.warn = stepPath(s, now, end, pc.top, dashboard.Metrics[i].Alert)
	return pc.line, pc.warn
}

// seriesTop is the highest value s takes up to now (0: none).
func seriesTop(s *dashboard.Series, now sim.Time) float64 {
	top := 0.0
	for _, p := range s.Points {
		if p.T <= now && !math.IsNaN(p.V) {
			top = math.Max(top, p.V)
		}
	}
	return top
}

// stepPath draws s up to now as a step line scaled to top, and the
// stretches where alert holds as rectangles (alert nil: none). A gap
// (NaN) lifts the pen.
func stepPath(s *dashboard.Series, now, end sim.Time, top float64, alert func(float64) bool) (string, string) {
	if top == 0 {
		top = 1
	}
	y := func(v float64) float64 { return plotHeight - 2 - v/top*(plotHeight-4) }
	var line, warn strings.Builder
	f := func(sb *strings.Builder, x float64) { sb.WriteString(strconv.FormatFloat(x, 'f', 1, 64)) }
	pen := false
	for j, p := range s.Points {
		if p.T > now {
			break
		}
		x0 := xOf(p.T, end)
		x1 := xOf(now, end)
		if j+1 < len(s.Points) && s.Points[j+1].T <= now {
			x1 = xOf(s.Points[j+1].T, end)
		}
		if math.IsNaN(p.V) {
			pen = false
			continue
		}
		if !pen {
			line.WriteString("M")
			pen = true
		} else {
			line.WriteString("L")
		}
		f(&line, x0)
		line.WriteString(" ")
		f(&line, y(p.V))
		line.WriteString("H")
		f(&line, x1)
		if alert != nil && alert(p.V) && x1 > x0 {
			warn.WriteString("M")
			f(&warn, x0)
			warn.WriteString(" 0H")
			f(&warn, x1)
			warn.WriteString("V" + strconv.Itoa(plotHeight) + "H")
			f(&warn, x0)
			warn.WriteString("Z")
		}
	}
	return line.String(), warn.String()
}

// brokerLines are a metric's per-broker lines (none for a metric no
// broker reports itself), all on one scale: the highest of them.
func (c *Metrics) brokerLines(b *dashboard.Board, i int, now, end sim.Time) ([]brokerLine, float64) {
	top := 0.0
	for _, bt := range b.Brokers {
		top = math.Max(top, seriesTop(&bt.Series[i], now))
	}
	var out []brokerLine
	for k, bt := range b.Brokers {
		if len(bt.Series[i].Points) == 0 {
			continue
		}
		d, _ := stepPath(&bt.Series[i], now, end, top, nil)
		out = append(out, brokerLine{D: d, Class: "metric-line metric-b" + strconv.Itoa(k%brokerColours)})
	}
	return out, top
}

// brokerColours is how many line colours the per-broker view cycles
// through (.metric-b0 … in the stylesheet).
const brokerColours = 6

// brokerLine is one broker's line in a plot.
type brokerLine struct{ D, Class string }

// TogglePerBroker switches the plots between the cluster's totals and a
// line per broker.
func (c *Metrics) TogglePerBroker() { c.perBroker = !c.perBroker }

func (c *Metrics) perBrokerPressed() string {
	return strconv.FormatBool(c.perBroker)
}

// legend is the per-broker view's key: each broker's colour (read once
// per render into keys).
func (c *Metrics) legend(b *dashboard.Board) []brokerLine {
	if !c.perBroker || b == nil {
		return nil
	}
	out := make([]brokerLine, 0, len(b.Brokers))
	for k, bt := range b.Brokers {
		out = append(out, brokerLine{D: c.App.T("broker") + " " + strconv.Itoa(int(bt.ID)), Class: "metric-key metric-b" + strconv.Itoa(k%brokerColours)})
	}
	return out
}

// markPath is the timeline's markers as ticks along a plot's top, the
// same moments the scrubber marks.
func (c *Metrics) markPath(end sim.Time) string {
	ms := c.App.Player.Timeline().Markers
	if len(ms) > markersMax {
		ms = ms[len(ms)-markersMax:]
	}
	var sb strings.Builder
	for _, m := range ms {
		sb.WriteString("M")
		sb.WriteString(strconv.FormatFloat(xOf(m.At, end), 'f', 1, 64))
		sb.WriteString(" 0v4")
	}
	return sb.String()
}

// fmtMetric is a value as the row prints it: a count as an integer, a
// rate to three significant digits with its unit.
func fmtMetric(m dashboard.Metric, v float64) string {
	if !m.Rate {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	unit := "/s"
	if m.ID == dashboard.BytesIn || m.ID == dashboard.BytesOut {
		unit = " B/s"
		switch {
		case v >= 1<<20:
			v, unit = v/(1<<20), " MiB/s"
		case v >= 1<<10:
			v, unit = v/(1<<10), " KiB/s"
		}
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + unit
}

func (c *Metrics) empty() bool { return len(c.rows) == 0 }

func (r metricRow) alertAttr() string {
	return strconv.FormatBool(r.Alerting)
}

// emptyAttr marks a value that is words ("no data"), not a figure: it is
// set in the text's font, not the figures' monospace.
func (r metricRow) emptyAttr() string {
	return strconv.FormatBool(r.Empty)
}

func plotViewBox() string {
	return "0 0 " + strconv.Itoa(plotWidth) + " " + strconv.Itoa(plotHeight)
}

// metricsAlert reports whether an alert of the dashboard fires at the
// moment shown (the Metrics tab shows a mark, as the KRaft tab does when
// metadata is frozen).
func (a *App) metricsAlert() bool {
	snap := a.Player.Snapshot()
	if snap == nil {
		return false
	}
	// The snapshot holds each metric's latest sample already.
	for i, v := range snap.Metrics {
		if m := dashboard.Metrics[i]; v.Ok && m.Alert != nil && m.Alert(v.V) {
			return true
		}
	}
	return false
}
