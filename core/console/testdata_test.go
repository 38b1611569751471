package console

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kafkascope/core/transcript"
	"kafkascope/core/view"
)

// The tools' golden transcripts (testdata/*.txt) run under go test as the
// scenarios do (core/scenario): every command's output as written, every
// "## state:" claim true when its step ends. (make transcripts runs them
// too, through kafkasim check, which can rewrite their output.)
func TestGoldenTranscripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts in testdata: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := transcript.Parse(string(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Commands()) == 0 {
				t.Fatal("no commands")
			}
			_, bad, states := RunTranscript(tr, view.CheckClaims)
			for _, m := range bad {
				t.Errorf("%s:%d: $ %s\n--- expected\n%s\n+++ actual\n%s", path, m.Cmd.Line, m.Cmd.Cmd, strings.Join(m.Cmd.Expected, "\n"), strings.Join(m.Actual, "\n"))
			}
			for _, f := range states {
				t.Errorf("%s:%d: ## state: %s\n  does not hold when the step ends: %v", path, f.Claim.Line, f.Claim.Text, f.Err)
			}
		})
	}
}
