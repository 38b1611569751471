package zookeeper

import (
	"sort"
	"time"

	"kafkascope/core/sim"
)

// initLimit and syncLimit (in ticks) are zoo.cfg keys with no default:
// QuorumPeerConfig.parseProperties (release-3.5.9) refuses an ensemble
// without them. These are conf/zoo_sample.cfg's values (release-3.5.9);
// Kafka 2.8's config/zookeeper.properties describes a standalone server
// and sets neither.
const (
	DefaultInitLimit = 10
	DefaultSyncLimit = 5
)

// commitLogCount is ZKDatabase.commitLogCount's default: how many
// committed proposals a leader keeps in memory to DIFF a follower; one
// further behind gets a SNAP.
const commitLogCount = 500

// Peer is one server.N=host:2888:3888 line of zoo.cfg.
type Peer struct {
	ID   int64
	Host string
}

// Disk is what an ensemble member keeps across a crash (its dataDir):
// the transaction log, with proposals logged but never committed, and
// the acceptedEpoch and currentEpoch files (QuorumPeer.java). Snapshots
// are not modelled: the log holds the whole history.
type Disk struct {
	Log           []Entry
	AcceptedEpoch int64
	CurrentEpoch  int64
}

// quorum is a QuorumPeer's state besides the tree and the client
// connections: the election, and the leader's or the follower's side of
// ZAB.
type quorum struct {
	state  PeerState
	el     election
	leader int64 // sid we follow or lead
	epoch  int64 // the epoch being established or led
	up     bool  // serving clients (leader running, follower UPTODATE)
	// sessions is ZKDatabase.sessionsWithTimeouts: every global session,
	// kept by applying createSession and closeSession on every server.
	sessions map[int64]int32
	// in flight: proposals logged and not yet committed, in zxid order.
	proposals []*proposal
	committed int64 // the last committed zxid
	// waiting client requests of this server: forwarded writes and
	// connects, by the session and xid they will commit under.
	waiting []*waiter
	// the leader's side
	learners  map[int64]*learner
	phase     leaderPhase
	tick      int64
	tickSkip  bool
	timer     *sim.Timer // leader: ping loop or initLimit; follower: read timeout
	newLeader int64      // NEWLEADER's zxid
	// the follower's side
	touched    []SessionTouch // LearnerSessionTracker's touchTable, in touch order
	registered bool           // the leader answered FOLLOWERINFO
	toLeader   *sim.Stream    // the learner's connection to the leader (nil: none)
	tries      int            // connectToLeader's attempts
}

type leaderPhase int

const (
	waitFollowerInfo leaderPhase = iota
	waitEpochAck
	waitNewLeaderAck
	running
)

type proposal struct {
	e    Entry
	acks map[int64]bool
}

// learner is a LearnerHandler: one follower's connection to the leader.
type learner struct {
	sid        int64
	accepted   int64       // acceptedEpoch from FOLLOWERINFO
	ackedEpoch bool        // sent ACKEPOCH
	votedEpoch bool        // ... with its currentEpoch (not -1): counts for the quorum
	lastZxid   int64       // from ACKEPOCH
	synced     bool        // sent NEWLEADER: proposals go to it
	ackedNew   bool        // acked NEWLEADER
	deadline   int64       // tickOfNextAckDeadline
	out        *sim.Stream // the leader's side of the connection
}

// waiter is a client request this server waits on the leader for: a
// write (or closeSession) by session and xid, a createSession, or a
// REVALIDATE of a reconnecting session.
type waiter struct {
	conn    sim.Addr
	session int64
	cxid    int32
	req     *Request
	connect *ConnectRequest // a connect waiting for its session
	timeout int32
}

// Ensemble says whether the server is an ensemble member.
func (s *Server) Ensemble() bool { return len(s.cfg.Peers) > 0 }

// PeerState is the member's state (LOOKING standalone).
func (s *Server) PeerState() PeerState {
	if s.q == nil {
		return Looking
	}
	return s.q.state
}

// Leader is the sid this member follows or leads (0 while looking).
func (s *Server) Leader() int64 {
	if s.q == nil || s.q.state == Looking {
		return 0
	}
	return s.q.leader
}

// Serving says whether the server takes client connections.
func (s *Server) Serving() bool {
	if s.q == nil {
		return !s.Ensemble()
	}
	return s.q.up
}

// Disk is the member's persistent state.
func (s *Server) Disk() *Disk { return s.disk }

// GlobalSessions lists the sessions the ensemble knows, sorted, as every
// member holds them (createSession and closeSession applied); standalone,
// Sessions. Sessions itself is the leader's tracker (empty on a follower).
func (s *Server) GlobalSessions() []int64 {
	if s.q == nil {
		return s.Sessions()
	}
	out := make([]int64, 0, len(s.q.sessions))
	for id := range s.q.sessions {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func (s *Server) lastLoggedZxid() int64 {
	if n := len(s.disk.Log); n > 0 {
		return s.disk.Log[n-1].Txn.Zxid
	}
	return 0
}

func (s *Server) tickMs() time.Duration { return time.Duration(s.cfg.tick()) * time.Millisecond }

func (s *Server) initLimit() int64 {
	if s.cfg.InitLimit > 0 {
		return int64(s.cfg.InitLimit)
	}
	return DefaultInitLimit
}

func (s *Server) syncLimit() int64 {
	if s.cfg.SyncLimit > 0 {
		return int64(s.cfg.SyncLimit)
	}
	return DefaultSyncLimit
}

// startQuorum is QuorumPeer.start: load the database from the log, then
// look for a leader.
func (s *Server) startQuorum(env *sim.Env) {
	if s.disk == nil {
		s.disk = &Disk{}
	}
	s.q = &quorum{learners: map[int64]*learner{}}
	s.reload()
	s.lookForLeader(env)
}

// reload rebuilds the tree from the log, every logged transaction applied
// (ZKDatabase.loadDataBase; on leaving FOLLOWING or LEADING,
// fastForwardDataBase does the same with the proposals logged and not
// committed).
func (s *Server) reload() {
	s.local = NewLocal()
	s.q.sessions = map[int64]int32{}
	for _, e := range s.disk.Log {
		s.local.run(e.Txn)
		s.trackSession(e.Txn)
	}
	s.q.committed = s.local.Tree().LastZxid()
	s.q.proposals = nil
}

func (s *Server) trackSession(t Txn) {
	switch t.Type {
	case OpCreateSession:
		s.q.sessions[t.Session] = t.Timeout
	case OpCloseSession:
		delete(s.q.sessions, t.Session)
	}
}

// shutdown ends FOLLOWING or LEADING (Leader.shutdown, Follower.shutdown):
// every client connection closes, requests in flight are dropped, the
// tree is fast-forwarded over the log and a new election starts.
func (s *Server) shutdown(env *sim.Env, why string) {
	_ = why // the reason Leader.shutdown and Follower.shutdown log
	q := s.q
	q.timer.Stop()
	for _, addr := range s.connAddrs() {
		s.closeConn(addr)
		env.Send(s.addr, addr, &sim.Closed{})
	}
	for _, w := range q.waiting {
		if w.connect != nil {
			env.Send(s.addr, w.conn, &sim.Closed{})
		}
	}
	q.up = false
	q.waiting = nil
	s.dropConnections()
	q.touched = nil
	s.tracker = newSessionTracker(s.cfg.tick())
	s.expiry.Stop()
	s.reload()
	s.lookForLeader(env)
}

func (s *Server) connAddrs() []sim.Addr {
	out := make([]sim.Addr, 0, len(s.conns))
	for a := range s.conns {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// quorumReceive handles a packet on the quorum port.
func (s *Server) quorumReceive(env *sim.Env, from sim.Addr, p *Packet) {
	q := s.q
	sid := s.sidOf(from.Host())
	switch {
	case q.state == Leading:
		s.leaderReceive(env, sid, p)
	case q.state == Following && sid == q.leader:
		s.followerReceive(env, p)
	case p.Type == PacketFollowerInfo:
		// Only a leader listens on the quorum port (LearnerCnxAcceptor):
		// the learner's connect is refused.
		env.Send(s.quorumAddr(s.cfg.ID), from, &sim.Disconnected{Peer: s.quorumAddr(s.cfg.ID), Request: p})
	}
}

// peerLost: a quorum connection was reset (the peer's process died).
func (s *Server) peerLost(env *sim.Env, from sim.Addr) {
	q := s.q
	sid := s.sidOf(from.Host())
	switch {
	case q.state == Following && sid == q.leader && !q.registered:
		s.retryLeader(env)
	case q.state == Following && sid == q.leader:
		s.shutdown(env, "leader connection reset")
	case q.state == Leading:
		s.dropLearner(sid)
	}
}

// dropLearner ends a LearnerHandler and its connection.
func (s *Server) dropLearner(sid int64) {
	if l := s.q.learners[sid]; l != nil {
		l.out.Close()
		delete(s.q.learners, sid)
	}
}

// dropConnections closes the quorum connections: every learner's, and
// ours to the leader.
func (s *Server) dropConnections() {
	q := s.q
	for _, l := range q.learners {
		l.out.Close()
	}
	q.learners = map[int64]*learner{}
	if q.toLeader != nil {
		q.toLeader.Close()
		q.toLeader = nil
	}
}

// applyCommitted applies the next committed entry on this server: the
// tree, the sessions, the watches fired, and the answer to the client
// whose request it was.
func (s *Server) applyCommitted(env *sim.Env, e Entry) {
	q := s.q
	r := s.local.run(e.Txn)
	if s.cfg.Committed != nil {
		s.cfg.Committed(e.Txn, s.local.Tree())
	}
	q.committed = e.Txn.Zxid
	s.trackSession(e.Txn)
	s.notify(env, r.Events)
	if e.Txn.Type == OpCloseSession {
		s.tracker.remove(e.Txn.Session)
	}
	var w *waiter
	if e.Origin == s.cfg.ID {
		for i, x := range q.waiting {
			if x.session == e.Txn.Session && x.cxid == e.Cxid && x.connect == nil == (e.Txn.Type != OpCreateSession) {
				w = x
				q.waiting = append(q.waiting[:i:i], q.waiting[i+1:]...)
				break
			}
		}
	}
	if w != nil && w.connect != nil {
		s.finishConnect(env, w.conn, e.Txn.Session, w.timeout)
	} else if w != nil {
		if c := s.conns[w.conn]; c != nil {
			rep := &Reply{Xid: w.req.Xid, Type: w.req.Type, Zxid: e.Txn.Zxid}
			writeReply(rep, r)
			c.out.Send(env, rep)
			c.inflight--
			if e.Txn.Type != OpCloseSession {
				s.drain(env, c)
			}
		}
	}
	if e.Txn.Type == OpCloseSession {
		// FinalRequestProcessor: the session's connections close; the one
		// that asked has had its answer.
		for _, c := range s.connsOf(e.Txn.Session) {
			s.closeConn(c.addr)
			if w == nil || c.addr != w.conn {
				env.Send(s.addr, c.addr, &sim.Closed{})
			}
		}
	}
}

func writeReply(rep *Reply, r Result) {
	if r.Type == OpMulti {
		rep.Multi = r.Multi
		return
	}
	rep.Err, rep.Path, rep.Stat = r.Err, r.Path, r.Stat
}
