package broker

import (
	"fmt"
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// fetcher is a replica fetcher thread: it pulls every partition this broker
// follows from one leader, sending the next Fetch as soon as the previous
// answer is processed (the leader's long poll paces it). A failed fetch, or a
// partition error, backs off for replica.fetch.backoff.ms.
type fetcher struct {
	b             *Broker
	leader        int32
	parts         map[storage.TopicPartition]*fetchState
	inFlight      bool
	epochInFlight bool // an OffsetForLeaderEpoch is outstanding
	wake          *sim.Timer
	stopped       bool
	// sorted is parts' values in key order, kept while parts does not
	// change (nil once it does). It is walked for every fetch: sorting the
	// keys each time was a tenth of an idle cluster's garbage, and looking
	// each key up again in parts was a twentieth of its time (hashing the
	// topic name). Invariant: when not nil, it holds exactly parts' values,
	// and each value's key is its partition's tp.
	sorted []*fetchState
	// sortedTopics is how many distinct topics sorted holds (valid while
	// sorted is not nil): a fetch's topic list is made that long at once
	// instead of growing topic by topic (1, 2, 4: three arrays for the
	// three topics of an idle cluster's fetch, which were two fifths of
	// the fetch request's bytes).
	sortedTopics int
	// leaderAddr is the address fetches went to, and the host it was made
	// for (the leader's registration may change).
	leaderAddr sim.Addr
	leaderHost string
	// onFetched handles the answer to this fetcher's Fetch. It captures
	// nothing but the fetcher, so it is made once (newFetcher) rather than
	// as a closure per fetch, twice a second per leader.
	onFetched rpc.Callback
	// sent is the Fetch this fetcher sent last (the one in flight while
	// inFlight): a leap recognizes the fetcher's long poll by it.
	sent *protocol.FetchRequest
}

func newFetcher(b *Broker, leader int32) *fetcher {
	f := &fetcher{b: b, leader: leader, parts: map[storage.TopicPartition]*fetchState{}}
	f.onFetched = f.fetched
	return f
}

type fetchState struct {
	p            *Partition
	delayedUntil sim.Time
	truncating   bool // must learn where to truncate before fetching (0.11–2.6)
	resetting    bool // asking the leader where its log ends and starts after OFFSET_OUT_OF_RANGE
}

func (f *fetcher) stop() {
	f.stopped = true
	f.wake.Stop()
}

func (b *Broker) addToFetcher(env *sim.Env, leader int32, p *Partition) {
	f, ok := b.fetchers[leader]
	if !ok {
		f = newFetcher(b, leader)
		b.fetchers[leader] = f
	}
	fs := &fetchState{p: p}
	f.parts[p.tp] = fs
	f.sorted = nil
	p.startFollowing(env, fs)
	f.maybeFetch(env)
}

func (b *Broker) removeFromFetchers(key storage.TopicPartition) {
	for id, f := range b.fetchers {
		if _, ok := f.parts[key]; ok {
			delete(f.parts, key)
			f.sorted = nil
		}
		if len(f.parts) == 0 && !f.inFlight {
			f.stop()
			delete(b.fetchers, id)
		}
	}
}

// sortedParts is the fetched partitions' states by topic and partition.
func (f *fetcher) sortedParts() []*fetchState {
	if f.sorted == nil {
		f.sorted = make([]*fetchState, 0, len(f.parts))
		for _, fs := range f.parts {
			f.sorted = append(f.sorted, fs)
		}
		slices.SortFunc(f.sorted, func(a, b *fetchState) int { return storage.ComparePartitions(a.p.tp, b.p.tp) })
		f.sortedTopics = 0
		for i, fs := range f.sorted {
			if i == 0 || fs.p.tp.Topic != f.sorted[i-1].p.tp.Topic {
				f.sortedTopics++
			}
		}
	}
	return f.sorted
}

// maybeFetch sends a Fetch for every partition that is not backing off, or
// arms a wake-up for the earliest one that is.
func (f *fetcher) maybeFetch(env *sim.Env) {
	b := f.b
	if f.stopped || f.inFlight || b.state == StateStopped {
		return
	}
	if len(f.parts) == 0 {
		f.stop()
		if b.fetchers[f.leader] == f {
			delete(b.fetchers, f.leader)
		}
		return
	}
	f.resolveLeader()
	if !f.epochInFlight {
		f.askEpochEnds(env, f.leaderAddr)
	}
	req, next := f.nextFetch(env.Now())
	if req == nil {
		if next >= 0 {
			f.wake.Stop()
			f.wake = env.After(next.Sub(env.Now()), "replica-fetcher-backoff", f.maybeFetch)
		}
		return
	}
	f.inFlight = true
	f.sent = req
	b.net.Send(env, f.leaderAddr, req, b.ms("replica.socket.timeout.ms"), f.onFetched)
}

// resolveLeader points leaderAddr at the leader's registered host.
func (f *fetcher) resolveLeader() {
	if host := f.b.hostOf(f.leader); host != f.leaderHost || f.leaderAddr == "" {
		f.leaderHost, f.leaderAddr = host, sim.Addr(fmt.Sprintf("%s:%d", host, BrokerPort))
	}
}

// nextFetch builds the Fetch the fetcher sends at now: every partition
// not truncating, resetting or backing off, at its LEO. With none, it is
// nil, and next is when the earliest backoff ends (-1: none backs off).
// It changes nothing (a leap compares it with the fetch last sent).
func (f *fetcher) nextFetch(now sim.Time) (req *protocol.FetchRequest, next sim.Time) {
	b := f.b
	conf := b.replicaFetchConf()
	req = &protocol.FetchRequest{
		ReplicaID: b.cfg.NodeID, ReplicaEpoch: b.brokerEpoch,
		MaxWaitMs: conf.waitMaxMs, MinBytes: conf.minBytes, MaxBytes: conf.responseMaxBytes,
	}
	next = -1
	sorted := f.sortedParts()
	// Every partition of the request shares one backing array (sorted by
	// topic, a topic's partitions are consecutive in it); FetchRequest.Add
	// made one per topic and grew it partition by partition. Each topic's
	// slice is capped at its own end, so appending to it cannot overwrite
	// the next topic's.
	parts := make([]protocol.FetchPartition, 0, len(sorted))
	req.Topics = make([]protocol.FetchTopic, 0, f.sortedTopics)
	for _, fs := range sorted {
		key := fs.p.tp
		if fs.truncating || fs.resetting {
			continue
		}
		if fs.delayedUntil > now {
			if next < 0 || fs.delayedUntil < next {
				next = fs.delayedUntil
			}
			continue
		}
		p := fs.p
		fp := protocol.FetchPartition{
			Index: key.Partition, CurrentLeaderEpoch: p.leaderEpoch, FetchOffset: p.log.LogEndOffset(),
			LastFetchedEpoch: p.lastFetchedEpoch(), LogStartOffset: p.log.LogStartOffset(),
			PartitionMaxBytes: conf.partitionMaxBytes,
		}
		parts = append(parts, fp)
		if n := len(req.Topics); n > 0 && req.Topics[n-1].Name == key.Topic {
			t := &req.Topics[n-1]
			t.Partitions = parts[len(parts)-len(t.Partitions)-1 : len(parts) : len(parts)]
		} else {
			req.Topics = append(req.Topics, protocol.FetchTopic{Name: key.Topic, Partitions: parts[len(parts)-1 : len(parts) : len(parts)]})
		}
	}
	if len(req.Topics) == 0 {
		return nil, next
	}
	return req, next
}

// fetched handles the answer to the fetch maybeFetch sent (onFetched).
func (f *fetcher) fetched(env *sim.Env, resp protocol.Response, err error) {
	b := f.b
	f.inFlight = false
	if f.stopped || b.state == StateStopped {
		return
	}
	if err != nil {
		// The whole request failed: every partition backs off.
		for _, fs := range f.parts {
			fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
		}
	} else {
		f.process(env, resp.(*protocol.FetchResponse))
	}
	f.maybeFetch(env)
}

// hostOf finds a broker's host from its registration.
func (b *Broker) hostOf(id int32) string {
	if r, ok := b.image.Brokers[id]; ok && len(r.Endpoints) > 0 {
		return r.Endpoints[0].Host
	}
	return fmt.Sprintf("kafka-%d", id)
}

// process applies a fetch response: append the records, take the leader's
// HW (capped by our LEO), or truncate where the leader says the logs
// diverge.
func (f *fetcher) process(env *sim.Env, resp *protocol.FetchResponse) {
	b := f.b
	var c stateCursor
	c.sorted = f.sortedParts()
	for _, t := range resp.Topics {
		c.seekTopic(t.Name)
		for _, pr := range t.Partitions {
			key := tp(t.Name, pr.Index)
			fs := c.find(f, key)
			if fs == nil {
				continue // no longer fetched from this leader
			}
			p := fs.p
			switch pr.ErrorCode {
			case protocol.NONE:
				if pr.DivergingEpoch.Epoch >= 0 {
					p.truncateOnDivergence(env, pr.DivergingEpoch)
					continue
				}
				// ReplicaFetcherThread.processPartitionData counts the
				// fetched bytes before appending them.
				markReplicationBytes(env.Now(), b.meters(env).replicationBytesIn, len(pr.Records))
				if len(pr.Records) > 0 {
					info, err := p.log.AppendAsFollower(pr.Records)
					p.noteRoll(env, info)
					if err != nil {
						env.Note(event.FollowerAppendFailed{Broker: b.cfg.NodeID, TP: key, Error: err.Error()})
						fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
						continue
					}
				}
				hw := min(pr.HighWatermark, p.log.LogEndOffset())
				if hw != p.log.HighWatermark() {
					p.log.UpdateHighWatermark(hw)
					p.noteHW(env)
					// Consumers long-polling this follower (KIP-392) wait
					// for its high watermark to move.
					b.checkParkedFetches(env)
				}
				// The follower's log starts where the leader's does
				// (ReplicaFetcherThread.processPartitionData); its own
				// retention task then deletes the segments below.
				if pr.LogStartOffset > p.log.LogStartOffset() && pr.LogStartOffset <= p.log.HighWatermark() {
					if err := p.log.MaybeIncrementLogStartOffset(pr.LogStartOffset); err != nil {
						panic(err)
					}
				}
			case protocol.OFFSET_OUT_OF_RANGE:
				f.handleOutOfRange(env, fs)
			default:
				fs.delayedUntil = env.Now().Add(b.ms("replica.fetch.backoff.ms"))
			}
		}
	}
}

// truncateOnDivergence applies a Fetch response's diverging epoch.
func (p *Partition) truncateOnDivergence(env *sim.Env, div protocol.EpochEndOffset) {
	p.truncateByEpochEnd(env, div)
}

// truncateByEpochEnd applies the leader's answer "epoch L ended at E" to
// this follower's log, as Kafka's fetcher does: with no answer, truncate to
// the HW; otherwise look up where epoch L ends locally; if the local epochs
// disagree, truncate to that end and ask again (it returns true); else
// truncate to min(local end, E, LEO) and it is done.
func (p *Partition) truncateByEpochEnd(env *sim.Env, div protocol.EpochEndOffset) (askAgain bool) {
	leo := p.log.LogEndOffset()
	target := leo
	switch {
	case div.EndOffset < 0:
		target = p.log.HighWatermark()
	case div.Epoch < 0:
		target = min(div.EndOffset, leo)
	default:
		fe, fend := p.log.EndOffsetForEpoch(div.Epoch)
		switch {
		case fe < 0:
			target = min(div.EndOffset, leo)
		case fe != div.Epoch:
			target = min(fend, leo)
			askAgain = target < leo
		default:
			target = min(fend, div.EndOffset, leo)
		}
	}
	if target < leo {
		env.Note(event.FollowerTruncated{Broker: p.b.cfg.NodeID, TP: p.tp, From: leo, To: target, Epoch: div.Epoch, End: div.EndOffset})
	}
	// Even with nothing to cut, the truncation drops epoch-cache entries
	// starting at the LEO (an epoch this replica began as leader without
	// appending to it): otherwise its next fetch would name that epoch again
	// and get the same diverging answer forever.
	if err := p.log.TruncateTo(target); err != nil {
		panic(err)
	}
	p.truncated(env)
	return askAgain
}
