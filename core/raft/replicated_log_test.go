package raft

import (
	"fmt"
	"testing"

	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// TestBatchEndingBeforeFindsEveryBatchEnd checks the binary search of
// batchEndingBefore against the batches appended, on a log of several
// segments with batches of one to three entries: every batch end is found
// with its own max timestamp, and offsets inside a batch, below the log or
// past its end are not batch ends.
func TestBatchEndingBeforeFindsEveryBatchEnd(t *testing.T) {
	var now sim.Time
	r, _, err := openReplicatedLog(storage.NewDisk(func() sim.Time { return now }), testLogDir, 1024)
	if err != nil {
		t.Fatal(err)
	}
	// The timestamp each batch end was appended with.
	appended := map[int64]int64{}
	for i := 0; i < 200; i++ {
		payloads := make([][]byte, 1+i%3)
		for j := range payloads {
			payloads[j] = []byte(fmt.Sprintf("payload %d/%d", i, j))
		}
		if _, err := r.log.AppendAsLeader(dataBatch(r.endOffset(), 1, int64(1000+i), payloads), 1); err != nil {
			t.Fatal(err)
		}
		appended[r.endOffset()] = int64(1000 + i)
	}
	if n := len(r.log.Segments()); n < 5 {
		t.Fatalf("the log has %d segments; the test needs several", n)
	}
	ends := 0
	for end := int64(-2); end <= r.endOffset()+2; end++ {
		wantTs, wantOK := appended[end]
		gotTs, gotOK, err := r.batchEndingBefore(end)
		if err != nil || gotTs != wantTs || gotOK != wantOK {
			t.Fatalf("batchEndingBefore(%d) = %d, %v, %v; the batch appended to end there has timestamp %d, %v", end, gotTs, gotOK, err, wantTs, wantOK)
		}
		if gotOK {
			ends++
		}
	}
	if ends != 200 {
		t.Fatalf("found %d batch ends, want 200", ends)
	}
}
