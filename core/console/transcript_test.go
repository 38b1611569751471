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
)

func TestMatchOutputWildcards(t *testing.T) {
	cases := []struct {
		exp, act string
		want     bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a  \nb\n\n", "a\nb", true},                // trailing spaces and blank lines do not count
		{"Topic: {{*}}\tX", "Topic: abc\tX", true},  // within one line
		{"Topic: {{*}}\tX", "Topic: abc\tY", false}, // the rest must still match
		{"a\n{{...}}\nz", "a\nb\nc\nz", true},       // any number of lines
		{"a\n{{...}}\nz", "a\nz", true},             // including none
		{"a\n{{...}}\nz", "a\nb\nc", false},         // but what follows must be there
		{"{{*}}", "anything", true},
		{"{{*}}", "", false}, // a line must be there
		{"x{{*}}", "", false},
		{"", "unexpected", false},
	}
	for _, c := range cases {
		if got := MatchOutput(strings.Split(c.exp, "\n"), strings.Split(c.act, "\n")); got != c.want {
			t.Errorf("MatchOutput(%q, %q) = %v, want %v", c.exp, c.act, got, c.want)
		}
	}
}

func TestParseTranscript(t *testing.T) {
	src := "# title: T\n# title.ko: 티\n# a comment\n\n## Step one.\n## More of it.\n## ko: 첫 단계.\n# comment before a command\n$ cmd a\n> in1\n>\nout1\n# not a comment: output\n\nout3\n\n## Step two.\n## ko: 둘째.\n$ cmd b\n$ cmd c\nx\n"
	tr, err := ParseTranscript(src)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Title != "T" || tr.TitleKo != "티" || len(tr.Steps) != 2 {
		t.Fatalf("parsed %+v", tr)
	}
	s := tr.Steps[0]
	if s.Text != "Step one. More of it." || s.TextKo != "첫 단계." {
		t.Fatalf("narration %q / %q", s.Text, s.TextKo)
	}
	c := s.Commands[0]
	if c.Cmd != "cmd a" || strings.Join(c.Stdin, "|") != "in1|" || strings.Join(c.Expected, "|") != "out1|# not a comment: output||out3" {
		t.Fatalf("command %+v", c)
	}
	if got := tr.Steps[1].Commands; len(got) != 2 || got[1].Cmd != "cmd c" || got[1].Expected[0] != "x" {
		t.Fatalf("step two %+v", got)
	}
	if tr.Render(nil) != src {
		t.Fatalf("render changed the file:\n%s", tr.Render(nil))
	}
	if _, err := ParseTranscript("stray text\n"); err == nil {
		t.Fatal("text outside a command was accepted")
	}
}

// The transcript checker must fail when the engine's output differs: take
// a passing transcript, change one expected line, and expect a mismatch at
// that command.
func TestCheckerCatchesAChangedLine(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "restart.txt"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "kept-2\nProcessed a total of 2 messages", "kept-3\nProcessed a total of 2 messages", 1)
	tr, err := ParseTranscript(broken)
	if err != nil {
		t.Fatal(err)
	}
	_, bad := tr.Run()
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
		tr, err := ParseTranscript(string(data))
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

func TestSplitWords(t *testing.T) {
	cases := map[string]string{
		`a b  c`:                          "a|b|c",
		`--property key.separator=" => "`: `--property|key.separator= => `,
		`'single quoted' x`:               "single quoted|x",
		`a\ b`:                            "a b",
		`"esc \" q"`:                      `esc " q`,
	}
	for in, want := range cases {
		got, err := splitWords(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("splitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := splitWords(`"open`); err == nil {
		t.Error("unterminated quote accepted")
	}
}

// "## state: " lines belong to their step's claims, not to its narration,
// and are checked when the step's last command has finished: after step
// one's producer, before step two's kill.
func TestStateClaimsAreCheckedAtTheEndOfTheirStep(t *testing.T) {
	src := "## One.\n## state: leader t-0 1\n## ko: 하나.\n## state: isr t-0 1\n$ cluster create --brokers 1\n$ kafka-topics.sh --create --topic t\nCreated topic t.\n\n## Two.\n## ko: 둘.\n## state: broker 1 killed\n$ broker kill 1\n"
	tr, err := ParseTranscript(src)
	if err != nil {
		t.Fatal(err)
	}
	one := tr.Steps[0]
	if one.Text != "One." || one.TextKo != "하나." || len(one.State) != 2 || one.State[1] != (Claim{Line: 4, Text: "isr t-0 1"}) {
		t.Fatalf("step one: %q %q %+v", one.Text, one.TextKo, one.State)
	}
	if tr.Render(nil) != src {
		t.Fatalf("render changed the file:\n%s", tr.Render(nil))
	}
	var seen []string
	_, bad, states := tr.RunChecked(func(c *cluster.Cluster, claims string) []error {
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
