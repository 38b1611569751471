package raft

import (
	"errors"
	"fmt"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Errors the API returns.
var (
	// ErrNotLeader: the node does not lead the current epoch (Kafka's
	// NotLeaderException).
	ErrNotLeader = errors.New("raft: not the leader")
	// ErrNotStarted: Start has not run (or failed).
	ErrNotStarted = errors.New("raft: node not started")
	// ErrBatchTooLarge: an Append over MaxBatchSizeBytes
	// (RecordBatchTooLargeException).
	ErrBatchTooLarge = errors.New("raft: batch larger than the maximum batch size")
)

// Node is one KRaft replica of __cluster_metadata-0: a voter (a controller)
// or an observer (a broker). It lives inside a host process, which hands it
// every envelope (Handle) and calls Start when the process starts. All
// methods must run on the host's goroutine, inside its handlers.
//
// Like KafkaRaftClient, it is driven by a poll: after every event the
// current state's poll sends what is due and computes when it must look
// again; one timer ("raft poll") wakes it then.
type Node struct {
	cfg       Config
	voterAddr map[int32]sim.Addr
	addrVoter map[sim.Addr]int32
	voters    []int32
	observer  bool

	listeners []*listenerContext

	rnd    *sim.Rand
	log    *replicatedLog
	quorum *quorumState
	reqs   *requestManager
	parked []*parkedFetch
	// parkedScratch holds the copy of parked that maybeCompleteParkedFetches
	// walks, while parkedScratchBusy.
	parkedScratch     []*parkedFetch
	parkedScratchBusy bool
	recovery          storage.RecoveryReport

	nextCorrelationID int32
	wake              *sim.Timer
	// shutdown is the graceful shutdown under way, nil until Shutdown.
	shutdown *gracefulShutdown

	started bool
	// busy: a Node entry point is running (its work or the poll after it);
	// a re-entrant call (a listener calling back) does its work and marks
	// the node dirty, so the running poll goes round once more.
	busy  bool
	dirty bool
	// inCallback: a listener callback is running; deliveries its calls
	// cause are left to the poll loop, so callbacks never nest.
	inCallback bool
	// chunk is the delivery pass's last read of committed batches, shared
	// by the listeners that need the same read (updateListenersProgress).
	chunk committedChunk
	// rateSensors are raft-metrics' rates and latencies (metrics.go).
	rateSensors *raftRates
}

// NewNode makes a node; it does nothing until Start.
func NewNode(cfg Config, l Listener) *Node {
	cfg = cfg.withDefaults()
	n := &Node{cfg: cfg, voterAddr: map[int32]sim.Addr{}, addrVoter: map[sim.Addr]int32{}}
	for id, a := range cfg.Voters {
		n.voterAddr[id] = a
		n.addrVoter[a] = id
	}
	n.voters = cfg.voterIDs()
	_, isVoter := cfg.Voters[cfg.NodeID]
	n.observer = !isVoter
	if l != nil {
		n.listeners = append(n.listeners, newListenerContext(l))
	}
	return n
}

// Register adds another listener (in combined mode the controller and the
// broker each follow the log). It starts from offset 0 (or the latest
// snapshot), like a fresh Kafka listener.
func (n *Node) Register(env *sim.Env, l Listener) {
	n.listeners = append(n.listeners, newListenerContext(l))
	if n.started {
		n.run(env, nil)
	}
}

// Start recovers the log, the snapshots and quorum-state from disk, picks
// the starting state as Kafka's QuorumState.initialize does, and starts
// the poll timer. A lone voter elects itself at once.
func (n *Node) Start(env *sim.Env) error {
	if n.log != nil {
		return errors.New("raft: a node starts once; a restarted process makes a new node")
	}
	if err := n.cfg.validate(); err != nil {
		return err
	}
	// A fresh stream per incarnation: restarts draw new election timeouts.
	n.rnd = env.Rand(fmt.Sprintf("raft/%d/%d", n.cfg.NodeID, env.Now()))
	l, rep, err := openReplicatedLog(n.cfg.Disk, n.cfg.LogDir, n.cfg.SegmentBytes)
	if err != nil {
		return err
	}
	n.log, n.recovery = l, rep
	// Messages in flight to the previous incarnation reach this one (the
	// simulated network has no connections to break), so correlation ids
	// start at a random point and responses must match the request's API.
	n.nextCorrelationID = int32(n.rnd.Uint64() >> 33)
	n.reqs = newRequestManager(n.voters, n.cfg.RetryBackoff, n.cfg.RequestTimeout, n.rnd)
	n.quorum = &quorumState{
		localID: n.cfg.NodeID, voters: n.voters, observer: n.observer,
		store: newQuorumStateStore(n.cfg.Disk, l.dir), rnd: n.rnd,
		electionTimeout: n.cfg.ElectionTimeout, fetchTimeout: n.cfg.FetchTimeout,
		preVote: n.cfg.PreVote,
	}
	if err := n.quorum.initialize(env.Now(), l.lastFetchedEpoch()); err != nil {
		return err
	}
	n.started = true
	env.Note(event.RaftStarted{Node: n.cfg.NodeID, Role: n.quorum.role().String(),
		Epoch: n.quorum.epoch(), LEO: l.endOffset(), Observer: n.observer})
	n.run(env, func() {
		lone := n.quorum.isOnlyVoter() && n.quorum.role() != RoleCandidate && n.quorum.role() != RoleLeader
		switch {
		case lone && n.cfg.PreVote:
			// Its own pre-vote is a majority: Prospective, Candidate and
			// Leader in one step (KafkaRaftClient.initialize, 4.x).
			n.transitionToProspective(env, "the only voter")
			return
		case n.quorum.role() == RoleCandidate:
			n.onBecomeCandidate(env)
		case n.quorum.role() == RoleFollower:
			n.onBecomeFollower(env)
		}
		if lone {
			n.transitionToCandidate(env)
		}
	})
	return nil
}

// Handle consumes e if it is a raft message (a request to this node, a
// response to one of its requests, or a connection reset for one of its
// requests) and reports whether it did. Hosts call it before their own
// dispatch.
func (n *Node) Handle(env *sim.Env, e *sim.Envelope) bool {
	switch m := e.Msg.(type) {
	case *VoteRequest, *BeginQuorumEpochRequest, *EndQuorumEpochRequest, *FetchRequest, *FetchSnapshotRequest, *DescribeQuorumRequest,
		*AddRaftVoterRequest, *RemoveRaftVoterRequest:
		if n.started {
			n.run(env, func() { n.handleRequest(env, e) })
		}
		return true
	case *VoteResponse, *BeginQuorumEpochResponse, *EndQuorumEpochResponse, *FetchResponse, *FetchSnapshotResponse:
		if n.started {
			n.run(env, func() { n.handleResponse(env, e.From, e.Msg) })
		}
		return true
	case *sim.Disconnected:
		if e.To != n.cfg.Addr || !isRaftRequest(m.Request) {
			return false
		}
		if n.started {
			n.run(env, func() { n.handleResponse(env, m.Peer, disconnectedResponse(m.Request)) })
		}
		return true
	}
	return false
}

// run performs f and then polls, unless the node is already busy further
// up the stack (a listener calling back into the node): then the running
// poll goes round once more.
func (n *Node) run(env *sim.Env, f func()) {
	if !n.started {
		return
	}
	if n.busy {
		if f != nil {
			f()
		}
		n.dirty = true
		return
	}
	n.busy = true
	defer func() { n.busy = false }()
	if f != nil {
		f()
	}
	n.poll(env)
}

// maxPollRounds bounds how often one event may make the node poll again.
// Each round is caused by a listener callback that changed something; a
// listener that appends on every commit of a lone voter would loop forever,
// and that is a bug to report, not to wait for.
const maxPollRounds = 10000

// poll runs the current state's poll until nothing more is due now, then
// sets the wake-up timer.
func (n *Node) poll(env *sim.Env) {
	var wait time.Duration
	for round := 0; ; round++ {
		if round >= maxPollRounds {
			panic(fmt.Sprintf("raft: node %d polled %d times in one event", n.cfg.NodeID, round))
		}
		if n.maybeCompleteShutdown(env) {
			return
		}
		n.dirty = false
		wait = n.pollCurrentState(env)
		n.pollListeners(env)
		if !n.dirty && wait > 0 {
			break
		}
	}
	n.scheduleWake(env, wait)
}

// scheduleWake makes sure a poll happens within d. A pending earlier
// wake-up is kept (it polls early, which is harmless), so busy nodes do not
// fill the event queue with cancelled timers.
func (n *Node) scheduleWake(env *sim.Env, d time.Duration) {
	if d >= time.Duration(never) || d < 0 {
		return
	}
	at := env.Now().Add(d)
	if n.wake.Pending() && n.wake.At() <= at {
		return
	}
	n.wake.Stop()
	n.wake = &sim.Timer{}
	env.Arm(n.wake, d, "raft poll", (*pollTask)(n))
}

// pollTask is the node as the task of its wake-up timer: a pointer to the
// node, so arming it allocates only the timer (a closure would be a second
// allocation on every re-arm).
type pollTask Node

func (p *pollTask) Fire(env *sim.Env) { (*Node)(p).run(env, nil) }

// Close flushes the log and stops the node (KafkaRaftClient.close, which
// runs log.flush(true)): a broker stopping cleanly keeps even an
// observer's unflushed entries. The host calls it before its process ends;
// the node ignores everything afterwards.
func (n *Node) Close() error {
	if !n.started {
		return nil
	}
	n.started = false
	n.wake.Stop()
	for _, pf := range n.parked {
		pf.timer.Stop()
	}
	n.parked = nil
	return n.log.log.Flush()
}

// Accessors (for the host, the UI and tests; read between steps or inside
// handlers).

// NodeID is node.id.
func (n *Node) NodeID() int32 { return n.cfg.NodeID }

// IsObserver reports whether the node is not a voter.
func (n *Node) IsObserver() bool { return n.observer }

// Started reports whether Start succeeded.
func (n *Node) Started() bool { return n.started }

// Role is the node's state in the current epoch.
func (n *Node) Role() Role {
	if !n.started {
		return 0
	}
	return n.quorum.role()
}

// LeaderAndEpoch is the current epoch and its leader as this node knows it.
func (n *Node) LeaderAndEpoch() LeaderAndEpoch {
	if !n.started {
		return LeaderAndEpoch{LeaderID: NoLeader}
	}
	return n.quorum.leaderAndEpoch()
}

// HighWatermark is the committed offset as this node knows it, -1 while
// unknown.
func (n *Node) HighWatermark() int64 {
	if !n.started {
		return -1
	}
	return n.quorum.state.highWatermark()
}

// LogEndOffset is the offset after the last entry of the local log.
func (n *Node) LogEndOffset() int64 {
	if !n.started {
		return 0
	}
	return n.log.endOffset()
}

// LogStartOffset is the first offset the log still serves.
func (n *Node) LogStartOffset() int64 {
	if !n.started {
		return 0
	}
	return n.log.startOffset
}

// LastFetchedEpoch is the epoch of the last entry of the local log.
func (n *Node) LastFetchedEpoch() int32 {
	if !n.started {
		return 0
	}
	return n.log.lastFetchedEpoch()
}

// Log is the underlying partition log (read-only for callers: views,
// kafka-dump-log.sh).
func (n *Node) Log() *storage.Log {
	if !n.started {
		return nil
	}
	return n.log.log
}

// Recovery is what opening the log found at Start.
func (n *Node) Recovery() storage.RecoveryReport { return n.recovery }

// Snapshots lists the retained snapshot ids, oldest first.
func (n *Node) Snapshots() []SnapshotID {
	if !n.started {
		return nil
	}
	return append([]SnapshotID(nil), n.log.snapshots...)
}

// DescribeQuorum is the leader's view of the quorum (ErrNotLeader
// elsewhere, as Kafka answers NOT_LEADER_OR_FOLLOWER).
func (n *Node) DescribeQuorum(now sim.Time) (QuorumInfo, error) {
	if !n.started {
		return QuorumInfo{}, ErrNotStarted
	}
	ls, ok := n.quorum.state.(*leaderState)
	if !ok {
		return QuorumInfo{}, ErrNotLeader
	}
	return ls.describe(now), nil
}
