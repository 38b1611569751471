package storage

import (
	"bytes"
	"fmt"
	"path"
	"reflect"
	"strings"
	"testing"
	"time"
)

// checkBytes checks Disk.Bytes against the sizes of every file.
func checkBytes(t *testing.T, d *Disk) {
	t.Helper()
	var sum int64
	for _, p := range d.Walk("/") {
		sz, err := d.Size(p)
		if err != nil {
			t.Fatalf("Size(%s): %v", p, err)
		}
		sum += sz
	}
	if d.Bytes() != sum {
		t.Errorf("Bytes() = %d, files hold %d", d.Bytes(), sum)
	}
}

func readStr(t *testing.T, d *Disk, p string) string {
	t.Helper()
	b, err := d.ReadFile(p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	return string(b)
}

func TestDiskReadsSeePageCacheAndPowerLossDropsUnflushedFiles(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.Append("/data/a/f", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/data/a/f", []byte(" world")); err != nil {
		t.Fatal(err)
	}
	if got := readStr(t, d, "/data/a/f"); got != "hello world" {
		t.Fatalf("page cache read %q", got)
	}
	if !d.IsDir("/data") || !d.IsDir("/data/a") || d.IsDir("/data/a/f") || !d.Exists("/data/a/f") {
		t.Fatal("parents of a written file are not directories")
	}
	if sz, _ := d.Size("/data/a/f"); sz != 11 {
		t.Fatalf("Size = %d", sz)
	}
	checkBytes(t, d)
	d.PowerLoss()
	if d.Exists("/data/a/f") {
		t.Fatal("a file never flushed survived a power loss")
	}
	if !d.IsDir("/data/a") {
		t.Fatal("directories are durable at once, but /data/a vanished")
	}
	if d.Bytes() != 0 {
		t.Fatalf("Bytes() = %d after losing every file", d.Bytes())
	}
	if _, err := d.ReadFile("/data/a/f"); err == nil || err.Error() != "/data/a/f: No such file or directory" {
		t.Fatalf("ReadFile of a lost file: %v", err)
	}
}

func TestDiskPathsAreCleaned(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("x//y/../z", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if got := readStr(t, d, "/x/z"); got != "1" {
		t.Fatalf("got %q", got)
	}
	if !reflect.DeepEqual(d.Walk("/"), []string{"/x/z"}) {
		t.Fatalf("Walk = %v", d.Walk("/"))
	}
}

// Linux writeback (vm.dirty_writeback_centisecs=500, dirty_expire=3000): a
// flusher pass every 5 s writes back files dirty for at least 30 s. So the
// first pass that flushes data dirtied at t is the first multiple of 5 s at
// or after t+30 s, and until then a power loss loses it.
func TestDiskWritebackTiming(t *testing.T) {
	s := time.Second
	cases := []struct {
		name    string
		writeAt []time.Duration // each write appends one letter, a, b, c...
		lossAt  time.Duration
		want    string // content after the power loss ("<gone>" if the file is lost)
	}{
		// The file's creation is journaled: durable 5 s after it was made
		// (JournalCommitInterval), empty until its data is written back.
		{"created at 0, before the journal commits", []time.Duration{0}, 5*s - 1, "<gone>"},
		{"created at 0, once the journal committed: empty", []time.Duration{0}, 5 * s, ""},
		{"just before the first pass that may flush", []time.Duration{0}, 30*s - 1, ""},
		{"the pass at 30s flushes data dirtied at 0", []time.Duration{0}, 30 * s, "a"},
		{"dirtied at 1s: not yet at 34.999s", []time.Duration{s}, 35*s - time.Millisecond, ""},
		{"dirtied at 1s: flushed by the pass at 35s, not at 31s", []time.Duration{s}, 35 * s, "a"},
		{"dirtied exactly on a tick (5s): flushed at 35s", []time.Duration{5 * s}, 35 * s, "a"},
		{"dirtied at 5s: not at 34.999s", []time.Duration{5 * s}, 35*s - time.Millisecond, ""},
		{"later writes ride along with the first dirtying", []time.Duration{0, 20 * s, 29 * s}, 30 * s, "abc"},
		{"a write after the pass starts a new 30 s", []time.Duration{0, 40 * s}, 69 * s, "a"},
		{"which the pass at 70s flushes", []time.Duration{0, 40 * s}, 70 * s, "ab"},
		{"dirtied at 41s: due 71s, flushed at 75s", []time.Duration{0, 41 * s}, 74 * s, "a"},
		{"dirtied at 41s: flushed at 75s", []time.Duration{0, 41 * s}, 75 * s, "ab"},
		{"a long idle time flushes everything", []time.Duration{0, 40 * s}, time.Hour, "ab"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, clk := newTestDisk()
			for i, at := range c.writeAt {
				clk.at(at)
				if err := d.Append("/f", []byte{byte('a' + i)}); err != nil {
					t.Fatal(err)
				}
			}
			clk.at(c.lossAt)
			d.PowerLoss()
			got := "<gone>"
			if d.Exists("/f") {
				got = readStr(t, d, "/f")
			}
			if got != c.want {
				t.Fatalf("after power loss at %v: %q, want %q", c.lossAt, got, c.want)
			}
			checkBytes(t, d)
		})
	}
}

func TestDiskFsyncAndWriteFileDurable(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.Append("/f", []byte("12345")); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/f"); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/f", []byte("678")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileDurable("/cp", []byte("0\n0\n")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFileDurable("/cp", []byte("0\n1\nfoo 0 5\n")); err != nil {
		t.Fatal(err)
	}
	clk.at(time.Second)
	d.PowerLoss()
	if got := readStr(t, d, "/f"); got != "12345" {
		t.Fatalf("after fsync then unflushed append: %q, want the fsynced 12345", got)
	}
	if got := readStr(t, d, "/cp"); got != "0\n1\nfoo 0 5\n" {
		t.Fatalf("durable write lost: %q", got)
	}
	// A durable write that shrinks a file is durable too.
	if err := d.WriteFileDurable("/cp", []byte("0\n0\n")); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	if got := readStr(t, d, "/cp"); got != "0\n0\n" {
		t.Fatalf("shrinking durable write: %q", got)
	}
	checkBytes(t, d)
	if err := d.Fsync("/missing"); err == nil {
		t.Fatal("Fsync of a missing file succeeded")
	}
	if err := d.WriteFileDurable("/cp", nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := d.ReadFile("/cp"); len(b) != 0 {
		t.Fatalf("empty durable write left %q", b)
	}
}

func TestDiskWriteFileReplacesAndIsNotDurable(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.WriteFileDurable("/f", []byte("old content")); err != nil {
		t.Fatal(err)
	}
	src := []byte("new")
	if err := d.WriteFile("/f", src); err != nil {
		t.Fatal(err)
	}
	src[0] = 'X' // the disk keeps its own copy
	if got := readStr(t, d, "/f"); got != "new" {
		t.Fatalf("WriteFile: %q", got)
	}
	if d.Bytes() != 3 {
		t.Fatalf("Bytes() = %d after replacing 11 bytes with 3", d.Bytes())
	}
	clk.at(10 * time.Second)
	d.PowerLoss()
	if got := readStr(t, d, "/f"); got != "old content" {
		t.Fatalf("unflushed WriteFile survived a power loss: %q", got)
	}
	checkBytes(t, d)
	if err := d.WriteFile("/", []byte("x")); err == nil {
		t.Fatal("WriteFile over the root directory succeeded")
	}
	d.MkdirAll("/dir/sub")
	if err := d.WriteFile("/dir/sub", []byte("x")); err == nil || !strings.Contains(err.Error(), "Is a directory") {
		t.Fatalf("WriteFile over a directory: %v", err)
	}
	if err := d.Append("/dir", []byte("x")); err == nil {
		t.Fatal("Append to a directory succeeded")
	}
}

func TestDiskTruncate(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.WriteFileDurable("/f", []byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if err := d.Truncate("/f", 4); err != nil {
		t.Fatal(err)
	}
	if got := readStr(t, d, "/f"); got != "0123" {
		t.Fatalf("truncated content %q", got)
	}
	checkBytes(t, d)
	// Appending after a truncation does not resurrect the old bytes.
	if err := d.Append("/f", []byte("ab")); err != nil {
		t.Fatal(err)
	}
	if got := readStr(t, d, "/f"); got != "0123ab" {
		t.Fatalf("append after truncate: %q", got)
	}
	if err := d.Truncate("/f", 0); err != nil {
		t.Fatal(err)
	}
	if sz, _ := d.Size("/f"); sz != 0 {
		t.Fatalf("size %d after truncating to 0", sz)
	}
	for _, bad := range []int64{-1, 1} {
		if err := d.Truncate("/f", bad); err == nil || !strings.Contains(err.Error(), "invalid truncation") {
			t.Errorf("Truncate(%d) on an empty file: %v", bad, err)
		}
	}
	if err := d.Truncate("/missing", 0); err == nil {
		t.Error("Truncate of a missing file succeeded")
	}
	// A truncation is a change like any other: lost in a power loss before
	// writeback.
	clk.at(time.Second)
	d.PowerLoss()
	if got := readStr(t, d, "/f"); got != "0123456789" {
		t.Fatalf("truncation not yet committed by the journal survived a power loss: %q", got)
	}
	checkBytes(t, d)
}

// A truncation is a metadata change: the journal commits it at the next
// fsync of any file, or JournalCommitInterval after it. Data appended after
// it is still only in the page cache until writeback or fsync.
func TestDiskTruncationIsJournaled(t *testing.T) {
	setup := func(t *testing.T) (*Disk, *testClock) {
		d, clk := newTestDisk()
		if err := d.WriteFileDurable("/seg", []byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		clk.at(time.Second)
		if err := d.Truncate("/seg", 4); err != nil {
			t.Fatal(err)
		}
		if err := d.Truncate("/seg", 6); err == nil {
			t.Fatal("Truncate beyond the size succeeded")
		}
		if err := d.Append("/seg", []byte("ab")); err != nil {
			t.Fatal(err)
		}
		if err := d.Truncate("/seg", 5); err != nil { // the smallest cut is the one that counts
			t.Fatal(err)
		}
		return d, clk
	}
	t.Run("fsync of another file commits it", func(t *testing.T) {
		d, clk := setup(t)
		clk.at(2 * time.Second)
		if err := d.WriteFileDurable("/checkpoint", []byte("x")); err != nil {
			t.Fatal(err)
		}
		d.PowerLoss()
		if got := readStr(t, d, "/seg"); got != "0123" {
			t.Fatalf("after the journal commit and a power loss: %q, want the cut kept and the append lost", got)
		}
		checkBytes(t, d)
	})
	t.Run("the journal commits on its own", func(t *testing.T) {
		d, clk := setup(t)
		clk.at(time.Second + JournalCommitInterval - time.Millisecond)
		if got := readStr(t, d, "/seg"); got != "0123a" {
			t.Fatalf("page cache %q", got)
		}
		clk.at(time.Second + JournalCommitInterval)
		d.PowerLoss()
		if got := readStr(t, d, "/seg"); got != "0123" {
			t.Fatalf("%s after the cut: %q after a power loss, want 0123", JournalCommitInterval, got)
		}
	})
	t.Run("not committed: undone", func(t *testing.T) {
		d, clk := setup(t)
		clk.at(time.Second + JournalCommitInterval - time.Millisecond)
		d.PowerLoss()
		if got := readStr(t, d, "/seg"); got != "0123456789" {
			t.Fatalf("%q, want the flushed content", got)
		}
		// The undone truncation stays undone: a later fsync does not apply it.
		if err := d.WriteFileDurable("/checkpoint", []byte("x")); err != nil {
			t.Fatal(err)
		}
		d.PowerLoss()
		if got := readStr(t, d, "/seg"); got != "0123456789" {
			t.Fatalf("%q after a second power loss", got)
		}
	})
	t.Run("writeback of the whole file supersedes it", func(t *testing.T) {
		d, clk := setup(t)
		clk.at(time.Minute)
		d.PowerLoss()
		if got := readStr(t, d, "/seg"); got != "0123a" {
			t.Fatalf("%q after writeback and a power loss, want 0123a", got)
		}
	})
	t.Run("a removed file's truncation is forgotten", func(t *testing.T) {
		d, _ := setup(t)
		if err := d.Remove("/seg"); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteFileDurable("/checkpoint", []byte("x")); err != nil {
			t.Fatal(err)
		}
		if len(d.truncating) != 0 {
			t.Fatalf("%d truncations pending for removed files", len(d.truncating))
		}
	})
}

func TestDiskWriteAt(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/f", []byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteAt("/f", 2, []byte("XY")); err != nil {
		t.Fatal(err)
	}
	if got := readStr(t, d, "/f"); got != "abXYef" {
		t.Fatalf("WriteAt: %q", got)
	}
	if err := d.WriteAt("/f", 4, []byte("XY")); err != nil {
		t.Fatalf("WriteAt ending exactly at the end: %v", err)
	}
	for _, c := range []struct {
		off int64
		b   string
	}{{5, "XY"}, {-1, "X"}, {7, ""}} {
		if err := d.WriteAt("/f", c.off, []byte(c.b)); err == nil {
			t.Errorf("WriteAt(%d, %q) outside a 6-byte file succeeded", c.off, c.b)
		}
	}
	if got := readStr(t, d, "/f"); got != "abXYXY" {
		t.Fatalf("a failed WriteAt changed the file: %q", got)
	}
	if err := d.WriteAt("/missing", 0, nil); err == nil {
		t.Error("WriteAt on a missing file succeeded")
	}
	checkBytes(t, d)
}

func TestDiskList(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.WriteFileDurable("/logs/flushed", []byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/logs/flushed", []byte("abcde")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("/logs/new", []byte("xyz")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("/logs/foo-0/00000000000000000000.log", []byte("deep")); err != nil {
		t.Fatal(err)
	}
	d.MkdirAll("/logs/bar-1")
	if err := d.WriteFile("/logsX/other", []byte("not in /logs")); err != nil {
		t.Fatal(err)
	}
	want := []DirEntry{
		{Name: "bar-1", IsDir: true},
		{Name: "flushed", Size: 15, Unflushed: 5},
		{Name: "foo-0", IsDir: true},
		{Name: "new", Size: 3, Unflushed: 3},
	}
	if got := d.List("/logs/"); !reflect.DeepEqual(got, want) {
		t.Fatalf("List = %+v\nwant   %+v", got, want)
	}
	// A rewrite in the middle loses everything from the first changed byte.
	if err := d.WriteAt("/logs/flushed", 8, []byte("##")); err != nil {
		t.Fatal(err)
	}
	if got := d.List("/logs")[1]; got.Unflushed != 7 {
		t.Fatalf("after a rewrite at byte 8 of 15: Unflushed = %d, want 7", got.Unflushed)
	}
	// After writeback nothing is unflushed.
	clk.at(time.Minute)
	for _, e := range d.List("/logs") {
		if e.Unflushed != 0 {
			t.Errorf("%s: Unflushed = %d after writeback", e.Name, e.Unflushed)
		}
	}
	root := d.List("/")
	if len(root) != 2 || root[0].Name != "logs" || root[1].Name != "logsX" || !root[0].IsDir {
		t.Fatalf("List(/) = %+v", root)
	}
	if d.List("/logs/new") != nil {
		t.Fatal("List of a file is not nil")
	}
	if d.List("/nowhere") != nil {
		t.Fatal("List of a missing directory is not nil")
	}
	if got := d.Walk("/logs"); !reflect.DeepEqual(got, []string{"/logs/flushed", "/logs/foo-0/00000000000000000000.log", "/logs/new"}) {
		t.Fatalf("Walk(/logs) = %v", got)
	}
}

func TestDiskRemove(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/a/f", []byte("12345")); err != nil {
		t.Fatal(err)
	}
	d.MkdirAll("/a/empty")
	if err := d.Remove("/a"); err == nil || err.Error() != "/a: Directory not empty" {
		t.Fatalf("Remove of a non-empty dir: %v", err)
	}
	if err := d.Remove("/a/f"); err != nil {
		t.Fatal(err)
	}
	if d.Exists("/a/f") || d.Bytes() != 0 {
		t.Fatalf("removed file still there (exists %v, bytes %d)", d.Exists("/a/f"), d.Bytes())
	}
	if err := d.Remove("/a/empty"); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("/a"); err != nil {
		t.Fatalf("Remove of a now-empty dir: %v", err)
	}
	if d.Exists("/a") {
		t.Fatal("removed directory still exists")
	}
	if err := d.Remove("/a"); err == nil || err.Error() != "/a: No such file or directory" {
		t.Fatalf("Remove of a missing path: %v", err)
	}
}

func TestDiskRemovalIsDurable(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.WriteFileDurable("/a/f", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("/a/f"); err != nil {
		t.Fatal(err)
	}
	clk.at(time.Second)
	d.PowerLoss()
	if d.Exists("/a/f") {
		t.Fatal("a removed file came back after a power loss")
	}
}

func TestDiskRemoveAll(t *testing.T) {
	d, _ := newTestDisk()
	for _, p := range []string{"/l/foo-0/a.log", "/l/foo-0/sub/b", "/l/foo-01/c.log", "/l/foo-0x"} {
		if err := d.WriteFile(p, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	d.RemoveAll("/l/foo-0")
	if got := d.Walk("/"); !reflect.DeepEqual(got, []string{"/l/foo-01/c.log", "/l/foo-0x"}) {
		t.Fatalf("after RemoveAll(/l/foo-0): %v (siblings sharing the prefix must stay)", got)
	}
	if d.Exists("/l/foo-0") || d.Exists("/l/foo-0/sub") {
		t.Fatal("RemoveAll left the directory tree")
	}
	if !d.IsDir("/l/foo-01") {
		t.Fatal("RemoveAll removed a sibling directory")
	}
	checkBytes(t, d)
	d.RemoveAll("/l/foo-0x") // a file
	d.RemoveAll("/nothing")  // no error, no effect
	if got := d.Walk("/"); !reflect.DeepEqual(got, []string{"/l/foo-01/c.log"}) {
		t.Fatalf("after removing a file: %v", got)
	}
	checkBytes(t, d)
}

func TestDiskRenameFile(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.WriteFileDurable("/a/f", []byte("durable")); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/a/f", []byte("+cache")); err != nil {
		t.Fatal(err)
	}
	if err := d.Rename("/a/f", "/b/c/g"); err != nil {
		t.Fatal(err)
	}
	if d.Exists("/a/f") {
		t.Fatal("source still exists after rename")
	}
	if !d.IsDir("/b/c") {
		t.Fatal("rename did not create the target's parents")
	}
	if got := readStr(t, d, "/b/c/g"); got != "durable+cache" {
		t.Fatalf("renamed content %q", got)
	}
	checkBytes(t, d)
	// The rename is durable; the unflushed content is not.
	clk.at(time.Second)
	d.PowerLoss()
	if d.Exists("/a/f") {
		t.Fatal("the old name came back after a power loss")
	}
	if got := readStr(t, d, "/b/c/g"); got != "durable" {
		t.Fatalf("after power loss: %q, want the flushed content", got)
	}
}

func TestDiskRenameDirectoryTree(t *testing.T) {
	d, _ := newTestDisk()
	files := map[string]string{
		"/logs/foo-0/00000000000000000000.log": "seg",
		"/logs/foo-0/partition.metadata":       "meta",
		"/logs/foo-0/sub/deep":                 "deep",
		"/logs/foo-00/keep":                    "other partition",
	}
	for p, c := range files {
		if err := d.WriteFile(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	d.MkdirAll("/logs/foo-0/emptysub")
	if err := d.Rename("/logs/foo-0", "/logs/foo-0.abc-delete"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/logs/foo-0.abc-delete/00000000000000000000.log",
		"/logs/foo-0.abc-delete/partition.metadata",
		"/logs/foo-0.abc-delete/sub/deep",
		"/logs/foo-00/keep",
	}
	if got := d.Walk("/"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after renaming a directory:\n%v\nwant\n%v", got, want)
	}
	if d.Exists("/logs/foo-0") || d.Exists("/logs/foo-0/sub") || d.Exists("/logs/foo-0/emptysub") {
		t.Fatal("old directory tree still exists")
	}
	if !d.IsDir("/logs/foo-0.abc-delete/emptysub") || !d.IsDir("/logs/foo-0.abc-delete/sub") {
		t.Fatal("subdirectories were not moved")
	}
	if got := readStr(t, d, "/logs/foo-0.abc-delete/sub/deep"); got != "deep" {
		t.Fatalf("moved content %q", got)
	}
	checkBytes(t, d)
}

func TestDiskRenameErrors(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/a", []byte("a")); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("/dir/x", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := d.Rename("/missing", "/z"); err == nil || err.Error() != "/missing: No such file or directory" {
		t.Fatalf("rename of a missing path: %v", err)
	}
	if err := d.Rename("/a", "/dir"); err == nil || err.Error() != "/dir: File exists" {
		t.Fatalf("rename onto a non-empty directory: %v", err)
	}
	if got := readStr(t, d, "/a"); got != "a" {
		t.Fatal("a failed rename changed the source")
	}
	if got := readStr(t, d, "/dir/x"); got != "x" {
		t.Fatal("a failed rename changed the target")
	}
}

func TestDiskMaxFiles(t *testing.T) {
	d, _ := newTestDisk()
	for i := range MaxFiles {
		if err := d.WriteFile(fmt.Sprintf("/f/%d", i), nil); err != nil {
			t.Fatalf("file %d of %d: %v", i+1, MaxFiles, err)
		}
	}
	err := d.WriteFile("/f/one-more", nil)
	if err == nil || !strings.Contains(err.Error(), "file limit") {
		t.Fatalf("file %d: %v, want the file limit error", MaxFiles+1, err)
	}
	if d.Exists("/f/one-more") {
		t.Fatal("the refused file exists")
	}
	// Existing files can still be written, and removing one frees a slot.
	if err := d.Append("/f/0", []byte("x")); err != nil {
		t.Fatalf("append to an existing file at the limit: %v", err)
	}
	if err := d.Remove("/f/1"); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("/f/one-more", nil); err != nil {
		t.Fatalf("after freeing a slot: %v", err)
	}
}

func TestDiskMaxBytes(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/f", []byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	// Pretend the rest of the disk is full: filling 1 GiB for real would
	// make the test slow and memory hungry.
	d.bytes = MaxDiskBytes - 5
	if err := d.Append("/f", []byte("123456")); err == nil || !strings.Contains(err.Error(), "No space left on device") {
		t.Fatalf("append of 6 bytes with 5 free: %v", err)
	}
	if got := readStr(t, d, "/f"); got != "0123456789" {
		t.Fatalf("a refused append changed the file: %q", got)
	}
	if d.Bytes() != MaxDiskBytes-5 {
		t.Fatalf("a refused append changed Bytes() to %d", d.Bytes())
	}
	if err := d.WriteFile("/f", []byte("0123456789abcdef")); err == nil {
		t.Fatal("WriteFile growing the file by 6 bytes with 5 free succeeded")
	}
	if err := d.Append("/f", []byte("12345")); err != nil {
		t.Fatalf("append filling the disk exactly: %v", err)
	}
	if d.Bytes() != MaxDiskBytes {
		t.Fatalf("Bytes() = %d, want the limit", d.Bytes())
	}
	if err := d.Append("/g", []byte("x")); err == nil {
		t.Fatal("append to a full disk succeeded")
	}
	// Shrinking a file frees space.
	if err := d.WriteFile("/f", []byte("ab")); err != nil {
		t.Fatalf("shrinking rewrite on a full disk: %v", err)
	}
	if d.Bytes() != MaxDiskBytes-13 {
		t.Fatalf("Bytes() = %d after freeing 13 bytes", d.Bytes())
	}
	if err := d.Truncate("/f", 0); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/g", []byte("0123456789abcde")); err != nil {
		t.Fatalf("append after truncation freed space: %v", err)
	}
}

// A regular file cannot also be a directory (ENOTDIR in POSIX): writing
// below a file must fail and leave the file a file.
func TestDiskCannotCreateBelowAFile(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/a", []byte("file")); err != nil {
		t.Fatal(err)
	}
	err := d.WriteFile("/a/b", []byte("x"))
	if err == nil {
		t.Errorf("WriteFile(/a/b) succeeded although /a is a file")
	}
	if d.IsDir("/a") {
		t.Errorf("/a is now both a file and a directory")
	}
}

// A flush copies only what changed since the last one (file.same): the
// flushed layer must still equal the page cache after every mix of
// appends, overwrites inside the flushed prefix, truncations and power
// losses, including a truncation followed by regrowth with other bytes.
func TestDiskIncrementalFlushMatchesPageCache(t *testing.T) {
	d, _ := newTestDisk()
	steps := []struct {
		name string
		do   func() error
		want string // the file after a power loss that follows an fsync
	}{
		{"append", func() error { return d.Append("/f", []byte("abcdef")) }, "abcdef"},
		{"append more", func() error { return d.Append("/f", []byte("gh")) }, "abcdefgh"},
		{"overwrite in the prefix", func() error { return d.WriteAt("/f", 1, []byte("XY")) }, "aXYdefgh"},
		{"truncate", func() error { return d.Truncate("/f", 3) }, "aXY"},
		{"regrow with other bytes", func() error { return d.Append("/f", []byte("zzzzz")) }, "aXYzzzzz"},
		{"truncate and regrow before one fsync", func() error {
			if err := d.Truncate("/f", 2); err != nil {
				return err
			}
			return d.Append("/f", []byte("123456"))
		}, "aX123456"},
		{"replace", func() error { return d.WriteFile("/f", []byte("new")) }, "new"},
		{"append after replace", func() error { return d.Append("/f", []byte("!")) }, "new!"},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if err := d.Fsync("/f"); err != nil {
			t.Fatal(err)
		}
		// Unflushed changes after the fsync must vanish on power loss and
		// leave exactly the fsynced content.
		if err := d.WriteAt("/f", 0, []byte("#")); err != nil {
			t.Fatal(err)
		}
		d.PowerLoss()
		if got := readStr(t, d, "/f"); got != s.want {
			t.Fatalf("after %s, fsync and power loss: %q, want %q", s.name, got, s.want)
		}
	}
	checkBytes(t, d)
}

// Writeback (not fsync) after a truncation and regrowth flushes the new
// bytes: the writeback does not cut the flushed layer first, so the flush
// itself must know the page cache diverged at the cut.
func TestDiskWritebackAfterTruncateAndRegrow(t *testing.T) {
	d, clk := newTestDisk()
	if err := d.Append("/g", []byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/g"); err != nil {
		t.Fatal(err)
	}
	if err := d.Truncate("/g", 2); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/g", []byte("123456")); err != nil {
		t.Fatal(err)
	}
	clk.at(time.Minute)
	d.PowerLoss()
	if got := readStr(t, d, "/g"); got != "ab123456" {
		t.Fatalf("after writeback and power loss: %q, want ab123456", got)
	}
}

// clean agrees with path.Clean("/"+p) on every kind of path, clean or not.
func TestCleanMatchesPathClean(t *testing.T) {
	for _, p := range []string{
		"", "/", "//", "a", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/..", "/.", "./a", "a/b",
		"/tmp/kafka-logs/t-0/00000000000000000000.log", "/tmp/kafka-logs/t-0/", "/tmp/kafka-logs/.t-0/x",
		"/a/..b/c", "/a/b..", "/a/.b", "/...", "/a/b/c/..", "/a/b/c/.",
	} {
		if got, want := clean(p), path.Clean("/"+p); got != want {
			t.Errorf("clean(%q) = %q, want %q", p, got, want)
		}
	}
}

// The flushed layer and readers' views share the file's bytes instead of
// copying them; no later change to the file may show through them: an
// overwrite, a truncation followed by appends, a power loss.
func TestSharedBytesNeverChange(t *testing.T) {
	d, _ := newTestDisk()
	const p = "/data/f"
	if err := d.Append(p, []byte("0123456789")); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync(p); err != nil {
		t.Fatal(err)
	}
	f, _ := d.get(p)
	view := f.readShared(2, 4)
	if err := d.WriteAt(p, 3, []byte("xx")); err != nil { // unflushed
		t.Fatal(err)
	}
	if err := d.Truncate(p, 4); err != nil {
		t.Fatal(err)
	}
	if err := d.Append(p, []byte("abcdef")); err != nil {
		t.Fatal(err)
	}
	if got := string(fileContent(t, d, p)); got != "012xabcdef" {
		t.Fatalf("file %q, want 012xabcdef", got)
	}
	if string(view) != "2345" {
		t.Fatalf("a reader's view changed to %q", view)
	}
	d.PowerLoss()
	if got := string(fileContent(t, d, p)); got != "0123456789" {
		t.Fatalf("after a power loss the file is %q, want what was flushed", got)
	}
	// The reverted file shares the flushed bytes; writing to it again
	// must not change them.
	if err := d.WriteAt(p, 0, []byte("Z")); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	if got := string(fileContent(t, d, p)); got != "0123456789" {
		t.Fatalf("after a second power loss the file is %q, want what was flushed", got)
	}
}

// ReadAt reads a range as ReadFile holds it: across chunks, into a sparse
// file's hole, and clipped at the file's end.
func TestReadAtIsARangeOfReadFile(t *testing.T) {
	d, _ := newTestDisk()
	const p = "/data/big"
	b := make([]byte, 2*chunkSize+100)
	for i := range b {
		b[i] = byte(i * 7)
	}
	if err := d.Append(p, b); err != nil {
		t.Fatal(err)
	}
	if err := d.SetLength(p, int64(len(b))+50); err != nil {
		t.Fatal(err)
	}
	whole, err := d.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][2]int64{{0, 10}, {chunkSize - 5, 10}, {chunkSize, chunkSize}, {2*chunkSize + 90, 40}, {int64(len(whole)) - 3, 10}, {int64(len(whole)) + 5, 10}, {-4, 8}} {
		got, err := d.ReadAt(p, r[0], r[1])
		if err != nil {
			t.Fatal(err)
		}
		from := min(max(r[0], 0), int64(len(whole)))
		to := min(from+max(r[1], 0), int64(len(whole)))
		if !bytes.Equal(got, whole[from:to]) {
			t.Fatalf("ReadAt(%d, %d): %d bytes, not ReadFile's [%d:%d]", r[0], r[1], len(got), from, to)
		}
	}
}
