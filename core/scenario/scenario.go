package scenario

import (
	"embed"
	"fmt"
	"strings"

	"kafkascope/core/transcript"
)

//go:embed scenarios/*.txt
var files embed.FS

// Scenario is one built-in scenario.
type Scenario struct {
	ID         string // file name without .txt, e.g. "03-high-watermark"
	Transcript *transcript.Transcript
	Source     string
}

// All returns every built-in scenario, in file-name order.
func All() ([]*Scenario, error) {
	// The embedded directory's entries, sorted by file name as every
	// fs.ReadDirFS lists them. (fs.Glob would do, but it brings a sort of
	// fs.DirEntry values and path.Match into main.wasm: 25 KB of code.)
	entries, err := files.ReadDir("scenarios")
	if err != nil {
		return nil, err
	}
	var out []*Scenario
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		n := "scenarios/" + e.Name()
		data, err := files.ReadFile(n)
		if err != nil {
			return nil, err
		}
		tr, err := transcript.Parse(string(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		id := strings.TrimSuffix(strings.TrimPrefix(n, "scenarios/"), ".txt")
		out = append(out, &Scenario{ID: id, Transcript: tr, Source: string(data)})
	}
	return out, nil
}

// Get returns one scenario by id.
func Get(id string) (*Scenario, error) {
	all, err := All()
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no scenario %q", id)
}
