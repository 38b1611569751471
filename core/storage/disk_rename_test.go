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

// TestRecentFilesFollowRenamesAndRemovals: the disk remembers the files
// it last looked up (recentFiles); a rename, a removal and a new
// file under an old name must each be seen at once.
func TestRecentFilesFollowRenamesAndRemovals(t *testing.T) {
	d := NewDisk(func() sim.Time { return 0 })
	read := func(p string) string {
		b, err := d.ReadFile(p)
		if err != nil {
			return err.Error()
		}
		return string(b)
	}
	for _, f := range []struct{ p, b string }{{"/x/a", "A"}, {"/x/b", "B"}, {"/x/c", "C"}} {
		if err := d.WriteFile(f.p, []byte(f.b)); err != nil {
			t.Fatal(err)
		}
	}
	read("/x/a")
	read("/x/b") // both remembered
	if err := d.Rename("/x/a", "/x/d"); err != nil {
		t.Fatal(err)
	}
	if got := read("/x/d"); got != "A" {
		t.Fatalf("after renaming a to d, d reads %q", got)
	}
	if got := read("/x/a"); got != "/x/a: No such file or directory" {
		t.Fatalf("after renaming a away, a reads %q", got)
	}
	read("/x/b")
	if err := d.Remove("/x/b"); err != nil {
		t.Fatal(err)
	}
	if got := read("/x/b"); got != "/x/b: No such file or directory" {
		t.Fatalf("after removing b, b reads %q", got)
	}
	if err := d.Append("/x/b", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got := read("/x/b"); got != "new" {
		t.Fatalf("a new b reads %q", got)
	}
	read("/x/c")
	d.RemoveAll("/x")
	if got := read("/x/c"); got != "/x/c: No such file or directory" {
		t.Fatalf("after removing /x, c reads %q", got)
	}
}
