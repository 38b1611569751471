package zookeeper

import (
	"sort"
	"strings"
	"time"

	"kafkascope/core/sim"
)

// ClientPort is clientPort in the zookeeper.properties Kafka 2.8 ships
// (config/zookeeper.properties, tag 2.8.0).
const ClientPort = "2181"

// DefaultTickTime is ZooKeeperServer.DEFAULT_TICK_TIME (release-3.5.9),
// which applies under Kafka 2.8: its config/zookeeper.properties (tag
// 2.8.0) sets no tickTime.
const DefaultTickTime = 3000 * time.Millisecond

// ServerConfig is a standalone server's settings (zoo.cfg keys).
type ServerConfig struct {
	ID       int64         // myid: the top byte of its session ids
	TickTime time.Duration // tickTime; 0 is DefaultTickTime
	// MinSessionTimeout and MaxSessionTimeout: 0 is 2 and 20 ticks
	// (ZooKeeperServer.setMinSessionTimeout / setMaxSessionTimeout).
	MinSessionTimeout, MaxSessionTimeout time.Duration

	// Peers makes the server an ensemble member (server.N lines; ID is
	// its own myid); none is standalone. InitLimit and SyncLimit are in
	// ticks; 0 is DefaultInitLimit and DefaultSyncLimit.
	Peers                []Peer
	InitLimit, SyncLimit int

	// Committed, if set, sees every committed transaction once this
	// server has applied it, with the tree after it (standalone at once,
	// an ensemble member at its COMMIT): an observer for checkers, which
	// must not change either.
	Committed func(t Txn, tree *Tree)
}

func (c ServerConfig) tick() int64 {
	if c.TickTime <= 0 {
		return DefaultTickTime.Milliseconds()
	}
	return c.TickTime.Milliseconds()
}

// MinTimeout is the negotiated timeout's floor in ms.
func (c ServerConfig) MinTimeout() int32 {
	if c.MinSessionTimeout > 0 {
		return int32(c.MinSessionTimeout.Milliseconds())
	}
	return int32(2 * c.tick())
}

// MaxTimeout is the negotiated timeout's ceiling in ms.
func (c ServerConfig) MaxTimeout() int32 {
	if c.MaxSessionTimeout > 0 {
		return int32(c.MaxSessionTimeout.Milliseconds())
	}
	return int32(20 * c.tick())
}

// Negotiate is processConnectRequest's clamp of the asked timeout.
func (c ServerConfig) Negotiate(asked int32) int32 {
	return min(max(asked, c.MinTimeout()), c.MaxTimeout())
}

// Server is a standalone ZooKeeper server (ZooKeeperServerMain) as a sim
// process: it listens on host:2181, keeps sessions on tickTime buckets
// and runs requests through Prep then Apply (PrepRequestProcessor,
// SyncRequestProcessor, FinalRequestProcessor). Writes go through commit,
// standalone; an ensemble member (ServerConfig.Peers, quorum*.go) runs
// ZAB instead: the leader proposes (propose) and every member applies a
// committed entry in applyCommitted.
//
// A restarted standalone Server starts from an empty tree: snapshots and
// the transaction log are not modelled. An ensemble member keeps its Disk
// (the log and epochs) when the same Server is spawned again.
type Server struct {
	cfg  ServerConfig
	addr sim.Addr

	local       *Local
	tracker     *sessionTracker
	conns       map[sim.Addr]*serverConn
	watchers    map[WatcherID]sim.Addr
	nextWatcher WatcherID
	nextSession int64
	expiry      *sim.Timer

	q    *quorum // the ensemble member's state; nil standalone
	disk *Disk   // kept across restarts of the same Server
}

// serverConn is a ServerCnxn: one client connection, its session once
// the connect succeeded, and the watcher id its watches are held under.
type serverConn struct {
	addr    sim.Addr
	out     *sim.Stream // replies and notifications, in order, retransmitted across a cut
	session int64
	timeout int32
	watcher WatcherID
	// Ensemble: writes sent to the leader and not yet answered, and the
	// requests waiting behind them.
	inflight int
	queued   []*Request
}

// NewServer makes a standalone server.
func NewServer(cfg ServerConfig) *Server { return &Server{cfg: cfg} }

// Config is the server's settings.
func (s *Server) Config() ServerConfig { return s.cfg }

// Tree is the server's data tree (for the driver, between steps); nil
// before the server first started.
func (s *Server) Tree() *Tree {
	if s.local == nil {
		return nil
	}
	return s.local.Tree()
}

// Sessions lists the live sessions, sorted.
func (s *Server) Sessions() []int64 {
	out := make([]int64, 0, len(s.tracker.sessions))
	for id := range s.tracker.sessions {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// SessionExpiry is when the session expires if nothing touches it (ms of
// sim time), or false.
func (s *Server) SessionExpiry(id int64) (int64, bool) {
	ts := s.tracker.sessions[id]
	if ts == nil {
		return 0, false
	}
	return ts.expiry, true
}

// Start implements sim.Process.
func (s *Server) Start(env *sim.Env) {
	s.addr = sim.Addr(env.Host() + ":" + ClientPort)
	s.local = NewLocal()
	s.tracker = newSessionTracker(s.cfg.tick())
	s.conns = map[sim.Addr]*serverConn{}
	s.watchers = map[WatcherID]sim.Addr{}
	s.nextWatcher = 0
	s.nextSession = initializeNextSession(s.cfg.ID, env.Now().UnixMilli())
	s.expiry = nil
	if s.Ensemble() {
		s.startQuorum(env)
	}
}

// initializeNextSession is SessionTrackerImpl.initializeNextSession: the
// clock's ms in the middle bytes, the server id in the top byte.
func initializeNextSession(id, nowMillis int64) int64 {
	next := int64(uint64(nowMillis<<24) >> 8)
	return next | id<<56
}

// Receive implements sim.Process.
func (s *Server) Receive(env *sim.Env, e *sim.Envelope) {
	switch m := e.Msg.(type) {
	case *Vote:
		if s.q != nil {
			s.vote(env, m)
		}
	case *Packet:
		if s.q != nil {
			s.quorumReceive(env, e.From, m)
		}
	case *ConnectRequest:
		if s.q != nil {
			s.ensembleConnect(env, e.From, m)
			return
		}
		s.connect(env, e.From, m)
	case *Request:
		c := s.conns[e.From]
		if c == nil || c.session == 0 {
			return // not connected: NIOServerCnxn drops it with the connection
		}
		if s.q != nil {
			s.ensembleRequest(env, c, m)
			return
		}
		s.request(env, c, m)
	case *sim.Disconnected, *sim.Closed:
		if s.q != nil && s.sidOf(e.From.Host()) != 0 {
			if strings.HasSuffix(string(e.From), ":"+QuorumPort) {
				s.peerLost(env, e.From)
			}
			return
		}
		// The client's end reset or closed the connection.
		s.closeConn(e.From)
	}
}

// connect is processConnectRequest: negotiate the timeout, then create a
// session (a createSession transaction) or revalidate the asked one.
func (s *Server) connect(env *sim.Env, from sim.Addr, m *ConnectRequest) {
	s.closeConn(from)
	timeout := s.cfg.Negotiate(m.Timeout)
	now := env.Now().Millis()
	id := m.SessionID
	if id == 0 {
		id = s.nextSession
		s.nextSession++
		s.tracker.add(id, timeout, now)
		s.commit(env, s.local.Prep().CreateSession(id, timeout, wallMillis(env)))
	} else if !s.tracker.touch(id, timeout, now) {
		// finishSessionInit(cnxn, false): timeout 0, then close.
		env.Send(s.addr, from, &ConnectResponse{})
		env.Send(s.addr, from, &sim.Closed{})
		return
	}
	s.nextWatcher++
	c := &serverConn{addr: from, out: sim.NewStream(s.addr, from), session: id, timeout: timeout, watcher: s.nextWatcher}
	s.conns[from] = c
	s.watchers[c.watcher] = from
	c.out.Send(env, &ConnectResponse{Timeout: timeout, SessionID: id})
	s.armExpiry(env)
}

// closeConn forgets a connection and its watches (ZooKeeperServer.removeCnxn
// → DataTree.removeCnxn); its session stays until it expires.
func (s *Server) closeConn(addr sim.Addr) {
	c := s.conns[addr]
	if c == nil {
		return
	}
	c.out.Close()
	delete(s.conns, addr)
	delete(s.watchers, c.watcher)
	s.local.Tree().RemoveWatcher(c.watcher)
}

// connsOf lists a session's connections in address order.
func (s *Server) connsOf(session int64) []*serverConn {
	var out []*serverConn
	for _, c := range s.conns {
		if c.session == session {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// commit applies a prepared transaction and sends the watches it fired.
// Standalone, this is SyncRequestProcessor then FinalRequestProcessor at
// once (an ensemble's leader proposes instead, see propose).
func (s *Server) commit(env *sim.Env, txn Txn) Result {
	r := s.local.run(txn)
	if s.cfg.Committed != nil {
		s.cfg.Committed(txn, s.local.Tree())
	}
	if txn.Type == OpCloseSession {
		s.tracker.remove(txn.Session)
	}
	s.notify(env, r.Events)
	return r
}

// notify sends each fired watch to the connection that set it.
func (s *Server) notify(env *sim.Env, fired []Fired) {
	for _, f := range fired {
		if to, ok := s.watchers[f.Watcher]; ok {
			s.conns[to].out.Send(env, &Notification{Event: f.Event})
		}
	}
}

// armExpiry makes the expiry timer fire at the earliest bucket
// (SessionTrackerImpl.run sleeps until ExpiryQueue.getWaitTime).
func (s *Server) armExpiry(env *sim.Env) {
	at, ok := s.tracker.nextExpiry()
	if !ok {
		return
	}
	when := sim.Time(at * int64(time.Millisecond))
	if s.expiry.Pending() && s.expiry.At() <= when {
		return
	}
	s.expiry.Stop()
	s.expiry = env.After(when.Sub(env.Now()), "zk-session-expiry", s.expire)
}

// expire is SessionTrackerImpl.run's poll and ZooKeeperServer.expire: each
// due session is marked closing and closed by a closeSession transaction;
// FinalRequestProcessor then closes its connections.
func (s *Server) expire(env *sim.Env) {
	now := env.Now().Millis()
	for _, id := range s.tracker.poll(now) {
		if s.q != nil {
			// The leader proposes the closeSession; every server closes
			// the session's connections when it commits.
			s.leaderPrep(env, 0, id, 0, &Request{Type: OpCloseSession}, 0)
			continue
		}
		s.tracker.setClosing(id)
		s.commit(env, s.local.Prep().CloseSession(id, wallMillis(env)))
		for _, c := range s.connsOf(id) {
			s.closeConn(c.addr)
			env.Send(s.addr, c.addr, &sim.Closed{})
		}
	}
	s.armExpiry(env)
}

// wallMillis is the wall-clock time a transaction records
// (Time.currentWallTime: the ctime and mtime zookeeper-shell prints);
// sessions expire on the elapsed clock (Time.currentElapsedTime), the
// simulation's own milliseconds.
func wallMillis(env *sim.Env) int64 { return env.Now().UnixMilli() }
