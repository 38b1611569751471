package player

import (
	"fmt"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/feed"
	"kafkascope/core/scenario"
	"kafkascope/core/sim"
	"kafkascope/core/timeline"
	"kafkascope/core/view"
)

// Scenario is a built-in scenario being played.
type Scenario struct {
	ID      string
	title   [2]string
	steps   []*console.Step
	Step    int        // the step shown; -1 before the first
	ends    []sim.Time // when each step played so far ended
	Running bool       // a step's commands are running
}

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
		if p.Lang == feed.Korean && s.Transcript.TitleKo != "" {
			title = s.Transcript.TitleKo
		}
		out = append(out, ScenarioInfo{ID: s.ID, Title: title, Steps: len(s.Transcript.Steps)})
	}
	return out
}

// OpenScenario starts a scenario afresh and plays it up to step (0-based).
func (p *Player) OpenScenario(id string, step int) error {
	sc, err := scenario.Get(id)
	if err != nil {
		return err
	}
	p.TL = timeline.New()
	p.Scenario = &Scenario{ID: id, title: [2]string{sc.Transcript.Title, sc.Transcript.TitleKo}, steps: sc.Transcript.Steps, Step: -1}
	p.Paused = true
	p.changed = nil
	for p.Scenario.Step < step && p.Scenario.Step+1 < len(p.Scenario.steps) {
		if err := p.Next(); err != nil {
			return err
		}
	}
	p.refresh()
	return nil
}

// Title is the scenario's title in the current language.
func (s *Scenario) Title(l feed.Lang) string {
	if l == feed.Korean && s.title[1] != "" {
		return s.title[1]
	}
	return s.title[0]
}

// Steps is how many steps the scenario has.
func (s *Scenario) Steps() int { return len(s.steps) }

// Text is the current step's narration in lang ("" before the first step).
func (s *Scenario) Text(l feed.Lang) string {
	if s.Step < 0 {
		return ""
	}
	st := s.steps[s.Step]
	if l == feed.Korean && st.TextKo != "" {
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

// Next plays the next step: its commands run one after another, each as
// long as it would block, and the diagram then shows what changed.
func (p *Player) Next() error {
	sc := p.Scenario
	if sc == nil || sc.Step+1 >= len(sc.steps) {
		return nil
	}
	before := p.snap
	next := sc.Step + 1
	if next < len(sc.ends) {
		// Played before (we came back): replay to where it ended.
		if err := p.TL.Seek(sc.ends[next]); err != nil {
			return err
		}
	} else {
		for _, c := range sc.steps[next].Commands {
			p.TL.Do(c.Cmd, c.Stdin)
			limit := p.TL.Now().Add(maxStepTime)
			for p.TL.Busy() && p.TL.Now() < limit {
				if _, err := p.TL.Play(time.Minute, 0); err != nil {
					return err
				}
			}
			if p.TL.Busy() {
				return fmt.Errorf("step %d: %q did not finish", next+1, c.Cmd)
			}
		}
		sc.ends = append(sc.ends, p.TL.Now())
	}
	sc.Step = next
	p.refresh()
	p.changed = diff(before, p.snap)
	return nil
}

// Back shows the previous step again (the session is replayed to where that
// step ended).
func (p *Player) Back() error {
	sc := p.Scenario
	if sc == nil || sc.Step <= 0 {
		return nil
	}
	sc.Step--
	if err := p.TL.Seek(sc.ends[sc.Step]); err != nil {
		return err
	}
	p.refresh()
	p.changed = nil
	return nil
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
