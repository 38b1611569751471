package raft

// RaftMetrics are the gauges of Kafka's raft-metrics group
// (KafkaRaftMetrics: kafka.server:type=raft-metrics), read now. Their
// rates and latencies (commit-latency-avg, append-records-rate, ...) are
// not kept: the quorum's idle NoOp cycles run in closed form.
type RaftMetrics struct {
	// State is current-state: leader, candidate, voted, follower,
	// observer or unattached in 3.8; Kafka 4.x (KIP-996's pre-vote) says
	// prospective, prospective-voted and unattached-voted too, and
	// unattached-voted instead of voted.
	State string
	// Leader is current-leader (-1: unknown); Vote current-vote: the
	// node itself while it leads or is a candidate, else the voter it
	// voted for in the epoch (3.8 reads it in the voted state only; 4.x
	// from the epoch's election record, so a follower that voted shows
	// its vote), -1 otherwise.
	Leader, Vote, Epoch int32
	// HighWatermark (-1 unknown), LogEndOffset and LogEndEpoch.
	HighWatermark, LogEndOffset int64
	LogEndEpoch                 int32
}

// Metrics reads the raft-metrics gauges.
func (n *Node) Metrics() RaftMetrics {
	m := RaftMetrics{State: "unattached", Leader: -1, Vote: -1, HighWatermark: -1}
	if !n.started {
		return m
	}
	le := n.LeaderAndEpoch()
	m.Leader, m.Epoch = le.LeaderID, le.Epoch
	if !le.HasLeader() {
		m.Leader = -1
	}
	m.HighWatermark, m.LogEndOffset, m.LogEndEpoch = n.HighWatermark(), n.LogEndOffset(), n.LastFetchedEpoch()
	e := n.quorum.state.election()
	voted := e.votedID != notVoted
	newNames := n.cfg.PreVote
	switch n.Role() {
	case RoleLeader:
		m.State, m.Vote = "leader", n.cfg.NodeID
	case RoleCandidate:
		m.State, m.Vote = "candidate", n.cfg.NodeID
	case RoleProspective:
		m.State = "prospective"
		if voted {
			m.State, m.Vote = "prospective-voted", e.votedID
		}
	case RoleVoted:
		m.State, m.Vote = "voted", e.votedID
		if newNames {
			m.State = "unattached-voted"
		}
	case RoleFollower:
		m.State = "follower"
		if n.observer {
			m.State = "observer"
		}
	}
	if newNames && m.Vote < 0 && voted {
		m.Vote = e.votedID
	}
	return m
}
