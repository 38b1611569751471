package storage

import (
	"fmt"
	"slices"
	"testing"

	"kafkascope/core/record"
)

// appendTxn appends recs as one transactional batch of producer pid
// (epoch 0, sequences from seq) and moves the HW to the LEO.
func appendTxn(t *testing.T, l *Log, pid int64, seq int32, recs ...kv) {
	t.Helper()
	rs := make([]record.Record, len(recs))
	for i, r := range recs {
		rs[i] = r.record()
	}
	b, _, err := record.Decode(record.Build(0, -1, record.ProducerInfo{ID: pid, Epoch: 0, BaseSequence: seq}, rs))
	if err != nil {
		t.Fatal(err)
	}
	b.Attributes |= record.TransactionalFlagMask
	if _, err := l.AppendAsLeader(b.AppendTo(nil), 0); err != nil {
		t.Fatalf("append: %v", err)
	}
	l.UpdateHighWatermark(l.LogEndOffset())
}

// batchesOf lists the log's batches as "offset:k=v", "offset:COMMIT" /
// "offset:ABORT" (a marker, "+horizon" once it has a delete horizon), or
// "offset-last:empty" (a batch kept for its producer's state only).
func batchesOf(t *testing.T, l *Log) []string {
	t.Helper()
	var out []string
	for _, b := range readAll(t, l) {
		switch {
		case len(b.Records) == 0:
			out = append(out, fmt.Sprintf("%d-%d:empty", b.BaseOffset, b.LastOffset()))
		case b.IsControl():
			m, err := record.ParseEndTxnMarker(b.Records[0].Key, b.Records[0].Value)
			if err != nil {
				t.Fatal(err)
			}
			s := fmt.Sprintf("%d:%s", b.BaseOffset, m.Type)
			if _, ok := b.DeleteHorizonMs(); ok {
				s += "+horizon"
			}
			out = append(out, s)
		default:
			for _, r := range b.Records {
				out = append(out, fmt.Sprintf("%d:%s=%s", r.Offset, r.Key, r.Value))
			}
		}
	}
	return out
}

// Compaction of a log with transactions, pass by pass, as Kafka 3.8's
// LogCleaner does it (CleanedTransactionMetadata, LogCleanerTest's
// transaction tests):
//
//  1. aborted data goes at once whatever its key, and its key does not
//     hide the older committed value; the ABORT marker stays (this pass met
//     its data) with its entry in the cleaned segment's .txnindex, so a
//     read_committed consumer still skips what remains;
//  2. the next pass finds no data of the aborted transaction: the marker
//     gets a delete horizon, and its index entry goes;
//  3. a pass past the horizon drops it. A COMMIT marker stays while its
//     transaction's batch does: here the producer's last batch, kept
//     (emptied, once its key is overwritten) for the producer's state.
func TestCleanTransactions(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k1", "old", 1000})          // 0
	appendTxn(t, l, 7, 0, kv{"k1", "aborted", 1001}) // 1
	marker(t, l, 7, 0, record.ControlAbort, 0)       // 2
	appendTxn(t, l, 7, 1, kv{"k2", "x", 1002})       // 3
	marker(t, l, 7, 0, record.ControlCommit, 0)      // 4
	appendEach(t, l, kv{"k3", "z", 1003})            // 5
	l.UpdateHighWatermark(l.LogEndOffset())
	rollNow(t, l)
	appendEach(t, l, kv{"k9", "-", 1004}) // 6: the active segment

	cfg := DefaultCleanerLogConfig
	cfg.DeleteRetentionMs = 1000
	res := cleanOnce(t, l, cfg, 0, 100, 5000)
	want := []string{"0:k1=old", "2:ABORT", "3:k2=x", "4:COMMIT", "5:k3=z", "6:k9=-"}
	if got := batchesOf(t, l); !slices.Equal(got, want) {
		t.Fatalf("first pass: %v, want %v", got, want)
	}
	aborted := []AbortedTxn{{ProducerID: 7, FirstOffset: 1, LastOffset: 2, LastStableOffset: 3}}
	if got, err := l.AbortedTxns(0, 6); err != nil || !slices.Equal(got, aborted) {
		t.Fatalf("aborted transactions after the first pass: %v, %v; want %v", got, err, aborted)
	}

	// More data overwrites k2 and k3; the next pass cleans from where the
	// first ended.
	appendEach(t, l, kv{"k2", "y", 1005}, kv{"k3", "z2", 1006}) // 7, 8
	rollNow(t, l)
	appendEach(t, l, kv{"k9", "-", 1007}) // 9
	res = cleanOnce(t, l, cfg, res.EndOffset, 100, 6000)
	want = []string{"0:k1=old", "2:ABORT+horizon", "3-3:empty", "4:COMMIT", "6:k9=-", "7:k2=y", "8:k3=z2", "9:k9=-"}
	if got := batchesOf(t, l); !slices.Equal(got, want) {
		t.Fatalf("second pass: %v, want %v", got, want)
	}
	if got, _ := l.AbortedTxns(0, 9); len(got) != 0 {
		t.Fatalf("the marker that may go still has its index entry: %v", got)
	}

	// Past the horizon (6000 + 1000) the ABORT marker goes. The COMMIT
	// stays: the empty batch of its transaction is producer 7's last.
	appendEach(t, l, kv{"k9", "--", 1008}) // 10
	rollNow(t, l)
	appendEach(t, l, kv{"k8", "-", 1009}) // 11
	cleanOnce(t, l, cfg, res.EndOffset, 100, 7001)
	want = []string{"0:k1=old", "3-3:empty", "4:COMMIT", "7:k2=y", "8:k3=z2", "10:k9=--", "11:k8=-"}
	if got := batchesOf(t, l); !slices.Equal(got, want) {
		t.Fatalf("third pass: %v, want %v", got, want)
	}
	// The producer state rebuilt from the cleaned log is the same.
	l.forgetProducerState()
	ps, err := l.ProducerState()
	if err != nil {
		t.Fatal(err)
	}
	if e := ps.LastEntry(7); e == nil || e.LastSeq() != 1 || e.CurrentTxnFirstOffset != -1 {
		t.Fatalf("producer 7 after cleaning: %+v", e)
	}
	if got := lso(t, l); got != l.HighWatermark() {
		t.Fatalf("LSO %d, HW %d: a transaction looks open", got, l.HighWatermark())
	}
}

// A pass never cleans at or past the first offset of an open transaction
// (the last stable offset): its records may yet be aborted.
func TestCleanStopsAtTheLastStableOffset(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	appendEach(t, l, kv{"k1", "a", 1000}, kv{"k1", "b", 1001}) // 0, 1
	rollNow(t, l)
	appendTxn(t, l, 7, 0, kv{"k1", "open", 1002}) // 2: open
	appendEach(t, l, kv{"k1", "c", 1003})         // 3
	rollNow(t, l)
	appendEach(t, l, kv{"k9", "-", 1004}) // 4
	ltc, _ := MeasureLog(CleanCandidate{Log: l, Config: DefaultCleanerLogConfig}, 0, false, 2000)
	if ltc.FirstUncleanableOffset != 2 {
		t.Fatalf("first uncleanable offset %d, want 2 (the open transaction's first offset)", ltc.FirstUncleanableOffset)
	}
	marker(t, l, 7, 0, record.ControlCommit, 0) // 5
	l.UpdateHighWatermark(l.LogEndOffset())
	ltc, _ = MeasureLog(CleanCandidate{Log: l, Config: DefaultCleanerLogConfig}, 0, false, 2000)
	if ltc.FirstUncleanableOffset != 4 {
		t.Fatalf("first uncleanable offset %d once committed, want 4 (the active segment)", ltc.FirstUncleanableOffset)
	}
}
