package transcript

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
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
	tr, err := Parse(src)
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
	if _, err := Parse("stray text\n"); err == nil {
		t.Fatal("text outside a command was accepted")
	}
}

// A step's "## state: " lines are its claims, not its narration, and Run
// checks them when the step's last command has finished: after step one's
// second command, before step two's.
func TestRunChecksClaimsAtTheEndOfTheirStep(t *testing.T) {
	src := "## One.\n## state: a\n## ko: 하나.\n## state: b\n$ x\n$ y\nout\n\n## Two.\n## state: c\n$ z\n"
	tr, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	one := tr.Steps[0]
	if one.Text != "One." || one.TextKo != "하나." || len(one.State) != 2 || one.State[1] != (Claim{Line: 4, Text: "b"}) {
		t.Fatalf("step one: %q %q %+v", one.Text, one.TextKo, one.State)
	}
	if tr.Render(nil) != src {
		t.Fatalf("render changed the file:\n%s", tr.Render(nil))
	}
	sh := &fakeShell{}
	var seen []string
	outs, bad, states := tr.Run(sh, func(claims string) []error {
		seen = append(seen, fmt.Sprintf("%s after %s", claims, strings.Join(sh.ran, ",")))
		if claims == "b" {
			return []error{errors.New("no")}
		}
		return nil
	})
	want := []string{"a after x,y", "b after x,y", "c after x,y,z"}
	if !slices.Equal(seen, want) {
		t.Fatalf("checked %q, want %q", seen, want)
	}
	if len(outs) != 3 || len(bad) != 2 || bad[0].Cmd.Cmd != "x" || bad[1].Cmd.Cmd != "y" {
		t.Fatalf("outputs %q, mismatches %+v", outs, bad)
	}
	if len(states) != 1 || states[0].Claim.Line != 4 || states[0].Err.Error() != "no" {
		t.Fatalf("failures %+v", states)
	}
	if _, _, states := tr.Run(&fakeShell{}, nil); states != nil {
		t.Fatalf("no check, failures %+v", states)
	}
}

// fakeShell prints each command back ("x" prints "x"), except z, which
// prints nothing.
type fakeShell struct{ ran []string }

func (f *fakeShell) Exec(cmd string, stdin []string) []string {
	f.ran = append(f.ran, cmd)
	if cmd == "z" {
		return nil
	}
	return []string{cmd}
}

// trimEnds drops each line's trailing blanks: Render writes output lines
// without them, and MatchOutput ignores them.
func trimEnds(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(l, blanks)
	}
	return out
}

// FuzzParseTranscript: any text parses or fails with an error; what
// parses renders back to text that parses to the same transcript (title,
// steps' narration, and every command's line, input and expected output),
// and its expected output matches itself. Trailing blanks on output lines
// are not kept (testdata/fuzz/FuzzParseTranscript holds that case).
func FuzzParseTranscript(f *testing.F) {
	f.Add("# title: x\n## step\n## ko: 단계\n$ cmd\n> in\nout\n")
	f.Add("$ a\n$ b\n\n\n## c\n")
	f.Add("# title: t\n$ x\n{{...}}\nA {{*}} B\n\n\n")
	for _, name := range []string{"../console/testdata/restart.txt", "../scenario/scenarios/15-log-compaction.txt"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(string(data))
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(tr.Render(nil))
		if err != nil {
			t.Fatalf("render of a parsed transcript does not parse: %v", err)
		}
		if back.Title != tr.Title || back.TitleKo != tr.TitleKo || len(back.Steps) != len(tr.Steps) {
			t.Fatalf("render changed the header or steps: %q/%q %d vs %q/%q %d", back.Title, back.TitleKo, len(back.Steps), tr.Title, tr.TitleKo, len(tr.Steps))
		}
		for i, st := range tr.Steps {
			if back.Steps[i].Text != st.Text || back.Steps[i].TextKo != st.TextKo {
				t.Fatalf("render changed step %d's text: %q vs %q", i, back.Steps[i].Text, st.Text)
			}
		}
		got, want := back.Commands(), tr.Commands()
		if len(got) != len(want) {
			t.Fatalf("render changed the command count: %d vs %d", len(got), len(want))
		}
		for i, c := range want {
			if got[i].Cmd != c.Cmd || !slices.Equal(got[i].Stdin, c.Stdin) || !slices.Equal(trimEnds(got[i].Expected), trimEnds(c.Expected)) {
				t.Fatalf("render changed command %d: %+v vs %+v", i, got[i], c)
			}
			if !strings.Contains(strings.Join(c.Expected, "\n"), "{{") && !MatchOutput(c.Expected, c.Expected) {
				t.Fatalf("command %d's output does not match itself: %q", i, c.Expected)
			}
		}
	})
}
