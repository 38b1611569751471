package raft

import (
	"fmt"

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
func (n *Node) updateListenersProgress(env *sim.Env) {
	if n.inCallback {
		n.dirty = true
		return
	}
	for i := 0; i < len(n.listeners); i++ {
		n.deliverTo(env, n.listeners[i])
	}
}

func (n *Node) deliverTo(env *sim.Env, c *listenerContext) {
	for step := 0; ; step++ {
		if step >= maxDeliverySteps {
			panic(fmt.Sprintf("raft: node %d delivery did not finish in %d steps", n.cfg.NodeID, step))
		}
		hw := n.committedOffset()
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
		data, _, err := n.log.log.ReadSlice(c.nextOffset, MaxBatchSizeBytes, hw, true) // a view: only decoded
		if err != nil {
			panic(fmt.Sprintf("raft: node %d reading committed entries at %d: %v", n.cfg.NodeID, c.nextOffset, err))
		}
		if len(data) == 0 {
			return // the next batch ends above the high watermark
		}
		for len(data) > 0 {
			b, size, err := record.Decode(data)
			if err != nil {
				panic(fmt.Sprintf("raft: node %d decoding committed batch at %d: %v", n.cfg.NodeID, c.nextOffset, err))
			}
			data = data[size:]
			if b.LastOffset() < c.nextOffset {
				continue // already delivered (a snapshot ended inside this batch)
			}
			cb := committedBatch(b)
			c.nextOffset = cb.LastOffset + 1
			n.notify(func() { c.l.HandleCommit(env, cb) })
		}
	}
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
	for _, r := range b.Records {
		e := Entry{Offset: r.Offset, Epoch: b.PartitionLeaderEpoch, Payload: r.Value, Control: cb.Control}
		if cb.Control {
			if t, err := parseControlKey(r.Key); err == nil {
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
	env.Note("raft.snapshot.load", "node", itoa(n.cfg.NodeID), "snapshot", id.String())
	ls := LoadedSnapshot{ID: id, LastContainedLogTimestamp: s.header.LastContainedLogTimestamp, Payloads: s.payloads}
	n.notify(func() { c.l.HandleLoadSnapshot(env, ls) })
}
