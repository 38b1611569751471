package client

import (
	"fmt"
	"math"
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// AdminConfig holds the admin client settings the simulator implements,
// with Kafka's names.
type AdminConfig struct {
	ClientID            string
	DefaultAPITimeout   time.Duration // default.api.timeout.ms: a call's deadline
	RequestTimeout      time.Duration // request.timeout.ms: one attempt's longest wait
	RetryBackoff        time.Duration // retry.backoff.ms
	RetryBackoffMax     time.Duration // retry.backoff.max.ms
	ReconnectBackoff    time.Duration // reconnect.backoff.ms
	ReconnectBackoffMax time.Duration // reconnect.backoff.max.ms
	MetadataMaxAge      time.Duration // metadata.max.age.ms
	Retries             int           // retries: failed tries allowed before the deadline

	// BootstrapControllers says the bootstrap addresses are controller
	// listeners (--bootstrap-controller, bootstrap.controllers): the client
	// then talks only to controllers and sends its calls to the active one.
	BootstrapControllers bool
	// ControllerNodes are the voters and their controller listeners, which
	// Kafka's client learns from a controller's DescribeCluster answer
	// (kafkascope's controllers do not serve DescribeCluster; see
	// controllerMetadataCall). Only read with BootstrapControllers.
	ControllerNodes []Node
	// ClusterID is what a controller's DescribeCluster would report (read
	// only with BootstrapControllers).
	ClusterID string

	// ConsumerGroupDescribe: describeConsumerGroups asks
	// ConsumerGroupDescribe before DescribeGroups, as Kafka 4.x clients do
	// (3.8's ask DescribeGroups only).
	ConsumerGroupDescribe bool
}

// Node is a node the admin client knows: its id and listener address.
type Node struct {
	ID   int32
	Addr sim.Addr
}

// DefaultAdminConfig has Kafka's admin client defaults.
func DefaultAdminConfig() AdminConfig {
	return AdminConfig{
		ClientID:          "adminclient-1",
		DefaultAPITimeout: 60 * time.Second, RequestTimeout: 30 * time.Second,
		RetryBackoff: 100 * time.Millisecond, RetryBackoffMax: time.Second,
		ReconnectBackoff: 50 * time.Millisecond, ReconnectBackoffMax: time.Second,
		MetadataMaxAge: 5 * time.Minute, Retries: math.MaxInt32,
	}
}

// Exception classes the admin client raises itself.
const (
	classDisconnect = "org.apache.kafka.common.errors.DisconnectException"
)

// Admin is KafkaAdminClient: calls wait for cluster metadata, are assigned a
// node by their node provider, are sent one at a time per node, and are
// retried after retry.backoff (exponential, with jitter) while their
// deadline (default.api.timeout.ms, or the call's own timeout) allows. Each
// attempt waits at most min(request.timeout.ms, time left); a request that
// times out closes its connection, which fails it with a
// DisconnectException. At the deadline the call fails with a
// TimeoutException: "Timed out waiting for a node assignment" if it had no
// node then, "Timed out waiting to send the call" if its node was not
// ready, and otherwise Call(...) "timed out at" with the last failure as
// the cause. Facts from KafkaAdminClient and AdminMetadataManager at 3.8.0.
type Admin struct {
	cfg       AdminConfig
	self      sim.Addr
	bootstrap []sim.Addr

	retry, reconnect *exponentialBackoff

	md metadataManager

	nextCorr  int32
	conns     map[int32]*connection
	inflight  map[int32]*request // by correlation id
	ephemeral map[sim.Addr]bool  // local ports of connections after a node's first

	pending  []*call           // calls without a node
	toSend   map[int32][]*call // calls assigned to a node, waiting to be sent
	inFlight map[int32]*call   // the one call in flight per node

	wake    *sim.Timer
	polling bool
	again   bool
}

// NewAdmin makes an admin client sending from self; bootstrap lists the
// bootstrap.servers (or, with cfg.BootstrapControllers, the
// bootstrap.controllers) addresses.
func NewAdmin(self sim.Addr, bootstrap []sim.Addr, cfg AdminConfig) *Admin {
	a := &Admin{cfg: cfg, self: self, bootstrap: bootstrap,
		conns: map[int32]*connection{}, inflight: map[int32]*request{}, toSend: map[int32][]*call{}, inFlight: map[int32]*call{},
		ephemeral: map[sim.Addr]bool{}}
	a.md.init(bootstrap)
	return a
}

// Target is a call's node provider.
type Target struct {
	kind targetKind
	node int32
}

type targetKind uint8

const (
	targetLeastLoaded              targetKind = iota // LeastLoadedNodeProvider
	targetController                                 // ControllerNodeProvider: the metadata's controller
	targetNode                                       // ConstantNodeIdProvider
	targetBrokerOrActiveController                   // LeastLoadedBrokerOrActiveKController
	targetMetadata                                   // MetadataUpdateNodeIdProvider
)

// AnyBroker is LeastLoadedNodeProvider: the least loaded broker.
func AnyBroker() Target { return Target{kind: targetLeastLoaded} }

// ControllerTarget is ControllerNodeProvider: the node the metadata names
// as controller (a KRaft broker names a live broker, which forwards).
func ControllerTarget() Target { return Target{kind: targetController} }

// BrokerNode is ConstantNodeIdProvider: broker id, once the metadata has it.
func BrokerNode(id int32) Target { return Target{kind: targetNode, node: id} }

// BrokerOrActiveController is LeastLoadedBrokerOrActiveKController: the
// least loaded broker, or with bootstrap controllers the active controller.
func BrokerOrActiveController() Target { return Target{kind: targetBrokerOrActiveController} }

// callTargets are the node providers KafkaAdminClient gives its calls.
var callTargets = map[string]Target{
	"createTopics":                ControllerTarget(),
	"deleteTopics":                ControllerTarget(),
	"createPartitions":            ControllerTarget(),
	"electLeaders":                ControllerTarget(),
	"alterPartitionReassignments": ControllerTarget(),
	"listPartitionReassignments":  ControllerTarget(),
	"listNodes":                   BrokerOrActiveController(),
	"describeConfigs":             BrokerOrActiveController(),
	"incrementalAlterConfigs":     BrokerOrActiveController(),
	"alterConfigs":                BrokerOrActiveController(),
	"describeMetadataQuorum":      BrokerOrActiveController(),
	"addRaftVoter":                BrokerOrActiveController(),
	"removeRaftVoter":             BrokerOrActiveController(),
}

// Callback gets a call's response, or its failure.
type Callback func(env *sim.Env, resp protocol.Response, err *Error)

// Handle routes a message to the admin client; it reports whether it was
// one of the client's.
func (a *Admin) Handle(env *sim.Env, e *sim.Envelope) bool {
	if e.To != a.self && !a.ephemeral[e.To] {
		return false
	}
	switch m := e.Msg.(type) {
	case *sim.Disconnected:
		a.onReset(env, m)
	case protocol.Response:
		a.onResponse(env, e.From, e.To, m.Correlation(), m)
	case *raft.DescribeQuorumResponse, *raft.AddRaftVoterResponse, *raft.RemoveRaftVoterResponse:
		a.onResponse(env, e.From, e.To, m.(raft.ClientMessage).ClientCorrelation(), m)
	default:
		return false
	}
	return true
}

// Call runs one admin call named as Kafka names it (createTopics,
// listTopics, ...), sent to the node KafkaAdminClient picks for it, with
// default.api.timeout.ms as its deadline. build makes a fresh request for
// each attempt.
func (a *Admin) Call(env *sim.Env, name string, build func() protocol.Request, cb Callback) {
	target, ok := callTargets[name]
	if !ok {
		target = AnyBroker()
	}
	a.CallTarget(env, name, target, 0, func(int32) protocol.Request { return build() }, cb)
}

// CallNode is Call sent to broker id (ConstantNodeIdProvider).
func (a *Admin) CallNode(env *sim.Env, name string, id int32, build func() protocol.Request, cb Callback) {
	a.CallTarget(env, name, BrokerNode(id), 0, func(int32) protocol.Request { return build() }, cb)
}

// CallTarget is the general form: the call's node provider, its own
// timeout (an options object's timeoutMs; 0 means default.api.timeout.ms),
// and a builder that gets each attempt's timeout in ms (the value Kafka
// puts in a request's TimeoutMs field).
func (a *Admin) CallTarget(env *sim.Env, name string, target Target, timeout time.Duration, build func(timeoutMs int32) protocol.Request, cb Callback) {
	c := a.newCall(env, name, target, timeout)
	c.build = func(ms int32) sim.Message { return build(ms) }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		cb(env, resp.(protocol.Response), nil)
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { cb(env, nil, err) }
	a.enqueue(env, c)
}

// DescribeCluster is Admin.describeCluster (the call Kafka names
// listNodes): the cluster id and the brokers.
func (a *Admin) DescribeCluster(env *sim.Env, cb func(env *sim.Env, clusterID string, brokers []Node, err *Error)) {
	c := a.newCall(env, "listNodes", BrokerOrActiveController(), 0)
	if a.cfg.BootstrapControllers {
		// A controller's DescribeCluster answer (any controller answers it)
		// stands in as a DescribeQuorum round trip; see
		// controllerMetadataCall.
		c.build = func(int32) sim.Message { return &raft.DescribeQuorumRequest{} }
		c.onResponse = func(env *sim.Env, _ sim.Message) *Error {
			cb(env, a.cfg.ClusterID, a.cfg.ControllerNodes, nil)
			return nil
		}
	} else {
		c.build = func(int32) sim.Message { return &protocol.MetadataRequest{Topics: []string{}} }
		c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
			md := resp.(*protocol.MetadataResponse)
			cb(env, md.ClusterID, metadataNodes(md), nil)
			return nil
		}
	}
	c.onFailure = func(env *sim.Env, err *Error) { cb(env, "", nil, err) }
	a.enqueue(env, c)
}

// DescribeMetadataQuorum is Admin.describeMetadataQuorum: the quorum
// leader's view of __cluster_metadata-0. A broker forwards it to the active
// controller; with bootstrap controllers it goes to the active controller
// directly. Errors in the answer fail the attempt (NOT_LEADER_OR_FOLLOWER
// and REQUEST_TIMED_OUT are retriable, so the call goes again).
func (a *Admin) DescribeMetadataQuorum(env *sim.Env, cb func(env *sim.Env, q *protocol.DescribeQuorumResponse, err *Error)) {
	c := a.newCall(env, "describeMetadataQuorum", BrokerOrActiveController(), 0)
	c.build = func(int32) sim.Message {
		if a.cfg.BootstrapControllers {
			return &raft.DescribeQuorumRequest{}
		}
		return &protocol.DescribeQuorumRequest{}
	}
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		var q *protocol.DescribeQuorumResponse
		switch m := resp.(type) {
		case *protocol.DescribeQuorumResponse:
			q = m
		case *raft.DescribeQuorumResponse:
			q = quorumFromRaft(m)
		}
		for _, code := range []protocol.ErrorCode{q.ErrorCode, q.PartitionError} {
			if code != protocol.NONE {
				return codeError(code)
			}
		}
		cb(env, q, nil)
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { cb(env, nil, err) }
	a.enqueue(env, c)
}

// AddRaftVoter is Admin.addRaftVoter (KIP-853): ask the quorum to add
// voter id, whose metadata log directory is dir, reachable on listeners.
// A broker forwards it to the active controller; with bootstrap
// controllers it goes to the active controller directly. cb gets nil once
// the voter was added, or the call's failure.
func (a *Admin) AddRaftVoter(env *sim.Env, id int32, dir metadata.Uuid, listeners []protocol.RaftVoterListener, cb func(env *sim.Env, err *Error)) {
	a.raftVoterCall(env, "addRaftVoter", func(timeoutMs int32) sim.Message {
		if a.cfg.BootstrapControllers {
			r := &raft.AddRaftVoterRequest{TimeoutMs: timeoutMs, VoterID: id, VoterDirectoryID: dir, AckWhenCommitted: true}
			for _, l := range listeners {
				r.Listeners = append(r.Listeners, raft.RaftVoterListener{Name: l.Name, Host: l.Host, Port: l.Port})
			}
			return r
		}
		return &protocol.AddRaftVoterRequest{TimeoutMs: timeoutMs, VoterID: id, VoterDirectoryID: dir, Listeners: listeners}
	}, cb)
}

// RemoveRaftVoter is Admin.removeRaftVoter (KIP-853): ask the quorum to
// remove voter id whose metadata log directory is dir, as AddRaftVoter
// asks.
func (a *Admin) RemoveRaftVoter(env *sim.Env, id int32, dir metadata.Uuid, cb func(env *sim.Env, err *Error)) {
	a.raftVoterCall(env, "removeRaftVoter", func(int32) sim.Message {
		if a.cfg.BootstrapControllers {
			return &raft.RemoveRaftVoterRequest{VoterID: id, VoterDirectoryID: dir}
		}
		return &protocol.RemoveRaftVoterRequest{VoterID: id, VoterDirectoryID: dir}
	}, cb)
}

// raftVoterCall is the call both voter changes make
// (LeastLoadedBrokerOrActiveKController; the cluster id is left null, as
// the options name none). Its handleResponse first runs
// handleNotControllerError: NOT_CONTROLLER, or with bootstrap controllers
// NOT_LEADER_OR_FOLLOWER (a controller that does not lead), forgets the
// controller, asks for metadata and fails the attempt, which is retried.
// Any other error completes the call with Errors.forCode(code)
// .exception(errorMessage): the response's message, or the error's
// default one when it has none; that is not retried.
func (a *Admin) raftVoterCall(env *sim.Env, name string, build func(timeoutMs int32) sim.Message, cb func(env *sim.Env, err *Error)) {
	c := a.newCall(env, name, BrokerOrActiveController(), 0)
	c.build = build
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		var code protocol.ErrorCode
		var msg *string
		switch m := resp.(type) {
		case *protocol.AddRaftVoterResponse:
			code, msg = m.ErrorCode, m.ErrorMessage
		case *protocol.RemoveRaftVoterResponse:
			code, msg = m.ErrorCode, m.ErrorMessage
		case *raft.AddRaftVoterResponse:
			code, msg = m.ErrorCode, m.ErrorMessage
		case *raft.RemoveRaftVoterResponse:
			code, msg = m.ErrorCode, m.ErrorMessage
		}
		if code == protocol.NOT_CONTROLLER || (a.cfg.BootstrapControllers && code == protocol.NOT_LEADER_OR_FOLLOWER) {
			a.md.controller = -1
			a.md.requestUpdate()
			return codeError(code)
		}
		if code != protocol.NONE {
			err := codeError(code)
			if msg != nil {
				err.Message = *msg
			}
			cb(env, err)
			return nil
		}
		cb(env, nil)
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { cb(env, err) }
	a.enqueue(env, c)
}

// codeError is Errors.forCode(code).exception(): the default message.
func codeError(code protocol.ErrorCode) *Error {
	return &Error{Class: code.Exception(), Message: code.Message(), retriable: code.Retriable()}
}

func quorumFromRaft(r *raft.DescribeQuorumResponse) *protocol.DescribeQuorumResponse {
	q := &protocol.DescribeQuorumResponse{ErrorCode: r.ErrorCode, PartitionError: r.PartitionError,
		LeaderID: r.Quorum.LeaderID, LeaderEpoch: r.Quorum.LeaderEpoch, HighWatermark: r.Quorum.HighWatermark}
	conv := func(rs []raft.ReplicaInfo) []protocol.QuorumReplicaState {
		var out []protocol.QuorumReplicaState
		for _, x := range rs {
			out = append(out, protocol.QuorumReplicaState{ReplicaID: x.ReplicaID, LogEndOffset: x.LogEndOffset,
				LastFetchTimestamp: x.LastFetchTimestamp, LastCaughtUpTimestamp: x.LastCaughtUpTimestamp})
		}
		return out
	}
	q.CurrentVoters, q.Observers = conv(r.Quorum.CurrentVoters), conv(r.Quorum.Observers)
	return q
}

// call is KafkaAdminClient.Call.
type call struct {
	name     string
	deadline sim.Time
	target   Target
	tries    int
	// nextAllowedTryMs is wall-clock ms (0 until the first failure), as
	// Call.toString prints it.
	nextAllowedTryMs int64
	curNode          int32
	hasNode          bool

	build      func(timeoutMs int32) sim.Message
	onResponse func(env *sim.Env, resp sim.Message) *Error // a non-nil result fails the attempt
	onFailure  func(env *sim.Env, err *Error)              // handleFailure: the call is over
}

// String is Call.toString.
func (c *call) String() string {
	return fmt.Sprintf("Call(callName=%s, deadlineMs=%d, tries=%d, nextAllowedTryMs=%d)", c.name, c.deadline.UnixMilli(), c.tries, c.nextAllowedTryMs)
}

func (a *Admin) newCall(env *sim.Env, name string, target Target, timeout time.Duration) *call {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	return &call{name: name, target: target, deadline: env.Now().Add(timeout)}
}

// remainingMs is calcTimeoutMsRemainingAsInt: the whole milliseconds left
// before deadline (negative once it has passed).
func remainingMs(now, deadline sim.Time) int64 {
	ms := deadline.UnixMilli() - now.UnixMilli()
	return max(min(ms, math.MaxInt32), math.MinInt32)
}

func (a *Admin) enqueue(env *sim.Env, c *call) {
	a.pending = append(a.pending, c)
	a.poll(env)
}

// fail is Call.fail: count the try, then give up (the deadline passed, or
// the error is not retriable) or queue the call again after the backoff.
func (a *Admin) fail(env *sim.Env, c *call, err *Error) {
	c.hasNode = false
	now := env.Now()
	c.nextAllowedTryMs = now.UnixMilli() + a.retryBackoff(env).backoff(c.tries).Milliseconds()
	c.tries++
	switch {
	case remainingMs(now, c.deadline) <= 0:
		a.timeoutFailure(env, c, err)
	case !err.retriable:
		c.onFailure(env, err)
	case c.tries > a.cfg.Retries:
		a.timeoutFailure(env, c, err)
	default:
		a.pending = append(a.pending, c)
	}
}

// timeoutFailure is Call.handleTimeoutFailure: a TimeoutException is the
// failure itself; anything else becomes the cause of one naming the call.
func (a *Admin) timeoutFailure(env *sim.Env, c *call, cause *Error) {
	if cause.Class == classTimeout {
		c.onFailure(env, cause)
		return
	}
	c.onFailure(env, &Error{Class: classTimeout,
		Message: fmt.Sprintf("%s timed out at %d after %d attempt(s)", c, env.Now().UnixMilli(), c.tries), Cause: cause, retriable: true})
}

func (a *Admin) retryBackoff(env *sim.Env) *exponentialBackoff {
	if a.retry == nil {
		a.retry = newExponentialBackoff(a.cfg.RetryBackoff, a.cfg.RetryBackoffMax, 0.2, env.Rand("admin-retry-backoff/"+string(a.self)))
		a.reconnect = newExponentialBackoff(a.cfg.ReconnectBackoff, a.cfg.ReconnectBackoffMax, 0.2, env.Rand("admin-reconnect-backoff/"+string(a.self)))
	}
	return a.retry
}

// poll is one turn of AdminClientRunnable.processRequests, run after
// everything that can change what the client may do (a new call, an answer,
// a timer). A turn started while one runs (a callback making a new call)
// runs right after it.
func (a *Admin) poll(env *sim.Env) {
	if a.polling {
		a.again = true
		return
	}
	a.polling = true
	for {
		a.again = false
		a.turn(env)
		if !a.again {
			break
		}
	}
	a.polling = false
	a.schedule(env)
}

func (a *Admin) turn(env *sim.Env) {
	a.retryBackoff(env)
	now := env.Now()
	// Calls whose node's connection failed go back to be assigned again
	// (Kafka does this after each network poll).
	a.unassign(func(id int32) bool { return a.connectionFailed(id) })
	a.pending = a.expire(env, a.pending, "Timed out waiting for a node assignment.")
	for _, id := range sortedIDs(a.toSend) {
		a.toSend[id] = a.expire(env, a.toSend[id], "Timed out waiting to send the call.")
	}
	for _, id := range sortedIDs(a.inFlight) {
		if c := a.inFlight[id]; c != nil && remainingMs(now, c.deadline) < 0 {
			a.disconnect(env, id, true) // fails the call with a DisconnectException
		}
	}
	a.drainPending(env)
	if a.md.fetchDelay(now, a.cfg) == 0 {
		a.md.state, a.md.lastAttempt, a.md.attempted = mdUpdatePending, now, true
		mc := a.metadataCall(env)
		if !a.assign(env, mc) {
			a.pending = append(a.pending, mc)
		}
	}
	a.sendEligible(env)
}

// expire fails the calls whose deadline has passed with msg.
func (a *Admin) expire(env *sim.Env, calls []*call, msg string) []*call {
	var keep []*call
	for _, c := range calls {
		if remainingMs(env.Now(), c.deadline) < 0 {
			a.fail(env, c, &Error{Class: classTimeout, Message: msg + " Call: " + c.name, retriable: true})
			continue
		}
		keep = append(keep, c)
	}
	return keep
}

// drainPending assigns nodes to the pending calls that may go now.
func (a *Admin) drainPending(env *sim.Env) {
	var keep []*call
	calls := a.pending
	a.pending = nil
	for _, c := range calls {
		if env.Now().UnixMilli() < c.nextAllowedTryMs || !a.assign(env, c) {
			keep = append(keep, c)
		}
	}
	a.pending = append(keep, a.pending...)
}

// assign is maybeDrainPendingCall: give the call a node, or leave it.
func (a *Admin) assign(env *sim.Env, c *call) bool {
	id, ok := a.provide(env, c.target)
	if !ok {
		return false
	}
	c.curNode, c.hasNode = id, true
	a.toSend[id] = append(a.toSend[id], c)
	return true
}

// provide is the call's NodeProvider.
func (a *Admin) provide(env *sim.Env, t Target) (int32, bool) {
	ready := a.md.ready()
	switch t.kind {
	case targetMetadata:
		return a.leastLoaded(env)
	case targetLeastLoaded:
		if ready {
			return a.leastLoaded(env)
		}
	case targetController:
		if ready && a.md.controller >= 0 {
			return a.md.controller, true
		}
	case targetNode:
		if ready && a.md.has(t.node) {
			return t.node, true
		}
	case targetBrokerOrActiveController:
		if ready {
			if a.cfg.BootstrapControllers {
				return a.md.controller, a.md.controller >= 0
			}
			return a.leastLoaded(env)
		}
	}
	a.md.requestUpdate()
	return 0, false
}

// unassign is unassignUnsentCalls.
func (a *Admin) unassign(should func(id int32) bool) {
	for _, id := range sortedIDs(a.toSend) {
		calls := a.toSend[id]
		if len(calls) == 0 {
			delete(a.toSend, id)
			continue
		}
		if should(id) {
			for _, c := range calls {
				c.hasNode = false
				a.pending = append(a.pending, c)
			}
			delete(a.toSend, id)
		}
	}
}

// sendEligible is sendEligibleCalls: per node, one call in flight at a
// time, once its connection is ready.
func (a *Admin) sendEligible(env *sim.Env) {
	for _, id := range sortedIDs(a.toSend) {
		calls := a.toSend[id]
		if len(calls) == 0 {
			delete(a.toSend, id)
			continue
		}
		if a.inFlight[id] != nil || !a.ready(env, id) {
			continue
		}
		c := calls[0]
		a.toSend[id] = calls[1:]
		timeoutMs := int32(min(a.cfg.RequestTimeout.Milliseconds(), remainingMs(env.Now(), c.deadline)))
		a.inFlight[id] = c
		a.send(env, id, c, c.build(timeoutMs), timeoutMs)
	}
}

// schedule arms the one timer that wakes the client for its next timeout,
// backoff or metadata refresh, as the runnable's poll timeout does.
func (a *Admin) schedule(env *sim.Env) {
	now := env.Now()
	next := sim.Time(math.MaxInt64)
	at := func(t sim.Time) {
		if t > now && t < next {
			next = t
		}
	}
	expiry := func(c *call) sim.Time {
		// Expired means at least a whole millisecond past the deadline.
		return sim.Time((c.deadline.Millis() + 1) * int64(time.Millisecond))
	}
	busy := len(a.pending) > 0 || len(a.inFlight) > 0
	for _, c := range a.pending {
		at(expiry(c))
		at(sim.FromUnixMilli(c.nextAllowedTryMs))
	}
	if len(a.pending) > 0 {
		at(now.Add(a.cfg.RetryBackoff))
	}
	for _, id := range sortedIDs(a.toSend) {
		for _, c := range a.toSend[id] {
			busy = true
			at(expiry(c))
		}
		if cn := a.conns[id]; cn != nil && len(a.toSend[id]) > 0 {
			at(cn.lastAttempt.Add(cn.backoff))
		}
	}
	for _, c := range a.inFlight {
		if c != nil {
			at(expiry(c))
		}
	}
	if busy {
		if d := a.md.fetchDelay(now, a.cfg); d > 0 && d < time.Duration(math.MaxInt64) {
			at(now.Add(d))
		}
	}
	if a.wake != nil && a.wake.Pending() && a.wake.At() == next {
		return
	}
	a.wake.Stop()
	a.wake = nil
	if next == sim.Time(math.MaxInt64) {
		return
	}
	a.wake = env.After(next.Sub(now), "admin-client-poll", a.poll)
}

func sortedIDs[V any](m map[int32]V) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}

// DescribeFeatures is Admin.describeFeatures (KIP-584): one broker's
// ApiVersions answer, its supported feature ranges and the finalized
// levels of the metadata it has applied. target is
// BrokerOrActiveController(), or BrokerNode(id) for
// DescribeFeaturesOptions.nodeId (Kafka 4.2+), which waits for that node
// to appear in the metadata until the call's deadline.
func (a *Admin) DescribeFeatures(env *sim.Env, target Target, cb func(env *sim.Env, f *protocol.ApiVersionsResponse, err *Error)) {
	c := a.newCall(env, "describeFeatures", target, 0)
	c.build = func(int32) sim.Message { return &protocol.ApiVersionsRequest{} }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		f := resp.(*protocol.ApiVersionsResponse)
		if f.ErrorCode != protocol.NONE {
			return codeError(f.ErrorCode)
		}
		cb(env, f, nil)
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { cb(env, nil, err) }
	a.enqueue(env, c)
}
