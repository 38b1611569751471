package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces the file's content, leaves no temporary file behind, and
// fails, leaving nothing, where the directory does not exist.
func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	for _, content := range []string{"first, longer content\n", "second\n"} {
		if err := Write(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d files in the directory, want only f.json", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "f"), []byte("x")); err == nil {
		t.Fatal("a write into a missing directory succeeded")
	}
}
