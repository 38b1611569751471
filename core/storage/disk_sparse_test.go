package storage

import (
	"bytes"
	"testing"
)

// A preallocated index is a sparse file: its length is the preallocation,
// the space it takes is what was written.
func TestDiskSetLengthMakesASparseFile(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFile("/i", nil); err != nil {
		t.Fatal(err)
	}
	if err := d.SetLength("/i", 10485760); err != nil {
		t.Fatal(err)
	}
	if sz, _ := d.Size("/i"); sz != 10485760 {
		t.Fatalf("Size %d", sz)
	}
	if d.Bytes() != 0 {
		t.Fatalf("a hole takes %d bytes", d.Bytes())
	}
	if e := d.List("/")[0]; e.Size != 10485760 || e.Unflushed != 10485760 {
		t.Fatalf("listing %+v", e)
	}
	// Writing an entry inside the hole allocates up to its end only.
	if err := d.WriteAt("/i", 8, []byte{1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
		t.Fatal(err)
	}
	if d.Bytes() != 16 {
		t.Fatalf("after one entry the file takes %d bytes, want 16", d.Bytes())
	}
	data, _ := d.ReadFile("/i")
	if len(data) != 10485760 || !bytes.Equal(data[:16], []byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8}) || data[len(data)-1] != 0 {
		t.Fatalf("content: %d bytes, %v...", len(data), data[:16])
	}
	if err := d.WriteAt("/i", 10485760-4, []byte{9, 9, 9, 9, 9}); err == nil {
		t.Fatal("a write past the length succeeded")
	}
	// Trimming to the valid entries (Kafka's trimToValidSize) cuts the hole.
	if err := d.SetLength("/i", 16); err != nil {
		t.Fatal(err)
	}
	if sz, _ := d.Size("/i"); sz != 16 || d.Bytes() != 16 {
		t.Fatalf("after the trim: size %d, bytes %d", sz, d.Bytes())
	}
	// A cut inside the hole keeps the written bytes.
	if err := d.SetLength("/i", 100); err != nil {
		t.Fatal(err)
	}
	if err := d.Truncate("/i", 40); err != nil {
		t.Fatal(err)
	}
	if sz, _ := d.Size("/i"); sz != 40 || d.Bytes() != 16 {
		t.Fatalf("after a cut in the hole: size %d, bytes %d", sz, d.Bytes())
	}
	// Appending after a hole writes its zeros first.
	if err := d.Append("/i", []byte{7}); err != nil {
		t.Fatal(err)
	}
	if data, _ := d.ReadFile("/i"); len(data) != 41 || data[40] != 7 || d.Bytes() != 41 {
		t.Fatalf("append after a hole: %d bytes, last %d, disk %d", len(data), data[len(data)-1], d.Bytes())
	}
}

// The length a file was extended to is lost with the power unless it was
// flushed, like any other change; after an fsync it survives.
func TestDiskSparseLengthDurability(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.WriteFileDurable("/i", nil); err != nil {
		t.Fatal(err)
	}
	if err := d.SetLength("/i", 4096); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	if sz, _ := d.Size("/i"); sz != 0 {
		t.Fatalf("unflushed extension survived a power loss: %d", sz)
	}
	if err := d.SetLength("/i", 4096); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteAt("/i", 0, []byte{1}); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/i"); err != nil {
		t.Fatal(err)
	}
	if e := d.List("/")[0]; e.Unflushed != 0 {
		t.Fatalf("unflushed %d after fsync", e.Unflushed)
	}
	if err := d.WriteAt("/i", 100, []byte{2}); err != nil {
		t.Fatal(err)
	}
	if e := d.List("/")[0]; e.Unflushed != 4096-100 {
		t.Fatalf("unflushed %d, want %d (from the changed byte to the end)", e.Unflushed, 4096-100)
	}
	d.PowerLoss()
	data, _ := d.ReadFile("/i")
	if len(data) != 4096 || data[0] != 1 || data[100] != 0 || d.Bytes() != 1 {
		t.Fatalf("after power loss: %d bytes, [0]=%d [100]=%d, disk %d", len(data), data[0], data[100], d.Bytes())
	}
}
