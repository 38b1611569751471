// Command kafkasim runs kafkascope's command language natively.
//
//	kafkasim                     an interactive terminal
//	kafkasim check [-rewrite] FILE...
//	                             run transcripts, compare their output and
//	                             check their "## state: " claims; -rewrite
//	                             fills in the actual output (never claims)
//	kafkasim run FILE            print a transcript with actual outputs
//	kafkasim simulate --seeds A-B [--config k=v]... [--minutes N]
//	kafkasim simulate --seed N [--trace]
//	                             the randomized fault simulator (issue 8)
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"kafkascope/core/console"
	"kafkascope/core/transcript"
	"kafkascope/core/view"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return interactive(stdin, stdout)
	}
	switch args[0] {
	case "check":
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(stderr)
		rewrite := fs.Bool("rewrite", false, "write the actual output into the transcript files (keeping the wildcards of lines that changed)")
		if err := fs.Parse(args[1:]); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			fmt.Fprintln(stderr, "usage: kafkasim check [-rewrite] FILE...")
			return 2
		}
		return check(fs.Args(), *rewrite, stdout, stderr)
	case "run":
		if len(args) != 2 {
			fmt.Fprintln(stderr, "usage: kafkasim run FILE")
			return 2
		}
		tr, err := load(args[1])
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		outs, _, _ := console.RunTranscript(tr, nil)
		m := map[*transcript.Command][]string{}
		for i, c := range tr.Commands() {
			m[c] = outs[i]
		}
		fmt.Fprint(stdout, tr.Render(m))
		return 0
	case "simulate":
		return simulateCmd(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, "usage: kafkasim [check [-rewrite] FILE... | run FILE | simulate --seeds A-B ...]")
		return 0
	}
	fmt.Fprintf(stderr, "kafkasim: unknown command %q (want check, run, simulate, or no argument for a terminal)\n", args[0])
	return 2
}

func load(path string) (*transcript.Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tr, err := transcript.Parse(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return tr, nil
}

func check(paths []string, rewrite bool, stdout, stderr io.Writer) int {
	failed := 0
	for _, path := range paths {
		tr, err := load(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			failed++
			continue
		}
		outs, bad, states := console.RunTranscript(tr, view.CheckClaims)
		if rewrite {
			// Only outputs are rewritten: a claim that fails says the
			// narration and the cluster disagree, which a person decides.
			m := map[*transcript.Command][]string{}
			for i, c := range tr.Commands() {
				if !transcript.MatchOutput(c.Expected, outs[i]) {
					m[c] = transcript.Reconcile(c.Expected, outs[i])
				}
			}
			if err := os.WriteFile(path, []byte(tr.Render(m)), 0o644); err != nil {
				fmt.Fprintln(stderr, err)
				failed++
			}
			bad = nil
		}
		if len(bad) == 0 && len(states) == 0 {
			if !rewrite {
				fmt.Fprintf(stdout, "ok   %s (%d commands)\n", path, len(tr.Commands()))
			}
			continue
		}
		failed++
		fmt.Fprintf(stdout, "FAIL %s\n", path)
		for _, f := range states {
			fmt.Fprintf(stdout, "%s:%d: ## state: %s\n  does not hold when the step ends: %v\n", path, f.Claim.Line, f.Claim.Text, f.Err)
		}
		for _, m := range bad {
			fmt.Fprintf(stdout, "%s:%d: $ %s\n", path, m.Cmd.Line, m.Cmd.Cmd)
			fmt.Fprintln(stdout, "--- expected")
			for _, l := range m.Cmd.Expected {
				fmt.Fprintln(stdout, "  "+show(l))
			}
			fmt.Fprintln(stdout, "+++ actual")
			for _, l := range m.Actual {
				fmt.Fprintln(stdout, "  "+show(l))
			}
		}
	}
	if failed > 0 {
		fmt.Fprintf(stdout, "%d of %d transcripts failed\n", failed, len(paths))
		return 1
	}
	return 0
}

// show makes tabs visible in a diff.
func show(l string) string { return strings.ReplaceAll(l, "\t", "⇥") }

// interactive is a line-by-line terminal. A tool that reads standard input
// (kafka-console-producer.sh) takes the following lines until an empty line
// or end of input.
func interactive(in io.Reader, out io.Writer) int {
	s := console.NewSession()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fmt.Fprintln(out, "kafkascope: a simulated Kafka cluster. Type help for commands; cluster create to begin.")
	for {
		fmt.Fprint(out, "$ ")
		if !sc.Scan() {
			fmt.Fprintln(out)
			return 0
		}
		line := sc.Text()
		if strings.TrimSpace(line) == "exit" {
			return 0
		}
		var stdin []string
		if readsStdin(line) {
			for {
				fmt.Fprint(out, "> ")
				if !sc.Scan() || sc.Text() == "" {
					break
				}
				stdin = append(stdin, sc.Text())
			}
		}
		for _, l := range s.Exec(line, stdin) {
			fmt.Fprintln(out, l)
		}
	}
}

func readsStdin(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && strings.Contains(f[0], "kafka-console-producer") && !strings.Contains(line, "--help")
}
