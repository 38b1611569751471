package controller

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Digest describes the controller's moving state that later behaviour
// depends on: whether it is active, its images' offsets, what it wrote and
// what replies wait for a commit, its snapshot policy's counters, the
// brokers' sessions and the session-expiry timer. The leap's tests compare digests of a leaped run and
// a stepped one.
func (c *Controller) Digest() string {
	var s strings.Builder
	p := &c.snapshots
	fmt.Fprintf(&s, "controller %d active=%v epoch=%d gen=%d image=%d committed=%d written=%d replies=%d unclean-pending=%v\n",
		c.cfg.NodeID, c.active, c.epoch, c.gen, c.image.Offset, c.committed.Offset, c.lastWritten, len(c.replies), c.uncleanPending)
	fmt.Fprintf(&s, " snapshots last=%s at=%s started=%v new=%d retained=%d history=%d\n", p.last, p.lastAt, p.started, p.newBytes, p.retainedBytes, len(p.history))
	for _, id := range slices.Sorted(maps.Keys(c.sessions)) {
		fmt.Fprintf(&s, " session %d last-contact=%s\n", id, c.sessions[id].lastContact)
	}
	if c.expiry.Pending() {
		fmt.Fprintf(&s, " expiry at %s\n", c.expiry.At())
	}
	for _, r := range c.replies {
		fmt.Fprintf(&s, " deferred reply to %s after %d: %s\n", r.to, r.offset, r.msg.Kind())
	}
	return s.String()
}
