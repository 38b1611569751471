package event

import "kafkascope/core/sim"

// RaftTransition: a KRaft node changed its role in the controller quorum
// (QuorumState's transitions), now in quorum epoch Epoch with Leader as
// the leader it knows (-1: none); Why says what made it move.
type RaftTransition struct {
	Node   int32
	Role   string // Unattached, Voted, Candidate, Leader, Follower or Resigned
	Epoch  int32
	Leader int32
	Why    string
}

func (RaftTransition) Key() string { return "raft.transition" }
func (e RaftTransition) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("role", e.Role)
	w.Int("epoch", int64(e.Epoch))
	w.Int("leader", int64(e.Leader))
	w.Str("why", e.Why)
}
