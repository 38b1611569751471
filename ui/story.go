package ui

import (
	"strconv"

	"kafkascope/core/dashboard"
	"kafkascope/core/player"
)

// Story is the narration of the scenario being played: its title, which
// step this is, what the step shows (in the current language), the
// commands it ran, and Back/Next. Steps run as deferred work: a step runs
// its commands to the end, which can take a moment.
type Story struct {
	App *App

	changes []storyMetric // the step's metric changes, read once per render
}

// BeforeBuild reads what the step changed once per render.
func (c *Story) BeforeBuild() { c.changes = c.metricChanges() }

func (c *Story) sc() *player.Scenario { return c.App.Player.Scenario() }

func (c *Story) title() string { return c.sc().Title(c.App.Player.Lang) }

func (c *Story) stepText() string {
	sc := c.sc()
	if sc.Step < 0 {
		return c.App.T("story.start")
	}
	return c.App.Tf("story.step", sc.Step+1, sc.Steps())
}

func (c *Story) text() string { return c.sc().Text(c.App.Player.Lang) }

func (c *Story) commands() []string { return c.sc().Commands() }

func (c *Story) atEnd() bool { sc := c.sc(); return sc.Step+1 >= sc.Steps() }

func (c *Story) canBack() bool { return c.sc().Step > 0 && !c.App.Busy() }

func (c *Story) canNext() bool { return !c.atEnd() && !c.App.Busy() }

// waitAttr is Back's and Next's aria-disabled while a step plays. They are
// not disabled then: a disabled button drops the keyboard's focus to the
// page's body, and Enter on Next must leave the focus on Next. (They are
// disabled at the ends, where the focus is moved first: see Next, Back.)
func (c *Story) waitAttr() string {
	return strconv.FormatBool(c.App.Busy())
}

// storyDot is one step of the progress dots.
type storyDot struct {
	State string // done, current, todo
	Label string
}

func (c *Story) dots() []storyDot {
	sc := c.sc()
	out := make([]storyDot, sc.Steps())
	for i := range out {
		out[i].Label = strconv.Itoa(i + 1)
		switch {
		case i < sc.Step:
			out[i].State = "done"
		case i == sc.Step:
			out[i].State = "current"
		default:
			out[i].State = "todo"
		}
	}
	return out
}

// Next plays the next step.
func (c *Story) Next() {
	if !c.canNext() {
		return
	}
	// The last step disables Next: the focus moves to the story first.
	if sc := c.sc(); sc.Step+2 >= sc.Steps() {
		c.App.Host.Focus("story")
	}
	// The step's commands play over the coming frames (Player.Tick), so
	// the diagram animates them and the page stays responsive.
	if err := c.sc().StartNext(); err != nil {
		c.App.Player.Error = err.Error()
	}
}

// Back shows the previous step again (a replay).
func (c *Story) Back() {
	if !c.canBack() {
		return
	}
	p := c.App.Player
	if c.sc().Step <= 1 { // the first step disables Back: the focus goes to Next
		c.App.Host.Focus("story-next")
	}
	c.App.later(c.App.T("story.rewinding"), func() {
		if err := p.Scenario().Back(); err != nil { // nil (nothing) if it was left meanwhile
			p.Error = err.Error()
		}
	})
}

// Leave closes the story; the cluster stays as it is.
func (c *Story) Leave() { c.sc().Leave() }

// storyMetric is a dashboard metric the step changed, as the story lists
// it: "Under-replicated partitions 0 → 3".
type storyMetric struct {
	Name, Change string
	State        string // "alert" (its alert fires after the step), "cleared", or ""
}

// metricChanges are the dashboard's metrics this step changed (between
// the previous step's end and this one's), the same figures the Metrics
// tab plots.
func (c *Story) metricChanges() []storyMetric {
	p := c.App.Player
	b := p.Dashboard()
	if b == nil {
		return nil
	}
	from, to, ok := c.sc().StepSpan(p.Now())
	if !ok {
		return nil
	}
	var out []storyMetric
	for _, ch := range b.Changes(from, to) {
		m := dashboard.Metrics[ch.ID]
		sm := storyMetric{Name: c.App.T(m.Key), Change: fmtMetric(m, ch.Before) + " → " + fmtMetric(m, ch.After)}
		switch {
		case ch.Alert:
			sm.State = "alert"
		case ch.Cleared:
			sm.State = "cleared"
		}
		out = append(out, sm)
	}
	return out
}

// sectionClass is the story's class: story-dash while an embed shows the
// dashboard in its text's place (its title then keeps to two lines).
func (c *Story) sectionClass() string {
	if c.App.embedMetrics() {
		return "panel story story-dash"
	}
	return "panel story"
}
