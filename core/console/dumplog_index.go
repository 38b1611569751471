package console

import (
	"encoding/binary"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/record"
)

// Index dumps, as DumpLogSegments.dumpIndex and dumpTimeIndex in Kafka 3.8.
// The index is opened read-only with maxIndexSize -1, so it has
// length/entrySize entries: a preallocated active index has all of its 10 MiB
// of zeros as entries, each reading as (baseOffset, 0). The walk stops at the
// first entry after the first whose offset is the base offset; the first
// entry is always dumped (and checked), zero or not.

const (
	offsetIndexEntrySize = 8
	timeIndexEntrySize   = 12
	// headerSizeUpToMagic is FileLogInputStream's minimum to read a batch.
	headerSizeUpToMagic = record.LogOverhead + 5
)

// indexErrors collects what DumpLogSegments reports on stderr after all
// files: offset index mismatches (per file, newest first), and the time
// index's timestamp mismatches, out-of-order timestamps and offsets not
// found (per file, in order). Files are kept in the order first reported.
type indexErrors struct {
	offsetMismatch  map[string][][2]int64
	offsetOrder     []string
	timeMismatch    map[string][][2]int64
	timeOrder       []string
	outOfOrder      map[string][][2]int64
	outOfOrderOrder []string
	notFound        map[string][][2]int64
	notFoundOrder   []string
}

func newIndexErrors() *indexErrors {
	return &indexErrors{
		offsetMismatch: map[string][][2]int64{},
		timeMismatch:   map[string][][2]int64{},
		outOfOrder:     map[string][][2]int64{},
		notFound:       map[string][][2]int64{},
	}
}

func addIndexError(m map[string][][2]int64, order *[]string, file string, a, b int64) {
	if _, ok := m[file]; !ok {
		*order = append(*order, file)
	}
	m[file] = append(m[file], [2]int64{a, b})
}

// lines is what main prints for the index maps and TimeIndexDumpErrors.
func (e *indexErrors) lines() []string {
	var out []string
	for _, f := range e.offsetOrder {
		out = append(out, "Mismatches in :"+f)
		l := e.offsetMismatch[f]
		for i := len(l) - 1; i >= 0; i-- { // a Scala List, prepended to
			out = append(out, fmt.Sprintf("  Index offset: %d, log offset: %d", l[i][0], l[i][1]))
		}
	}
	for _, f := range e.timeOrder {
		out = append(out, "Found timestamp mismatch in :"+f)
		for _, m := range e.timeMismatch[f] {
			out = append(out, fmt.Sprintf("  Index timestamp: %d, log timestamp: %d", m[0], m[1]))
		}
	}
	for _, f := range e.outOfOrderOrder {
		out = append(out, "Found out of order timestamp in :"+f)
		for _, m := range e.outOfOrder[f] {
			out = append(out, fmt.Sprintf("  Index timestamp: %d, Previously indexed timestamp: %d", m[0], m[1]))
		}
	}
	for _, f := range e.notFoundOrder {
		out = append(out, "The following indexed offsets are not found in the log.")
		for _, m := range e.notFound[f] {
			out = append(out, fmt.Sprintf("Indexed offset: %d, found log offset: %d", m[0], m[1]))
		}
	}
	return out
}

// javaException is an uncaught throw.
type javaException struct{ class, msg string }

// offsetEntry reads entry n of an offset index: (baseOffset + relative
// offset, position).
func offsetEntry(idx []byte, base int64, n int) (int64, int32) {
	e := idx[n*offsetIndexEntrySize:]
	return base + int64(int32(binary.BigEndian.Uint32(e))), int32(binary.BigEndian.Uint32(e[4:]))
}

// timeEntry reads entry n of a time index: (timestamp, baseOffset +
// relative offset).
func timeEntry(idx []byte, base int64, n int) (int64, int64) {
	e := idx[n*timeIndexEntrySize:]
	return int64(binary.BigEndian.Uint64(e)), base + int64(int32(binary.BigEndian.Uint32(e[8:])))
}

// offsetLookup is OffsetIndex.lookup: the largest entry whose offset is at
// most target, searching the last 8 KiB (the "hot" entries) first as
// AbstractIndex.indexSlotRangeFor does; (baseOffset, 0) when there is none.
func offsetLookup(idx []byte, base, target int64) (int64, int32) {
	n := len(idx) / offsetIndexEntrySize
	if n == 0 {
		return base, 0
	}
	key := func(i int) int64 { o, _ := offsetEntry(idx, base, i); return o }
	search := func(lo, hi int) int {
		for lo < hi {
			mid := int(uint(lo+hi+1) >> 1)
			switch k := key(mid); {
			case k > target:
				hi = mid - 1
			case k < target:
				lo = mid
			default:
				return mid
			}
		}
		return lo
	}
	firstHot := max(0, n-1-8192/offsetIndexEntrySize)
	var slot int
	switch {
	case key(firstHot) < target:
		slot = search(firstHot, n-1)
	case key(0) > target:
		return base, 0
	default:
		slot = search(0, firstHot)
	}
	return offsetEntry(idx, base, slot)
}

// fileRecordsName is FileRecords.toString for a log opened whole.
func fileRecordsName(file string, size int) string {
	return fmt.Sprintf("FileRecords(size=%d, file=%s, start=0, end=%d)", size, file, math.MaxInt32)
}

// sliceEnd is FileRecords.slice's bounds check and end.
func sliceEnd(log []byte, file string, position int32, size int64) (int, *javaException) {
	switch {
	case position < 0:
		return 0, &javaException{"java.lang.IllegalArgumentException", fmt.Sprintf("Invalid position: %d in read from %s", position, fileRecordsName(file, len(log)))}
	case int(position) > len(log):
		return 0, &javaException{"java.lang.IllegalArgumentException", fmt.Sprintf("Slice from position %d exceeds end position of %s", position, fileRecordsName(file, len(log)))}
	case size < 0:
		return 0, &javaException{"java.lang.IllegalArgumentException", fmt.Sprintf("Invalid size: %d in read from %s", size, fileRecordsName(file, len(log)))}
	}
	end := int64(int32(int64(position) + size)) // Java's int overflow
	if end < 0 || end > int64(len(log)) {
		end = int64(len(log))
	}
	return int(end), nil
}

// nextBatch is FileLogInputStream.nextBatch over log[pos:end]: the batch's
// size, or 0 when no whole batch is left.
func nextBatch(log []byte, file string, pos, end int) (int, *javaException) {
	if pos >= end-headerSizeUpToMagic {
		return 0, nil
	}
	size := int32(binary.BigEndian.Uint32(log[pos+8:]))
	if size < 14 {
		return 0, &javaException{"org.apache.kafka.common.errors.CorruptRecordException", fmt.Sprintf("Found record size %d smaller than minimum record overhead (14) in file %s.", size, file)}
	}
	if int64(pos) > int64(end)-record.LogOverhead-int64(size) {
		return 0, nil
	}
	return int(size) + record.LogOverhead, nil
}

func batchHeader(b []byte) (record.BatchHeader, *javaException) {
	h, err := record.ParseHeader(b)
	if err != nil {
		return h, &javaException{"org.apache.kafka.common.errors.CorruptRecordException", err.Error()}
	}
	return h, nil
}

// dumpOffsetIndex is dumpIndex. arg is the path as given, abs the absolute
// path (File.getAbsolutePath), logAbs the segment's .log.
func dumpOffsetIndex(out func(string), errs *indexErrors, arg, abs, logAbs string, base int64, idx, log []byte, sanityOnly, verifyOnly bool, maxMessageSize int64) *javaException {
	n := len(idx) / offsetIndexEntrySize
	if n == 0 {
		out(arg + " is empty.")
		return nil
	}
	if sanityOnly { // OffsetIndex.sanityCheck
		if last, _ := offsetEntry(idx, base, n-1); last < base {
			return &javaException{"org.apache.kafka.common.errors.CorruptIndexException", fmt.Sprintf("Corrupt index found, index file %s has non-zero size but the last offset is %d which is less than the base offset %d", abs, last, base)}
		}
		if len(idx)%offsetIndexEntrySize != 0 {
			return &javaException{"org.apache.kafka.common.errors.CorruptIndexException", fmt.Sprintf("Index file %s is corrupt, found %d bytes which is neither positive nor a multiple of %d", abs, len(idx), offsetIndexEntrySize)}
		}
		out(arg + " passed sanity check.")
		return nil
	}
	for i := 0; i < n; i++ {
		off, pos := offsetEntry(idx, base, i)
		// A sparse file's zeros read as (baseOffset, 0): stop at the first.
		if off == base && i > 0 {
			return nil
		}
		end, ex := sliceEnd(log, logAbs, pos, maxMessageSize)
		if ex != nil {
			return ex
		}
		size, ex := nextBatch(log, logAbs, int(pos), end)
		if ex != nil {
			return ex
		}
		if size == 0 { // slice.batches.iterator.next()
			return &javaException{"java.util.NoSuchElementException", ""}
		}
		h, ex := batchHeader(log[int(pos) : int(pos)+size])
		if ex != nil {
			return ex
		}
		if h.LastOffset() != off {
			addIndexError(errs.offsetMismatch, &errs.offsetOrder, abs, off, h.LastOffset())
		}
		if !verifyOnly {
			out(fmt.Sprintf("offset: %d position: %d", off, pos))
		}
	}
	return nil
}

// dumpTimeIndexFile is dumpTimeIndex; idx is the segment's offset index.
func dumpTimeIndexFile(out func(string), errs *indexErrors, arg, abs, logAbs string, base int64, tidx, idx, log []byte, sanityOnly, verifyOnly bool) *javaException {
	n := len(tidx) / timeIndexEntrySize
	if sanityOnly { // TimeIndex.sanityCheck
		lastTs, lastOff := int64(-1), base
		if n > 0 {
			lastTs, lastOff = timeEntry(tidx, base, n-1)
			if first, _ := timeEntry(tidx, base, 0); lastTs < first {
				return &javaException{"org.apache.kafka.common.errors.CorruptIndexException", fmt.Sprintf("Corrupt time index found, time index file (%s) has non-zero size but the last timestamp is %d which is less than the first timestamp %d", abs, lastTs, first)}
			}
			if lastOff < base {
				return &javaException{"org.apache.kafka.common.errors.CorruptIndexException", fmt.Sprintf("Corrupt time index found, time index file (%s) has non-zero size but the last offset is %d which is less than the first offset %d", abs, lastOff, base)}
			}
		}
		if len(tidx)%timeIndexEntrySize != 0 {
			return &javaException{"org.apache.kafka.common.errors.CorruptIndexException", fmt.Sprintf("Time index file %s is corrupt, found %d bytes which is neither positive nor a multiple of %d", abs, len(tidx), timeIndexEntrySize)}
		}
		out(arg + " passed sanity check.")
		return nil
	}
	prev := int64(-1)
	for i := 0; i < n; i++ {
		ts, off := timeEntry(tidx, base, i)
		if off == base && i > 0 {
			return nil
		}
		_, pos := offsetLookup(idx[:len(idx)/offsetIndexEntrySize*offsetIndexEntrySize], base, off)
		end, ex := sliceEnd(log, logAbs, pos, math.MaxInt32)
		if ex != nil {
			return ex
		}
		// batches.find(_.lastOffset >= entry.offset)
		found := false
		for p := int(pos); ; {
			size, ex := nextBatch(log, logAbs, p, end)
			if ex != nil {
				return ex
			}
			if size == 0 {
				break
			}
			h, ex := batchHeader(log[p : p+size])
			if ex != nil {
				return ex
			}
			if h.LastOffset() < off {
				p += size
				continue
			}
			found = true
			if h.LastOffset() != off {
				addIndexError(errs.notFound, &errs.notFoundOrder, abs, off, h.LastOffset())
				break
			}
			b, _, err := record.Decode(log[p : p+size])
			if err != nil {
				return &javaException{"org.apache.kafka.common.InvalidRecordException", err.Error()}
			}
			maxTs := int64(-1)
			for j := range b.Records {
				maxTs = max(maxTs, b.RecordTimestamp(&b.Records[j]))
			}
			if maxTs != ts {
				addIndexError(errs.timeMismatch, &errs.timeOrder, abs, ts, maxTs)
			}
			if prev >= ts {
				addIndexError(errs.outOfOrder, &errs.outOfOrderOrder, abs, ts, prev)
			}
			break
		}
		if !found {
			addIndexError(errs.notFound, &errs.notFoundOrder, abs, off, -1)
		}
		if !verifyOnly {
			out(fmt.Sprintf("timestamp: %d offset: %d", ts, off))
		}
		prev = ts
	}
	return nil
}

// fileAbsPath is File.getAbsolutePath, in the working directory relative
// paths on a broker's disk resolve against (homeDir).
func fileAbsPath(arg string) string {
	if strings.HasPrefix(arg, "/") {
		return jdk.Path(arg)
	}
	return jdk.Path(homeDir + "/" + arg)
}

// dumpIndex opens what dumpIndex and dumpTimeIndex open, in their order:
// the segment's .log (FileRecords.open), then (for a time index) the
// offset index, then the index itself. A missing index is what Kafka
// cannot open read-only with maxIndexSize -1.
func (d *dumpLog) dumpIndex(arg, name string) int {
	timeIdx := strings.HasSuffix(name, ".timeindex")
	baseName := strings.SplitN(name, ".", 2)[0]
	base, err := strconv.ParseInt(baseName, 10, 64)
	if err != nil {
		return d.uncaught("java.lang.NumberFormatException", fmt.Sprintf("For input string: %q", baseName))
	}
	abs := fileAbsPath(arg)
	dir := path.Dir(abs)
	logAbs := path.Join(dir, baseName+".log")
	if !d.disk.Exists(logAbs) || d.disk.IsDir(logAbs) {
		return d.uncaught("java.nio.file.NoSuchFileException", logAbs)
	}
	log, err := d.disk.ReadFile(logAbs)
	if err != nil {
		return d.uncaught("java.nio.file.NoSuchFileException", logAbs)
	}
	open := func(p string) ([]byte, bool) {
		if !d.disk.Exists(p) || d.disk.IsDir(p) {
			return nil, false
		}
		b, err := d.disk.ReadFile(p)
		return b, err == nil
	}
	var idx []byte
	if timeIdx {
		var ok bool
		if idx, ok = open(path.Join(dir, baseName+".index")); !ok {
			return d.uncaught("java.lang.IllegalArgumentException", "Invalid max index size: -1")
		}
	}
	data, ok := open(abs)
	if !ok {
		return d.uncaught("java.lang.IllegalArgumentException", "Invalid max index size: -1")
	}
	var ex *javaException
	if timeIdx {
		ex = dumpTimeIndexFile(d.t.println, d.indexErrs, arg, abs, logAbs, base, data, idx, log, d.p.Has("index-sanity-check"), d.p.Has("verify-index-only"))
	} else {
		maxSize, err := d.p.Int("max-message-size", 32)
		if err != nil {
			return d.uncaught("joptsimple.OptionArgumentConversionException", err.Error())
		}
		ex = dumpOffsetIndex(d.t.println, d.indexErrs, arg, abs, logAbs, base, data, log, d.p.Has("index-sanity-check"), d.p.Has("verify-index-only"), maxSize)
	}
	if ex != nil {
		return d.uncaught(ex.class, ex.msg)
	}
	return 0
}
