package storage

import "testing"

// A fileRef is the file its path names now: after the path's file is
// removed and made again, or renamed away, the ref must not hand out the
// old file.
func TestFileRefFollowsPathChanges(t *testing.T) {
	d, _ := newTestDisk()
	const p = "/logs/a.log"
	if err := d.Append(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	var r fileRef
	first, err := d.resolve(p, &r)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := d.resolve(p, &r); again != first {
		t.Fatal("a ref with no path changed looked up another file")
	}
	if err := d.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := d.Append(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	f, err := d.resolve(p, &r)
	if err != nil || f == first || string(f.read()) != "new" {
		t.Fatalf("after the file was made again, the ref gave %q (%v)", f.read(), err)
	}
	if err := d.Rename(p, "/logs/b.log"); err != nil {
		t.Fatal(err)
	}
	if f, err := d.resolve(p, &r); err == nil {
		t.Fatalf("after a rename away, the ref still gave %q", f.read())
	}
}
