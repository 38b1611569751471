package storage

import (
	"testing"
	"time"
)

// An index flush makes every entry and resize durable (a power loss keeps
// them), and a flush with nothing new since the last one touches nothing
// on the disk.
func TestIndexFlushSkipsOnlyWhatIsDurable(t *testing.T) {
	d, clock := newTestDisk()
	const path = testLogDir + "/foo-0/00000000000000000000.index"
	x := newOffsetIndex(d, path, 0, 10*1024)
	if err := x.append(3, 100); err != nil {
		t.Fatal(err)
	}
	if err := x.flush(); err != nil {
		t.Fatal(err)
	}
	before := d.Digest()
	clock.at(time.Second)
	if err := x.flush(); err != nil {
		t.Fatal(err)
	}
	if after := d.Digest(); after != before {
		t.Fatalf("a flush with nothing new changed the disk:\n%s\n%s", before, after)
	}
	// Each change after a flush is flushed by the next one: an entry,
	if err := x.append(7, 200); err != nil {
		t.Fatal(err)
	}
	if err := x.flush(); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	data, err := d.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := offsetCodec.decode(0, data[8:]); e.Offset != 7 || e.Position != 200 {
		t.Fatalf("after a power loss the second entry is %+v", e)
	}
	// and a resize.
	if err := x.trimToValidSize(); err != nil {
		t.Fatal(err)
	}
	if err := x.flush(); err != nil {
		t.Fatal(err)
	}
	d.PowerLoss()
	if size, err := d.Size(path); err != nil || size != 16 {
		t.Fatalf("after a power loss the trimmed index has %d bytes (%v), want its two entries' 16", size, err)
	}
}
