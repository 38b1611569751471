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
// batch.
type ReplicaRecord struct {
	record.Record
	BatchEpoch int32
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
		batches, err := log.Batches(log.LogStartOffset(), log.LogEndOffset())
		if err != nil {
			r.Err = err
			out = append(out, r)
			continue
		}
	batches:
		for _, b := range batches {
			for _, rec := range b.Records {
				if len(r.Records) == maxRecords {
					r.More = true
					break batches
				}
				r.Records = append(r.Records, ReplicaRecord{Record: rec, BatchEpoch: b.PartitionLeaderEpoch})
			}
		}
		out = append(out, r)
	}
	return out
}
