package raft

import "fmt"

// Role is a node's state in the current epoch, as Kafka's QuorumState names
// them (EpochState.name()). Observers (nodes that are not voters) are only
// ever Unattached or Follower.
type Role uint8

const (
	// RoleUnattached: the epoch is known, its leader is not, and this node
	// has not voted in it. A voter becomes a candidate when its randomised
	// election timeout expires; an observer fetches from any voter to find
	// the leader.
	RoleUnattached Role = iota + 1
	// RoleVoted: this voter granted its one vote of the epoch.
	RoleVoted
	// RoleCandidate: this voter asks for votes in an epoch it started.
	RoleCandidate
	// RoleLeader: this voter won the epoch.
	RoleLeader
	// RoleFollower: the epoch's leader is known; the node fetches from it.
	RoleFollower
	// RoleResigned: this voter was the epoch's leader and gave it up (or
	// restarted as leader); it still names itself leader of the epoch so it
	// can never vote in it, and tells the others with EndQuorumEpoch.
	RoleResigned
	// RoleProspective (Kafka 4.x, KIP-996): this voter lost its leader (or
	// has none) and asks the others in a pre-vote whether they would elect
	// it, still in its epoch; only a won pre-vote makes it a candidate.
	RoleProspective
)

func (r Role) String() string {
	switch r {
	case RoleUnattached:
		return "Unattached"
	case RoleVoted:
		return "Voted"
	case RoleCandidate:
		return "Candidate"
	case RoleLeader:
		return "Leader"
	case RoleFollower:
		return "Follower"
	case RoleResigned:
		return "Resigned"
	case RoleProspective:
		return "Prospective"
	}
	return fmt.Sprintf("Role(%d)", r)
}

// NoLeader is the leader id of an epoch whose leader is unknown (Kafka's
// -1 sentinel on the wire and in quorum-state).
const NoLeader int32 = -1

// LeaderAndEpoch is what Kafka's RaftClient.leaderAndEpoch reports: the
// epoch and its leader, NoLeader if unknown.
type LeaderAndEpoch struct {
	LeaderID int32
	Epoch    int32
}

// HasLeader reports whether the leader is known.
func (le LeaderAndEpoch) HasLeader() bool { return le.LeaderID >= 0 }

func (le LeaderAndEpoch) String() string {
	if le.LeaderID < 0 {
		return fmt.Sprintf("epoch %d, leader unknown", le.Epoch)
	}
	return fmt.Sprintf("epoch %d, leader %d", le.Epoch, le.LeaderID)
}
