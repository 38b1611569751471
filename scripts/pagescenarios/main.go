// Command pagescenarios writes the copies of the built-in scenarios that the
// page's engine embeds, and a go build overlay that puts them in place of
// core/scenario/scenarios/*.txt.
//
// Usage (make wasm runs it, then builds with -overlay=DIR/overlay.json):
//
//	go run ./scripts/pagescenarios DIR
//
// Why: a scenario file is a transcript that make test checks, so it holds
// every command's expected output and the "## state: " claims checked
// after each step. The page reads neither: it shows each step's narration
// and runs its commands (core/player), printing what the engine answers.
// Left out of the page's copy, they made main.wasm 114 KB smaller raw,
// 14 KB gzipped and 16 KB in brotli. Nor does it read the comments, which
// explain a scenario to whoever edits it: each run of comments and blank
// lines becomes one blank line, which still ends the narration before it
// (8 KB raw, 2 KB in brotli).
//
// Each copy keeps everything else, line for line: titles, narration,
// commands and their input. Before writing it, the copy is
// parsed (transcript.Parse) and must give the same titles and the
// same steps, with the same narration in both languages and the same
// commands with the same input, as the file itself; a file for which it
// would not is an error, and nothing is written.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"kafkascope/core/transcript"
	"kafkascope/scripts/internal/atomicfile"
)

// scenarioDir is where the scenarios live, relative to the repository.
const scenarioDir = "core/scenario/scenarios"

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pagescenarios DIR")
		os.Exit(2)
	}
	if err := write(scenarioDir, os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "pagescenarios:", err)
		os.Exit(1)
	}
}

// overlay is go build's -overlay file: each scenario's path, relative to
// the repository, and its page copy's.
type overlay struct {
	Replace map[string]string
}

// write puts the page copy of every src/*.txt in dir, with overlay.json;
// any other .txt file left in dir from an earlier run is removed.
func write(src, dir string) error {
	files, err := filepath.Glob(filepath.Join(src, "*.txt"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no scenarios in %s", src)
	}
	copies := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		page, err := pageCopy(string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		copies[filepath.Base(f)] = page
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return err
	}
	for _, f := range old {
		if _, ok := copies[filepath.Base(f)]; !ok {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	ov := overlay{Replace: map[string]string{}}
	for name, page := range copies {
		to := filepath.Join(dir, name)
		if err := atomicfile.Write(to, []byte(page)); err != nil {
			return err
		}
		ov.Replace[filepath.ToSlash(filepath.Join(src, name))] = to
	}
	js, err := json.MarshalIndent(ov, "", "\t")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, "overlay.json"), append(js, '\n'))
}

// pageCopy is text without its commands' expected output and its state
// claims, checked to read the same to the page.
func pageCopy(text string) (string, error) {
	lines := strings.Split(text, "\n")
	var out []string
	reading, output := false, false // in a command's lines; past its input
	for _, raw := range lines {
		l := strings.TrimRight(raw, "\r") // as transcript.Parse reads it
		switch {
		case strings.HasPrefix(l, "$ ") || l == "$":
			reading, output = true, false
		case reading && !output && (strings.HasPrefix(l, "> ") || strings.TrimRight(l, " \t\r") == ">"):
			// the command's input
		case strings.HasPrefix(l, "## ") || l == "##":
			reading = false
			if strings.HasPrefix(l, "## state: ") {
				continue
			}
		case reading:
			output = true
			continue
		case !isTitle(l):
			// A comment or a blank line: the page reads neither, but
			// either ends a step's narration (a "## " line after it
			// starts the next step). One blank line stands for the run.
			if len(out) > 0 && out[len(out)-1] == "" {
				continue
			}
			out = append(out, "")
			continue
		}
		out = append(out, raw)
	}
	page := strings.Join(out, "\n")
	if err := sameToThePage(text, page); err != nil {
		return "", err
	}
	return page, nil
}

// isTitle reports whether l is a title line, which the page shows: every
// other line that is not a command, its input or a step is a comment or
// blank.
func isTitle(l string) bool {
	return strings.HasPrefix(l, "# title: ") || strings.HasPrefix(l, "# title.ko: ")
}

// sameToThePage checks that page parses to what the page reads of text:
// the titles, and the steps with their narration, commands and input.
func sameToThePage(text, page string) error {
	want, err := transcript.Parse(text)
	if err != nil {
		return err
	}
	got, err := transcript.Parse(page)
	if err != nil {
		return fmt.Errorf("the page's copy does not parse: %w", err)
	}
	if got.Title != want.Title || got.TitleKo != want.TitleKo || len(got.Steps) != len(want.Steps) {
		return fmt.Errorf("the page's copy has titles %q, %q and %d steps, not %q, %q and %d",
			got.Title, got.TitleKo, len(got.Steps), want.Title, want.TitleKo, len(want.Steps))
	}
	for i, w := range want.Steps {
		g := got.Steps[i]
		same := g.Text == w.Text && g.TextKo == w.TextKo && len(g.Commands) == len(w.Commands) && len(g.State) == 0
		for j := 0; same && j < len(w.Commands); j++ {
			gc, wc := g.Commands[j], w.Commands[j]
			same = gc.Cmd == wc.Cmd && slices.Equal(gc.Stdin, wc.Stdin) && len(gc.Expected) == 0
		}
		if !same {
			return fmt.Errorf("step %d reads differently in the page's copy", i+1)
		}
	}
	return nil
}
