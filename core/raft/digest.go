package raft

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Digest describes the node's moving state that later behaviour depends
// on: its role and epoch, log end and high watermark, its listeners'
// progress, the leader's view of every replica and its check-quorum
// deadline, a follower's deadlines and requests, the parked Fetches, the
// correlation ids and the poll timer. The leap's tests compare digests of
// a leaped run and a stepped one.
func (n *Node) Digest() string {
	if !n.started {
		return fmt.Sprintf("raft %d not started\n", n.cfg.NodeID)
	}
	var s strings.Builder
	wake := "none"
	if n.wake.Pending() {
		wake = n.wake.At().String()
	}
	fmt.Fprintf(&s, "raft %d %s epoch=%d leo=%d hw=%d log-hw=%d start=%d snapshots=%v next-correlation=%d wake=%s\n",
		n.cfg.NodeID, n.quorum.role(), n.quorum.epoch(), n.log.endOffset(), n.quorum.state.highWatermark(), n.log.log.HighWatermark(),
		n.log.startOffset, n.log.snapshots, n.nextCorrelationID, wake)
	for i, c := range n.listeners {
		fmt.Fprintf(&s, " listener %d next=%d fired=%+v led=%d\n", i, c.nextOffset, c.lastFired, c.ledEpoch)
	}
	switch st := n.quorum.state.(type) {
	case *leaderState:
		fmt.Fprintf(&s, " leader check-quorum=%s fetched=%v resign=%v\n", st.checkQuorumDeadline, slices.Sorted(maps.Keys(st.fetchedVoters)), st.resignRequested)
		for _, id := range slices.Sorted(maps.Keys(st.voterStates)) {
			fmt.Fprintf(&s, "  voter %+v\n", *st.voterStates[id])
		}
		for _, id := range slices.Sorted(maps.Keys(st.observerStates)) {
			fmt.Fprintf(&s, "  observer %+v\n", *st.observerStates[id])
		}
	case *followerState:
		fmt.Fprintf(&s, " follower of %d hw=%d fetch-deadline=%s downloading=%v\n", st.leaderID, st.hw, st.fetchDeadline, st.download != nil)
	}
	for _, id := range n.reqs.sortedIDs() {
		fmt.Fprintf(&s, " request to %d %+v\n", id, *n.reqs.conns[id])
	}
	for _, pf := range n.parked {
		fmt.Fprintf(&s, " parked %s->%s %+v until %s done=%v answer hw=%d records=%d\n", pf.from, pf.to, *pf.req, pf.timer.At(), pf.done, pf.resp.HighWatermark, len(pf.resp.Records))
	}
	return s.String()
}
