package event

import (
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// LeaderElected: the controller committed a new leader for a partition
// (a PartitionChangeRecord with a leader): Leader in leader epoch Epoch,
// or no leader (-1, NoLeader). Unclean says the leader was taken from
// outside the ISR (unclean.leader.election.enable), its log recovering
// (LeaderRecoveryState RECOVERING).
type LeaderElected struct {
	TP      storage.TopicPartition
	Leader  int32
	Epoch   int32
	ISR     []int32
	Unclean bool
}

// NoLeader is LeaderElected.Leader when no replica can lead.
const NoLeader = -1

func (LeaderElected) Key() string { return "leader.elected" }
func (e LeaderElected) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	if e.Leader == NoLeader {
		w.Str("leader", "none")
	} else {
		w.Int("leader", int64(e.Leader))
	}
	w.Int("epoch", int64(e.Epoch))
	w.IDs("isr", e.ISR)
	w.Bool("unclean", e.Unclean)
}

// ISRChanged: the controller committed a partition's new ISR (a
// PartitionChangeRecord with an ISR), under Leader.
type ISRChanged struct {
	TP     storage.TopicPartition
	ISR    []int32
	Leader int32
}

func (ISRChanged) Key() string { return "isr.changed" }
func (e ISRChanged) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	w.IDs("isr", e.ISR)
	w.Int("leader", int64(e.Leader))
}
