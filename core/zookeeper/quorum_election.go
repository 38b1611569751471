package zookeeper

import (
	"time"

	"kafkascope/core/sim"
)

// FastLeaderElection's timing (quorum/FastLeaderElection.java,
// release-3.5.9): once a quorum agrees, wait finalizeWait for a better
// vote; with no notification for notTimeout, send the votes again and
// double it, up to maxNotificationInterval.
const (
	finalizeWait            = 200 * time.Millisecond
	maxNotificationInterval = 60 * time.Second
)

// election is one peer's FastLeaderElection state.
type election struct {
	clock    int64 // logicalclock: the election round
	proposal Vote  // the vote this peer sends (Sid, State unused)
	recv     map[int64]Vote
	outOf    map[int64]Vote
	wait     time.Duration // notTimeout
	final    bool          // a quorum agreed; waiting finalizeWait
	timer    *sim.Timer
	end      Vote // the vote the last election ended on (getCurrentVote)
}

// totalOrder is totalOrderPredicate: the new vote wins on a higher epoch,
// then a higher zxid, then a higher server id.
func totalOrder(newID, newZxid, newEpoch, curID, curZxid, curEpoch int64) bool {
	return newEpoch > curEpoch ||
		newEpoch == curEpoch && (newZxid > curZxid || newZxid == curZxid && newID > curID)
}

func (s *Server) electionAddr(sid int64) sim.Addr {
	return sim.Addr(s.peerHost(sid) + ":" + ElectionPort)
}

func (s *Server) quorumAddr(sid int64) sim.Addr {
	return sim.Addr(s.peerHost(sid) + ":" + QuorumPort)
}

func (s *Server) peerHost(sid int64) string {
	for _, p := range s.cfg.Peers {
		if p.ID == sid {
			return p.Host
		}
	}
	return ""
}

func (s *Server) sidOf(host string) int64 {
	for _, p := range s.cfg.Peers {
		if p.Host == host {
			return p.ID
		}
	}
	return 0
}

// isQuorum is QuorumMaj.containsQuorum: more than half of the voters.
func (s *Server) isQuorum(n int) bool { return 2*n > len(s.cfg.Peers) }

// lookForLeader starts a new election round with a vote for ourselves.
func (s *Server) lookForLeader(env *sim.Env) {
	q := s.q
	el := &q.el
	q.state = Looking
	el.clock++
	el.proposal = Vote{Leader: s.cfg.ID, Zxid: s.lastLoggedZxid(), PeerEpoch: s.disk.CurrentEpoch}
	el.recv = map[int64]Vote{}
	el.outOf = map[int64]Vote{}
	el.wait = finalizeWait
	el.final = false
	s.sendNotifications(env)
	s.armElection(env, el.wait)
}

func (s *Server) sendNotifications(env *sim.Env) {
	el := &s.q.el
	for _, p := range s.cfg.Peers {
		v := el.proposal
		v.Sid, v.ElectionEpoch, v.State = s.cfg.ID, el.clock, Looking
		env.Send(s.electionAddr(s.cfg.ID), s.electionAddr(p.ID), &v)
	}
}

func (s *Server) armElection(env *sim.Env, d time.Duration) {
	s.q.el.timer.Stop()
	s.q.el.timer = env.After(d, "zk-election", s.electionTimeout)
}

// electionTimeout: recvqueue.poll timed out. While finalizing, the
// proposal stands and the round ends; otherwise the votes go out again
// and the wait doubles.
func (s *Server) electionTimeout(env *sim.Env) {
	q := s.q
	if q.state != Looking {
		return
	}
	el := &q.el
	if el.final {
		s.endElection(env, Vote{Leader: el.proposal.Leader, Zxid: el.proposal.Zxid, ElectionEpoch: el.clock, PeerEpoch: el.proposal.PeerEpoch})
		return
	}
	s.sendNotifications(env)
	el.wait = min(2*el.wait, maxNotificationInterval)
	s.armElection(env, el.wait)
}

// vote handles a notification (WorkerReceiver, then lookForLeader's loop).
func (s *Server) vote(env *sim.Env, n *Vote) {
	q := s.q
	el := &q.el
	if q.state != Looking {
		// WorkerReceiver: a looking peer hears the vote we ended on.
		if n.State == Looking {
			v := el.end
			v.Sid, v.ElectionEpoch, v.State = s.cfg.ID, el.clock, q.state
			env.Send(s.electionAddr(s.cfg.ID), s.electionAddr(n.Sid), &v)
		}
		return
	}
	if n.State == Looking && n.ElectionEpoch < el.clock {
		// WorkerReceiver: a peer behind us hears our proposal.
		s.sendTo(env, n.Sid)
	}
	if el.final {
		// The finalizeWait poll: only a better vote reopens the round.
		if !totalOrder(n.Leader, n.Zxid, n.PeerEpoch, el.proposal.Leader, el.proposal.Zxid, el.proposal.PeerEpoch) {
			s.armElection(env, finalizeWait)
			return
		}
		el.final = false
	}
	switch n.State {
	case Looking:
		switch {
		case n.ElectionEpoch > el.clock:
			el.clock = n.ElectionEpoch
			el.recv = map[int64]Vote{}
			if totalOrder(n.Leader, n.Zxid, n.PeerEpoch, s.cfg.ID, s.lastLoggedZxid(), s.disk.CurrentEpoch) {
				el.proposal = Vote{Leader: n.Leader, Zxid: n.Zxid, PeerEpoch: n.PeerEpoch}
			} else {
				el.proposal = Vote{Leader: s.cfg.ID, Zxid: s.lastLoggedZxid(), PeerEpoch: s.disk.CurrentEpoch}
			}
			s.sendNotifications(env)
		case n.ElectionEpoch < el.clock:
			s.armElection(env, el.wait)
			return
		case totalOrder(n.Leader, n.Zxid, n.PeerEpoch, el.proposal.Leader, el.proposal.Zxid, el.proposal.PeerEpoch):
			el.proposal = Vote{Leader: n.Leader, Zxid: n.Zxid, PeerEpoch: n.PeerEpoch}
			s.sendNotifications(env)
		}
		el.recv[n.Sid] = Vote{Leader: n.Leader, Zxid: n.Zxid, ElectionEpoch: n.ElectionEpoch, PeerEpoch: n.PeerEpoch}
		agree := 0
		for _, v := range el.recv {
			if v.Leader == el.proposal.Leader && v.Zxid == el.proposal.Zxid && v.ElectionEpoch == el.clock && v.PeerEpoch == el.proposal.PeerEpoch {
				agree++
			}
		}
		if s.isQuorum(agree) {
			el.final = true
			s.armElection(env, finalizeWait)
			return
		}
	case Following, Leading:
		// Join an established ensemble once a quorum follows the same
		// leader and the leader itself says it leads (checkLeader).
		v := *n
		if n.ElectionEpoch == el.clock {
			el.recv[n.Sid] = v
			if s.agreeOutside(el.recv, n) {
				s.endElection(env, Vote{Leader: n.Leader, Zxid: n.Zxid, ElectionEpoch: n.ElectionEpoch, PeerEpoch: n.PeerEpoch})
				return
			}
		}
		el.outOf[n.Sid] = v
		if s.agreeOutside(el.outOf, n) {
			el.clock = n.ElectionEpoch
			s.endElection(env, Vote{Leader: n.Leader, Zxid: n.Zxid, ElectionEpoch: n.ElectionEpoch, PeerEpoch: n.PeerEpoch})
			return
		}
	}
	s.armElection(env, el.wait)
}

// agreeOutside is termPredicate over votes of peers that are not looking
// (Vote.equals compares only the leader and its epoch then) and
// checkLeader: the leader must be among them as LEADING, or be us.
func (s *Server) agreeOutside(votes map[int64]Vote, n *Vote) bool {
	agree := 0
	for _, v := range votes {
		if v.Leader == n.Leader && v.PeerEpoch == n.PeerEpoch {
			agree++
		}
	}
	if !s.isQuorum(agree) {
		return false
	}
	if n.Leader == s.cfg.ID {
		return n.ElectionEpoch == s.q.el.clock
	}
	l, ok := votes[n.Leader]
	return ok && l.State == Leading
}

func (s *Server) sendTo(env *sim.Env, sid int64) {
	el := &s.q.el
	v := el.proposal
	v.Sid, v.ElectionEpoch, v.State = s.cfg.ID, el.clock, Looking
	env.Send(s.electionAddr(s.cfg.ID), s.electionAddr(sid), &v)
}

// endElection is leaveInstance: LEADING if we won, else FOLLOWING.
func (s *Server) endElection(env *sim.Env, end Vote) {
	el := &s.q.el
	el.timer.Stop()
	el.final = false
	el.end = end
	if end.Leader == s.cfg.ID {
		s.lead(env)
	} else {
		s.follow(env, end.Leader)
	}
}
