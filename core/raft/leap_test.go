package raft

import (
	"reflect"
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// A leap hands the listeners each NoOp's batch as deliverNoOps builds it,
// without reading it back: it must be the batch a read decodes from what
// the leader appended (dataBatch).
func TestLeapedNoOpBatchIsTheDecodedOne(t *testing.T) {
	payload := []byte{0, 20, 0, 0}
	noops := NoOps{Timer: sim.QueuedEvent{At: sim.Time(90 * time.Second)}, Interval: 500 * time.Millisecond, Count: 3, Payload: payload}
	const base, epoch = int64(41), int32(7)
	for i := 0; i < noops.Count; i++ {
		off := base + int64(i)
		b, _, err := record.Decode(dataBatch(off, epoch, noops.at(i).UnixMilli(), [][]byte{payload}))
		if err != nil {
			t.Fatal(err)
		}
		want := committedBatch(b)
		got := leapedNoOp(noops, base, epoch, off)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("NoOp %d: the leap hands over %+v, a read decodes %+v", i, got, want)
		}
	}
}

// A leap builds its NoOps' batches from the first (NoOps.run): each
// must be the batch the leader's Append would build at its offset and
// time, whatever order they are asked for in (the batches share one
// buffer), and the run a log keeps must make the same bytes.
func TestLeapedNoOpBatchesAreBuiltOnes(t *testing.T) {
	payload := []byte{0, 20, 0, 0}
	noops := NoOps{Timer: sim.QueuedEvent{At: sim.Time(90*time.Second + 7*time.Millisecond)}, Interval: 500 * time.Millisecond, Count: 4, Payload: payload}
	const base, epoch = int64(41), int32(7)
	batches := noops.run(base, epoch).batches()
	for _, i := range []int{0, 1, 1, 2, 3, 0, 2, 1} {
		rb := batches.at(i)
		got := rb.V
		want := dataBatch(base+int64(i), epoch, noops.at(i).UnixMilli(), [][]byte{payload})
		if !reflect.DeepEqual(got.Bytes(), want) {
			t.Fatalf("NoOp %d:\n%x\nbuilt\n%x", i, got.Bytes(), want)
		}
		if h, _ := record.ParseHeader(want); got.Header() != h {
			t.Fatalf("NoOp %d: header %+v, built %+v", i, got.Header(), h)
		}
		made := make([]byte, rb.Run.BatchSize())
		if rb.Run.Batch(rb.I, made); rb.I != i || !reflect.DeepEqual(made, want) {
			t.Fatalf("NoOp %d: the run makes batch %d as\n%x\nbuilt\n%x", i, rb.I, made, want)
		}
	}
}
