package zookeeper

import (
	"time"

	"kafkascope/core/sim"
)

// The follower's side of ZAB (quorum/Follower.java, Learner.java,
// FollowerRequestProcessor.java, LearnerSessionTracker.java,
// release-3.5.9).

func timeMul(n int64) time.Duration { return time.Duration(n) }

// follow is Follower.followLeader's start: FOLLOWERINFO with our
// acceptedEpoch; the leader must answer within initLimit ticks.
func (s *Server) follow(env *sim.Env, leader int64) {
	q := s.q
	q.state, q.leader, q.registered, q.tries = Following, leader, false, 0
	s.sendFollowerInfo(env)
	s.armRead(env)
}

// sendFollowerInfo opens a connection to the leader with FOLLOWERINFO.
func (s *Server) sendFollowerInfo(env *sim.Env) {
	if s.q.toLeader != nil {
		s.q.toLeader.Close()
	}
	s.q.toLeader = sim.NewStream(s.quorumAddr(s.cfg.ID), s.quorumAddr(s.q.leader))
	s.q.toLeader.Send(env, &Packet{Type: PacketFollowerInfo, Sid: s.cfg.ID, Zxid: MakeZxid(s.disk.AcceptedEpoch, 0)})
}

// retryLeader is connectToLeader's loop: a refused connect is tried
// again after 1 s, five times in all.
func (s *Server) retryLeader(env *sim.Env) {
	q := s.q
	q.tries++
	if q.tries >= 5 {
		s.shutdown(env, "could not connect to the leader")
		return
	}
	leader := q.leader
	q.timer.Stop()
	q.timer = env.After(time.Second, "zk-learner-connect", func(env *sim.Env) {
		if q.state == Following && q.leader == leader && !q.registered {
			s.sendFollowerInfo(env)
			s.armRead(env)
		}
	})
}

// armRead is the learner socket's read timeout: initLimit ticks until
// UPTODATE, syncLimit ticks after (Learner.connectToLeader,
// syncWithLeader).
func (s *Server) armRead(env *sim.Env) {
	q := s.q
	limit := s.initLimit()
	if q.up {
		limit = s.syncLimit()
	}
	q.timer.Stop()
	q.timer = env.After(s.tickMs()*timeMul(limit), "zk-learner-read", func(env *sim.Env) {
		if q.state == Following {
			s.shutdown(env, "leader read timed out")
		}
	})
}

func (s *Server) sendLeader(env *sim.Env, p *Packet) {
	s.q.toLeader.Send(env, p)
}

func (s *Server) followerReceive(env *sim.Env, p *Packet) {
	q := s.q
	s.armRead(env)
	switch p.Type {
	case PacketLeaderInfo:
		q.registered = true
		epoch := ZxidEpoch(p.Zxid)
		if epoch < s.disk.AcceptedEpoch {
			s.shutdown(env, "leader's epoch is behind our acceptedEpoch")
			return
		}
		// registerWithLeader: our currentEpoch, or -1 if we had already
		// accepted this epoch.
		current := s.disk.CurrentEpoch
		if epoch == s.disk.AcceptedEpoch {
			current = -1
		}
		s.disk.AcceptedEpoch = epoch
		s.sendLeader(env, &Packet{Type: PacketAckEpoch, Epoch: current, Zxid: s.lastLoggedZxid()})
	case PacketDiff, PacketTrunc, PacketSnap:
		switch p.Type {
		case PacketSnap:
			s.disk.Log = append([]Entry(nil), p.Txns...)
			s.reload()
			return
		case PacketTrunc:
			// ZKDatabase.truncateLog: drop the log after the zxid, reload.
			i := 0
			for i < len(s.disk.Log) && s.disk.Log[i].Txn.Zxid <= p.Zxid {
				i++
			}
			s.disk.Log = s.disk.Log[:i:i]
			s.reload()
		}
		for _, e := range p.Txns {
			s.disk.Log = append(s.disk.Log, e)
			s.applyCommitted(env, e)
		}
	case PacketProposal:
		// A TCP connection loses nothing; a link the simulation cut and
		// healed can. A gap in the zxids is taken as the broken
		// connection it stands for: the follower looks again and resyncs.
		z, last := p.Entry.Txn.Zxid, s.lastLoggedZxid()
		if z != last+1 && !(ZxidEpoch(z) > ZxidEpoch(last) && ZxidCounter(z) == 1) {
			s.shutdown(env, "proposal after a gap")
			return
		}
		s.disk.Log = append(s.disk.Log, p.Entry)
		q.proposals = append(q.proposals, &proposal{e: p.Entry})
		s.sendLeader(env, &Packet{Type: PacketAck, Zxid: p.Entry.Txn.Zxid})
	case PacketCommit:
		if len(q.proposals) == 0 || q.proposals[0].e.Txn.Zxid != p.Zxid {
			// FollowerZooKeeperServer.commit exits the JVM on a commit
			// that is not the next pending txn; here the peer resyncs.
			s.shutdown(env, "commit out of order")
			return
		}
		e := q.proposals[0].e
		q.proposals = q.proposals[1:]
		s.applyCommitted(env, e)
	case PacketNewLeader:
		s.disk.CurrentEpoch = ZxidEpoch(p.Zxid)
		s.sendLeader(env, &Packet{Type: PacketAck, Zxid: p.Zxid})
	case PacketUpToDate:
		// syncWithLeader: ACK the new epoch, read with syncLimit, and
		// report the new epoch in our vote (updateElectionVote).
		q.up = true
		s.sendLeader(env, &Packet{Type: PacketAck, Zxid: MakeZxid(s.disk.CurrentEpoch, 0)})
		q.el.end.PeerEpoch = s.disk.CurrentEpoch
		s.armRead(env)
	case PacketPing:
		s.sendLeader(env, &Packet{Type: PacketPing, Touches: q.touched})
		q.touched = nil
	case PacketRevalidate:
		for i, w := range q.waiting {
			if w.connect != nil && w.session == p.Session && w.cxid == revalidating {
				q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
				if p.Valid {
					s.finishConnect(env, w.conn, w.session, w.timeout)
				} else {
					env.Send(s.addr, w.conn, &ConnectResponse{})
					env.Send(s.addr, w.conn, &sim.Closed{})
				}
				break
			}
		}
	}
}

// revalidating marks a connect waiting for REVALIDATE (not a commit).
const revalidating int32 = -100

// touch is LearnerSessionTracker.touchSession: remembered for the next
// PING reply.
func (s *Server) touch(session int64, timeout int32) {
	q := s.q
	for i, t := range q.touched {
		if t.Session == session {
			q.touched[i].Timeout = timeout
			return
		}
	}
	q.touched = append(q.touched, SessionTouch{Session: session, Timeout: timeout})
}
