package storage

import (
	"fmt"
	"testing"

	"kafkascope/core/sim"
)

// Renaming a directory moves every file under it exactly once, and a
// directory cannot move into itself.
func TestRenameDirectory(t *testing.T) {
	d := NewDisk(func() sim.Time { return 0 })
	for i := range 50 {
		if err := d.WriteFile(fmt.Sprintf("/a/sub/f%d", i), []byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Rename("/a", "/a/b"); err == nil {
		t.Fatal("moved /a into /a/b")
	}
	if err := d.Rename("/a", "/c/d"); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if !d.Exists(fmt.Sprintf("/c/d/sub/f%d", i)) {
			t.Fatalf("f%d did not move", i)
		}
	}
	if d.Exists("/a") || d.Exists("/a/sub/f0") {
		t.Fatal("the old tree is still there")
	}
}
