package storage

import (
	"fmt"
	"strings"
	"testing"

	"kafkascope/core/record"
)

// Helpers for the cleaner tests: a log written one keyed record per batch,
// rolled by hand, and readers of what survived.

// kv is one record to append: value "<nil>" writes a tombstone, key ""
// a keyless record.
type kv struct {
	key, value string
	ts         int64
}

func (r kv) record() record.Record {
	rec := record.Record{Timestamp: r.ts}
	if r.key != "" {
		rec.Key = []byte(r.key)
	}
	if r.value != "<nil>" {
		rec.Value = []byte(r.value)
	}
	return rec
}

// appendBatch appends recs as one batch from producer p (leader epoch 0)
// and moves the HW to the LEO, as if every replica had it.
func appendBatch(t *testing.T, l *Log, p record.ProducerInfo, recs ...kv) {
	t.Helper()
	rs := make([]record.Record, len(recs))
	for i, r := range recs {
		rs[i] = r.record()
	}
	if _, err := l.AppendAsLeader(record.Build(0, -1, p, rs), 0); err != nil {
		t.Fatalf("append: %v", err)
	}
	l.UpdateHighWatermark(l.LogEndOffset())
}

// appendEach appends every record as its own batch.
func appendEach(t *testing.T, l *Log, recs ...kv) {
	t.Helper()
	for _, r := range recs {
		appendBatch(t, l, record.NoProducer(), r)
	}
}

// rollNow closes the active segment and starts a new one at the LEO, as
// Kafka's log.roll() in its cleaner tests.
func rollNow(t *testing.T, l *Log) {
	t.Helper()
	if _, err := l.roll(l.LogEndOffset()); err != nil {
		t.Fatal(err)
	}
}

// readAll is every batch of the log, read as a consumer would: a read
// stays within one segment, so it reads on from after the last batch.
func readAll(t *testing.T, l *Log) []record.Batch {
	t.Helper()
	var out []record.Batch
	for from := l.LogStartOffset(); from < l.LogEndOffset(); {
		bs := decodeAll(t, mustRead(t, l, from, 1<<30, l.LogEndOffset(), true))
		if len(bs) == 0 {
			break
		}
		out = append(out, bs...)
		from = bs[len(bs)-1].LastOffset() + 1
	}
	return out
}

// survivor is a record as "offset:key=value" (value "<nil>" for a tombstone).
func survivors(t *testing.T, l *Log) []string {
	t.Helper()
	var out []string
	for _, b := range readAll(t, l) {
		for _, r := range b.Records {
			v := "<nil>"
			if r.Value != nil {
				v = string(r.Value)
			}
			out = append(out, fmt.Sprintf("%d:%s=%s", r.Offset, r.Key, v))
		}
	}
	return out
}

// keysAndOffsets are survivors split as Kafka's tests check them.
func keysAndOffsets(t *testing.T, l *Log) (keys []string, offsets []int64) {
	t.Helper()
	for _, b := range readAll(t, l) {
		for _, r := range b.Records {
			keys = append(keys, string(r.Key))
			offsets = append(offsets, r.Offset)
		}
	}
	return keys, offsets
}

// segmentBases lists the log's segments' base offsets.
func segmentBases(l *Log) []int64 {
	var out []int64
	for _, s := range l.Segments() {
		out = append(out, s.BaseOffset)
	}
	return out
}

// cleanOnce measures the log from firstDirty (the checkpointed offset) and
// runs a pass at nowMs with a map of capacity keys.
func cleanOnce(t *testing.T, l *Log, cfg CleanerLogConfig, firstDirty int64, capacity int, nowMs int64) CleanResult {
	t.Helper()
	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: cfg}, firstDirty, true, nowMs)
	res, err := Clean(&ltc, NewOffsetMap(capacity), nowMs)
	if err != nil {
		t.Fatalf("Clean: %v", err)
	}
	checkInvariants(t, l)
	return res
}

func joined(xs []string) string { return strings.Join(xs, " ") }
