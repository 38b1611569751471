package client

import (
	"testing"

	"kafkascope/core/sim"
)

// A fetch answer whose partitions are not all read still counts once its
// last partition is done with: one read to the end, the other's buffer
// dropped by a seek after one of its three records (CompletedFetch.drain
// counts what was read, and the batches started). Without the drop the
// answer would never be recorded.
func TestDroppedBufferCountsTheAnswer(t *testing.T) {
	c := &Consumer{metrics: newConsumerMetrics()}
	agg := c.metrics.newAggregate(2)
	a, b := topicPartition{"t", 0}, topicPartition{"t", 1}
	pb := &position{agg: agg, aggBytes: 300, aggRecords: 3, buffer: make([]ConsumerRecord, 2)}
	at := sim.Time(0)
	agg.drained(at, a, 100, 1)
	if got := c.metrics.records.Count(); got != 0 {
		t.Fatalf("recorded %v answers with a partition unread", got)
	}
	c.discardFetched(at, b, pb)
	if got, want := c.metrics.records.Total(), 2.0; got != want {
		t.Errorf("records-consumed-total %v, want %v (1 read of partition 0, 1 of partition 1)", got, want)
	}
	if got, want := c.metrics.bytes.Total(), 400.0; got != want {
		t.Errorf("bytes-consumed-total %v, want %v", got, want)
	}
	if pb.agg != nil {
		t.Error("the dropped partition still points at the answer")
	}
	// Dropped before any record was read: its records and bytes count 0.
	agg2 := c.metrics.newAggregate(1)
	c.discardFetched(at, a, &position{agg: agg2, aggBytes: 50, aggRecords: 2, buffer: make([]ConsumerRecord, 2)})
	if got, want := c.metrics.records.Count(), 2.0; got != want {
		t.Errorf("%v answers recorded, want %v", got, want)
	}
	if got, want := c.metrics.bytes.Total(), 400.0; got != want {
		t.Errorf("bytes-consumed-total %v after an unread drop, want %v", got, want)
	}
}
