package transcript

import (
	"fmt"
	"regexp"
	"strings"
)

// Transcript is a parsed transcript file: a terminal session with narration,
// used as a scenario and as a test.
type Transcript struct {
	Title, TitleKo string
	Steps          []*Step
	chunks         []chunk // the file in order, for rewriting
}

// Step is one narrated step: its paragraph in English and Korean, the
// claims about the cluster its narration makes ("## state: " lines, checked
// once its last command has finished), and the commands it runs.
type Step struct {
	Text, TextKo string
	State        []Claim
	Commands     []*Command
}

// Claim is one "## state: " line: facts the step's narration states about
// the cluster (view.Snapshot.CheckClaims reads them).
type Claim struct {
	Line int // 1-based
	Text string
}

// StateFailure is a step's claim that does not hold at the step's end.
type StateFailure struct {
	Claim Claim
	Err   error
}

// Command is one "$ " line with its standard input ("> " lines) and the
// output the transcript expects.
type Command struct {
	Line     int // 1-based line of the "$ "
	Cmd      string
	Stdin    []string
	Expected []string
}

// chunk is either literal lines or a command.
type chunk struct {
	lines []string
	cmd   *Command
}

// blanks are what output lines may end with unnoticed: Render drops them
// and MatchOutput ignores them.
const blanks = " \t\r"

// MaxLines bounds a transcript file.
const MaxLines = 200000

// Parse reads a transcript. Lines starting with "#" are comments
// only where no output is being read: in the header, and between a "## "
// step and its first "$ ".
func Parse(text string) (*Transcript, error) {
	lines := strings.Split(text, "\n")
	if len(lines) > MaxLines {
		return nil, fmt.Errorf("transcript too long (%d lines, limit %d)", len(lines), MaxLines)
	}
	for i, l := range lines {
		// CRLF line ends (and any stray carriage returns ending a line)
		// (FuzzParseTranscript found "$ \r" parsed to the command "\r",
		// which renders back as the empty command).
		lines[i] = strings.TrimRight(l, "\r")
	}
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	tr := &Transcript{}
	var step *Step
	var lit []string
	var cur *Command
	readingOutput := false
	flushLit := func() {
		if len(lit) > 0 {
			tr.chunks = append(tr.chunks, chunk{lines: lit})
			lit = nil
		}
	}
	endCommand := func() {
		if cur != nil {
			for len(cur.Expected) > 0 && strings.TrimRight(cur.Expected[len(cur.Expected)-1], blanks) == "" {
				lit = append([]string{""}, lit...)
				cur.Expected = cur.Expected[:len(cur.Expected)-1]
			}
			tr.chunks = append(tr.chunks, chunk{cmd: cur})
			cur = nil
		}
		readingOutput = false
	}
	paragraph := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "$ ") || l == "$":
			endCommand()
			flushLit()
			if step == nil {
				step = &Step{}
				tr.Steps = append(tr.Steps, step)
			}
			cur = &Command{Line: i + 1, Cmd: strings.TrimPrefix(strings.TrimPrefix(l, "$"), " ")}
			step.Commands = append(step.Commands, cur)
			readingOutput = true
			paragraph = false
		case readingOutput && strings.HasPrefix(l, "> ") && len(cur.Expected) == 0:
			cur.Stdin = append(cur.Stdin, strings.TrimPrefix(l, "> "))
		case readingOutput && strings.TrimRight(l, blanks) == ">" && len(cur.Expected) == 0:
			// An empty input line: ">" with any trailing blanks, as
			// Render trims them (FuzzParseTranscript found ">\t" read as
			// output and rendered back as input).
			cur.Stdin = append(cur.Stdin, "")
		case strings.HasPrefix(l, "## ") || l == "##":
			endCommand()
			text := strings.TrimPrefix(strings.TrimPrefix(l, "##"), " ")
			if !paragraph {
				step = &Step{}
				tr.Steps = append(tr.Steps, step)
				paragraph = true
			}
			if ko, ok := strings.CutPrefix(text, "ko: "); ok {
				step.TextKo = joinPara(step.TextKo, ko)
			} else if claim, ok := strings.CutPrefix(text, "state: "); ok {
				step.State = append(step.State, Claim{Line: i + 1, Text: claim})
			} else {
				step.Text = joinPara(step.Text, text)
			}
			lit = append(lit, l)
		case readingOutput:
			cur.Expected = append(cur.Expected, l)
		default:
			if strings.HasPrefix(l, "#") && step == nil {
				if v, ok := strings.CutPrefix(l, "# title: "); ok {
					tr.Title = strings.TrimSpace(v)
				} else if v, ok := strings.CutPrefix(l, "# title.ko: "); ok {
					tr.TitleKo = strings.TrimSpace(v)
				}
			}
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") {
				return nil, fmt.Errorf("line %d: expected a command (\"$ \"), a step (\"## \") or a comment (\"# \"), got %q", i+1, l)
			}
			lit = append(lit, l)
			paragraph = false
		}
	}
	endCommand()
	flushLit()
	return tr, nil
}

func joinPara(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// Commands lists every command in order.
func (tr *Transcript) Commands() []*Command {
	var out []*Command
	for _, s := range tr.Steps {
		out = append(out, s.Commands...)
	}
	return out
}

// Mismatch describes a command whose output differs from the transcript.
type Mismatch struct {
	Cmd    *Command
	Actual []string
}

// Shell runs one command line with its standard input ("> " lines) and
// returns everything it printed: a console.Session.
type Shell interface {
	Exec(cmd string, stdin []string) []string
}

// Run executes every command in sh, in order, and returns each command's
// actual output and the mismatches. When a step's last command has
// finished (the moment a browser playing the step stops and shows its
// picture), check, if not nil, checks each of the step's claims and
// returns a problem per claim that fails.
func (tr *Transcript) Run(sh Shell, check func(claims string) []error) ([][]string, []Mismatch, []StateFailure) {
	var outs [][]string
	var bad []Mismatch
	var states []StateFailure
	for _, st := range tr.Steps {
		for _, c := range st.Commands {
			out := sh.Exec(c.Cmd, c.Stdin)
			outs = append(outs, out)
			if !MatchOutput(c.Expected, out) {
				bad = append(bad, Mismatch{Cmd: c, Actual: out})
			}
		}
		if check == nil {
			continue
		}
		for _, cl := range st.State {
			for _, err := range check(cl.Text) {
				states = append(states, StateFailure{Claim: cl, Err: err})
			}
		}
	}
	return outs, bad, states
}

// Render writes the transcript back with the given outputs in place of the
// expected ones (nil keeps a command's expected output).
func (tr *Transcript) Render(outputs map[*Command][]string) string {
	var b strings.Builder
	for _, ch := range tr.chunks {
		for _, l := range ch.lines {
			b.WriteString(l + "\n")
		}
		if c := ch.cmd; c != nil {
			b.WriteString("$ " + c.Cmd + "\n")
			for _, in := range c.Stdin {
				if in == "" {
					b.WriteString(">\n")
				} else {
					b.WriteString("> " + in + "\n")
				}
			}
			out := c.Expected
			if o, ok := outputs[c]; ok {
				out = o
			}
			for _, l := range trimTrailingBlank(out) {
				t := strings.TrimRight(l, blanks)
				if t == "$" || t == "##" {
					t = l // trimmed, an output line would read as a command or a step
				}
				b.WriteString(t + "\n")
			}
		}
	}
	return b.String()
}

func trimTrailingBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimRight(lines[len(lines)-1], blanks) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// MatchOutput compares actual output with expected lines: trailing
// whitespace and trailing blank lines do not count; "{{*}}" matches any run
// of characters within a line; a line that is only "{{...}}" matches any
// number of lines.
func MatchOutput(expected, actual []string) bool {
	exp := trimTrailingBlank(expected)
	act := trimTrailingBlank(actual)
	pats := make([]*regexp.Regexp, len(exp))
	for i, e := range exp {
		e = strings.TrimRight(e, blanks)
		if strings.Contains(e, "{{*}}") {
			parts := strings.Split(e, "{{*}}")
			for j := range parts {
				parts[j] = regexp.QuoteMeta(parts[j])
			}
			pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		}
	}
	// memo[i][j]: exp[i:] matches act[j:]
	memo := map[[2]int]bool{}
	var match func(i, j int) bool
	match = func(i, j int) bool {
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var r bool
		switch {
		case i == len(exp):
			r = j == len(act)
		case strings.TrimSpace(exp[i]) == "{{...}}":
			r = match(i+1, j) || (j < len(act) && match(i, j+1))
		case j == len(act):
			r = false
		default:
			a := strings.TrimRight(act[j], blanks)
			e := strings.TrimRight(exp[i], blanks)
			ok := a == e
			if pats[i] != nil {
				ok = pats[i].MatchString(a)
			}
			r = ok && match(i+1, j+1)
		}
		memo[key] = r
		return r
	}
	return match(0, 0)
}
