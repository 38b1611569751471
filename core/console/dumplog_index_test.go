package console

import (
	"encoding/binary"
	"reflect"
	"strconv"
	"testing"

	"kafkascope/core/record"
)

// indexTestLog is a segment at base offset 10: batches [10], [11,12], [13]
// with timestamps 100, 200/250, 300; it returns the log and the batches'
// positions.
func indexTestLog() ([]byte, []int32) {
	var log []byte
	var pos []int32
	for _, b := range []struct {
		base int64
		ts   []int64
	}{{10, []int64{100}}, {11, []int64{200, 250}}, {13, []int64{300}}} {
		recs := make([]record.Record, len(b.ts))
		for i, ts := range b.ts {
			recs[i] = record.Record{Timestamp: ts, Value: []byte("v")}
		}
		pos = append(pos, int32(len(log)))
		log = append(log, record.Build(b.base, 0, record.NoProducer(), recs)...)
	}
	return log, pos
}

func offsetIdx(size int, base int64, entries ...[2]int64) []byte {
	b := make([]byte, size)
	for i, e := range entries {
		binary.BigEndian.PutUint32(b[i*8:], uint32(e[0]-base))
		binary.BigEndian.PutUint32(b[i*8+4:], uint32(e[1]))
	}
	return b
}

func timeIdx(size int, base int64, entries ...[2]int64) []byte {
	b := make([]byte, size)
	for i, e := range entries {
		binary.BigEndian.PutUint64(b[i*12:], uint64(e[0]))
		binary.BigEndian.PutUint32(b[i*12+8:], uint32(e[1]-base))
	}
	return b
}

func TestDumpOffsetIndexWalkAndMismatches(t *testing.T) {
	log, pos := indexTestLog()
	const abs, logAbs = "/tmp/kafka-logs/t-0/00000000000000000010.index", "/tmp/kafka-logs/t-0/00000000000000000010.log"
	// A preallocated index (1 MiB of entries): two real entries, then
	// zeros that read as (10, 0). The second entry points at the batch
	// [11,12] under offset 11: a mismatch with its last offset 12.
	idx := offsetIdx(1<<20, 10, [2]int64{12, int64(pos[1])}, [2]int64{11, int64(pos[1])})
	var out []string
	errs := newIndexErrors()
	if ex := dumpOffsetIndex(func(s string) { out = append(out, s) }, errs, "t-0/x.index", abs, logAbs, 10, idx, log, false, false, 5242880); ex != nil {
		t.Fatal(ex)
	}
	want := []string{"offset: 12 position: " + itoa(pos[1]), "offset: 11 position: " + itoa(pos[1])}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("entries: got %q, want %q", out, want)
	}
	// The first zero entry is dumped when it is the first one; its
	// position 0 holds batch [10], whose last offset is the base offset.
	out = nil
	if ex := dumpOffsetIndex(func(s string) { out = append(out, s) }, errs, "t-0/x.index", abs, logAbs, 10, make([]byte, 80), log, false, true, 5242880); ex != nil || out != nil {
		t.Fatalf("verify-only over zeros: %v %q", ex, out)
	}
	// A zero entry at 0 against a log starting at batch [11,12]: mismatch.
	if ex := dumpOffsetIndex(func(string) {}, errs, "t-0/y.index", "/y", logAbs, 11, make([]byte, 16), log[pos[1]:], false, true, 5242880); ex != nil {
		t.Fatal(ex)
	}
	wantErr := []string{
		"Mismatches in :" + abs,
		"  Index offset: 11, log offset: 12",
		"Mismatches in :/y",
		"  Index offset: 11, log offset: 12",
	}
	if got := errs.lines(); !reflect.DeepEqual(got, wantErr) {
		t.Fatalf("errors: got %q, want %q", got, wantErr)
	}
	// Newest first, as Scala's List prepends.
	errs = newIndexErrors()
	bad := offsetIdx(24, 10, [2]int64{11, int64(pos[0])}, [2]int64{13, int64(pos[1])})
	dumpOffsetIndex(func(string) {}, errs, "a", "/a", logAbs, 10, bad, log, false, true, 5242880)
	wantErr = []string{"Mismatches in :/a", "  Index offset: 13, log offset: 12", "  Index offset: 11, log offset: 10"}
	if got := errs.lines(); !reflect.DeepEqual(got, wantErr) {
		t.Fatalf("errors: got %q, want %q", got, wantErr)
	}
	// An empty index; a batch beyond --max-message-size is not read.
	out = nil
	dumpOffsetIndex(func(s string) { out = append(out, s) }, errs, "a", "/a", logAbs, 10, nil, log, false, false, 5242880)
	if ex := dumpOffsetIndex(func(string) {}, errs, "a", "/a", logAbs, 10, make([]byte, 8), log, false, false, 20); ex == nil || ex.class != "java.util.NoSuchElementException" {
		t.Fatalf("max-message-size 20: %v", ex)
	}
	if !reflect.DeepEqual(out, []string{"a is empty."}) {
		t.Fatalf("empty: %q", out)
	}
}

func TestDumpTimeIndexChecks(t *testing.T) {
	log, pos := indexTestLog()
	const abs, logAbs = "/t.timeindex", "/t.log"
	oidx := offsetIdx(1<<20, 10, [2]int64{12, int64(pos[1])})
	// Good (12, 250); wrong timestamp (13, 299); out of order (13, 250)...
	// then (11 not a batch's last offset), then zeros: the walk stops.
	tidx := timeIdx(12*1000, 10, [2]int64{250, 12}, [2]int64{299, 13}, [2]int64{250, 13}, [2]int64{200, 11}, [2]int64{400, 14})
	var out []string
	errs := newIndexErrors()
	if ex := dumpTimeIndexFile(func(s string) { out = append(out, s) }, errs, "t", abs, logAbs, 10, tidx, oidx, log, false, false); ex != nil {
		t.Fatal(ex)
	}
	want := []string{"timestamp: 250 offset: 12", "timestamp: 299 offset: 13", "timestamp: 250 offset: 13", "timestamp: 200 offset: 11", "timestamp: 400 offset: 14"}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("entries: got %q, want %q", out, want)
	}
	wantErr := []string{
		"Found timestamp mismatch in :" + abs,
		"  Index timestamp: 299, log timestamp: 300",
		"  Index timestamp: 250, log timestamp: 300",
		"Found out of order timestamp in :" + abs,
		"  Index timestamp: 250, Previously indexed timestamp: 299",
		"The following indexed offsets are not found in the log.",
		"Indexed offset: 11, found log offset: 12",
		"Indexed offset: 14, found log offset: -1",
	}
	if got := errs.lines(); !reflect.DeepEqual(got, wantErr) {
		t.Fatalf("errors: got %q, want %q", got, wantErr)
	}
	// Sanity check: a preallocated time index's last entry reads as
	// timestamp 0, below the first.
	ex := dumpTimeIndexFile(func(string) {}, errs, "t", abs, logAbs, 10, tidx, oidx, log, true, false)
	if ex == nil || ex.msg != "Corrupt time index found, time index file (/t.timeindex) has non-zero size but the last timestamp is 0 which is less than the first timestamp 250" {
		t.Fatalf("sanity: %v", ex)
	}
	out = nil
	if ex := dumpTimeIndexFile(func(s string) { out = append(out, s) }, errs, "t", abs, logAbs, 10, tidx[:24], oidx, log, true, false); ex != nil || !reflect.DeepEqual(out, []string{"t passed sanity check."}) {
		t.Fatalf("sanity of a trimmed index: %v %q", ex, out)
	}
}

func TestOffsetLookupHotEntries(t *testing.T) {
	// 2000 entries (offset 10+2i at position 100i), then 2000 zeros: the
	// hot section is the zeros, so any offset above the base finds (10, 0).
	var e [][2]int64
	for i := int64(0); i < 2000; i++ {
		e = append(e, [2]int64{10 + 2*i, 100 * i})
	}
	full := offsetIdx(8*2000, 0, e...)
	if o, p := offsetLookup(full, 0, 15); o != 14 || p != 200 {
		t.Fatalf("trimmed lookup(15) = %d, %d", o, p)
	}
	if o, p := offsetLookup(full, 0, 3); o != 0 || p != 0 {
		t.Fatalf("lookup below the first = %d, %d", o, p)
	}
	// With 1000 zeros the first hot entry is still a real one (3960).
	if o, p := offsetLookup(append(full, make([]byte, 8*1000)...), 0, 15); o != 14 || p != 200 {
		t.Fatalf("lookup(15) with a real first hot entry = %d, %d", o, p)
	}
	pre := append(full, make([]byte, 8*2000)...)
	if o, p := offsetLookup(pre, 0, 15); o != 0 || p != 0 {
		t.Fatalf("preallocated lookup(15) = %d, %d", o, p)
	}
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }
