package view

import (
	"kafkascope/core/cluster"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// ReplicaLog is one broker's replica of a partition as that broker holds
// it, running or not (a stopped broker's last state): what the console's
// replicas command prints. No Kafka tool shows a follower's HW or epoch
// cache; the simulator can.
type ReplicaLog struct {
	Broker      int32
	State       cluster.NodeState
	Leader      bool // the broker believes it leads the partition
	LEO, HW     int64
	LSO         int64 // the last stable offset: HW, or the first offset of a transaction still open below it
	LeaderEpoch int32
	ISR         []int32 // the ISR as the leader holds it (nil on a follower)
	Epochs      []storage.EpochEntry
	// Records are the replica's records from its log start, at most the
	// limit asked for; More says the log holds more.
	Records []ReplicaRecord
	More    bool
	Err     error // the log could not be read (Records are then empty)
}

// ReplicaRecord is one record of a replica and the leader epoch of its
// batch; for a transaction's records, the producer and how the
// transaction ended as far as this log knows.
type ReplicaRecord struct {
	record.Record
	BatchEpoch int32
	// Control is a control record's type (COMMIT, ABORT, ...; "" for data).
	Control       string
	ProducerID    int64 // of a transactional or control batch
	ProducerEpoch int16
	// Txn is a transactional data record's outcome in this log:
	// TxnCommitted, TxnAborted, or TxnOpen (no marker after it yet).
	Txn TxnOutcome
}

// TxnOutcome is what a replica's log says of a transactional record.
type TxnOutcome uint8

const (
	NotTransactional TxnOutcome = iota
	TxnOpen
	TxnCommitted
	TxnAborted
)

func (o TxnOutcome) String() string {
	return [...]string{"", "open", "committed", "aborted"}[o]
}

// ReplicaLogs reads every broker's replica of tp, in broker id order, with
// at most maxRecords records each.
func ReplicaLogs(c *cluster.Cluster, tp storage.TopicPartition, maxRecords int) []ReplicaLog {
	var out []ReplicaLog
	for _, id := range c.NodeIDs() {
		n := c.Node(id)
		if n == nil || n.Broker == nil {
			continue
		}
		p := n.Broker.Partition(tp)
		if p == nil {
			continue
		}
		log := p.Log()
		r := ReplicaLog{Broker: id, State: c.State(id), Leader: p.IsLeader(),
			LEO: log.LogEndOffset(), HW: log.HighWatermark(), LeaderEpoch: p.LeaderEpoch(),
			Epochs: log.Epochs().Entries()}
		if r.Leader {
			r.ISR = p.ISR()
		}
		lso, err := log.LastStableOffset()
		r.LSO = lso
		var batches []record.Batch
		if err == nil {
			batches, err = log.Batches(log.LogStartOffset(), log.LogEndOffset())
		}
		if err != nil {
			r.Err = err
			out = append(out, r)
			continue
		}
		r.Records, r.More = replicaRecords(batches, maxRecords)
		out = append(out, r)
	}
	return out
}

// replicaRecords lists the records of batches, at most max of them, and
// resolves each transactional record by the marker its producer wrote
// next in the log (a transaction's records precede its marker; one
// producer has at most one transaction open). Records before the log
// start whose marker is in the log are not listed, so nothing is lost.
func replicaRecords(batches []record.Batch, max int) (recs []ReplicaRecord, more bool) {
	open := map[int64][]int{} // producer id → indexes of its undecided records
	for _, b := range batches {
		if b.IsControl() {
			outcome := TxnAborted
			for _, rec := range b.Records {
				name := "UNKNOWN"
				if typ, err := record.ParseControlKey(rec.Key); err == nil {
					name = typ.String()
					if typ == record.ControlCommit {
						outcome = TxnCommitted
					}
				}
				if len(recs) < max {
					recs = append(recs, ReplicaRecord{Record: rec, BatchEpoch: b.PartitionLeaderEpoch, Control: name, ProducerID: b.ProducerID, ProducerEpoch: b.ProducerEpoch})
				} else {
					more = true
				}
			}
			for _, i := range open[b.ProducerID] {
				recs[i].Txn = outcome
			}
			delete(open, b.ProducerID)
			continue
		}
		for _, rec := range b.Records {
			if len(recs) == max {
				more = true
				break
			}
			rr := ReplicaRecord{Record: rec, BatchEpoch: b.PartitionLeaderEpoch}
			if b.IsTransactional() {
				rr.ProducerID, rr.Txn = b.ProducerID, TxnOpen
				open[b.ProducerID] = append(open[b.ProducerID], len(recs))
			}
			recs = append(recs, rr)
		}
	}
	return recs, more
}
