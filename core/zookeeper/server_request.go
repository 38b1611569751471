package zookeeper

import "kafkascope/core/sim"

// request runs one request of a connected session, as
// ZooKeeperServer.submitRequest (which touches the session first) and
// FinalRequestProcessor (the reply per op) do.
func (s *Server) request(env *sim.Env, c *serverConn, m *Request) {
	now := env.Now().Millis()
	if !s.tracker.touch(c.session, c.timeout, now) {
		// MissingSessionException: the connection is closed.
		s.closeConn(c.addr)
		env.Send(s.addr, c.addr, &sim.Closed{})
		return
	}
	s.armExpiry(env)
	s.serve(env, c, m)
}

// serve answers one request (FinalRequestProcessor); standalone, a write
// is committed at once.
func (s *Server) serve(env *sim.Env, c *serverConn, m *Request) {
	now := wallMillis(env)
	rep := &Reply{Xid: m.Xid, Type: m.Type}
	switch m.Type {
	case OpPing:
		rep.Xid = PingXid
	case OpSetWatches:
		s.setWatches(env, c, m)
		rep.Xid = SetWatchesXid
	case OpCreate, OpDelete, OpSetData, OpCheck:
		op := Op{Type: m.Type, Path: m.Path, Data: m.Data, Mode: m.Mode, Version: m.Version}
		r := s.commit(env, s.local.Prep().Write(c.session, op, now))
		rep.Err, rep.Path, rep.Stat = r.Err, r.Path, r.Stat
	case OpMulti:
		// The reply header says OK; each step carries its own code.
		r := s.commit(env, s.local.Prep().Multi(c.session, m.Ops, now))
		rep.Multi = r.Multi
	case OpCloseSession:
		s.tracker.setClosing(c.session)
		s.commit(env, s.local.Prep().CloseSession(c.session, now))
		rep.Zxid = s.local.Tree().LastZxid()
		c.out.Send(env, rep)
		// FinalRequestProcessor: the session's connections close.
		for _, o := range s.connsOf(c.session) {
			s.closeConn(o.addr)
			if o.addr != c.addr {
				env.Send(s.addr, o.addr, &sim.Closed{})
			}
		}
		return
	case OpExists:
		rep.Stat, rep.Err = s.read(s.local.Tree().Exists(m.Path, s.watch(c, m)))
	case OpGetData:
		var err error
		rep.Data, rep.Stat, err = s.local.Tree().GetData(m.Path, s.watch(c, m))
		rep.Err = ErrCode(err)
	case OpGetChildren2:
		var err error
		rep.Children, rep.Stat, err = s.local.Tree().GetChildren(m.Path, s.watch(c, m))
		rep.Err = ErrCode(err)
	default:
		rep.Err = Unimplemented
	}
	rep.Zxid = s.local.Tree().LastZxid()
	c.out.Send(env, rep)
}

func (s *Server) read(st Stat, err error) (Stat, Code) { return st, ErrCode(err) }

func (s *Server) watch(c *serverConn, m *Request) WatcherID {
	if m.Watch {
		return c.watcher
	}
	return NoWatch
}

// setWatches is DataTree.setWatches: a reconnected client re-registers
// its watches; what changed after relativeZxid (the last zxid it saw)
// fires at once instead.
func (s *Server) setWatches(env *sim.Env, c *serverConn, m *Request) {
	t := s.local.Tree()
	var fired []Fired
	fire := func(typ EventType, path string) {
		fired = append(fired, Fired{Watcher: c.watcher, Event: WatchedEvent{Type: typ, State: StateSyncConnected, Path: path}})
	}
	for _, p := range m.DataWatches {
		st, err := t.Exists(p, NoWatch)
		switch {
		case err != nil:
			fire(EventNodeDeleted, p)
		case st.Mzxid > m.RelativeZxid:
			fire(EventNodeDataChanged, p)
		default:
			_, _, _ = t.GetData(p, c.watcher)
		}
	}
	for _, p := range m.ExistWatches {
		if _, err := t.Exists(p, NoWatch); err == nil {
			fire(EventNodeCreated, p)
		} else {
			_, _ = t.Exists(p, c.watcher)
		}
	}
	for _, p := range m.ChildWatches {
		st, err := t.Exists(p, NoWatch)
		switch {
		case err != nil:
			fire(EventNodeDeleted, p)
		case st.Pzxid > m.RelativeZxid:
			fire(EventNodeChildrenChanged, p)
		default:
			_, _, _ = t.GetChildren(p, c.watcher)
		}
	}
	s.notify(env, fired)
}
