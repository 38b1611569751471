package console

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/sim"
)

// Limits that keep a session bounded.
const (
	MaxOutputLines   = 100000
	MaxJobs          = 32
	MaxCommandLength = 64 * 1024
	MaxStdinLines    = 100000
	toolTimeLimit    = 5 * time.Minute // a foreground tool still running then is stopped as Ctrl-C would
)

// Session is one terminal attached to one simulated cluster.
type Session struct {
	// TraceContent is passed to clusters this session creates (see
	// cluster.Config).
	TraceContent bool
	// Stepped is passed to clusters this session creates (see
	// cluster.Config): they run every event, leaping none.
	Stepped bool

	cluster *cluster.Cluster
	out     []Line
	dropped int
	jobs    []*job
	nextJob int
	tools   int
	ops     []*pending        // commands still running (the terminal waits for them)
	files   map[string]string // the terminal's own files (workspace.go)
}

// pending is a command that takes simulated time: it is finished when done
// reports true; at deadline, onTimeout runs (and may extend it).
type pending struct {
	done      func() bool
	deadline  sim.Time
	onTimeout func(p *pending) // nil: just end
	after     func()           // runs once when the command is finished
	fast      bool             // time advance: a driver may skip straight to the deadline
	since     sim.Time         // a time advance: when it began
	tool      *toolRun         // the foreground tool, for Ctrl-C
}

// NewSession makes a session with no cluster.
func NewSession() *Session { return &Session{nextJob: 1} }

// Cluster is the session's cluster, or nil.
func (s *Session) Cluster() *cluster.Cluster { return s.cluster }

// Line is one line of output and the virtual time it was printed at.
type Line struct {
	At   sim.Time
	Text string
}

// print appends a line to the current command's output.
func (s *Session) print(line string) {
	if len(s.out) >= MaxOutputLines {
		s.dropped++
		return
	}
	var at sim.Time
	if s.cluster != nil {
		at = s.world().Now()
	}
	s.out = append(s.out, Line{at, line})
}

func (s *Session) printf(format string, args ...any) { s.print(fmt.Sprintf(format, args...)) }

// insertLine prints line as if it had been printed when the output held
// its first i lines (or at the end, if those have been taken or cut).
func (s *Session) insertLine(i int, line string) {
	if i >= len(s.out) || s.dropped > 0 {
		s.print(line)
		return
	}
	s.print(line)
	last := s.out[len(s.out)-1]
	copy(s.out[i+1:], s.out[i:len(s.out)-1])
	s.out[i] = Line{s.out[i+1].At, last.Text}
}

// Exec runs one command line with its standard input until it finishes, and
// returns everything it printed (stdout and stderr interleaved, one string
// per line). This is how transcripts and the native terminal run commands.
func (s *Session) Exec(line string, stdin []string) []string {
	s.Start(line, stdin)
	s.Wait()
	return s.Output()
}

// Start begins a command and returns at once; while Busy, the command
// needs simulated time to pass (a driver advances the cluster and calls
// Poll). Commands that take no time are finished when Start returns.
func (s *Session) Start(line string, stdin []string) {
	s.exec(line, stdin)
	s.Poll()
}

// Busy reports whether a started command is still running.
func (s *Session) Busy() bool { return len(s.ops) > 0 }

// Wait runs the cluster until every started command has finished.
func (s *Session) Wait() { s.WaitBudget(0) }

// WaitBudget is Wait that runs at most maxSteps events (0: no limit), for
// drivers that must yield between frames; it reports whether every
// started command has finished. The cluster stops at the event that
// finishes a command, never later, so a driver that starts the next
// command then (a scenario step in the browser) runs it at the moment a
// transcript would.
func (s *Session) WaitBudget(maxSteps int) bool {
	spent := 0
	for len(s.ops) > 0 && s.cluster != nil {
		if maxSteps > 0 && spent >= maxSteps {
			return false
		}
		limit := s.ops[0].deadline
		for _, op := range s.ops[1:] {
			limit = min(limit, op.deadline)
		}
		anyDone := func() bool {
			for _, op := range s.ops {
				if op.done() {
					return true
				}
			}
			return false
		}
		before := s.world().Steps()
		stop := func() bool {
			return anyDone() || maxSteps > 0 && spent+int(s.world().Steps()-before) >= maxSteps
		}
		budget := -1
		if maxSteps > 0 {
			budget = maxSteps - spent
		}
		err := s.cluster.RunUntilBudget(stop, limit.Sub(s.world().Now()), budget)
		spent += int(s.world().Steps() - before)
		if err != nil {
			s.printf("kafkascope: the simulation stopped: %v", err)
			s.ops = nil
			return true
		}
		s.Poll()
	}
	return true
}

// Poll finishes commands whose work is done, applies time limits, and
// reports background jobs that ended. Drivers call it after every advance.
func (s *Session) Poll() {
	if s.cluster != nil && s.world().Err() != nil {
		if len(s.ops) > 0 {
			s.printf("kafkascope: the simulation stopped: %v", s.world().Err())
		}
		s.ops = nil
	}
	for progress := true; progress; {
		progress = false
		var keep []*pending
		for _, op := range s.ops {
			switch {
			case op.done():
				if op.after != nil {
					op.after()
				}
				progress = true
			case s.cluster != nil && s.world().Now() >= op.deadline:
				if op.onTimeout != nil {
					op.onTimeout(op)
				}
				if s.world().Now() < op.deadline && !op.done() {
					keep = append(keep, op) // onTimeout gave it more time
				} else if op.after != nil {
					op.after()
				}
				progress = true
			default:
				keep = append(keep, op)
			}
		}
		s.ops = keep
	}
	s.reapJobs()
}

// FastForward reports the virtual time a running "time advance" wants to
// reach: a driver may run the cluster straight there instead of playing it.
func (s *Session) FastForward() (sim.Time, bool) {
	_, to, ok := s.Advancing()
	return to, ok
}

// Advancing is the time advance under way, if any: the moment it began and
// the one it runs to (for a progress figure while a driver fast-forwards).
func (s *Session) Advancing() (from, to sim.Time, ok bool) {
	for _, op := range s.ops {
		if op.fast {
			return op.since, op.deadline, true
		}
	}
	return 0, 0, false
}

// Interrupt is Ctrl-C: the foreground tool gets SIGTERM (its shutdown hooks
// still run); a time advance stops where it is.
func (s *Session) Interrupt() {
	for _, op := range s.ops {
		switch {
		case op.tool != nil:
			s.signal(op.tool, op)
		case op.fast:
			op.deadline = s.world().Now()
		}
	}
	s.Poll()
}

// Output returns what was printed since the last call, one string per line.
func (s *Session) Output() []string {
	lines := s.OutputLines()
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// OutputLines is Output with each line's print time.
func (s *Session) OutputLines() []Line {
	if s.dropped > 0 {
		s.out = append(s.out, Line{s.out[len(s.out)-1].At, fmt.Sprintf("... (%d more lines not shown: output limit %d lines)", s.dropped, MaxOutputLines)})
		s.dropped = 0
	}
	out := s.out
	s.out = nil
	return out
}

// wait registers a command that finishes when done holds, or at limit.
func (s *Session) wait(op *pending) { s.ops = append(s.ops, op) }

func (s *Session) exec(line string, stdin []string) {
	if len(line) > MaxCommandLength {
		s.printf("kafkascope: command too long (limit %d characters)", MaxCommandLength)
		return
	}
	if len(stdin) > MaxStdinLines {
		s.printf("kafkascope: too many input lines (limit %d)", MaxStdinLines)
		return
	}
	words, err := splitWords(line)
	if err != nil {
		s.printf("kafkascope: syntax error: %v", err)
		return
	}
	background := false
	if n := len(words); n > 0 && words[n-1] == "&" {
		background, words = true, words[:n-1]
	} else if n > 0 && strings.HasSuffix(words[n-1], "&") && !strings.HasSuffix(words[n-1], "\\&") {
		background, words[n-1] = true, strings.TrimSuffix(words[n-1], "&")
	}
	if len(words) == 0 {
		return
	}
	name, args := words[0], words[1:]
	if name == "cat" && (s.catRedirect(args, stdin) || s.catWorkspace(args)) {
		return
	}
	if cmd, ok := simCommands[name]; ok {
		if background {
			s.printf("kafkascope: %s cannot run in the background", name)
			return
		}
		cmd(s, args)
		return
	}
	tool := toolName(name)
	if t, ok := tools[tool]; ok && s.toolInRelease(tool) {
		if s.cluster == nil {
			s.print("kafkascope: there is no cluster yet; create one with: cluster create")
			return
		}
		s.runTool(tool, t, args, stdin, strings.Join(words, " "), background)
		return
	}
	if why, ok := laterTools[tool]; ok {
		s.printf("%s: not available in kafkascope yet: %s", name, why)
		return
	}
	s.printf("%s: command not found", name)
}

// world is a shortcut for the cluster's world.
func (s *Session) world() *sim.World { return s.cluster.World }
