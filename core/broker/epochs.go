package broker

import (
	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleOffsetForLeaderEpoch answers where this leader's log has each asked
// epoch end (KIP-101's OffsetsForLeaderEpoch).
func (b *Broker) handleOffsetForLeaderEpoch(env *sim.Env, from sim.Addr, req *protocol.OffsetForLeaderEpochRequest) {
	resp := &protocol.OffsetForLeaderEpochResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, t := range req.Topics {
		tr := protocol.OffsetForLeaderTopicResult{Name: t.Name}
		for _, q := range t.Partitions {
			r := protocol.EpochEndOffsetResult{Index: q.Index, LeaderEpoch: -1, EndOffset: -1}
			p := b.partitions[tp(t.Name, q.Index)]
			switch {
			case b.image.Partition(t.Name, q.Index) == nil:
				r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			case p == nil || !p.isLeader:
				r.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			case q.CurrentLeaderEpoch >= 0 && q.CurrentLeaderEpoch < p.leaderEpoch:
				r.ErrorCode = protocol.FENCED_LEADER_EPOCH
			case q.CurrentLeaderEpoch > p.leaderEpoch:
				r.ErrorCode = protocol.UNKNOWN_LEADER_EPOCH
			default:
				r.LeaderEpoch, r.EndOffset = p.log.EndOffsetForEpoch(q.LeaderEpoch)
			}
			tr.Partitions = append(tr.Partitions, r)
		}
		resp.Topics = append(resp.Topics, tr)
	}
	b.respond(env, from, resp)
}

// startFollowing applies the follower recovery rule of the configured
// inter.broker.protocol.version when a replica starts following: before
// 0.11 it truncates to its own high watermark at once (KIP-101's flaw);
// from 0.11 to 2.6 it first asks the leader where its latest epoch ended;
// from 2.7 it learns that from its first Fetch.
func (p *Partition) startFollowing(env *sim.Env, fs *fetchState) {
	switch p.b.truncation {
	case config.TruncateToHighWatermark:
		p.truncateToHW(env, p.log.HighWatermark())
	case config.TruncateByOffsetsForLeaderEpoch:
		if p.log.LatestEpoch() < 0 {
			p.truncateToHW(env, p.log.HighWatermark())
		} else {
			fs.truncating = true
		}
	}
}

// truncateToHW cuts the follower's log to its high watermark hw (if
// shorter), the rule before leader epochs, and notes it.
func (p *Partition) truncateToHW(env *sim.Env, hw int64) {
	leo := p.log.LogEndOffset()
	if hw >= leo {
		return
	}
	env.Note(event.FollowerTruncatedToHighWatermark{Broker: p.b.cfg.NodeID, TP: p.tp, From: leo, To: hw})
	if err := p.log.TruncateTo(hw); err != nil {
		panic(err)
	}
	p.truncated(env)
}

// lastFetchedEpoch is what a follower's Fetch reports: the epoch of its last
// batch when the leader checks divergence on fetch, -1 otherwise.
func (p *Partition) lastFetchedEpoch() int32 {
	if p.b.truncation == config.TruncateOnFetch {
		return p.log.LatestEpoch()
	}
	return -1
}

// askEpochEnds sends one OffsetForLeaderEpoch for every partition of the
// fetcher that is waiting to learn where to truncate.
func (f *fetcher) askEpochEnds(env *sim.Env, addr sim.Addr) {
	b := f.b
	// The request is made only once a partition needs it: every fetch asks,
	// and almost always no partition is truncating.
	var req *protocol.OffsetForLeaderEpochRequest
	for _, fs := range f.sortedParts() {
		key := fs.p.tp
		if !fs.truncating || fs.delayedUntil > env.Now() {
			continue
		}
		if req == nil {
			req = &protocol.OffsetForLeaderEpochRequest{ReplicaID: b.cfg.NodeID}
		}
		q := protocol.OffsetForLeaderPartition{Index: key.Partition, CurrentLeaderEpoch: fs.p.leaderEpoch, LeaderEpoch: fs.p.log.LatestEpoch()}
		if n := len(req.Topics); n > 0 && req.Topics[n-1].Name == key.Topic {
			req.Topics[n-1].Partitions = append(req.Topics[n-1].Partitions, q)
		} else {
			req.Topics = append(req.Topics, protocol.OffsetForLeaderTopic{Name: key.Topic, Partitions: []protocol.OffsetForLeaderPartition{q}})
		}
	}
	if req == nil {
		return
	}
	f.epochInFlight = true
	b.net.Send(env, addr, req, b.ms("request.timeout.ms"), func(env *sim.Env, resp protocol.Response, err error) {
		f.epochInFlight = false
		if f.stopped || b.state == StateStopped {
			return
		}
		if err != nil {
			for _, fs := range f.parts {
				if fs.truncating {
					fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
				}
			}
		} else {
			for _, t := range resp.(*protocol.OffsetForLeaderEpochResponse).Topics {
				for _, r := range t.Partitions {
					fs, ok := f.parts[tp(t.Name, r.Index)]
					if !ok || !fs.truncating {
						continue
					}
					if r.ErrorCode != protocol.NONE {
						fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
						continue
					}
					fs.truncating = fs.p.truncateByEpochEnd(env, protocol.EpochEndOffset{Epoch: r.LeaderEpoch, EndOffset: r.EndOffset})
				}
			}
		}
		f.maybeFetch(env)
	})
}
