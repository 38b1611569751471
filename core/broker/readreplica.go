package broker

import (
	"slices"

	"kafkascope/core/config"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Fetching from the closest replica (KIP-392, Kafka 2.4 on).
//
// A consumer's fetch (v11 and later, which every client the simulator runs
// sends) may be served by a follower, up to the follower's own high
// watermark (FetchParams.fetchOnlyLeader is false for a consumer with
// client metadata). The leader, when replica.selector.class names
// RackAwareReplicaSelector, answers a consumer that gave its client.rack
// with the preferred read replica instead of records: an in-sync replica
// in that rack holding the fetch offset, the leader itself if it is one.

// servesConsumer: a follower replica takes a consumer's fetch.
func servesConsumer(req *protocol.FetchRequest, p *Partition) bool {
	return req.ReplicaID < 0 && p != nil && !p.isLeader && p.leader >= 0
}

// preferReadReplica fills pr with the replica the consumer should read
// from, if the selector picks one other than this leader
// (ReplicaManager.findPreferredReadReplica, RackAwareReplicaSelector.select):
// among the in-sync followers whose log reaches the fetch offset and the
// leader, those in the client's rack; the leader if it is one of them;
// otherwise the one with the highest log end offset, and of those the one
// caught up most recently.
func (b *Broker) preferReadReplica(env *sim.Env, req *protocol.FetchRequest, p *Partition, fp protocol.FetchPartition, pr *protocol.FetchPartitionResponse) bool {
	if req.RackID == "" || b.conf().Broker("replica.selector.class") != config.RackAwareReplicaSelector {
		return false
	}
	rackOf := func(id int32) string {
		if r := b.image.Brokers[id]; r != nil {
			return r.Rack
		}
		return ""
	}
	if rackOf(b.cfg.NodeID) == req.RackID {
		return false // the leader is in the client's rack
	}
	best, bestLEO, bestSince := int32(-1), int64(-1), sim.Time(0)
	for _, id := range p.replicas {
		st := p.followers.get(id)
		if id == b.cfg.NodeID || st == nil || !slices.Contains(p.isr, id) || rackOf(id) != req.RackID {
			continue
		}
		// Kafka also skips a follower whose log starts after the offset;
		// the leader here does not track its followers' log starts, and a
		// consumer that meets one goes back to the leader
		// (OFFSET_OUT_OF_RANGE from a preferred replica clears it).
		if st.logEndOffset < fp.FetchOffset {
			continue
		}
		if best < 0 || st.logEndOffset > bestLEO || st.logEndOffset == bestLEO && st.lastCaughtUpTime > bestSince {
			best, bestLEO, bestSince = id, st.logEndOffset, st.lastCaughtUpTime
		}
	}
	if best < 0 {
		return false
	}
	pr.PreferredReadReplica = best
	pr.HighWatermark, pr.LogStartOffset = p.log.HighWatermark(), p.log.LogStartOffset()
	if lso, err := p.log.LastStableOffset(); err == nil {
		pr.LastStableOffset = lso
	}
	return true
}
