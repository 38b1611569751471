package broker

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Digest describes the broker's moving state that later behaviour depends
// on and no tool prints whole: each led partition's view of its followers
// (their fetch times decide when the ISR shrinks), the purgatory of parked
// fetches, muted connections, the fetchers, the heartbeats and the
// client's correlation ids. Two runs that reach the same digest on every broker (and the same
// queue) go on the same way: the leap's tests compare them.
func (b *Broker) Digest() string {
	var s strings.Builder
	fmt.Fprintf(&s, "broker %d state=%s epoch=%d next-correlation=%d in-flight=%d\n", b.cfg.NodeID, b.state, b.brokerEpoch, b.net.NextCorrelationID(), b.net.InFlight(""))
	hb := "none"
	if b.heartbeatTimer.Pending() {
		hb = b.heartbeatTimer.At().String()
	}
	fmt.Fprintf(&s, " heartbeat in-flight=%v failures=%d registered=%v next=%s", b.heartbeatInFlight, b.heartbeatFailures, b.registered, hb)
	if cc := b.heartbeatCall; cc != nil {
		fmt.Fprintf(&s, " call=%d deadline=%s", cc.id, cc.deadline)
	}
	s.WriteString("\n")
	for _, p := range b.Partitions() {
		fmt.Fprintf(&s, " %s\n", p)
		for _, st := range p.followers {
			id := st.id
			fmt.Fprintf(&s, "  follower %d leo=%d caught-up=%s fetched=%s leader-leo=%d epoch=%d\n", id, st.logEndOffset, st.lastCaughtUpTime, st.lastFetchTime, st.lastFetchLeaderLogEndOffset, st.brokerEpoch)
		}
	}
	for _, df := range b.parked {
		fmt.Fprintf(&s, " parked from %s until %s done=%v: %s\n", df.from, df.timer.At(), df.done, df.req.Summary())
	}
	for _, a := range slices.Sorted(maps.Keys(b.conns)) {
		c := b.conns[a]
		fmt.Fprintf(&s, " conn %s busy=%v closed=%v queued=%d\n", a, c.busy, c.closed, len(c.queue))
	}
	for _, id := range slices.Sorted(maps.Keys(b.fetchers)) {
		f := b.fetchers[id]
		sent := "none"
		if f.sent != nil {
			sent = fmt.Sprintf("%d %s", f.sent.CorrelationID, f.sent.Summary())
		}
		fmt.Fprintf(&s, " fetcher %d in-flight=%v stopped=%v sent=%s\n", id, f.inFlight, f.stopped, sent)
	}
	return s.String()
}
