package groupcoordinator

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// A write to __consumer_offsets changes the coordinator's memory at once
// (its records are replayed) but is acknowledged only when the records
// commit. An operation that writes nothing but reads that memory — a
// consumer group heartbeat with nothing to record — must not expose state
// that may never commit: Kafka's CoordinatorRuntime parks such an
// operation behind the partition's highest pending write
// (CoordinatorWriteEvent.run: "the read needs to wait on the last write
// operation to be completed", DeferredEventQueue) and answers it when that
// write completes. pendingWrites tracks the KIP-848 writes still in flight
// per partition so a read can wait on the last one.

// pendingWrite is one write in flight and the reads waiting on it.
type pendingWrite struct {
	waiters []func(env *sim.Env, code protocol.ErrorCode)
}

// beginWrite records a write in flight on partition; finishWrite ends it.
func (c *Coordinator) beginWrite(partition int32) *pendingWrite {
	if c.pending == nil {
		c.pending = map[int32][]*pendingWrite{}
	}
	w := &pendingWrite{}
	c.pending[partition] = append(c.pending[partition], w)
	return w
}

// finishWrite ends write w with the append's result and answers the reads
// that waited on it with the same result (a failed write's readers see
// its error: the state they would have read is not durable).
func (c *Coordinator) finishWrite(env *sim.Env, partition int32, w *pendingWrite, code protocol.ErrorCode) {
	c.pending[partition] = slices.DeleteFunc(c.pending[partition], func(x *pendingWrite) bool { return x == w })
	if len(c.pending[partition]) == 0 {
		delete(c.pending, partition)
	}
	for _, f := range w.waiters {
		f(env, code)
	}
}

// afterPendingWrites runs f once the partition's last write in flight
// completes, with its result, or at once with NONE when none is in flight.
// It reports whether f ran at once.
func (c *Coordinator) afterPendingWrites(env *sim.Env, partition int32, f func(env *sim.Env, code protocol.ErrorCode)) bool {
	ws := c.pending[partition]
	if len(ws) == 0 {
		f(env, protocol.NONE)
		return true
	}
	last := ws[len(ws)-1]
	last.waiters = append(last.waiters, f)
	return false
}

// awaitLogEnd ends write w only when the partition's HW reaches the end
// of the batches (the local log, read again when nil) or the broker stops
// leading it.
func (c *Coordinator) awaitLogEnd(env *sim.Env, partition int32, batches []record.Batch, w *pendingWrite) {
	if batches == nil {
		batches = c.host.ReadLog(partition)
	}
	var end int64
	if len(batches) > 0 {
		end = batches[len(batches)-1].NextOffset()
	}
	c.host.AwaitCommitted(env, partition, end, func(env *sim.Env, code protocol.ErrorCode) {
		c.finishWrite(env, partition, w, code)
	})
}
