package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/sim"
)

// toolRun is one running tool: where it prints, and how it ends.
type toolRun struct {
	s         *Session
	name      string
	host      string
	finished  bool
	exit      int
	terminate func(env *sim.Env) // what SIGTERM does (shutdown hooks); nil = just exit
}

func (t *toolRun) println(line string) { t.s.print(line) }

func (t *toolRun) printLines(lines []string) {
	for _, l := range lines {
		t.s.print(l)
	}
}

// finish marks the tool as exited with code.
func (t *toolRun) finish(code int) {
	if !t.finished {
		t.finished, t.exit = true, code
	}
}

// job is a tool started with a trailing "&".
type job struct {
	id      int
	cmdline string
	run     *toolRun
	status  string // "", or how it ended: Done, Exit N, Terminated
}

func (s *Session) runTool(name string, fn toolFunc, args, stdin []string, cmdline string, background bool) {
	if background && len(s.jobs) >= MaxJobs {
		s.printf("kafkascope: too many background jobs (limit %d); stop one with kill %%N", MaxJobs)
		return
	}
	t := &toolRun{s: s, name: name}
	printedFrom := len(s.out) // where the tool's first line goes
	build := fn(t, args, stdin)
	if build == nil {
		return // the tool ended while checking its arguments
	}
	host, err := s.cluster.SpawnClient(name, func(host string) sim.Process {
		t.host = host
		p := build(host)
		if cp, ok := p.(*client.Process); ok {
			cp.Done = func() bool { return t.finished } // the program exits when the tool does
		}
		return &jvmProcess{p: p}
	})
	if err != nil {
		s.printf("kafkascope: %v", err)
		return
	}
	if background {
		// bash numbers a new job one past the highest job still in the
		// table, so numbers freed at the end are used again.
		id := 1
		for _, j := range s.jobs {
			id = max(id, j.id+1)
		}
		s.jobs = append(s.jobs, &job{id: id, cmdline: cmdline, run: t})
		s.nextJob = id + 1
		// bash prints a new job's number as it starts it ("[1] 4242"),
		// before anything the program prints. The simulator has no
		// process ids, so the line is the job's line in jobs: its
		// number, its mark and its command, which kill %N and jobs use.
		s.insertLine(printedFrom, s.jobLine(len(s.jobs)-1))
		return
	}
	s.wait(&pending{
		tool:     t,
		done:     func() bool { return t.finished },
		deadline: s.world().Now().Add(toolTimeLimit),
		onTimeout: func(op *pending) {
			s.printf("kafkascope: %s.sh was still running after %s of simulated time; stopping it as Ctrl-C would (give it an end such as --max-messages or --timeout-ms, or run it in the background with &)", name, sim.FormatDuration(toolTimeLimit))
			s.signal(t, op)
		},
		after: func() { s.cluster.StopClient(host) },
	})
}

// reapJobs reports background jobs that ended, as bash does at the next
// prompt.
func (s *Session) reapJobs() {
	var live []*job
	for i, j := range s.jobs {
		if j.run.finished && j.status == "" {
			j.status = "Done"
			if j.run.exit != 0 {
				j.status = fmt.Sprintf("Exit %d", j.run.exit)
			}
		}
		if j.status != "" {
			s.printf("[%d]%s  %-24s%s", j.id, s.jobMark(i), j.status, j.cmdline)
			if s.cluster != nil {
				s.cluster.StopClient(j.run.host)
			}
			continue
		}
		live = append(live, j)
	}
	s.jobs = live
	if len(s.jobs) == 0 {
		s.nextJob = 1
	}
}

// jobMark is bash's current (+) / previous (-) job marker.
func (s *Session) jobMark(i int) string {
	switch i {
	case len(s.jobs) - 1:
		return "+"
	case len(s.jobs) - 2:
		return "-"
	}
	return " "
}

func (s *Session) cmdJobs(args []string) {
	for i, j := range s.jobs {
		if j.status == "" && !j.run.finished {
			s.print(s.jobLine(i))
		}
	}
}

// jobLine is jobs' line for the running job s.jobs[i].
func (s *Session) jobLine(i int) string {
	j := s.jobs[i]
	return fmt.Sprintf("[%d]%s  %-24s%s &", j.id, s.jobMark(i), "Running", j.cmdline)
}

// cmdKill sends SIGTERM to a job: its shutdown hooks run (a console
// consumer prints its total), then it exits. kill -9 (SIGKILL) ends it at
// once: no hook runs, so a consumer neither commits nor leaves its group.
func (s *Session) cmdKill(args []string) {
	sigkill := false
	if len(args) >= 2 && (args[0] == "-9" || args[0] == "-KILL" || args[0] == "-SIGKILL") {
		sigkill, args = true, args[1:]
	}
	if len(args) == 0 {
		s.print("kill: usage: kill [-9] %N [%N ...]")
		return
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "%") {
			s.print("kill: usage: kill [-9] %N [%N ...]")
			return
		}
	}
	// Like bash, each job is signalled in turn; one that does not exist
	// is reported and the others are still signalled.
	var targets []*job
	for _, a := range args {
		n, err := strconv.Atoi(a[1:])
		var j *job
		for _, cand := range s.jobs {
			if err == nil && cand.id == n {
				j = cand
			}
		}
		switch {
		case j == nil:
			s.printf("kill: %s: no such job", a)
		case !j.run.finished && !slices.Contains(targets, j):
			targets = append(targets, j) // one that ended on its own is reported at the next prompt
		}
	}
	if len(targets) == 0 {
		return
	}
	if sigkill {
		for _, j := range targets {
			j.run.finish(137)
			s.cluster.StopClient(j.run.host)
			j.status = "Killed"
		}
		return
	}
	op := &pending{done: func() bool {
		for _, j := range targets {
			if !j.run.finished {
				return false
			}
		}
		return true
	}}
	for _, j := range targets {
		s.signal(j.run, op)
	}
	op.onTimeout = func(*pending) {
		for _, j := range targets {
			if !j.run.finished {
				j.run.finish(143)
				s.cluster.StopClient(j.run.host)
			}
		}
	}
	op.after = func() {
		for _, j := range targets {
			if j.run.exit == 143 {
				j.status = "Terminated"
			}
		}
	}
	s.wait(op)
}

// signal delivers SIGTERM to a running tool: its shutdown hooks run (a
// console consumer prints its total, a producer flushes), then it exits. op
// (the command waiting for the tool) gets up to a minute for that; a tool
// still running then is killed.
func (s *Session) signal(t *toolRun, op *pending) {
	if t.finished {
		return
	}
	term := t.terminate
	if term == nil {
		term = func(*sim.Env) { t.finish(143) }
	}
	if err := s.world().Call(t.host, "SIGTERM", term); err != nil {
		t.finish(143)
	}
	op.deadline = s.world().Now().Add(time.Minute)
	op.onTimeout = func(*pending) {
		t.finish(143)
		s.cluster.StopClient(t.host)
	}
}

// stopAllJobs ends every job (the cluster is being replaced).
func (s *Session) stopAllJobs() {
	for _, j := range s.jobs {
		if s.cluster != nil {
			s.cluster.StopClient(j.run.host)
		}
	}
	s.jobs, s.nextJob = nil, 1
}
