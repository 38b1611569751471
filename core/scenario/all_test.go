package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// All lists every scenarios/*.txt file, each once, in file-name order (the
// order of the gallery and of the scenario numbers).
func TestAllListsEveryFileInNameOrder(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("scenarios", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range paths {
		want = append(want, strings.TrimSuffix(filepath.Base(p), ".txt"))
	}
	slices.Sort(want)
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range all {
		got = append(got, s.ID)
		if data, err := os.ReadFile(filepath.Join("scenarios", s.ID+".txt")); err != nil || string(data) != s.Source {
			t.Errorf("%s: Source is not the file's text (%v)", s.ID, err)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("All lists %v, want %v", got, want)
	}
}
