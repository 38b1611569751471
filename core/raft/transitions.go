package raft

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Node-level transitions: the quorum state change plus its side effects,
// as KafkaRaftClient's transitionTo*/onBecome* do. Every transition resets
// the connections, so responses to requests of the previous state are
// dropped as stale.

// leaving runs the side effects of leaving the current state before a
// transition: a leader answers its parked fetches and tells its listeners
// it stopped leading; a follower drops a half-downloaded snapshot.
func (n *Node) leaving(env *sim.Env) {
	switch s := n.quorum.state.(type) {
	case *leaderState:
		n.leaderStopped()
		n.completeParkedFetches(env, protocol.NOT_LEADER_OR_FOLLOWER)
		for _, c := range n.listeners {
			if c.ledEpoch == s.epochNum {
				c.ledEpoch = -1
				n.notify(func() { c.l.HandleResign(env, s.epochNum) })
			}
		}
	case *followerState:
		if s.download != nil {
			s.download.abort(n.cfg.Disk)
			s.download = nil
		}
	}
}

func (n *Node) noteTransition(env *sim.Env, why string) {
	n.noteTransitionNote(env, event.RaftTransition{Why: why})
}

// noteTransitionNote completes e with the node's new state and notes it.
func (n *Node) noteTransitionNote(env *sim.Env, e event.RaftTransition) {
	le := n.quorum.leaderAndEpoch()
	e.Node, e.Role, e.Epoch, e.Leader = n.cfg.NodeID, n.quorum.role().String(), le.Epoch, le.LeaderID
	env.Note(e)
}

func (n *Node) transitionToCandidate(env *sim.Env) {
	why := "election"
	if n.cfg.PreVote {
		why = "won the pre-vote"
	}
	n.leaving(env)
	n.quorum.transitionToCandidate(env.Now())
	n.noteTransition(env, why)
	n.maybeFireLeaderChange(env)
	n.onBecomeCandidate(env)
}

// transitionToProspective starts a pre-vote (Kafka 4.x). The listeners
// are not told: the node still names the leader it had, and the epoch is
// unchanged (KafkaRaftClient.transitionToProspective).
func (n *Node) transitionToProspective(env *sim.Env, why string) {
	n.leaving(env)
	n.quorum.transitionToProspective(env.Now())
	n.noteTransition(env, why)
	n.onBecomeProspective(env)
}

// onBecomeProspective: a lone voter has its majority already.
func (n *Node) onBecomeProspective(env *sim.Env) {
	p := n.quorum.state.(*prospectiveState)
	if !n.maybeTransitionToCandidate(env, p) {
		n.reqs.resetAll()
		n.electionStarted(env.Now())
	}
}

func (n *Node) maybeTransitionToCandidate(env *sim.Env, p *prospectiveState) bool {
	if !p.isVoteGranted() {
		return false
	}
	n.transitionToCandidate(env)
	return true
}

// prospectiveTransitionAfterElectionLoss: a lost or timed-out pre-vote
// sends the node back to the leader it knew, in the same epoch, or to
// Unattached when it knew none (KafkaRaftClient, 4.x). Following again
// means a whole fetch timeout before the next pre-vote.
func (n *Node) prospectiveTransitionAfterElectionLoss(env *sim.Env, p *prospectiveState, why string) {
	n.leaving(env)
	if p.leaderID != NoLeader {
		n.quorum.transitionToFollower(env.Now(), p.epochNum, p.leaderID)
	} else {
		n.quorum.transitionToUnattached(env.Now(), p.epochNum)
	}
	n.noteTransitionNote(env, event.RaftTransition{Why: why, PreVoteLost: true})
	n.maybeFireLeaderChange(env)
	if p.leaderID != NoLeader {
		n.onBecomeFollower(env)
		return
	}
	n.reqs.resetAll()
}

// onBecomeCandidate: a lone voter has its majority already.
func (n *Node) onBecomeCandidate(env *sim.Env) {
	c := n.quorum.state.(*candidateState)
	if !n.maybeTransitionToLeader(env, c) {
		n.reqs.resetAll()
		n.electionStarted(env.Now())
	}
}

func (n *Node) maybeTransitionToLeader(env *sim.Env, c *candidateState) bool {
	if !c.isVoteGranted() {
		return false
	}
	n.onBecomeLeader(env)
	return true
}

func (n *Node) transitionToUnattached(env *sim.Env, epoch int32, why string) {
	n.leaving(env)
	n.quorum.transitionToUnattached(env.Now(), epoch)
	n.noteTransition(env, why)
	n.maybeFireLeaderChange(env)
	n.reqs.resetAll()
}

func (n *Node) transitionToVoted(env *sim.Env, candidate, epoch int32) {
	n.leaving(env)
	n.quorum.transitionToVoted(env.Now(), epoch, candidate)
	n.noteTransition(env, fmt.Sprintf("voted for %d", candidate))
	n.maybeFireLeaderChange(env)
	n.reqs.resetAll()
}

func (n *Node) transitionToFollower(env *sim.Env, epoch, leader int32, why string) {
	n.leaving(env)
	n.quorum.transitionToFollower(env.Now(), epoch, leader)
	n.noteTransition(env, why)
	n.maybeFireLeaderChange(env)
	n.onBecomeFollower(env)
}

// onBecomeFollower: parked fetches (there are none unless this node just
// stopped leading) are answered so their senders retry at the new leader.
func (n *Node) onBecomeFollower(env *sim.Env) {
	n.electionEnded(env.Now())
	n.reqs.resetAll()
	n.completeParkedFetches(env, protocol.NOT_LEADER_OR_FOLLOWER)
}

// transitionToResigned gives up the epoch, naming the voters that are most
// caught up as preferred successors.
func (n *Node) transitionToResigned(env *sim.Env, successors []int32, why string) {
	n.leaving(env)
	n.quorum.transitionToResigned(env.Now(), successors)
	n.noteTransition(env, why)
	n.maybeFireLeaderChange(env)
	n.reqs.resetAll()
}

// onBecomeLeader takes the epoch: it records the epoch in the epoch cache
// at the log end offset, and appends a LeaderChangeMessage at once, because
// the high watermark cannot move until an entry of the new epoch is
// committed (KafkaRaftClient.onBecomeLeader, KafkaRaftClient.java:522-547).
func (n *Node) onBecomeLeader(env *sim.Env) {
	n.leaving(env)
	leo := n.log.endOffset()
	s := n.quorum.transitionToLeader(env.Now(), leo)
	n.noteTransition(env, "won election")
	if err := n.log.log.AssignEpoch(s.epochNum); err != nil {
		panic(fmt.Sprintf("raft: assigning epoch %d: %v", s.epochNum, err))
	}
	msg := LeaderChangeMessage{LeaderID: n.cfg.NodeID, Voters: n.voters, GrantingVoters: s.grantingVoters}
	batch := controlBatch(leo, s.epochNum, env.Now().UnixMilli(), ControlLeaderChange, msg.Encode())
	if _, err := n.log.log.AppendAsLeader(batch, s.epochNum); err != nil {
		panic(fmt.Sprintf("raft: appending the LeaderChangeMessage: %v", err))
	}
	n.appended(env.Now(), 1)
	n.flushLeaderLog(env, s)
	n.reqs.resetAll()
	n.electionEnded(env.Now())
}
