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

	cluster *cluster.Cluster
	out     []string
	dropped int
	jobs    []*job
	nextJob int
	tools   int
}

// NewSession makes a session with no cluster.
func NewSession() *Session { return &Session{nextJob: 1} }

// Cluster is the session's cluster, or nil.
func (s *Session) Cluster() *cluster.Cluster { return s.cluster }

// print appends a line to the current command's output.
func (s *Session) print(line string) {
	if len(s.out) >= MaxOutputLines {
		s.dropped++
		return
	}
	s.out = append(s.out, line)
}

func (s *Session) printf(format string, args ...any) { s.print(fmt.Sprintf(format, args...)) }

// Exec runs one command line with its standard input and returns everything
// it printed (stdout and stderr interleaved, one string per line).
func (s *Session) Exec(line string, stdin []string) []string {
	s.out, s.dropped = nil, 0
	s.exec(line, stdin)
	s.reapJobs()
	if s.dropped > 0 {
		s.out = append(s.out, fmt.Sprintf("... (%d more lines not shown: output limit %d lines)", s.dropped, MaxOutputLines))
	}
	return s.out
}

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
	if cmd, ok := simCommands[name]; ok {
		if background {
			s.printf("kafkascope: %s cannot run in the background", name)
			return
		}
		cmd(s, args)
		return
	}
	tool := toolName(name)
	if t, ok := tools[tool]; ok {
		if s.cluster == nil {
			s.print("kafkascope: there is no cluster yet; create one with: cluster create")
			return
		}
		s.runTool(tool, t, args, stdin, strings.Join(words, " "), background)
		return
	}
	if _, ok := laterTools[tool]; ok {
		s.printf("%s: not available yet in this build of kafkascope", name)
		return
	}
	s.printf("%s: command not found", name)
}

// run advances the cluster until cond holds or limit passes, reporting a
// failed simulation (a broken invariant) on the terminal.
func (s *Session) run(cond func() bool, limit time.Duration) bool {
	if err := s.cluster.RunUntil(cond, limit); err != nil {
		s.printf("kafkascope: the simulation stopped: %v", err)
		return false
	}
	return true
}

// world is a shortcut for the cluster's world.
func (s *Session) world() *sim.World { return s.cluster.World }
