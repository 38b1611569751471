package player

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/simulate"
	"kafkascope/core/timeline"
)

// maxSimFrame bounds the virtual time one frame plays of a simulator run
// (with stepsPerFrame bounding its events), so a frame stays short.
const maxSimFrame = time.Second

// SimRun is a simulator run played in the page (a #sim= link): the seed's
// cluster, workload and faults run frame by frame through a
// simulate.Stepper — the very run `kafkasim simulate --seed N` makes. The
// terminal shows the schedule (faults, heals, phases) as it happens and,
// at the end, the checkers' verdict. Commands are not taken: the run is
// the simulator's, not the user's (cluster create leaves it).
//
// Seeking back replays the run from its start to the target (a whole run
// is about a second of work); seeking forward runs ahead.
type SimRun struct {
	Link SimLink

	st    *simulate.Stepper
	lines []timeline.Line // schedule lines so far, refusals, then the verdict
	noted int             // schedule lines already copied to lines
	log   timeline.FeedLog
	ended bool // the verdict is in lines
}

func newSimRun(l SimLink) *SimRun {
	r := &SimRun{Link: l, st: simulate.NewStepper(l.Seed, l.Opts)}
	// The command that replays it, then what the seed drew (the CLI
	// report's header).
	r.lines = append(r.lines, timeline.Line{Kind: timeline.Command, Text: l.Command()},
		timeline.Line{Text: r.st.Run().Plan.Describe(l.Opts)})
	r.stepTo(0, 0) // create the cluster and its topics: the first moment to show
	return r
}

// Cluster is the run's cluster (nil only before it is created).
func (r *SimRun) Cluster() *cluster.Cluster { return r.st.Run().C }

// Now is the run's virtual time.
func (r *SimRun) Now() sim.Time {
	if c := r.Cluster(); c != nil {
		return c.World.Now()
	}
	return 0
}

// Done reports whether the run has ended.
func (r *SimRun) Done() bool { return r.st.Done() }

// Run is what the simulator recorded so far (its violations are final
// once Done).
func (r *SimRun) Run() *simulate.Run { return r.st.Run() }

// Err is the failure that ended the run, if it failed as a run.
func (r *SimRun) Err() error { return r.st.Err() }

// stepTo runs toward t (at most maxSteps events; 0: no bound) and takes
// in what happened.
func (r *SimRun) stepTo(t sim.Time, maxSteps int) {
	r.st.StepTo(t, maxSteps)
	r.collect()
}

// collect copies new schedule lines and engine events, and the verdict
// once the run has ended.
func (r *SimRun) collect() {
	run := r.st.Run()
	for ; r.noted < len(run.Schedule); r.noted++ {
		// The line carries its exact time (t=...), as --trace prints it;
		// the stamp is the frame's, at most one frame later.
		r.lines = append(r.lines, timeline.Line{At: r.Now(), Text: "== " + run.Schedule[r.noted]})
	}
	if c := run.C; c != nil {
		r.log.Drain(c.World.Trace())
	}
	if r.st.Done() && !r.ended {
		r.ended = true
		for _, text := range r.verdict() {
			r.lines = append(r.lines, timeline.Line{At: r.Now(), Text: text})
		}
	}
}

// verdict is the end of the run in the terminal: the checkers' findings as
// the CLI prints them.
func (r *SimRun) verdict() []string {
	run := r.st.Run()
	if err := r.st.Err(); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		return []string{fmt.Sprintf("seed %d: the run itself failed: %s", r.Link.Seed, line)}
	}
	s := run.Stats
	out := []string{fmt.Sprintf("sent %d: acked %d, failed %d, unresolved %d; %d power losses, %d acked records exempt as lost to them",
		s.Sent, s.Acked, s.Failed, s.Unknown, s.PowerLosses, s.Exempt)}
	if len(run.Violations) == 0 {
		return append(out, fmt.Sprintf("seed %d: no violations", r.Link.Seed))
	}
	out = append(out, run.FailureLine(), "violations:")
	for _, v := range run.Violations {
		for _, l := range strings.Split(strings.TrimRight(v.String(), "\n"), "\n") {
			out = append(out, "  "+l)
		}
	}
	return out
}

// restart replays the run from its start (seeking back).
func (r *SimRun) restart() {
	r.st.Close()
	*r = *newSimRun(r.Link)
}

// close abandons the run.
func (r *SimRun) close() { r.st.Close() }

// OpenSim starts a simulator run from a link and plays it.
func (p *Player) OpenSim(l SimLink) {
	if p.Sim != nil {
		p.Sim.close()
	}
	p.TL = timeline.New()
	p.Scenario = nil
	p.changed = nil
	p.Sim = newSimRun(l)
	p.Paused = false
	p.noteSimError()
	p.refresh()
}

// SimEnded reports whether a simulator run is shown and has ended: nothing
// plays any more, whatever Paused says (the play control offers to replay
// the run instead of pausing it).
func (p *Player) SimEnded() bool { return p.Sim != nil && p.Sim.Done() }

// ReplaySim plays the simulator run again from its start (the same run,
// event for event: the seed decides everything).
func (p *Player) ReplaySim() {
	if p.Sim == nil {
		return
	}
	p.Sim.restart()
	p.Paused = false
	p.noteSimError()
	p.refresh()
}

// Close stops what the player runs in the background (a simulator run's
// coroutine); the page calls it when another player replaces this one.
func (p *Player) Close() { p.leaveSim() }

// leaveSim ends the simulator mode (the page's own session follows).
func (p *Player) leaveSim() {
	if p.Sim != nil {
		p.Sim.close()
		p.Sim = nil
	}
}

// tickSim plays a frame of the run: wall time at Speed, at most
// maxSimFrame of virtual time and stepsPerFrame events.
func (p *Player) tickSim(wall time.Duration) {
	if p.Paused || p.Sim.Done() {
		return
	}
	d := min(time.Duration(float64(wall)*p.Speed), maxSimFrame)
	if d <= 0 {
		return
	}
	p.Sim.stepTo(p.Sim.Now().Add(d), p.events(stepsPerFrame))
	p.noteSimError()
	p.refresh()
}

// seekSim moves the run to t: forward by running on, back by replaying
// from the start.
func (p *Player) seekSim(t sim.Time) {
	if t < p.Sim.Now() {
		p.Sim.restart()
	}
	p.Sim.stepTo(t, 0)
	p.noteSimError()
	p.refresh()
}

func (p *Player) noteSimError() {
	if err := p.Sim.Err(); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		p.Error = line
	}
}

// simCommand answers a line typed during a simulator run: cluster create
// leaves the run for a cluster of one's own; anything else is refused with
// a note on how to replay the run in the CLI.
func (p *Player) simCommand(line string, stdin []string) {
	if f := strings.Fields(line); len(f) >= 2 && f[0] == "cluster" && f[1] == "create" {
		p.leaveSim()
		p.TL = timeline.New()
		p.TL.Do(line, stdin)
		p.refresh()
		return
	}
	at := p.Sim.Now()
	p.Sim.lines = append(p.Sim.lines,
		timeline.Line{At: at, Kind: timeline.Command, Text: line},
		timeline.Line{At: at, Text: p.T("sim.refused")},
		timeline.Line{At: at, Text: fmt.Sprintf(p.T("sim.replay"), p.Sim.Link.Command())})
	if over := len(p.Sim.lines) - timeline.MaxLines; over > 0 {
		p.Sim.lines = append([]timeline.Line(nil), p.Sim.lines[over:]...)
	}
}

// SimBanner is the banner of a simulator run: what it is, up to the
// command that replays it in the CLI (SimCommand; empty outside one).
func (p *Player) SimBanner() string {
	if p.Sim == nil {
		return ""
	}
	l := p.Sim.Link
	configs := p.T("sim.defaults")
	if flags := l.Opts.Flags(); flags != "" {
		configs = strings.TrimSpace(strings.ReplaceAll(flags, "--config ", ""))
	}
	return fmt.Sprintf(p.T("sim.banner"), l.Seed, configs)
}

// SimCommand is the command that replays the simulator run in the CLI
// (empty outside one); the banner shows it as code after SimBanner.
func (p *Player) SimCommand() string {
	if p.Sim == nil {
		return ""
	}
	return p.Sim.Link.Command()
}

// SimStatus is the run's state in a word or two: running, paused, the
// verdict at the end.
func (p *Player) SimStatus() string {
	switch r := p.Sim; {
	case r == nil:
		return ""
	case !r.Done():
		return p.T("sim.running")
	case r.Err() != nil:
		return p.T("sim.failed")
	case len(r.Run().Violations) == 0:
		return p.T("sim.passed")
	default:
		return fmt.Sprintf(p.T("sim.violations"), len(r.Run().Violations), r.Run().Violations[0].Invariant)
	}
}
