package raft

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"kafkascope/core/sim"
)

// The safety checkers. Each watches every callback and sampled role as the
// run goes, and records violations under its name:
//
//   - election safety: at most one leader per epoch (sampled after every
//     event, so a second leader is seen the moment it is elected);
//   - node stability ("committed entries are never lost or reordered"):
//     each node delivers committed batches at contiguous offsets, and no
//     offset it ever delivered (in any incarnation) is later delivered
//     with different content;
//   - state machine safety ("every node's committed prefix is identical"):
//     every offset committed anywhere holds the same entry everywhere,
//     snapshots included.
//
// Liveness (all committed entries survive on the final leader and reach
// every node) is checked at the end of a run by checkConverged.

const (
	checkElection = "election safety"
	checkNode     = "node stability"
	checkPrefix   = "state machine safety"
)

type entryKey struct {
	epoch   int32
	control bool
	payload string
}

func (k entryKey) String() string {
	if k.control {
		return fmt.Sprintf("control@%d", k.epoch)
	}
	return fmt.Sprintf("%q@%d", k.payload, k.epoch)
}

type stateEntry struct {
	offset  int64
	epoch   int32
	payload string
}

type nodeHist struct {
	seen map[int64]entryKey // every offset delivered, any incarnation
	inc  int
	next int64 // the offset the current incarnation must deliver next; -1 before the first
	// state is the data payloads of the current incarnation, in order;
	// stateEntries the same with offsets and epochs (for snapshots).
	state        []string
	stateEntries []stateEntry
	snapshotAt   int // len(state) at the last snapshot taken
}

type history struct {
	leaders      map[int32]int32
	global       map[int64]entryKey
	maxCommitted int64 // the largest offset committed anywhere, -1 if none
	nodes        map[int32]*nodeHist
	violations   map[string][]string
	becameLeader []string
	resigned     []string
}

// maxViolations bounds what a broken run records per checker.
const maxViolations = 20

func newHistory() *history {
	return &history{leaders: map[int32]int32{}, global: map[int64]entryKey{}, maxCommitted: -1,
		nodes: map[int32]*nodeHist{}, violations: map[string][]string{}}
}

func (h *history) violate(check, format string, args ...any) {
	if len(h.violations[check]) < maxViolations {
		h.violations[check] = append(h.violations[check], fmt.Sprintf(format, args...))
	}
}

func (h *history) observeLeader(epoch, id int32) {
	if prev, ok := h.leaders[epoch]; ok && prev != id {
		h.violate(checkElection, "epoch %d has two leaders: %d and %d", epoch, prev, id)
		return
	}
	h.leaders[epoch] = id
}

func (h *history) node(id int32, inc int) *nodeHist {
	n, ok := h.nodes[id]
	if !ok {
		n = &nodeHist{seen: map[int64]entryKey{}, next: -1}
		h.nodes[id] = n
	}
	if n.inc != inc {
		// A new incarnation replays from the start (or a snapshot).
		n.inc, n.next, n.state, n.stateEntries, n.snapshotAt = inc, -1, nil, nil, 0
	}
	return n
}

// record checks one committed entry at a node against its own past and
// against every other node.
func (h *history) record(id int32, n *nodeHist, off int64, k entryKey) {
	if prev, ok := n.seen[off]; ok && prev != k {
		h.violate(checkNode, "node %d delivered offset %d as %s, earlier as %s", id, off, k, prev)
	}
	n.seen[off] = k
	if prev, ok := h.global[off]; ok && prev != k {
		h.violate(checkPrefix, "offset %d committed as %s on node %d but as %s elsewhere", off, k, id, prev)
	} else if !ok {
		h.global[off] = k
	}
	h.maxCommitted = max(h.maxCommitted, off)
}

func (h *history) commit(id int32, inc int, b CommittedBatch) {
	n := h.node(id, inc)
	want := n.next
	if want < 0 {
		want = 0
	}
	if b.BaseOffset != want {
		h.violate(checkNode, "node %d delivered batch at %d, expected %d (gap or reorder)", id, b.BaseOffset, want)
	}
	for i, e := range b.Entries {
		if e.Offset != b.BaseOffset+int64(i) {
			h.violate(checkNode, "node %d batch at %d has entry %d at offset %d", id, b.BaseOffset, i, e.Offset)
		}
		k := entryKey{epoch: e.Epoch, control: e.Control}
		if !e.Control {
			k.payload = string(e.Payload)
			n.state = append(n.state, k.payload)
			n.stateEntries = append(n.stateEntries, stateEntry{offset: e.Offset, epoch: e.Epoch, payload: k.payload})
		}
		h.record(id, n, e.Offset, k)
	}
	n.next = b.LastOffset + 1
}

// loadSnapshot replaces the node's state; the snapshot's entries (encoded
// by encodeState) must agree with everything committed.
func (h *history) loadSnapshot(id int32, inc int, s LoadedSnapshot) {
	n := h.node(id, inc)
	if n.next > s.ID.EndOffset {
		h.violate(checkNode, "node %d loaded snapshot %s behind its next offset %d", id, s.ID, n.next)
	}
	n.state, n.stateEntries = nil, nil
	for _, p := range s.Payloads {
		e, ok := decodeState(p)
		if !ok {
			h.violate(checkPrefix, "node %d loaded a snapshot with a foreign payload %q", id, p)
			continue
		}
		if e.offset >= s.ID.EndOffset {
			h.violate(checkPrefix, "node %d snapshot %s holds offset %d", id, s.ID, e.offset)
		}
		n.state = append(n.state, e.payload)
		n.stateEntries = append(n.stateEntries, e)
		h.record(id, n, e.offset, entryKey{epoch: e.epoch, payload: e.payload})
	}
	n.next = s.ID.EndOffset
	n.snapshotAt = len(n.state)
}

// failed lists the checkers with violations, sorted.
func (h *history) failed() []string {
	var out []string
	for k, v := range h.violations {
		if len(v) > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func (h *history) report() string {
	var b strings.Builder
	for _, k := range h.failed() {
		fmt.Fprintf(&b, "%s:\n  %s\n", k, strings.Join(h.violations[k], "\n  "))
	}
	return b.String()
}

// checkSafe fails the test on any violation.
func (c *cluster) checkSafe() {
	c.t.Helper()
	if f := c.hist.failed(); len(f) > 0 {
		c.t.Fatalf("safety violated (%s):\n%s", c.describe(), c.hist.report())
	}
}

// checkConverged is the liveness phase: with every node running and the
// network healed, a leader must emerge and commit a fresh marker entry, and
// every node must deliver every offset ever committed, identically. An
// uncommitted marker may legitimately be lost in a leader change, so a new
// one is appended whenever the last has not reached every node for a while.
func (c *cluster) checkConverged(d time.Duration) {
	c.t.Helper()
	c.heal()
	for _, id := range c.ids {
		if !c.spawned(id) {
			c.start(id)
		}
	}
	c.waitLeader(d)
	var marker string
	var markedAt sim.Time
	if !c.runUntil(func() bool {
		if marker == "" || c.w.Now().Sub(markedAt) > 3*time.Second {
			l := c.leader()
			if l < 0 {
				return false
			}
			if p, err := c.appendOn(l, 1); err == nil {
				marker, markedAt = p[0], c.w.Now()
			}
			return false
		}
		for _, id := range c.ids {
			n := c.hist.nodes[id]
			if n == nil || n.next <= c.hist.maxCommitted || len(n.state) == 0 || n.state[len(n.state)-1] != marker {
				return false
			}
		}
		return true
	}, d) {
		c.t.Fatalf("cluster did not converge within %s (%s); max committed %d", d, c.describe(), c.hist.maxCommitted)
	}
	c.checkSafe()
}
