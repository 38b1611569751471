package kafkazk

import (
	"slices"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// Client is Kafka 2.8's ZooKeeperClient (kafka/zookeeper/ZooKeeperClient.scala
// at tag 2.8.0) over core/zookeeper's client: one ZooKeeper session per
// broker, shared by the broker and its controller.
//
//   - Requests go in batches (handleRequests): all of a batch's are sent at
//     once, at most zookeeper.max.in.flight.requests (10) unanswered across
//     the whole client (its semaphore), and the caller hears when every one
//     was answered. That pipelining is what made the controller's ZooKeeper
//     work fast (KAFKA-5642, 1.1).
//   - A request that lost its connection is sent again once the client
//     reconnects (KafkaZkClient.retryRequestsUntilConnected); one that met
//     an expired session reports SESSIONEXPIRED.
//   - Watches are set only where a handler is registered for the path
//     (shouldWatch): getData and exists set a data watch when a node
//     handler is, getChildren a child watch when the caller asks and a
//     child handler is. A watch firing calls the handler.
//   - When the session expires the client tells the state handlers
//     (beforeInitializingSession), opens a new session, and tells them
//     again once it is connected (afterInitializingSession), as
//     reinitialize does; the broker re-registers there.
type Client struct {
	cfg         ClientConfig
	zk          *zookeeper.Client
	nodes       map[string]NodeHandler
	children    map[string]func(env *sim.Env)
	states      []StateHandler
	inFlight    int
	queue       []*submission        // waiting for a free in-flight slot
	reinit      bool                 // a new session is being opened
	onConnected []func(env *sim.Env) // WhenConnected callers waiting for the session
	generation  int                  // sessions opened so far (1 = the first)
}

// ClientConfig is what a broker builds its client with.
type ClientConfig struct {
	Servers        []sim.Addr    // zookeeper.connect, in the order tried
	SessionTimeout time.Duration // zookeeper.session.timeout.ms
	MaxInFlight    int           // zookeeper.max.in.flight.requests
}

// NodeHandler is a ZNodeChangeHandler: what to do when the watched node
// is created, deleted or changed (nil: nothing).
type NodeHandler struct {
	Created, Deleted, DataChanged func(env *sim.Env)
}

// StateHandler is a StateChangeHandler, registered under a name.
type StateHandler struct {
	Name                                    string
	BeforeInitializingSession, AfterSession func(env *sim.Env)
}

// Req is one request of a batch (AsyncRequest): Type is the op, the other
// fields what it takes. RegisterWatch asks getChildren for a child watch.
type Req struct {
	Type          zookeeper.OpCode
	Path          string
	Data          []byte
	Mode          zookeeper.CreateMode
	Version       int32 // setData, delete: expected version (-1 any)
	Ops           []zookeeper.Op
	RegisterWatch bool
}

// Resp is one request's answer (AsyncResponse).
type Resp struct {
	Req      Req
	Rc       zookeeper.Code
	Data     []byte
	Stat     zookeeper.Stat
	Children []string
	Created  string
	Results  []zookeeper.OpResult
}

type submission struct {
	req  Req
	done func(env *sim.Env, r Resp)
}

// NewClient makes a client; Start opens its session.
func NewClient(cfg ClientConfig) *Client {
	if cfg.MaxInFlight < 1 {
		cfg.MaxInFlight = 10
	}
	return &Client{cfg: cfg, nodes: map[string]NodeHandler{}, children: map[string]func(*sim.Env){}}
}

// Start opens the first session (ZooKeeperClient's constructor, which
// waits until connected: requests made meanwhile wait in the queue).
func (c *Client) Start(env *sim.Env) {
	c.open(env)
}

func (c *Client) open(env *sim.Env) {
	c.generation++
	gen := c.generation
	c.zk = zookeeper.NewClient(zookeeper.ClientConfig{
		Servers: c.cfg.Servers, SessionTimeout: c.cfg.SessionTimeout,
		Watcher: func(env *sim.Env, ev zookeeper.WatchedEvent) { c.watched(env, gen, ev) },
	})
	c.zk.Start(env)
}

// Receive hands the client an envelope; it reports whether it was the
// client's.
func (c *Client) Receive(env *sim.Env, e *sim.Envelope) bool {
	if c.zk == nil {
		return false
	}
	return c.zk.Receive(env, e)
}

// Session is the current session's id (0 before it is established, or
// before Start: a view may ask about a broker not started yet).
func (c *Client) Session() int64 {
	if c.zk == nil {
		return 0
	}
	return c.zk.SessionID()
}

// Connected reports whether the session is connected now.
func (c *Client) Connected() bool { return c.zk != nil && c.zk.State() == zookeeper.Connected }

// WhenConnected calls f once the session is connected (at once if it is):
// what follows ZooKeeperClient's constructor, which waits for it.
func (c *Client) WhenConnected(env *sim.Env, f func(env *sim.Env)) {
	if c.Connected() {
		f(env)
		return
	}
	c.onConnected = append(c.onConnected, f)
}

// Close ends the session (ZooKeeper.close at a clean shutdown).
func (c *Client) Close(env *sim.Env, done func(env *sim.Env)) {
	c.states = nil
	c.zk.Close(env, done)
}

// RegisterNodeHandler sets the handler for path's data watches.
func (c *Client) RegisterNodeHandler(path string, h NodeHandler) { c.nodes[path] = h }

// UnregisterNodeHandler drops it.
func (c *Client) UnregisterNodeHandler(path string) { delete(c.nodes, path) }

// RegisterChildHandler sets the handler for path's child watches.
func (c *Client) RegisterChildHandler(path string, h func(env *sim.Env)) { c.children[path] = h }

// UnregisterChildHandler drops it.
func (c *Client) UnregisterChildHandler(path string) { delete(c.children, path) }

// RegisterStateHandler adds (or replaces, by name) a state handler.
func (c *Client) RegisterStateHandler(h StateHandler) {
	c.states = slices.DeleteFunc(c.states, func(x StateHandler) bool { return x.Name == h.Name })
	c.states = append(c.states, h)
}

// Do sends a batch and calls done with the answers in the batch's order
// once all are in.
func (c *Client) Do(env *sim.Env, reqs []Req, done func(env *sim.Env, resps []Resp)) {
	resps := make([]Resp, len(reqs))
	left := len(reqs)
	if left == 0 {
		done(env, resps)
		return
	}
	for i, r := range reqs {
		c.submit(env, &submission{req: r, done: func(env *sim.Env, resp Resp) {
			resps[i] = resp
			if left--; left == 0 {
				done(env, resps)
			}
		}})
	}
}

// One sends a single request.
func (c *Client) One(env *sim.Env, r Req, done func(env *sim.Env, resp Resp)) {
	c.Do(env, []Req{r}, func(env *sim.Env, resps []Resp) { done(env, resps[0]) })
}

func (c *Client) submit(env *sim.Env, s *submission) {
	if c.inFlight >= c.cfg.MaxInFlight {
		c.queue = append(c.queue, s)
		return
	}
	c.inFlight++
	c.send(env, s)
}

// send puts one request on the wire; its answer frees its slot, and a
// connection loss sends it again (in the same slot) once reconnected.
func (c *Client) send(env *sim.Env, s *submission) {
	req := &zookeeper.Request{Type: s.req.Type, Path: s.req.Path, Data: s.req.Data, Mode: s.req.Mode, Version: s.req.Version, Ops: s.req.Ops}
	switch s.req.Type {
	case zookeeper.OpGetData, zookeeper.OpExists:
		_, req.Watch = c.nodes[s.req.Path]
	case zookeeper.OpGetChildren2:
		_, ok := c.children[s.req.Path]
		req.Watch = ok && s.req.RegisterWatch
	}
	zk := c.zk
	zk.Submit(env, req, func(env *sim.Env, r *zookeeper.Reply) {
		if r.Err == zookeeper.ConnectionLoss && zk == c.zk {
			c.send(env, s) // queued by the client until it reconnects
			return
		}
		resp := Resp{Req: s.req, Rc: r.Err, Data: r.Data, Stat: r.Stat, Children: r.Children, Created: r.Path, Results: r.Multi}
		if s.req.Type == zookeeper.OpMulti {
			resp.Rc = multiCode(r)
		}
		c.inFlight--
		if len(c.queue) > 0 {
			next := c.queue[0]
			c.queue = c.queue[1:]
			c.inFlight++
			c.send(env, next)
		}
		s.done(env, resp)
	})
}

// multiCode is the first failing step's code, as ZooKeeper.multiInternal
// reports a multi's KeeperException, or the reply's own.
func multiCode(r *zookeeper.Reply) zookeeper.Code {
	if r.Err != zookeeper.OK {
		return r.Err
	}
	for _, o := range r.Multi {
		if o.Type == zookeeper.OpError && o.Err != zookeeper.OK {
			return o.Err
		}
	}
	return zookeeper.OK
}

// watched is ZooKeeperClientWatcher.process for session gen.
func (c *Client) watched(env *sim.Env, gen int, ev zookeeper.WatchedEvent) {
	if gen != c.generation {
		return // an old session's
	}
	switch ev.Type {
	case zookeeper.EventNone:
		switch ev.State {
		case zookeeper.StateExpired:
			c.reinitialize(env)
		case zookeeper.StateSyncConnected:
			waiting := c.onConnected
			c.onConnected = nil
			for _, f := range waiting {
				f(env)
			}
			if c.reinit {
				c.reinit = false
				for _, h := range slices.Clone(c.states) {
					if h.AfterSession != nil {
						h.AfterSession(env)
					}
				}
			}
		}
	case zookeeper.EventNodeCreated:
		if h := c.nodes[ev.Path]; h.Created != nil {
			h.Created(env)
		}
	case zookeeper.EventNodeDeleted:
		if h := c.nodes[ev.Path]; h.Deleted != nil {
			h.Deleted(env)
		}
	case zookeeper.EventNodeDataChanged:
		if h := c.nodes[ev.Path]; h.DataChanged != nil {
			h.DataChanged(env)
		}
	case zookeeper.EventNodeChildrenChanged:
		if h := c.children[ev.Path]; h != nil {
			h(env)
		}
	}
}

// reinitialize opens a new session after the old one expired: the
// handlers hear it before and after (ZooKeeperClient.reinitialize).
func (c *Client) reinitialize(env *sim.Env) {
	for _, h := range slices.Clone(c.states) {
		if h.BeforeInitializingSession != nil {
			h.BeforeInitializingSession(env)
		}
	}
	c.reinit = true
	c.open(env)
}
