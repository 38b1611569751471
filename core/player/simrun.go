package player

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/simulate"
	"kafkascope/core/timeline"
	"kafkascope/core/urlquery"
)

// maxSimFrame bounds the virtual time one frame plays of a simulator run
// (with stepsPerFrame bounding its events), so a frame stays short.
const maxSimFrame = time.Second

// SimRun is a simulator run played in the page (a #sim= link), the Mode
// a Player shows after OpenSim: the seed's cluster, workload and faults
// run frame by frame through a simulate.Stepper — the very run
// `kafkasim simulate --seed N` makes. The terminal shows the schedule
// (faults, heals, phases) as it happens and, at the end, the checkers'
// verdict. Commands are not taken: the run is the simulator's, not the
// user's (cluster create leaves it for a Session of one's own).
//
// Seeking back replays the run from its start to the target (a whole run
// is about a second of work); seeking forward runs ahead. Seeks arrive at
// once, so it keeps no standby replays.
type SimRun struct {
	Link SimLink

	p     *Player
	st    *simulate.Stepper
	lines []timeline.Line // schedule lines so far, refusals, then the verdict
	noted int             // schedule lines already copied to lines
	log   timeline.FeedLog
	ended bool // the verdict is in lines
}

func newSimRun(p *Player, l SimLink) *SimRun {
	r := &SimRun{Link: l, p: p, st: simulate.NewStepper(l.Seed, l.Opts)}
	// The command that replays it, then what the seed drew (the CLI
	// report's header).
	r.lines = append(r.lines, timeline.Line{Kind: timeline.Command, Text: l.Command()},
		timeline.Line{Text: r.st.Run().Plan.Describe(l.Opts)})
	r.stepTo(0, 0) // create the cluster and its topics: the first moment to show
	return r
}

// OpenSim starts a simulator run from a link and plays it.
func (p *Player) OpenSim(l SimLink) {
	r := newSimRun(p, l)
	p.show(r)
	p.Paused = false
	r.noteError()
}

// Sim is the simulator run shown (nil while a session is): what the page
// shows of a run alone (its banner, its end) reads it.
func (p *Player) Sim() *SimRun {
	r, _ := p.Mode.(*SimRun)
	return r
}

// cluster is the run's cluster (nil only before it is created).
func (r *SimRun) cluster() *cluster.Cluster { return r.st.Run().C }

func (r *SimRun) feedLog() *timeline.FeedLog { return &r.log }

// Now is the run's virtual time.
func (r *SimRun) Now() sim.Time {
	if c := r.cluster(); c != nil {
		return c.World.Now()
	}
	return 0
}

// End is now: the run has not played further.
func (r *SimRun) End() sim.Time { return r.Now() }

// LineCount is how many lines the terminal holds.
func (r *SimRun) LineCount() int { return len(r.lines) }

// Line is the terminal's line i.
func (r *SimRun) Line(i int) timeline.Line { return r.lines[i] }

// LineBase is 0: a run keeps all of its lines.
func (r *SimRun) LineBase() int { return 0 }

// Busy is false: the run takes no commands, so none runs.
func (r *SimRun) Busy() bool { return false }

// Advancing is false: no "time advance" is typed in a run.
func (r *SimRun) Advancing() (from, to sim.Time, ok bool) { return 0, 0, false }

// Seeking is false: a run seeks at once.
func (r *SimRun) Seeking() (sim.Time, bool) { return 0, false }

// FinishSeek has nothing to finish: a run seeks at once.
func (r *SimRun) FinishSeek() {}

// Standbys is none: seeking back replays the run from its start.
func (r *SimRun) Standbys() []sim.Time { return nil }

// SetStandbyLimit changes nothing: a run keeps no standbys.
func (r *SimRun) SetStandbyLimit(int) {}

// LastSeek is zero: a run's seeks arrive at once, over no frames.
func (r *SimRun) LastSeek() (from sim.Time, events uint64, seeks int) { return 0, 0, 0 }

// Scenario is nil: a run plays no scenario.
func (r *SimRun) Scenario() *Scenario { return nil }

// BrokerAction refuses: the run's faults come from its seed.
func (r *SimRun) BrokerAction(int32, string) error {
	return fmt.Errorf("%s", r.p.T("sim.noactions"))
}

// Hash is the run's link, in the language shown.
func (r *SimRun) Hash() string {
	return r.Link.Hash() + "&lang=" + urlquery.QueryEscape(string(r.p.Lang))
}

// Done reports whether the run has ended: nothing plays any more, whatever
// Paused says (the play control offers to replay the run instead of
// pausing it).
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
	*r = *newSimRun(r.p, r.Link)
}

// close abandons the run (its stepper's coroutine stops).
func (r *SimRun) close() { r.st.Close() }

// Replay plays the run again from its start (the same run, event for
// event: the seed decides everything).
func (r *SimRun) Replay() {
	r.restart()
	r.p.Paused = false
	r.noteError()
	r.p.refresh()
}

// tick plays a frame of the run: wall time at Speed, at most maxSimFrame
// of virtual time and stepsPerFrame events.
func (r *SimRun) tick(wall time.Duration) {
	if r.p.Paused || r.Done() {
		return
	}
	d := min(time.Duration(float64(wall)*r.p.Speed), maxSimFrame)
	if d <= 0 {
		return
	}
	r.stepTo(r.Now().Add(d), r.p.events(stepsPerFrame))
	r.noteError()
	r.p.refresh()
}

// settle leaves the run where it is: it plays on, and has no rest to
// come to.
func (r *SimRun) settle(int) {}

// seek moves the run to t: forward by running on, back by replaying
// from the start.
func (r *SimRun) seek(t sim.Time) {
	if t < r.Now() {
		r.restart()
	}
	r.stepTo(t, 0)
	r.noteError()
	r.p.refresh()
}

// startSeek seeks at once (a whole run is about a second of work).
func (r *SimRun) startSeek(t sim.Time) { r.seek(t) }

func (r *SimRun) runTo(t sim.Time, steps int) { r.stepTo(t, steps) }

// interrupt is Ctrl-C: nothing runs a command, so it pauses the run.
func (r *SimRun) interrupt() { r.p.Paused = true }

// noteError shows the failure that ended the run, if it failed as a run.
func (r *SimRun) noteError() {
	if err := r.Err(); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		r.p.Error = line
	}
}

// command answers a line typed during the run: cluster create leaves the
// run for a session of one's own; anything else is refused with a note on
// how to replay the run in the CLI.
func (r *SimRun) command(line string, stdin []string) {
	if f := strings.Fields(line); len(f) >= 2 && f[0] == "cluster" && f[1] == "create" {
		s := newSession(r.p, timeline.New())
		r.p.show(s)
		s.command(line, stdin)
		return
	}
	at := r.Now()
	r.lines = append(r.lines,
		timeline.Line{At: at, Kind: timeline.Command, Text: line},
		timeline.Line{At: at, Text: r.p.T("sim.refused")},
		timeline.Line{At: at, Text: fmt.Sprintf(r.p.T("sim.replay"), r.Link.Command())})
	if over := len(r.lines) - timeline.MaxLines; over > 0 {
		r.lines = append([]timeline.Line(nil), r.lines[over:]...)
	}
}

// Banner is the run's banner: what it is, up to the command that
// replays it in the CLI (Command; the banner shows it as code after). An
// embed has no terminal, so its banner points to the full app instead.
func (r *SimRun) Banner() string {
	l := r.Link
	configs := r.p.T("sim.defaults")
	if flags := l.Opts.Flags(); flags != "" {
		configs = strings.TrimSpace(strings.ReplaceAll(flags, "--config ", ""))
	}
	key := "sim.banner"
	if r.p.Embed {
		key = "sim.banner.embed" // the embed shows no terminal
	}
	return fmt.Sprintf(r.p.T(key), l.Seed, configs)
}

// Command is the command that replays the run in the CLI.
func (r *SimRun) Command() string { return r.Link.Command() }

// Status is the run's state in a word or two: running, the verdict at
// the end.
func (r *SimRun) Status() string {
	switch {
	case !r.Done():
		return r.p.T("sim.running")
	case r.Err() != nil:
		return r.p.T("sim.failed")
	case len(r.Run().Violations) == 0:
		return r.p.T("sim.passed")
	default:
		return fmt.Sprintf(r.p.T("sim.violations"), len(r.Run().Violations), r.Run().Violations[0].Invariant)
	}
}
