package console

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kafkascope/core/cluster"
	"kafkascope/core/transcript"
)

// The transcript checker must fail when the engine's output differs: take
// a passing transcript, change one expected line, and expect a mismatch at
// that command.
func TestCheckerCatchesAChangedLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "restart.txt"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "kept-2\nProcessed a total of 2 messages", "kept-3\nProcessed a total of 2 messages", 1)
	tr, err := transcript.Parse(broken)
	if err != nil {
		t.Fatal(err)
	}
	_, bad, _ := RunTranscript(tr, nil)
	if len(bad) != 1 || !strings.Contains(bad[0].Cmd.Cmd, "--max-messages 2") {
		t.Fatalf("mismatches = %+v, want exactly the consumer command", bad)
	}
}

// Same transcript, same run: the trace hash of the whole simulation is
// identical (also under -race, where goroutine scheduling differs).
func TestSameTranscriptSameTrace(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "scenario", "scenarios", "05-acks-min-isr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	run := func() (uint64, uint64, string) {
		tr, err := transcript.Parse(string(data))
		if err != nil {
			t.Fatal(err)
		}
		s := NewSession()
		s.TraceContent = true
		var out []string
		for _, c := range tr.Commands() {
			out = append(out, s.Exec(c.Cmd, c.Stdin)...)
		}
		w := s.Cluster().World
		return w.Trace().Hash(), w.Trace().Count(), strings.Join(out, "\n")
	}
	h1, n1, o1 := run()
	h2, n2, o2 := run()
	if h1 != h2 || n1 != n2 || o1 != o2 {
		t.Fatalf("two runs differ: %x/%d vs %x/%d", h1, n1, h2, n2)
	}
	if n1 < 1000 {
		t.Fatalf("suspiciously short trace: %d events", n1)
	}
}

// RunTranscript checks a step's claims against the session's cluster when
// the step's last command has finished: after step one's topic is created,
// before step two's kill.
func TestStateClaimsAreCheckedAtTheEndOfTheirStep(t *testing.T) {
	src := "## One.\n## state: leader t-0 1\n## ko: 하나.\n## state: isr t-0 1\n$ cluster create --brokers 1\n$ kafka-topics.sh --create --topic t\nCreated topic t.\n\n## Two.\n## ko: 둘.\n## state: broker 1 killed\n$ broker kill 1\n"
	tr, err := transcript.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	_, bad, states := RunTranscript(tr, func(c *cluster.Cluster, claims string) []error {
		seen = append(seen, fmt.Sprintf("%s: %s", claims, c.State(1)))
		if claims == "isr t-0 1" {
			return []error{errors.New("no")}
		}
		return nil
	})
	want := []string{"leader t-0 1: running", "isr t-0 1: running", "broker 1 killed: killed"}
	if len(bad) != 0 || !slices.Equal(seen, want) {
		t.Fatalf("checked %q (mismatches %v), want %q", seen, bad, want)
	}
	if len(states) != 1 || states[0].Claim.Line != 4 || states[0].Err.Error() != "no" {
		t.Fatalf("failures %+v", states)
	}
}
