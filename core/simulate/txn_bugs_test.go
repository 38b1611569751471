package simulate

import "testing"

// Seeds whose transactional workloads found engine bugs, kept clean:
//   - 4 on 2.8 (also 72 and 80 on KRaft): the transaction coordinator
//     dropped a partition with no leader from a transaction it completed,
//     which stayed open there (txn-open-forever) or was closed later by
//     another transaction's marker (txn-atomic); Kafka drops only a
//     partition whose topic is gone and queues the others' markers until
//     a leader is known (TransactionMarkerChannelManager
//     .addTxnMarkersToBrokerQueue, markersQueueForUnknownBroker).
//   - 77 on 2.8: a send that failed before its batch existed (metadata
//     not known within max.block.ms) left the transaction committable;
//     KafkaProducer.doSend makes it abortable
//     (TransactionManager.maybeTransitionToErrorState).
//   - 12 and 55 on 2.8: a consumer whose position was reset after
//     OFFSET_OUT_OF_RANGE went back to where its last fetch had ended
//     (the end of a log since truncated) at the next poll, and was reset
//     again, forever: a position set by ListOffsets or a committed offset
//     now moves the fetched end with it (position.seek).
//   - 461 (4.3): a new active controller started from a clone of the
//     image that lost its next producer id, and handed block [0, 999]
//     out again: two producers shared id 0, and a partition took one's
//     batch for the other's duplicate (acked-write-lost; now
//     producer-id-unique too).
//   - 120 with --version 4.3 (transactions v2): a batch sent once and
//     re-enqueued after a retriable error while the application aborted
//     stayed queued past the abort's EndTxn, which had waited only for
//     batches in flight, and went out in the next transaction under the
//     bumped epoch (txn-atomic, txn-duplicate). Kafka's EndTxn waits for
//     every incomplete batch (TransactionManager.nextRequest with
//     accumulator.hasIncomplete), and only batches never sent are failed
//     (RecordAccumulator.abortUndrainedBatches), on every sender loop
//     while the transaction aborts or must.
func TestTransactionSeedsThatFoundBugs(t *testing.T) {
	if raceEnabled {
		t.Skip("not under -race")
	}
	for _, c := range []struct {
		seed uint64
		opts Options
	}{{4, Options{Version: kafka28}}, {12, Options{Version: kafka28}}, {55, Options{Version: kafka28}}, {77, Options{Version: kafka28}}, {72, Options{}}, {80, Options{}}, {461, Options{}}, {120, Options{Version: kafka43}}} {
		if run := mustSimulate(t, c.seed, c.opts); len(run.Violations) > 0 {
			t.Errorf("seed %d (%v):\n%s", c.seed, c.opts.Version, run.Report())
		}
	}
}
