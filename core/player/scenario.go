package player

import (
	"fmt"
	"time"

	"kafkascope/core/i18n"
	"kafkascope/core/scenario"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
	"kafkascope/core/transcript"
	"kafkascope/core/view"
)

// Scenario is a built-in scenario being played.
//
// It plays in its session (Session.Scenario): its steps run the session's
// console, and Back and Next seek its timeline. Running, StartNext, Next,
// Back and Leave take a nil Scenario as none being played (they do
// nothing).
type Scenario struct {
	ID    string
	title [2]string
	steps []*transcript.Step
	Step  int        // the step shown; -1 before the first
	ends  []sim.Time // when each step played so far ended
	run   *stepRun   // the step whose commands are running, if any
	s     *Session   // the session it plays in
}

// stepRun is a step being played over several frames: its commands run
// one after another, each as long as it would block.
type stepRun struct {
	next   int // the step being played
	cmd    int // the next command to start
	before *view.Snapshot
	limit  sim.Time // the running command's time limit
}

// Running reports whether a step's commands are still running.
func (sc *Scenario) Running() bool { return sc != nil && sc.run != nil }

// ScenarioInfo is one entry of the gallery.
type ScenarioInfo struct {
	ID    string
	Title string
	Steps int
}

// Scenarios lists the built-in scenarios with titles in the current
// language.
func (p *Player) Scenarios() []ScenarioInfo {
	all, err := scenario.All()
	if err != nil {
		return nil
	}
	var out []ScenarioInfo
	for _, s := range all {
		title := s.Transcript.Title
		if p.Lang == i18n.Korean && s.Transcript.TitleKo != "" {
			title = s.Transcript.TitleKo
		}
		out = append(out, ScenarioInfo{ID: s.ID, Title: title, Steps: len(s.Transcript.Steps)})
	}
	return out
}

// OpenScenario starts a scenario afresh, in a session of its own, and
// plays it up to step (0-based; a step before the first opens the first,
// one past the last the last).
func (p *Player) OpenScenario(id string, step int) error {
	step = max(step, 0)
	sc, err := scenario.Get(id)
	if err != nil {
		return err
	}
	s := newSession(p, timeline.New())
	p.show(s)
	s.sc = &Scenario{ID: id, title: [2]string{sc.Transcript.Title, sc.Transcript.TitleKo}, steps: sc.Transcript.Steps, Step: -1, s: s}
	p.Paused = true
	for s.sc.Step < step && s.sc.Step+1 < len(s.sc.steps) {
		if err := s.sc.Next(); err != nil {
			return err
		}
	}
	p.refresh()
	return nil
}

// Title is the scenario's title in the current language.
func (s *Scenario) Title(l i18n.Lang) string {
	if l == i18n.Korean && s.title[1] != "" {
		return s.title[1]
	}
	return s.title[0]
}

// StepSpan is the virtual time the current step played over: from the
// previous step's end (the start of the session for the first) to its
// own end, or to now while it plays (ok false before the first step).
func (s *Scenario) StepSpan(now sim.Time) (from, to sim.Time, ok bool) {
	if s.Step < 0 {
		return 0, 0, false
	}
	if s.Step > 0 && s.Step-1 < len(s.ends) {
		from = s.ends[s.Step-1]
	}
	to = now
	if s.Step < len(s.ends) {
		to = s.ends[s.Step]
	}
	return from, to, true
}

// Steps is how many steps the scenario has.
func (s *Scenario) Steps() int { return len(s.steps) }

// Text is the current step's narration in lang ("" before the first step).
func (s *Scenario) Text(l i18n.Lang) string {
	if s.Step < 0 {
		return ""
	}
	st := s.steps[s.Step]
	if l == i18n.Korean && st.TextKo != "" {
		return st.TextKo
	}
	return st.Text
}

// Commands are the current step's command lines.
func (s *Scenario) Commands() []string {
	if s.Step < 0 {
		return nil
	}
	var out []string
	for _, c := range s.steps[s.Step].Commands {
		out = append(out, c.Cmd)
	}
	return out
}

// maxStepTime bounds how long one step's commands may run.
const maxStepTime = 2 * time.Hour

// stepEvents is how many simulation events a frame spends on a running
// step (so a long step plays over frames instead of freezing one).
const stepEvents = 8000

// StartNext starts the next step: a step played before (we came back) is
// replayed at once to where it ended; a new one runs its commands over the
// coming frames (Tick), and the diagram then shows what changed.
func (sc *Scenario) StartNext() error {
	if sc == nil {
		return nil
	}
	p := sc.s.p
	p.quiet = 0
	if sc.run != nil || sc.Step+1 >= len(sc.steps) {
		return nil
	}
	next := sc.Step + 1
	if next < len(sc.ends) {
		before := p.Snapshot()
		if err := sc.s.TL.Seek(sc.ends[next]); err != nil {
			return err
		}
		sc.Step = next
		p.refresh()
		p.changed = diff(before, p.Snapshot())
		return nil
	}
	sc.run = &stepRun{next: next, before: p.Snapshot()}
	return sc.advance(p.events(stepEvents))
}

// advance runs the step in progress for up to budget events.
func (sc *Scenario) advance(budget int) error {
	if sc == nil || sc.run == nil {
		return nil
	}
	tl, p, r := sc.s.TL, sc.s.p, sc.run
	for ran := false; budget > 0; ran = true {
		if ran && p.overDeadline() {
			break // the frame's time is spent; the next frame carries on
		}
		if tl.Busy() {
			if tl.Now() >= r.limit {
				sc.run = nil
				return fmt.Errorf("step %d: %q did not finish", r.next+1, sc.steps[r.next].Commands[r.cmd-1].Cmd)
			}
			before := p.steps()
			chunk := budget
			if p.frameOver != nil {
				chunk = min(budget, frameChunk)
			}
			if _, err := tl.Finish(chunk); err != nil {
				sc.run = nil
				return err
			}
			budget -= max(int(p.steps()-before), 1)
			continue
		}
		if r.cmd < len(sc.steps[r.next].Commands) {
			c := sc.steps[r.next].Commands[r.cmd]
			r.cmd++
			tl.Do(c.Cmd, c.Stdin)
			r.limit = tl.Now().Add(maxStepTime)
			continue
		}
		sc.ends = append(sc.ends, tl.Now())
		sc.Step = r.next
		sc.run = nil
		p.refresh()
		p.changed = diff(r.before, p.Snapshot())
		return nil
	}
	p.tickCut = true // the budget or the deadline ran out first
	p.refresh()
	return nil
}

// Next plays the next step to its end before returning (StartNext, then
// every frame's share at once): for tests and tools without frames.
func (sc *Scenario) Next() error {
	if err := sc.StartNext(); err != nil {
		return err
	}
	for sc != nil && sc.run != nil {
		if err := sc.advance(sc.s.p.events(stepEvents)); err != nil {
			return err
		}
	}
	return nil
}

// Back shows the previous step again (the session is replayed to where that
// step ended).
func (sc *Scenario) Back() error {
	if sc == nil {
		return nil
	}
	p := sc.s.p
	p.quiet = 0
	if sc.Step <= 0 || sc.run != nil {
		return nil
	}
	sc.Step--
	if err := sc.s.TL.Seek(sc.ends[sc.Step]); err != nil {
		return err
	}
	p.refresh()
	p.changed = nil
	return nil
}

// Leave closes the story: the session goes on as it is, as the user's own.
func (sc *Scenario) Leave() {
	if sc != nil && sc.s.sc == sc {
		sc.s.sc = nil
	}
}

// diff names what differs between two snapshots: brokers whose state
// changed, partitions whose leader, ISR or epoch changed, and replicas whose
// log end offset or HW moved.
func diff(a, b *view.Snapshot) map[string]bool {
	out := map[string]bool{}
	if b == nil {
		return out
	}
	oldNodes := map[int32]view.Node{}
	oldParts := map[string]view.Partition{}
	if a != nil {
		for _, n := range a.Nodes {
			oldNodes[n.ID] = n
		}
		for _, t := range a.Topics {
			for _, p := range t.Partitions {
				oldParts[fmt.Sprintf("%s-%d", p.Topic, p.Index)] = p
			}
		}
	}
	for _, n := range b.Nodes {
		if o, ok := oldNodes[n.ID]; !ok || o.State != n.State || o.Fenced != n.Fenced || o.Isolated != n.Isolated {
			out[fmt.Sprintf("broker/%d", n.ID)] = true
		}
	}
	for _, t := range b.Topics {
		for _, p := range t.Partitions {
			key := fmt.Sprintf("%s-%d", p.Topic, p.Index)
			o, ok := oldParts[key]
			if !ok || o.Leader != p.Leader || o.LeaderEpoch != p.LeaderEpoch || fmt.Sprint(o.ISR) != fmt.Sprint(p.ISR) {
				out["partition/"+key] = true
			}
			for i, r := range p.Replicas {
				if !ok || i >= len(o.Replicas) || o.Replicas[i].LEO != r.LEO || o.Replicas[i].HW != r.HW || o.Replicas[i].Role != r.Role {
					out[fmt.Sprintf("replica/%s/%d", key, r.Broker)] = true
				}
			}
		}
	}
	return out
}
