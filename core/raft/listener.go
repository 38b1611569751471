package raft

import "kafkascope/core/sim"

// Entry is one record of __cluster_metadata: its offset, the epoch of the
// batch it was written in, and its value. A control entry (Control true)
// is one KRaft wrote itself (a LeaderChangeMessage); Payload is then the
// control record's value and ControlType its type.
type Entry struct {
	Offset      int64
	Epoch       int32
	Payload     []byte
	Control     bool
	ControlType ControlType
}

// CommittedBatch is one committed record batch: one Append of the leader,
// or one control batch. Entries have consecutive offsets.
type CommittedBatch struct {
	BaseOffset      int64
	LastOffset      int64
	Epoch           int32
	AppendTimestamp int64 // wall-clock ms the leader stamped the batch with
	Control         bool
	Entries         []Entry
}

// LoadedSnapshot is a snapshot handed to a listener: the state of every
// entry below ID.EndOffset, as the payloads its creator wrote.
type LoadedSnapshot struct {
	ID                        SnapshotID
	LastContainedLogTimestamp int64
	Payloads                  [][]byte
}

// Listener receives what Kafka's RaftClient.Listener receives, on the
// node's own goroutine, inside the Node call that caused it (Handle,
// Append, a timer). Callbacks may call Append, CreateSnapshot and Resign on
// the node; re-entrant deliveries are queued, never nested.
//
// Order guarantees, per listener: HandleCommit batches arrive in offset
// order with no gap, only once committed (below the high watermark), on
// every node (leader, followers, observers). After a (re)start delivery
// begins again at offset 0, or with HandleLoadSnapshot of the latest
// snapshot when there is one (then continues at its end offset), exactly as
// Kafka replays the metadata log into a starting controller or broker.
type Listener interface {
	// HandleCommit delivers the next committed batch. Every listener of the
	// node may be handed the same batch, sharing its Entries and their
	// Payloads: the listener must not modify them.
	HandleCommit(env *sim.Env, b CommittedBatch)
	// HandleLoadSnapshot replaces the listener's state with a snapshot;
	// the next batch starts at s.ID.EndOffset.
	HandleLoadSnapshot(env *sim.Env, s LoadedSnapshot)
	// HandleLeaderChange reports a new epoch or a newly known leader. On
	// the leader itself it fires only once the listener has caught up with
	// every entry before the epoch (Kafka's rule), together with
	// HandleBecomeLeader.
	HandleLeaderChange(env *sim.Env, le LeaderAndEpoch)
	// HandleBecomeLeader: this node leads epoch and the listener has seen
	// every committed entry before it; the active controller may start.
	HandleBecomeLeader(env *sim.Env, epoch int32)
	// HandleResign: this node no longer leads epoch (it resigned, or a
	// later epoch began); the active controller must stop appending.
	// Fired only after HandleBecomeLeader for the same epoch.
	HandleResign(env *sim.Env, epoch int32)
}

// CommittedRun is a run of committed batches First..Last, one entry each,
// all in Epoch and all with the same Payload: the NoOpRecords an idle
// leader appends every metadata.max.idle.interval.ms (KIP-835), as a leap
// hands them over (QuorumLoop.Deliver). Their append timestamps differ;
// a RunListener does not read them.
type CommittedRun struct {
	First, Last int64
	Epoch       int32
	Payload     []byte
	// LastAppendTimestamp is the append time of the run's last batch
	// (wall-clock ms, as CommittedBatch.AppendTimestamp).
	LastAppendTimestamp int64
}

// RunListener is a Listener that can take a CommittedRun in one call. It
// answers true once it is left exactly as HandleCommit of each batch in
// turn would have left it, and false, having changed nothing, when it
// cannot tell that cheaply; then each batch goes to HandleCommit.
type RunListener interface {
	HandleCommitRun(env *sim.Env, run CommittedRun) bool
}

// BaseListener implements every Listener method as a no-op, for embedding.
type BaseListener struct{}

func (BaseListener) HandleCommit(*sim.Env, CommittedBatch)       {}
func (BaseListener) HandleLoadSnapshot(*sim.Env, LoadedSnapshot) {}
func (BaseListener) HandleLeaderChange(*sim.Env, LeaderAndEpoch) {}
func (BaseListener) HandleBecomeLeader(*sim.Env, int32)          {}
func (BaseListener) HandleResign(*sim.Env, int32)                {}

// listenerContext is one listener's progress (KafkaRaftClient.ListenerContext).
type listenerContext struct {
	l Listener
	// nextOffset is the offset of the next entry to deliver.
	nextOffset int64
	// lastFired is the last leader change delivered; Kafka starts it at
	// LeaderAndEpoch.UNKNOWN (no leader, epoch 0).
	lastFired LeaderAndEpoch
	// ledEpoch is the epoch HandleBecomeLeader fired for, -1 if none is
	// current.
	ledEpoch int32
}

func newListenerContext(l Listener) *listenerContext {
	return &listenerContext{l: l, lastFired: LeaderAndEpoch{LeaderID: NoLeader, Epoch: 0}, ledEpoch: -1}
}

// shouldFireLeaderChange: a different leader-and-epoch that is a later
// epoch, or the same epoch with the leader newly known.
func (c *listenerContext) shouldFireLeaderChange(le LeaderAndEpoch) bool {
	if le == c.lastFired {
		return false
	}
	if le.Epoch > c.lastFired.Epoch {
		return true
	}
	return le.HasLeader() && !c.lastFired.HasLeader()
}
