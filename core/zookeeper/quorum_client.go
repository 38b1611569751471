package zookeeper

import "kafkascope/core/sim"

// Client connections on an ensemble member (ZooKeeperServer with
// LeaderZooKeeperServer's or FollowerZooKeeperServer's processors,
// release-3.5.9): a server that is not serving refuses connections;
// writes and session changes go to the leader (FollowerRequestProcessor
// forwards them as REQUEST) and are answered when they commit here;
// reads are served from this server's tree, after the connection's
// earlier writes (CommitProcessor keeps a session's order), so a
// follower may answer with data older than the leader's.

func isWrite(t OpCode) bool {
	switch t {
	case OpCreate, OpDelete, OpSetData, OpCheck, OpMulti, OpCloseSession:
		return true
	}
	return false
}

// ensembleConnect is processConnectRequest on a quorum server: a new
// session is a createSession through the leader; a known one is
// revalidated by the leader (Learner.validateSession, REVALIDATE).
func (s *Server) ensembleConnect(env *sim.Env, from sim.Addr, m *ConnectRequest) {
	q := s.q
	if !q.up {
		// NIOServerCnxn: "ZooKeeperServer not running", the connection closes.
		env.Send(s.addr, from, &sim.Closed{})
		return
	}
	s.closeConn(from)
	timeout := s.cfg.Negotiate(m.Timeout)
	if m.SessionID == 0 {
		id := s.nextSession
		s.nextSession++
		q.waiting = append(q.waiting, &waiter{conn: from, session: id, connect: m, timeout: timeout})
		req := &Request{Type: OpCreateSession}
		if q.state == Leading {
			s.leaderPrep(env, s.cfg.ID, id, 0, req, timeout)
		} else {
			s.sendLeader(env, &Packet{Type: PacketRequest, Session: id, Timeout: timeout, Req: req})
		}
		return
	}
	if q.state == Leading {
		if !s.tracker.touch(m.SessionID, timeout, env.Now().Millis()) {
			env.Send(s.addr, from, &ConnectResponse{})
			env.Send(s.addr, from, &sim.Closed{})
			return
		}
		s.armExpiry(env)
		s.finishConnect(env, from, m.SessionID, timeout)
		return
	}
	q.waiting = append(q.waiting, &waiter{conn: from, session: m.SessionID, cxid: revalidating, connect: m, timeout: timeout})
	s.sendLeader(env, &Packet{Type: PacketRevalidate, Session: m.SessionID, Timeout: timeout})
}

// finishConnect is finishSessionInit(cnxn, true).
func (s *Server) finishConnect(env *sim.Env, from sim.Addr, id int64, timeout int32) {
	s.nextWatcher++
	c := &serverConn{addr: from, out: sim.NewStream(s.addr, from), session: id, timeout: timeout, watcher: s.nextWatcher}
	s.conns[from] = c
	s.watchers[c.watcher] = from
	if s.q.state == Following {
		s.touch(id, timeout)
	}
	c.out.Send(env, &ConnectResponse{Timeout: timeout, SessionID: id})
}

// ensembleRequest takes one request of a connected session, in order
// behind the connection's queued ones.
func (s *Server) ensembleRequest(env *sim.Env, c *serverConn, m *Request) {
	if len(c.queued) > 0 {
		c.queued = append(c.queued, m)
		return
	}
	s.process(env, c, m)
}

func (s *Server) process(env *sim.Env, c *serverConn, m *Request) {
	q := s.q
	if q.state == Leading {
		if !s.tracker.touch(c.session, c.timeout, env.Now().Millis()) {
			s.closeConn(c.addr)
			env.Send(s.addr, c.addr, &sim.Closed{})
			return
		}
		s.armExpiry(env)
	} else {
		s.touch(c.session, c.timeout)
	}
	if isWrite(m.Type) {
		c.inflight++
		q.waiting = append(q.waiting, &waiter{conn: c.addr, session: c.session, cxid: m.Xid, req: m})
		if q.state == Leading {
			s.leaderPrep(env, s.cfg.ID, c.session, m.Xid, m, 0)
		} else {
			s.sendLeader(env, &Packet{Type: PacketRequest, Session: c.session, Cxid: m.Xid, Req: m})
		}
		return
	}
	if c.inflight > 0 {
		c.queued = append(c.queued, m)
		return
	}
	s.serve(env, c, m)
}

// drain runs the requests that waited for the connection's writes.
func (s *Server) drain(env *sim.Env, c *serverConn) {
	for len(c.queued) > 0 {
		m := c.queued[0]
		if !isWrite(m.Type) && c.inflight > 0 {
			return
		}
		c.queued = c.queued[1:]
		s.process(env, c, m)
		if s.conns[c.addr] != c {
			return
		}
	}
}
