package broker

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleOutOfRange is a follower's answer to OFFSET_OUT_OF_RANGE
// (AbstractFetcherThread.fetchOffsetAndTruncate): it asks the leader for
// its log end offset; if that is below this replica's LEO (the leader lost
// records this replica has), it truncates to it. Otherwise the fetch was
// below the leader's log start (retention deleted what this replica still
// needed): it asks for the leader's log start offset and, if that is above
// its LEO, deletes its whole log and starts over there. The partition is
// not fetched meanwhile; a failed lookup backs off and the next fetch
// tries again.
func (f *fetcher) handleOutOfRange(env *sim.Env, fs *fetchState) {
	p, b := fs.p, f.b
	fs.resetting = true
	done := func(env *sim.Env, failed bool) {
		fs.resetting = false
		if failed {
			fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
		}
		f.maybeFetch(env)
	}
	current := func() bool { return b.partitions[p.tp] == p && !p.isLeader && f.parts[p.tp] == fs && !f.stopped }
	f.listLeaderOffset(env, p, protocol.LatestTimestamp, func(env *sim.Env, leaderEnd int64, ok bool) {
		if !current() {
			return
		}
		if !ok {
			done(env, true)
			return
		}
		if leo := p.log.LogEndOffset(); leaderEnd < leo {
			env.Note(event.FollowerTruncatedToLeaderEnd{Broker: b.cfg.NodeID, TP: p.tp, From: leo, To: leaderEnd})
			if err := p.log.TruncateTo(leaderEnd); err != nil {
				panic(err)
			}
			p.truncated(env)
			done(env, false)
			return
		}
		f.listLeaderOffset(env, p, protocol.EarliestTimestamp, func(env *sim.Env, leaderStart int64, ok bool) {
			if !current() {
				return
			}
			if ok && leaderStart > p.log.LogEndOffset() {
				env.Note(event.FollowerReset{Broker: b.cfg.NodeID, TP: p.tp, Offset: leaderStart})
				if err := p.log.TruncateFullyAndStartAt(leaderStart); err != nil {
					panic(err)
				}
				p.truncated(env)
			}
			done(env, !ok)
		})
	})
}

// listLeaderOffset asks the leader for its latest or earliest offset of a
// partition, as a replica (ListOffsets with this broker's id).
func (f *fetcher) listLeaderOffset(env *sim.Env, p *Partition, ts int64, then func(env *sim.Env, offset int64, ok bool)) {
	b := f.b
	req := &protocol.ListOffsetsRequest{ReplicaID: b.cfg.NodeID, Topics: []protocol.ListOffsetsTopic{{Name: p.tp.Topic, Partitions: []protocol.ListOffsetsPartition{{
		Index: p.tp.Partition, CurrentLeaderEpoch: p.leaderEpoch, Timestamp: ts,
	}}}}}
	addr := sim.Addr(fmt.Sprintf("%s:%d", b.hostOf(f.leader), BrokerPort))
	b.net.Send(env, addr, req, b.ms("request.timeout.ms"), func(env *sim.Env, resp protocol.Response, err error) {
		if b.state == StateStopped {
			return
		}
		r, _ := resp.(*protocol.ListOffsetsResponse)
		if err != nil || r == nil || len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 || r.Topics[0].Partitions[0].ErrorCode != protocol.NONE {
			then(env, 0, false)
			return
		}
		then(env, r.Topics[0].Partitions[0].Offset, true)
	})
}
