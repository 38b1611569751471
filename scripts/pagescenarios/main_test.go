package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every built-in scenario gets a page copy that reads the same to the page
// (write checks each) and holds no expected output nor state claim, and
// the overlay names each scenario's path as go build sees it.
func TestWriteCopiesEveryScenario(t *testing.T) {
	src := filepath.Join("..", "..", scenarioDir)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gone.txt"), []byte("# an old copy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := write(src, dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(src, "*.txt"))
	var ov overlay
	data, err := os.ReadFile(filepath.Join(dir, "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatal(err)
	}
	if len(ov.Replace) != len(files) {
		t.Errorf("overlay has %d files, want %d", len(ov.Replace), len(files))
	}
	for _, f := range files {
		page, ok := ov.Replace[filepath.ToSlash(f)] // as given: go build reads it from the repository
		if !ok {
			t.Errorf("%s is not in the overlay", f)
			continue
		}
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		full, _ := os.ReadFile(f)
		if strings.Contains(string(text), "## state: ") || len(text) >= len(full) {
			t.Errorf("%s: the page copy (%d bytes of %d) keeps claims or output", f, len(text), len(full))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.txt")); !os.IsNotExist(err) {
		t.Error("a copy of a scenario that no longer exists was left")
	}
}

// Input lines stay with their command; output that looks like input, a
// comment or a blank line inside the output goes; a step whose narration
// would change is refused.
func TestPageCopyKeepsWhatThePageReads(t *testing.T) {
	text := "# title: T\n# title.ko: 티\n\n## One.\n## ko: 하나.\n## state: hw t-0 1\n$ kafka-console-producer.sh --topic t\n> a\n>\nout\n> not input\n# not a comment\n\n## Two.\n$ time advance 1s\n$ replicas t-0\nbroker 1\n"
	page, err := pageCopy(text)
	if err != nil {
		t.Fatal(err)
	}
	want := "# title: T\n# title.ko: 티\n\n## One.\n## ko: 하나.\n$ kafka-console-producer.sh --topic t\n> a\n>\n## Two.\n$ time advance 1s\n$ replicas t-0"
	if page != want {
		t.Errorf("page copy:\n%s\nwant:\n%s", page, want)
	}
	// A step made only of a claim: without it, its command would join the
	// step before.
	if _, err := pageCopy("## One.\n$ a\n\n## state: hw t-0 1\n$ b\n"); err == nil {
		t.Error("a copy that merges two steps was accepted")
	}
}

// Comments go, titles stay, and a run of comments and blank lines becomes
// one blank line, which still ends the narration before it: the two
// steps stay two.
func TestPageCopyDropsComments(t *testing.T) {
	text := "# title: T\n# A comment about the scenario.\n# title.ko: 티\n#\n\n# More.\n## One.\n# between\n## Two.\n$ a\n# output, not a comment\n\n## Three.\n"
	page, err := pageCopy(text)
	if err != nil {
		t.Fatal(err)
	}
	want := "# title: T\n\n# title.ko: 티\n\n## One.\n\n## Two.\n$ a\n## Three.\n"
	if page != want {
		t.Errorf("page copy:\n%q\nwant:\n%q", page, want)
	}
}
