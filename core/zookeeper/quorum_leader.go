package zookeeper

import (
	"sort"

	"kafkascope/core/sim"
)

// The leader's side of ZAB (quorum/Leader.java, LearnerHandler.java,
// release-3.5.9).

// lead is Leader.lead's start: wait (initLimit ticks) for a quorum of
// FOLLOWERINFO to pick the new epoch.
func (s *Server) lead(env *sim.Env) {
	q := s.q
	q.state, q.leader, q.phase, q.tick, q.tickSkip = Leading, s.cfg.ID, waitFollowerInfo, 0, true
	s.dropConnections()
	q.epoch = 0
	q.timer.Stop()
	q.timer = env.After(s.tickMs()*timeMul(s.initLimit()), "zk-init-limit", func(env *sim.Env) {
		if q.state == Leading && q.phase != running {
			s.shutdown(env, "initLimit passed without a quorum")
		}
	})
	s.leaderCheckPhase(env)
}

// learnersSorted lists the learners by sid.
func (s *Server) learnersSorted() []*learner {
	out := make([]*learner, 0, len(s.q.learners))
	for _, l := range s.q.learners {
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].sid < out[j].sid })
	return out
}

// sendLearner sends on the learner's connection (in order, retransmitted
// across a cut as TCP does), or bare when there is none (a reset).
func (s *Server) sendLearner(env *sim.Env, sid int64, p sim.Message) {
	if l := s.q.learners[sid]; l != nil {
		l.out.Send(env, p)
		return
	}
	env.Send(s.quorumAddr(s.cfg.ID), s.quorumAddr(sid), p)
}

// leaderCheckPhase moves Leader.lead on when a quorum (with the leader)
// has answered: getEpochToPropose, waitForEpochAck, waitForNewLeaderAck.
func (s *Server) leaderCheckPhase(env *sim.Env) {
	q := s.q
	count := func(f func(l *learner) bool) int {
		n := 1
		for _, l := range q.learners {
			if f(l) {
				n++
			}
		}
		return n
	}
	if q.phase == waitFollowerInfo && s.isQuorum(count(func(*learner) bool { return true })) {
		epoch := s.disk.AcceptedEpoch
		for _, l := range q.learners {
			epoch = max(epoch, l.accepted)
		}
		q.epoch = epoch + 1
		s.disk.AcceptedEpoch = q.epoch
		q.phase = waitEpochAck
		for _, l := range s.learnersSorted() {
			s.sendLearner(env, l.sid, &Packet{Type: PacketLeaderInfo, Zxid: MakeZxid(q.epoch, 0)})
		}
	}
	if q.phase == waitEpochAck && s.isQuorum(count(func(l *learner) bool { return l.votedEpoch })) {
		q.phase = waitNewLeaderAck
		q.newLeader = MakeZxid(q.epoch, 0)
		s.local.Prep().SetLastZxid(q.newLeader)
		for _, l := range s.learnersSorted() {
			if l.ackedEpoch {
				s.syncLearner(env, l)
			}
		}
	}
	if q.phase == waitNewLeaderAck && s.isQuorum(count(func(l *learner) bool { return l.ackedNew })) {
		// The new epoch is established: serve, and tell the learners.
		q.phase = running
		s.disk.CurrentEpoch = q.epoch
		q.up = true
		now := env.Now().Millis()
		s.tracker = newSessionTracker(s.cfg.tick())
		ids := make([]int64, 0, len(q.sessions))
		for id := range q.sessions {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			s.tracker.add(id, q.sessions[id], now)
		}
		s.armExpiry(env)
		q.el.end.PeerEpoch = q.epoch // updateElectionVote
		for _, l := range s.learnersSorted() {
			if l.ackedNew {
				s.sendLearner(env, l.sid, &Packet{Type: PacketUpToDate})
			}
		}
		q.timer.Stop()
		q.timer = env.After(s.tickMs()/2, "zk-leader-tick", s.leaderTick)
	}
}

// leaderTick is Leader.lead's loop: every half tick ping the learners;
// every other time bump the tick and step down if fewer than a quorum
// answered within syncLimit ticks.
func (s *Server) leaderTick(env *sim.Env) {
	q := s.q
	if q.state != Leading {
		return
	}
	if !q.tickSkip {
		q.tick++
		synced := 1
		for _, l := range q.learners {
			if q.tick <= l.deadline {
				synced++
			}
		}
		if !s.isQuorum(synced) {
			s.shutdown(env, "not sufficient followers synced")
			return
		}
	}
	q.tickSkip = !q.tickSkip
	for _, l := range s.learnersSorted() {
		s.sendLearner(env, l.sid, &Packet{Type: PacketPing})
	}
	q.timer = env.After(s.tickMs()/2, "zk-leader-tick", s.leaderTick)
}

func (s *Server) leaderReceive(env *sim.Env, sid int64, p *Packet) {
	q := s.q
	l := q.learners[sid]
	if p.Type == PacketFollowerInfo {
		// A new LearnerHandler (a reconnecting follower replaces its old one).
		s.dropLearner(sid)
		l = &learner{sid: sid, accepted: ZxidEpoch(p.Zxid), deadline: q.tick + s.initLimit() + s.syncLimit(),
			out: sim.NewStream(s.quorumAddr(s.cfg.ID), s.quorumAddr(sid))}
		q.learners[sid] = l
		if q.phase != waitFollowerInfo {
			s.sendLearner(env, sid, &Packet{Type: PacketLeaderInfo, Zxid: MakeZxid(q.epoch, 0)})
		}
		s.leaderCheckPhase(env)
		return
	}
	if l == nil {
		return
	}
	l.deadline = q.tick + s.syncLimit()
	switch p.Type {
	case PacketAckEpoch:
		// waitForEpochAck: a follower ahead of us (StateSummary
		// isMoreRecentThan) ends its LearnerHandler; -1 (it had accepted
		// this epoch already) does not count towards the quorum.
		if q.phase == waitEpochAck && p.Epoch != -1 &&
			(p.Epoch > s.disk.CurrentEpoch || p.Epoch == s.disk.CurrentEpoch && p.Zxid > s.lastLoggedZxid()) {
			s.dropLearner(sid)
			s.sendLearner(env, sid, &sim.Closed{})
			return
		}
		l.ackedEpoch, l.votedEpoch, l.lastZxid = true, p.Epoch != -1, p.Zxid
		if q.phase >= waitNewLeaderAck {
			s.syncLearner(env, l)
		}
		s.leaderCheckPhase(env)
	case PacketAck:
		if p.Zxid == q.newLeader && !l.ackedNew {
			l.ackedNew = true
			if q.phase == running {
				s.sendLearner(env, sid, &Packet{Type: PacketUpToDate})
			}
			s.leaderCheckPhase(env)
			return
		}
		s.ack(env, sid, p.Zxid)
	case PacketPing:
		for _, t := range p.Touches {
			s.tracker.touch(t.Session, t.Timeout, env.Now().Millis())
		}
		s.armExpiry(env)
	case PacketRevalidate:
		ok := q.up && s.tracker.touch(p.Session, p.Timeout, env.Now().Millis())
		s.armExpiry(env)
		s.sendLearner(env, sid, &Packet{Type: PacketRevalidate, Session: p.Session, Valid: ok})
	case PacketRequest:
		if q.up {
			s.leaderPrep(env, sid, p.Session, p.Cxid, p.Req, p.Timeout)
		}
	}
}

// syncLearner is LearnerHandler.syncFollower and what follows it: DIFF
// from the committed log, TRUNC of what the leader never committed, or
// SNAP; then the proposals in flight, then NEWLEADER.
func (s *Server) syncLearner(env *sim.Env, l *learner) {
	q := s.q
	var committed []Entry
	for _, e := range s.disk.Log {
		if e.Txn.Zxid <= q.committed {
			committed = append(committed, e)
		}
	}
	window := committed
	if len(window) > commitLogCount {
		window = window[len(window)-commitLogCount:]
	}
	minLog, maxLog := q.committed, q.committed
	if len(window) > 0 {
		minLog, maxLog = window[0].Txn.Zxid, window[len(window)-1].Txn.Zxid
	}
	peer := l.lastZxid
	pk := &Packet{Type: PacketSnap, Zxid: q.committed, Txns: committed}
	switch {
	case peer == q.committed:
		pk = &Packet{Type: PacketDiff, Zxid: peer}
	case peer > maxLog && ZxidCounter(peer) != 0:
		pk = &Packet{Type: PacketTrunc, Zxid: maxLog}
	case peer <= maxLog && (peer >= minLog || len(window) == len(committed)):
		// queueCommittedProposals: TRUNC back to the last zxid we hold
		// below the peer's if the peer's is not ours, then DIFF on.
		base := int64(0)
		i := 0
		for ; i < len(committed) && committed[i].Txn.Zxid <= peer; i++ {
			base = committed[i].Txn.Zxid
		}
		typ := PacketDiff
		if base != peer {
			typ = PacketTrunc
		}
		pk = &Packet{Type: typ, Zxid: base, Txns: committed[i:]}
	}
	s.sendLearner(env, l.sid, pk)
	for _, p := range q.proposals {
		s.sendLearner(env, l.sid, &Packet{Type: PacketProposal, Entry: p.e})
	}
	l.synced = true
	s.sendLearner(env, l.sid, &Packet{Type: PacketNewLeader, Zxid: q.newLeader})
}

// leaderPrep runs a write through PrepRequestProcessor and proposes it.
func (s *Server) leaderPrep(env *sim.Env, origin, session int64, cxid int32, m *Request, timeout int32) {
	now, wall := env.Now().Millis(), wallMillis(env)
	prep := s.local.Prep()
	var txn Txn
	switch m.Type {
	case OpCreateSession:
		s.tracker.add(session, timeout, now)
		s.armExpiry(env)
		txn = prep.CreateSession(session, timeout, wall)
	case OpCloseSession:
		s.tracker.setClosing(session)
		txn = prep.CloseSession(session, wall)
	case OpMulti:
		txn = prep.Multi(session, m.Ops, wall)
	default:
		op := Op{Type: m.Type, Path: m.Path, Data: m.Data, Mode: m.Mode, Version: m.Version}
		txn = prep.Write(session, op, wall)
	}
	s.propose(env, Entry{Txn: txn, Origin: origin, Cxid: cxid})
}

// propose is Leader.propose: log it, send PROPOSAL to every synced
// learner and ack it ourselves.
func (s *Server) propose(env *sim.Env, e Entry) {
	q := s.q
	s.disk.Log = append(s.disk.Log, e)
	q.proposals = append(q.proposals, &proposal{e: e, acks: map[int64]bool{}})
	for _, l := range s.learnersSorted() {
		if l.synced {
			s.sendLearner(env, l.sid, &Packet{Type: PacketProposal, Entry: e})
		}
	}
	s.ack(env, s.cfg.ID, e.Txn.Zxid)
}

// ack is Leader.processAck and tryToCommit: proposals commit in zxid
// order once a quorum acked each.
func (s *Server) ack(env *sim.Env, sid, zxid int64) {
	q := s.q
	for _, p := range q.proposals {
		if p.e.Txn.Zxid == zxid {
			p.acks[sid] = true
		}
	}
	for len(q.proposals) > 0 && s.isQuorum(len(q.proposals[0].acks)) {
		p := q.proposals[0]
		q.proposals = q.proposals[1:]
		for _, l := range s.learnersSorted() {
			if l.synced {
				s.sendLearner(env, l.sid, &Packet{Type: PacketCommit, Zxid: p.e.Txn.Zxid})
			}
		}
		s.applyCommitted(env, p.e)
	}
}
