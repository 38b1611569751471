package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kafkascope/core/transcript"
)

// fuzzSeedLines are real command lines: up to seedsPerCommand commands of
// each program the golden transcripts run (spread over them, so the fuzzer
// starts from the whole command language while the seeds, which go test
// also runs as plain tests, stay quick), plus sim commands with odd
// arguments.
func fuzzSeedLines(tb testing.TB) []string {
	lines := []string{
		"help", "jobs", "kill %1", "kill -9 %1", "time advance 5s", "time advance 0s", "broker kill 2", "broker kill 2 --power-loss",
		"broker stop 3", "broker start 2", "network cut 1 2", "network cut 1->2", "network heal", "network delay 2 50ms",
		"network corrupt 1 2", "ls", "ls --broker 2 t-0", "cat meta.properties", "xxd t-0/00000000000000000000.log",
		"replicas t-0", "downtime", "downtime reset", "lost", "cluster create --brokers 5",
		"kafka-console-consumer.sh --bootstrap-server kafka-1:9092 --topic t --from-beginning --timeout-ms 500 &",
	}
	byProgram := map[string][]string{}
	var programs []string
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		tr, err := transcript.Parse(string(data))
		if err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		for _, c := range tr.Commands() {
			if isClusterCreateLine(c.Cmd) {
				continue
			}
			p, _, _ := strings.Cut(strings.TrimSpace(c.Cmd), " ")
			if byProgram[p] == nil {
				programs = append(programs, p)
			}
			byProgram[p] = append(byProgram[p], c.Cmd)
		}
	}
	for _, p := range programs {
		cmds := byProgram[p]
		n := min(len(cmds), seedsPerCommand)
		for i := range n {
			lines = append(lines, cmds[i*len(cmds)/n])
		}
	}
	return lines
}

const seedsPerCommand = 4

func isClusterCreateLine(l string) bool {
	return strings.HasPrefix(strings.TrimSpace(l), "cluster create")
}

// fuzzSession is a small live cluster with one topic holding two records.
func fuzzSession(tb testing.TB) *Session {
	s := NewSession()
	s.Exec("cluster create --brokers 3", nil)
	s.Exec("kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic t --partitions 2 --replication-factor 3", nil)
	s.Exec("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t", []string{"a", "b"})
	if s.Cluster() == nil {
		tb.Fatal("no cluster")
	}
	return s
}

// fuzzStepBudget bounds the events one fuzz input may run before it is
// interrupted (a "time advance 30d" is legal but too slow to fuzz whole).
const fuzzStepBudget = 20000

// runBounded drives a command the way the browser does (Start, then the
// cluster in slices, Poll after each); past the budget it is interrupted
// as Ctrl-C would, and what is left (shutdown hooks) runs to its end.
func runBounded(s *Session, line string, stdin []string) {
	s.Start(line, stdin)
	for n := 0; s.Busy() && n < fuzzStepBudget; n += 500 {
		w := s.Cluster().World
		if _, err := w.RunUntilBudget(w.Now().Add(100*time.Millisecond), 500); err != nil {
			break
		}
		s.Poll()
	}
	if s.Busy() {
		s.Interrupt()
		s.Wait()
	}
}

// FuzzSessionCommand types any command line (with two lines of standard
// input) into a session attached to a live cluster: the session must answer
// (output or a clear error), never panic, keep its cluster running, and
// still answer a known command afterwards. Each input gets a fresh session,
// so a crash replays from its input alone.
func FuzzSessionCommand(f *testing.F) {
	for _, l := range fuzzSeedLines(f) {
		f.Add(l, "k:v")
	}
	f.Fuzz(func(t *testing.T, line, stdin string) {
		s := fuzzSession(t)
		s.Output()
		runBounded(s, line, strings.Split(stdin, "\n"))
		if s.Cluster() == nil {
			t.Fatalf("%q left no cluster", line)
		}
		if err := s.Cluster().World.Err(); err != nil {
			t.Fatalf("%q stopped the simulation: %v", line, err)
		}
		s.Output()
		if out := s.Exec("help", nil); len(out) == 0 || !strings.HasPrefix(out[0], "kafkascope:") {
			t.Fatalf("after %q the session no longer answers help: %q", line, out)
		}
		if out := s.Exec("jobs", nil); out == nil && s.Busy() {
			t.Fatalf("after %q the session is stuck", line)
		}
	})
}
