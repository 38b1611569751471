package controller

import "kafkascope/core/sim"

// quorumOffsets are the QuorumControllerMetrics gauges that follow the
// metadata log, kept as Kafka 3.8's OffsetControlManager keeps them:
//   - LastCommittedRecordOffset: the last offset of the last committed
//     batch replayed (or of the snapshot loaded); -1 before any.
//   - LastAppliedRecordOffset: on the active controller the last offset
//     it wrote (handleScheduleAtomicAppend, before the commit); on a
//     standby the last committed one; when the active steps down, the
//     last committed (stable) offset.
//   - LastAppliedRecordTimestamp: on the active controller the time it
//     wrote; on a standby the committed batch's append timestamp (a
//     snapshot's last contained log timestamp when one is loaded); -1
//     before any. LastAppliedRecordLagMs is the time since.
//
// Activation changes neither applied value: they hold what the standby
// last replayed until the new active controller writes.
type quorumOffsets struct {
	lastCommitted, lastApplied int64
	appliedMs                  int64
}

func newQuorumOffsets() quorumOffsets {
	return quorumOffsets{lastCommitted: -1, lastApplied: -1, appliedMs: -1}
}

// wrote: the active controller appended records up to offset last at at.
func (q *quorumOffsets) wrote(last int64, at sim.Time) {
	q.lastApplied, q.appliedMs = last, at.UnixMilli()
}

// committed: a batch (or a leap's run of them) ending at last, appended
// at appendMs, was replayed.
func (q *quorumOffsets) committed(active bool, last, appendMs int64) {
	q.lastCommitted = last
	if !active {
		q.lastApplied, q.appliedMs = last, appendMs
	}
}

// deactivated: the active controller stepped down, back to the committed
// state it had replayed.
func (q *quorumOffsets) deactivated(lastStable int64) { q.lastApplied = lastStable }

// loaded: a snapshot ending at offset last was loaded.
func (q *quorumOffsets) loaded(last, timestampMs int64) {
	q.lastCommitted, q.lastApplied, q.appliedMs = last, last, timestampMs
}
