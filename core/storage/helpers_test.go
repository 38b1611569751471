package storage

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// testClock is a virtual clock the tests move by hand.
type testClock struct{ now sim.Time }

func (c *testClock) Now() sim.Time { return c.now }

// at sets the clock to d after time zero.
func (c *testClock) at(d time.Duration) { c.now = sim.Time(d) }

func newTestDisk() (*Disk, *testClock) {
	c := &testClock{}
	return NewDisk(c.Now), c
}

const testLogDir = "/tmp/kafka-logs"

var fooTP = TopicPartition{Topic: "foo", Partition: 0}

// producerBatch is a batch as a producer sends it: base offset 0, no leader
// epoch, n records with 8-byte values (so batches with equal n have equal
// sizes).
func producerBatch(n int) []byte {
	return batchAt(0, -1, n)
}

// batchAt is a batch with the given base offset and partition leader epoch,
// as a leader stores it.
func batchAt(base int64, epoch int32, n int) []byte {
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = record.Record{Timestamp: 1000 + int64(i), Key: []byte("k"), Value: []byte(fmt.Sprintf("v%07d", base+int64(i)))}
	}
	return record.Build(base, epoch, record.NoProducer(), recs)
}

// withSegmentBytes is Kafka's default config with segment.bytes set.
func withSegmentBytes(n int64) LogConfig {
	cfg := DefaultLogConfig
	cfg.SegmentBytes = n
	return cfg
}

func mustCreate(t *testing.T, d *Disk, cfg LogConfig) *Log {
	t.Helper()
	l, err := CreateLog(d, testLogDir, fooTP, "AAAAAAAAAAAAAAAAAAAAAQ", cfg)
	if err != nil {
		t.Fatalf("CreateLog: %v", err)
	}
	return l
}

func mustLeaderAppend(t *testing.T, l *Log, data []byte, epoch int32) AppendInfo {
	t.Helper()
	info, err := l.AppendAsLeader(data, epoch)
	if err != nil {
		t.Fatalf("AppendAsLeader: %v", err)
	}
	return info
}

// span is a batch's [base, last] offsets.
type span struct{ base, last int64 }

// decodeAll decodes concatenated batches, failing the test on any error, and
// checks every batch is valid (CRC included).
func decodeAll(t *testing.T, data []byte) []record.Batch {
	t.Helper()
	var out []record.Batch
	for len(data) > 0 {
		b, n, err := record.Decode(data)
		if err != nil {
			t.Fatalf("decoding batch %d: %v", len(out), err)
		}
		if err := record.Validate(data[:n]); err != nil {
			t.Fatalf("batch %d does not validate: %v", len(out), err)
		}
		out = append(out, b)
		data = data[n:]
	}
	return out
}

func spans(t *testing.T, data []byte) []span {
	t.Helper()
	var out []span
	for _, b := range decodeAll(t, data) {
		out = append(out, span{b.BaseOffset, b.LastOffset()})
	}
	return out
}

func mustRead(t *testing.T, l *Log, start int64, maxBytes int, maxOffset int64, minOne bool) []byte {
	t.Helper()
	data, err := l.Read(start, maxBytes, maxOffset, minOne)
	if err != nil {
		t.Fatalf("Read(%d, %d, %d, %v): %v", start, maxBytes, maxOffset, minOne, err)
	}
	return data
}

func fileContent(t *testing.T, d *Disk, p string) []byte {
	t.Helper()
	b, err := d.ReadFile(p)
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", p, err)
	}
	return bytes.Clone(b)
}

// checkInvariants checks the documented Log invariants.
func checkInvariants(t *testing.T, l *Log) {
	t.Helper()
	if !(l.LogStartOffset() <= l.HighWatermark() && l.HighWatermark() <= l.LogEndOffset()) {
		t.Errorf("invariant logStartOffset <= highWatermark <= logEndOffset broken: %d, %d, %d",
			l.LogStartOffset(), l.HighWatermark(), l.LogEndOffset())
	}
	if l.RecoveryPoint() > l.LogEndOffset() {
		t.Errorf("recovery point %d beyond log end offset %d", l.RecoveryPoint(), l.LogEndOffset())
	}
	segs := l.Segments()
	for i, s := range segs {
		if i > 0 && s.BaseOffset <= segs[i-1].BaseOffset {
			t.Errorf("segments out of order: %d after %d", s.BaseOffset, segs[i-1].BaseOffset)
		}
		var sum int64
		for j := range s.NumBatches() {
			b := s.Batch(j)
			if j > 0 && b.BaseOffset <= s.Batch(j-1).LastOffset {
				t.Errorf("segment %d: batch %d starts at %d, previous ends at %d", s.BaseOffset, j, b.BaseOffset, s.Batch(j-1).LastOffset)
			}
			if int64(b.Position) != sum {
				t.Errorf("segment %d: batch %d at position %d, want %d", s.BaseOffset, j, b.Position, sum)
			}
			sum += int64(b.Size)
		}
		if s.Size != sum {
			t.Errorf("segment %d: Size %d, sum of batch sizes %d", s.BaseOffset, s.Size, sum)
		}
		// The fields BatchInfo does not keep are read from the file, and
		// a batch's size is where the next one starts: each batch must be
		// what the header at its position says.
		if err := s.eachHeader(func(b BatchInfo, h record.BatchHeader) error {
			want := BatchInfo{BaseOffset: h.BaseOffset, LastOffset: h.LastOffset(), Position: b.Position, Size: int32(h.SizeInBytes()),
				Epoch: h.PartitionLeaderEpoch, RecordCount: h.RecordCount}
			if b != want {
				t.Errorf("segment %d: the directory lists %+v, the file's header at %d says %+v", s.BaseOffset, b, b.Position, want)
			}
			return nil
		}); err != nil {
			t.Errorf("segment %d: reading the batch headers: %v", s.BaseOffset, err)
		}
		if sz, err := l.disk.Size(s.Path); err != nil || sz != s.Size {
			t.Errorf("segment %d: file size %d (%v), Size %d", s.BaseOffset, sz, err, s.Size)
		}
		if s.offsetIndex.loaded && !indexPointsAtBatches(s) {
			t.Errorf("segment %d: offset index %v does not point at its batches", s.BaseOffset, s.offsetIndex.ents)
		}
		if s.offsetIndex.loaded && len(s.offsetIndex.ents) > s.offsetIndex.maxEntries() {
			t.Errorf("segment %d: %d offset entries in a file for %d", s.BaseOffset, len(s.offsetIndex.ents), s.offsetIndex.maxEntries())
		}
	}
}

// segmentFiles lists the .log files in the log's directory.
func segmentFiles(d *Disk, dir string) []string {
	var out []string
	for _, e := range d.List(dir) {
		if _, ok := parseSegmentFileName(e.Name); ok {
			out = append(out, e.Name)
		}
	}
	return out
}
