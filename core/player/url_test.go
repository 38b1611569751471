package player

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// A link's parts are read case-sensitively, as URL query keys are and as
// a simulator link's always were: a part the page does not know (in any
// letter case) makes the link one that cannot be opened, and names it.
func TestLinkPartsAreCaseSensitive(t *testing.T) {
	for _, c := range []struct{ hash, want string }{
		{"#Sim=5", `unknown part "Sim" (a link's parts are lower case: sim)`},
		{"#SIM=5", `unknown part "SIM" (a link's parts are lower case: sim)`},
		{"#Scenario=04-isr", `unknown part "Scenario" (a link's parts are lower case: scenario)`},
		{"#scenario=04-isr&Step=2", `unknown part "Step" (a link's parts are lower case: step)`},
		{"#lang=en&Lang=ko&s=abc", `unknown part "Lang" (a link's parts are lower case: lang)`},
		{"#scenario=04-isr&utm_source=x", `unknown part "utm_source"`},
		{"#sim=5&Faults=3", `unknown part "Faults" of a simulator link (a link's parts are lower case: faults)`},
		{"#step=2", "it names a step but no scenario"},
		{"#s=", "its s= or scenario= is empty"},
		{"#scenario=04-isr&step=x", `step "x" is not a step number`},
		{"#scenario=04-isr&step=1.5", `step "1.5" is not a step number`},
	} {
		_, err := ParseURL("", c.hash)
		if err == nil || !errors.Is(err, ErrBadLink) || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one ending %q", c.hash, err, c.want)
		}
	}
	for _, ok := range []string{"", "#lang=ko", "#scenario=04-isr&step=2&lang=en", "#s=abc&lang=ko", "#sim=5&faults=3"} {
		if _, err := ParseURL("", ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// The query is the host page's as much as ours (a blog or a chat app
	// adds its own parameters there): only embed= and lang= are read.
	if st, err := ParseURL("?embed=1&utm_source=x&Embed=0", "#scenario=04-isr"); err != nil || !st.Embed {
		t.Errorf("query with other parameters: %+v, %v", st, err)
	}
}

// A scenario link whose step lies outside the scenario opens the nearest
// step, before the first as past the last, and the page says which; a
// language the page lacks opens in English and says so; neither is a link
// that failed. What is not a step number is refused over the default
// cluster.
func TestScenarioLinkEdges(t *testing.T) {
	last := func(p *Player) int { return p.Scenario().Steps() - 1 }
	for _, c := range []struct {
		hash   string
		step   func(*Player) int // the step opened; nil: no scenario
		notice string            // what Notice holds ("" none)
		err    string            // what Error holds ("" none)
	}{
		{"#scenario=04-isr&step=2", func(*Player) int { return 2 }, "", ""},
		{"#scenario=04-isr&step=99", last, "The link asks for step=99, past the scenario's last step: it opened at its last, step=", ""},
		{"#scenario=04-isr&step=99999999999999999999", last, "The link asks for step=9223372036854775807, past the scenario's last step", ""},
		{"#scenario=04-isr&step=-1", func(*Player) int { return 0 }, "The link asks for step=-1, before the scenario's first step: it opened at its first, step=0", ""},
		{"#scenario=04-isr&step=-99999999999999999999", func(*Player) int { return 0 }, "before the scenario's first step: it opened at its first, step=0", ""},
		{"#lang=xx&scenario=04-isr&step=1", func(*Player) int { return 1 }, "The link asks for lang=xx, a language kafkascope does not have: it opened in English", ""},
		{"#lang=xx&scenario=04-isr&step=-1", func(*Player) int { return 0 }, "it opened in English; The link asks for step=-1, before", ""},
		{"#lang=fr", nil, "The link asks for lang=fr", ""},
		{"#scenario=04-isr&step=x", nil, "", `this link could not be opened: step "x" is not a step number`},
		{"#Sim=5", nil, "", `unknown part "Sim"`},
	} {
		p := New()
		p.Boot("", c.hash)
		if !strings.Contains(p.Notice, c.notice) || (c.notice == "") != (p.Notice == "") {
			t.Errorf("%s: notice %q, want %q", c.hash, p.Notice, c.notice)
		}
		if !strings.Contains(p.Error, c.err) || (c.err == "") != (p.Error == "") {
			t.Errorf("%s: error %q, want %q", c.hash, p.Error, c.err)
		}
		switch sc := p.Scenario(); {
		case c.step == nil && sc != nil:
			t.Errorf("%s: opened scenario %s", c.hash, sc.ID)
		case c.step == nil && (p.Snapshot() == nil || len(p.Snapshot().Nodes) != 3):
			t.Errorf("%s: the default cluster did not open", c.hash)
		case c.step != nil && sc == nil:
			t.Errorf("%s: the scenario did not open", c.hash)
		case c.step != nil && sc.Step != c.step(p):
			t.Errorf("%s: opened at step %d, want %d", c.hash, sc.Step, c.step(p))
		case c.step != nil && !strings.Contains(p.Hash(), "step="+strconv.Itoa(c.step(p))):
			t.Errorf("%s: the page's own link reads %s", c.hash, p.Hash())
		}
	}
}
