package raft

import (
	"fmt"
	"math"

	"kafkascope/core/event"
	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// pollListeners brings every listener up to the high watermark and tells it
// about leader changes (KafkaRaftClient.pollListeners and
// updateListenersProgress, KafkaRaftClient.java:344-374).
func (n *Node) pollListeners(env *sim.Env) {
	n.updateListenersProgress(env)
	if s, ok := n.quorum.state.(*leaderState); ok {
		n.maybeFireLeaderChangeAsLeader(env, s)
	} else {
		n.maybeFireLeaderChange(env)
	}
}

// notify runs a listener callback. While it runs, deliveries that its own
// calls into the node cause are left to the poll loop (dirty), so
// callbacks never nest.
func (n *Node) notify(f func()) {
	prev := n.inCallback
	n.inCallback = true
	defer func() { n.inCallback = prev }()
	f()
}

// maybeFireLeaderChange tells listeners about a new epoch or a newly known
// leader (any state but Leader).
func (n *Node) maybeFireLeaderChange(env *sim.Env) {
	le := n.quorum.leaderAndEpoch()
	for _, c := range n.listeners {
		if c.shouldFireLeaderChange(le) {
			c.lastFired = le
			n.notify(func() { c.l.HandleLeaderChange(env, le) })
		}
	}
}

// maybeFireLeaderChangeAsLeader tells a listener of the leader's own node
// that it leads only once the listener has delivered every entry before the
// epoch's start (its next offset is past the LeaderChangeMessage), so the
// state machine has the whole committed state before it writes
// (ListenerContext.maybeFireLeaderChange with epochStartOffset).
func (n *Node) maybeFireLeaderChangeAsLeader(env *sim.Env, s *leaderState) {
	le := n.quorum.leaderAndEpoch()
	for _, c := range n.listeners {
		if n.quorum.state != s {
			return // a callback changed the state
		}
		if c.shouldFireLeaderChange(le) && c.nextOffset > s.epochStartOffset {
			c.lastFired = le
			n.notify(func() { c.l.HandleLeaderChange(env, le) })
			if n.quorum.state == s && c.ledEpoch != s.epochNum {
				c.ledEpoch = s.epochNum
				n.notify(func() { c.l.HandleBecomeLeader(env, s.epochNum) })
			}
		}
	}
}

// maxDeliverySteps bounds one delivery pass (each step delivers a batch or
// loads a snapshot, so this is far above any log the simulator can hold).
const maxDeliverySteps = 1 << 22

// updateListenersProgress delivers committed batches (and, first, the
// latest snapshot where a listener is behind the log start, or starts from
// scratch and a snapshot exists) up to the high watermark. Re-entrant calls
// from a listener's callbacks only mark the poll dirty; the pass in progress
// re-reads the high watermark after every batch.
//
// Listeners are served one after the other, as Kafka's
// KafkaRaftClient.updateListenersProgress does (KafkaRaftClient.java:344-374),
// and usually need the same read: every listener of a node is at the same
// offset once caught up. The pass keeps its last read, decoded (n.chunk),
// so the next listener that asks for the same read gets the same decoded
// batches instead of reading and decoding them again. Kafka gives each
// listener its own reader of the records; here the listeners share one
// decoded CommittedBatch, which they must treat as read-only (see
// Listener.HandleCommit).
func (n *Node) updateListenersProgress(env *sim.Env) {
	if n.inCallback {
		n.dirty = true
		return
	}
	n.updateListenersUpTo(env, math.MaxInt64)
}

// updateListenersUpTo is updateListenersProgress that stops before offset
// limit.
func (n *Node) updateListenersUpTo(env *sim.Env, limit int64) {
	n.chunk.reset()
	for i := 0; i < len(n.listeners); i++ {
		n.deliverTo(env, n.listeners[i], limit)
	}
	n.chunk.reset()
}

func (n *Node) deliverTo(env *sim.Env, c *listenerContext, limit int64) {
	for step := 0; ; step++ {
		if step >= maxDeliverySteps {
			panic(fmt.Sprintf("raft: node %d delivery did not finish in %d steps", n.cfg.NodeID, step))
		}
		hw := min(n.committedOffset(), limit)
		if hw < 0 || c.nextOffset >= hw {
			return
		}
		if snap, ok := n.log.latestSnapshot(); ok && (c.nextOffset == 0 || c.nextOffset < n.log.startOffset) {
			if snap.EndOffset > hw {
				return // never hand out state that is not committed yet
			}
			n.loadSnapshot(env, c, snap)
			continue
		}
		ch := n.readCommitted(c.nextOffset, hw)
		if ch.empty() {
			return // the next batch ends above the high watermark
		}
		for i := 0; ; i++ {
			cb, ok := n.chunkBatch(ch, i, c.nextOffset)
			if !ok {
				break
			}
			if cb.LastOffset < c.nextOffset {
				continue // already delivered (a snapshot ended inside this batch)
			}
			c.nextOffset = cb.LastOffset + 1
			n.notify(func() { c.l.HandleCommit(env, cb) })
		}
	}
}

// committedChunk is one read of the log for the listeners, ReadSlice(from,
// MaxBatchSizeBytes, hw), decoded lazily: batches holds the batches decoded
// so far, in log order, and rest the bytes after them.
//
// Invariant: while a delivery pass runs, a chunk is what reading the log
// with the same from and hw would return again. The log below its end
// offset cannot change inside a pass: listener callbacks may only append
// (above every batch read, and a read stops before any batch reaching hw),
// write snapshots, and move the log start (checked before every read, as
// the snapshot path comes first); truncation happens only while handling a
// Fetch response, never inside a callback. The view the bytes come from is
// never written to (storage keeps read views immutable). The chunk is
// forgotten at the end of the pass, so a later truncation never meets it.
type committedChunk struct {
	valid    bool
	from, hw int64
	rest     []byte
	batches  []CommittedBatch
}

// reset forgets the read, keeping the array that holds the batches for
// the next pass (listeners get copies of the CommittedBatch values, never
// this array; the entries themselves are dropped so they can be freed).
func (ch *committedChunk) reset() {
	clear(ch.batches)
	*ch = committedChunk{batches: ch.batches[:0]}
}

// empty: the read found no batch wholly below hw.
func (ch *committedChunk) empty() bool { return len(ch.batches) == 0 && len(ch.rest) == 0 }

// readCommitted returns the pass's chunk for a read from from up to hw,
// reading the log only when the last read was a different one.
func (n *Node) readCommitted(from, hw int64) *committedChunk {
	ch := &n.chunk
	if ch.valid && ch.from == from && ch.hw == hw {
		return ch
	}
	data, _, err := n.log.log.ReadSlice(from, MaxBatchSizeBytes, hw, true) // a view: only decoded
	if err != nil {
		panic(fmt.Sprintf("raft: node %d reading committed entries at %d: %v", n.cfg.NodeID, from, err))
	}
	ch.reset()
	ch.valid, ch.from, ch.hw, ch.rest = true, from, hw, data
	return ch
}

// chunkBatch is the i-th batch of the chunk, decoded now if no listener
// needed it before (batches are decoded one at a time, as they are
// delivered, so a listener gets every batch before a corrupt one, as a
// reader walking the bytes would hand them out). next is the listener's
// next offset, for the error.
func (n *Node) chunkBatch(ch *committedChunk, i int, next int64) (CommittedBatch, bool) {
	if i < len(ch.batches) {
		return ch.batches[i], true
	}
	if len(ch.rest) == 0 {
		return CommittedBatch{}, false
	}
	b, size, err := record.Decode(ch.rest)
	if err != nil {
		panic(fmt.Sprintf("raft: node %d decoding committed batch at %d: %v", n.cfg.NodeID, next, err))
	}
	ch.rest = ch.rest[size:]
	cb := committedBatch(b)
	ch.batches = append(ch.batches, cb)
	return cb, true
}

// committedOffset is the high watermark the listeners may read up to (a
// planted bug may lie about it).
func (n *Node) committedOffset() int64 {
	hw := n.quorum.state.highWatermark()
	if h := n.cfg.hooks; h != nil && h.deliverUncommitted {
		return n.log.endOffset()
	}
	return hw
}

func committedBatch(b record.Batch) CommittedBatch {
	cb := CommittedBatch{BaseOffset: b.BaseOffset, LastOffset: b.LastOffset(), Epoch: b.PartitionLeaderEpoch,
		AppendTimestamp: b.MaxTimestamp, Control: b.IsControl()}
	// Exactly as long as it needs to be: a listener that appends to the
	// shared Entries gets its own copy and never writes into another's.
	if len(b.Records) > 0 {
		cb.Entries = make([]Entry, 0, len(b.Records))
	}
	for _, r := range b.Records {
		e := Entry{Offset: r.Offset, Epoch: b.PartitionLeaderEpoch, Payload: r.Value, Control: cb.Control}
		if cb.Control {
			if t, err := record.ParseControlKey(r.Key); err == nil {
				e.ControlType = t
			}
		}
		cb.Entries = append(cb.Entries, e)
	}
	return cb
}

func (n *Node) loadSnapshot(env *sim.Env, c *listenerContext, id SnapshotID) {
	data, ok := n.log.readSnapshot(id)
	if !ok {
		panic(fmt.Sprintf("raft: node %d lost snapshot %s", n.cfg.NodeID, id))
	}
	s, err := decodeSnapshot(data)
	if err != nil {
		panic(fmt.Sprintf("raft: node %d snapshot %s: %v", n.cfg.NodeID, id, err))
	}
	c.nextOffset = id.EndOffset
	env.Note(event.SnapshotLoaded{Node: n.cfg.NodeID, Snapshot: event.SnapshotID(id)})
	ls := LoadedSnapshot{ID: id, LastContainedLogTimestamp: s.header.LastContainedLogTimestamp, Payloads: s.payloads}
	n.notify(func() { c.l.HandleLoadSnapshot(env, ls) })
}
