package zookeeper

import (
	"time"

	"kafkascope/core/sim"
)

// ClientConfig is what new ZooKeeper(connectString, sessionTimeout,
// watcher) takes. Kafka 2.8 passes zookeeper.session.timeout.ms, default
// 18000 (KafkaConfig.scala, Defaults.ZkSessionTimeoutMs, tag 2.8.0), and
// one watcher for every watch and state change (ZooKeeperClient's
// ZooKeeperClientWatcher with the boolean watch flag).
type ClientConfig struct {
	Servers        []sim.Addr // the connect string, in the order tried
	SessionTimeout time.Duration
	// Watcher gets every watch event and every state change (type None).
	Watcher func(env *sim.Env, ev WatchedEvent)
}

// ClientState is ZooKeeper.States, reduced to what is modelled.
type ClientState int

const (
	Connecting ClientState = iota
	Connected
	Closed // closed by Close, or the session expired
)

// Client is the ZooKeeper client (ZooKeeper and ClientCnxn, release-3.5.9)
// embedded in a process: the process calls Start once and hands every
// envelope to Receive. One connection at a time, to one server; requests
// are answered in order (the pending queue is matched by xid).
type Client struct {
	cfg   ClientConfig
	state ClientState

	session  int64
	timeout  int32 // negotiated, ms
	lastZxid int64
	xid      int32

	conn       sim.Addr    // our end of the current connection
	out        *sim.Stream // its sending direction: TCP's in-order, retransmitted delivery
	server     sim.Addr
	next       int // the host provider's index
	lastIndex  int // the index last connected to (StaticHostProvider.lastIndex)
	firstTry   bool
	lastSend   sim.Time
	lastRecv   sim.Time
	timer      *sim.Timer
	pending    []*call // sent, awaiting a reply, in xid order
	outgoing   []*call // queued while not connected
	watches    clientWatches
	closing    bool
	abandoned  []connEnd // connections given up on whose close may have been lost
	closeCalls []func(env *sim.Env)
}

// connEnd is one connection: our address and the server's.
type connEnd struct{ local, server sim.Addr }

type call struct {
	req  *Request
	done func(env *sim.Env, r *Reply)
}

// NewClient makes a client; Start connects it.
func NewClient(cfg ClientConfig) *Client {
	return &Client{cfg: cfg, watches: newClientWatches(), lastIndex: -1, next: -1, firstTry: true}
}

// State is the client's state.
func (c *Client) State() ClientState { return c.state }

// SessionID is the session's id (0 before the first connect).
func (c *Client) SessionID() int64 { return c.session }

// NegotiatedTimeout is the server's answer to the asked timeout (ms).
func (c *Client) NegotiatedTimeout() int32 { return c.timeout }

// Conn is our address of the current connection ("" if none).
func (c *Client) Conn() sim.Addr { return c.conn }

// readTimeout and connectTimeout are ClientCnxn's: 2/3 of the session
// timeout without hearing from the server, and the session timeout
// shared among the servers for a connect (ClientCnxn constructor and
// onConnected).
func (c *Client) sessionTimeout() int64 {
	if c.timeout > 0 {
		return int64(c.timeout)
	}
	return c.cfg.SessionTimeout.Milliseconds()
}

func (c *Client) readTimeout() time.Duration {
	return time.Duration(c.sessionTimeout()*2/3) * time.Millisecond
}

func (c *Client) connectTimeout() time.Duration {
	return time.Duration(c.sessionTimeout()/int64(len(c.cfg.Servers))) * time.Millisecond
}

// Start connects to the first server.
func (c *Client) Start(env *sim.Env) { c.connect(env) }

// connect is SendThread's startConnect with hostProvider.next: the next
// server of the connect string.
func (c *Client) connect(env *sim.Env) {
	c.next = (c.next + 1) % len(c.cfg.Servers)
	c.server = c.cfg.Servers[c.next]
	c.conn = env.EphemeralPort()
	c.state = Connecting
	c.firstTry = false
	c.lastSend, c.lastRecv = env.Now(), env.Now()
	c.out = sim.NewStream(c.conn, c.server)
	c.out.Send(env, &ConnectRequest{LastZxidSeen: c.lastZxid, Timeout: int32(c.cfg.SessionTimeout.Milliseconds()), SessionID: c.session})
	c.arm(env)
}

// maxSendPingInterval is SendThread.run's MAX_SEND_PING_INTERVAL.
const maxSendPingInterval = 10 * time.Second

// arm is one turn of SendThread.run's loop, which runs again whenever
// the socket has something (a receive, a send) or its wait ends: give up
// after the read (or connect) timeout without a receive; connected, ping
// when readTimeout/2 passed since the last send, less 1 s once more than
// 1 s passed ("to prevent race condition missing to send the second
// ping"), or after 10 s; then wait for the nearer of the two.
func (c *Client) arm(env *sim.Env) {
	c.timer.Stop()
	now := env.Now()
	limit := c.connectTimeout()
	if c.state == Connected {
		limit = c.readTimeout()
	}
	to := limit - now.Sub(c.lastRecv)
	if to <= 0 {
		// SessionTimeoutException: "Client session timed out, have not
		// heard from server in …ms".
		c.lost(env)
		return
	}
	if c.state == Connected {
		idleSend := now.Sub(c.lastSend)
		next := c.readTimeout()/2 - idleSend
		if idleSend > time.Second {
			next -= time.Second
		}
		if next <= 0 || idleSend > maxSendPingInterval {
			c.send(env, &call{req: &Request{Xid: PingXid, Type: OpPing}})
		} else {
			to = min(to, next)
		}
	}
	c.timer = env.After(to, "zk-client", c.arm)
}

func (c *Client) send(env *sim.Env, k *call) {
	c.out.Send(env, k.req)
	c.lastSend = env.Now()
	if k.req.Xid != PingXid && k.req.Xid != SetWatchesXid {
		c.pending = append(c.pending, k)
	}
}

// lost is cleanAndNotifyState: the connection is given up, every request
// in flight fails with CONNECTIONLOSS, the watcher hears Disconnected,
// and the next server is tried after the host provider's spin delay
// (1 s once every server was tried since the last connect) and
// startConnect's random sleep of up to 1 s.
func (c *Client) lost(env *sim.Env) {
	c.timer.Stop()
	if c.conn != "" {
		c.out.Close()
		env.Send(c.conn, c.server, &sim.Closed{})
		c.abandoned = append(c.abandoned, connEnd{c.conn, c.server})
	}
	c.conn = ""
	// Connecting before the failed requests' callbacks run: a callback
	// that submits again (Kafka's ZooKeeperClient resends on
	// CONNECTIONLOSS) queues its request for the next connection, as
	// ClientCnxn.queuePacket does while the state is still alive.
	if !c.closing {
		c.state = Connecting
	}
	c.fail(env, ConnectionLoss)
	c.event(env, WatchedEvent{Type: EventNone, State: StateDisconnected})
	if c.closing {
		c.finishClose(env)
		return
	}
	delay := time.Duration(env.Rand("zk-client-reconnect").Intn(1000)) * time.Millisecond
	if (c.next+1)%len(c.cfg.Servers) == c.lastIndex {
		delay += time.Second
	}
	c.timer = env.After(delay, "zk-client-reconnect", c.connect)
}

// fail ends every request sent and every one still queued with code, as
// ClientCnxn.cleanup does on any connection loss (3.5.9 fails the
// outgoing queue too: a request is never carried over to the next
// connection).
func (c *Client) fail(env *sim.Env, code Code) {
	calls := append(c.pending, c.outgoing...)
	c.pending, c.outgoing = nil, nil
	for _, k := range calls {
		k.done(env, &Reply{Xid: k.req.Xid, Type: k.req.Type, Err: code})
	}
}

func (c *Client) event(env *sim.Env, ev WatchedEvent) {
	if c.cfg.Watcher != nil {
		c.cfg.Watcher(env, ev)
	}
}

// Receive handles an envelope for this client; it reports whether the
// envelope was the client's (sent to one of its connections).
func (c *Client) Receive(env *sim.Env, e *sim.Envelope) bool {
	if c.conn == "" || e.To != c.conn {
		if !isClientMessage(e.Msg) {
			return false
		}
		// An old connection's: that socket is closed, so the operating
		// system answers with a reset (the server then drops the
		// connection and its watches).
		switch e.Msg.(type) {
		case *sim.Disconnected, *sim.Closed:
		default:
			env.Send(e.To, e.From, &sim.Disconnected{Peer: e.To, Request: e.Msg})
		}
		return true
	}
	c.lastRecv = env.Now()
	switch m := e.Msg.(type) {
	case *ConnectResponse:
		c.connected(env, m)
	case *Reply:
		c.reply(env, m)
		c.rearm(env)
	case *Notification:
		c.notified(env, m.Event)
		c.rearm(env)
	case *sim.Disconnected, *sim.Closed:
		c.lost(env)
	default:
		return false
	}
	return true
}

func isClientMessage(m sim.Message) bool {
	switch m.(type) {
	case *ConnectResponse, *Reply, *Notification, *sim.Disconnected, *sim.Closed:
		return true
	}
	return false
}

// connected is onConnected: a timeout of 0 means the session expired.
func (c *Client) connected(env *sim.Env, m *ConnectResponse) {
	if m.Timeout <= 0 {
		c.timer.Stop()
		c.state = Closed
		c.out.Close()
		c.conn = ""
		c.event(env, WatchedEvent{Type: EventNone, State: StateExpired})
		c.fail(env, SessionExpired)
		return
	}
	c.timeout, c.session = m.Timeout, m.SessionID
	c.state = Connected
	c.lastIndex = c.next
	c.event(env, WatchedEvent{Type: EventNone, State: StateSyncConnected})
	// TCP retransmits the FIN of a closed socket until it gets through;
	// the network carries messages once, so the close of each connection
	// given up on goes again once a path is known to work.
	for _, a := range c.abandoned {
		env.Send(a.local, a.server, &sim.Closed{})
	}
	c.abandoned = nil
	// primeConnection: the watches go back first, then what was queued.
	if req := c.watches.setWatches(c.lastZxid); req != nil {
		c.send(env, &call{req: req})
	}
	queued := c.outgoing
	c.outgoing = nil
	for _, k := range queued {
		c.send(env, k)
	}
	c.arm(env)
}

func (c *Client) reply(env *sim.Env, m *Reply) {
	if m.Zxid > 0 {
		c.lastZxid = m.Zxid
	}
	if m.Xid == PingXid || m.Xid == SetWatchesXid {
		return
	}
	if len(c.pending) == 0 || c.pending[0].req.Xid != m.Xid {
		// ClientCnxn.readResponse: "Xid out of order": connection lost.
		c.lost(env)
		return
	}
	k := c.pending[0]
	c.pending = c.pending[1:]
	if k.req.Watch {
		c.watches.register(k.req, m.Err)
	}
	k.done(env, m)
	if m.Type == OpCloseSession {
		c.finishClose(env)
	}
}

func (c *Client) notified(env *sim.Env, ev WatchedEvent) {
	if c.watches.materialize(ev) {
		c.event(env, ev)
	}
}

// Submit sends a request (xid assigned here) and calls done with its
// reply, or with CONNECTIONLOSS or SESSIONEXPIRED in the reply's Err.
// While the client is connecting the request waits, as ClientCnxn's
// outgoing queue does.
func (c *Client) Submit(env *sim.Env, req *Request, done func(env *sim.Env, r *Reply)) {
	if done == nil {
		done = func(*sim.Env, *Reply) {}
	}
	if c.state == Closed || c.closing {
		done(env, &Reply{Xid: req.Xid, Type: req.Type, Err: SessionExpired})
		return
	}
	c.xid++
	req.Xid = c.xid
	k := &call{req: req, done: done}
	if c.state != Connected {
		c.outgoing = append(c.outgoing, k)
		return
	}
	c.send(env, k)
	c.arm(env)
}

// rearm runs the loop again if the connection is still up.
func (c *Client) rearm(env *sim.Env) {
	if c.conn != "" && c.state == Connected {
		c.arm(env)
	}
}

// Close is ZooKeeper.close: a closeSession; the client is closed when it
// is answered or the connection is lost.
func (c *Client) Close(env *sim.Env, done func(env *sim.Env)) {
	if c.state == Closed {
		if done != nil {
			done(env)
		}
		return
	}
	if done != nil {
		c.closeCalls = append(c.closeCalls, done)
	}
	if c.closing {
		return
	}
	c.Submit(env, &Request{Type: OpCloseSession}, nil)
	c.closing = true
}

func (c *Client) finishClose(env *sim.Env) {
	c.timer.Stop()
	if c.conn != "" {
		c.out.Close()
		env.Send(c.conn, c.server, &sim.Closed{})
	}
	c.conn = ""
	c.state = Closed
	c.fail(env, SessionExpired)
	calls := c.closeCalls
	c.closeCalls = nil
	for _, f := range calls {
		f(env)
	}
}
