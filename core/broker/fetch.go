package broker

import (
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// delayedFetch is a fetch with nothing to return yet, parked until data
// arrives or MaxWaitMs passes (Kafka's DelayedFetch, the long poll).
type delayedFetch struct {
	b    *Broker
	from sim.Addr
	req  *protocol.FetchRequest
	// timer is the MaxWaitMs expiry; held here, with the fetch its own
	// task, so parking a fetch (every idle follower's, twice a second)
	// allocates only this.
	timer sim.Timer
	done  bool
}

// Fire is the long poll's expiry: the fetch is answered with what there is.
func (df *delayedFetch) Fire(env *sim.Env) {
	if !df.done {
		df.b.completeFetch(env, df)
	}
}

// handleFetch serves followers (ReplicaID >= 0: up to the LEO; the fetch
// offset updates the leader's view of the follower) and consumers (up to
// the HW).
func (b *Broker) handleFetch(env *sim.Env, from sim.Addr, req *protocol.FetchRequest) bool {
	resp, slices, bytes, stop := b.readFetch(env, req, true)
	if stop || req.MaxWaitMs <= 0 || bytes >= max(int(req.MinBytes), 1) {
		b.sendFetch(env, from, req, resp, slices)
		return true
	}
	// The answer is not sent (the fetch is read again when it completes):
	// the next fetch may build in its storage.
	b.fetchDraft.release(resp)
	df := &delayedFetch{b: b, from: from, req: req}
	env.Arm(&df.timer, time.Duration(req.MaxWaitMs)*time.Millisecond, "delayed-fetch-expiry", df)
	b.parked = append(b.parked, df)
	return false
}

// readFetch reads every partition of req. The HW in each answer is the HW
// before this fetch moved it (followers learn a new HW one fetch later).
// It returns the response, where its records lie in the segment files, the
// bytes read, and whether the fetch must be answered at once (an error or a
// diverging epoch).
func (b *Broker) readFetch(env *sim.Env, req *protocol.FetchRequest, updateState bool) (*protocol.FetchResponse, []storage.FileSlice, int, bool) {
	resp, parts := b.fetchDraft.take(req)
	fromFollower := req.ReplicaID >= 0
	total, stop := 0, false
	var slices []storage.FileSlice
	for _, t := range req.Topics {
		first := len(parts)
		local, topic := b.topicPartitions(t.Name), b.image.Topics[t.Name]
		for _, fp := range t.Partitions {
			parts = append(parts, protocol.FetchPartitionResponse{Index: fp.Index, HighWatermark: -1, LastStableOffset: -1, LogStartOffset: -1, DivergingEpoch: protocol.EpochEndOffset{Epoch: -1, EndOffset: -1}, PreferredReadReplica: -1})
			pr := &parts[len(parts)-1]
			p := partitionAt(local, fp.Index)
			st := topic.Partition(fp.Index)
			switch {
			case st == nil:
				pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			case p == nil || !p.isLeader && !servesConsumer(req, p):
				pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
				pr.CurrentLeader = protocol.LeaderIDAndEpoch{LeaderID: st.Leader, LeaderEpoch: st.LeaderEpoch}
			case fp.CurrentLeaderEpoch >= 0 && fp.CurrentLeaderEpoch < p.leaderEpoch:
				pr.ErrorCode = protocol.FENCED_LEADER_EPOCH
			case fp.CurrentLeaderEpoch > p.leaderEpoch:
				pr.ErrorCode = protocol.UNKNOWN_LEADER_EPOCH
			case p.isLeader && !fromFollower && b.preferReadReplica(env, req, p, fp, pr):
				// KIP-392: the consumer is sent to a replica in its rack,
				// with no records (ReplicaManager.readFromLocalLog skips
				// the read), and answered at once.
			default:
				slice := p.read(env, req, fp, pr, updateState && fromFollower)
				if slice.Size > 0 {
					slices = append(slices, slice)
				}
				total += int(slice.Size)
			}
			if pr.ErrorCode != protocol.NONE || pr.DivergingEpoch.Epoch >= 0 || pr.PreferredReadReplica >= 0 {
				stop = true
			}
		}
		// Capped at its own end: appending to one topic's partitions
		// cannot overwrite the next topic's.
		resp.Topics = append(resp.Topics, protocol.FetchTopicResponse{Name: t.Name, Partitions: parts[first:len(parts):len(parts)]})
	}
	return resp, slices, total, stop
}

// fetchDraft is the storage readFetch builds a response in: the response,
// its topics and, in one array, every topic's partitions. A leader reads
// every follower fetch twice when it parks it (once to learn there is
// nothing to send and to take the follower's offset, once to answer), and
// an idle cluster parks almost all of them: the first read's response is
// thrown away, and allocating it was a fifth of an idle cluster's garbage.
//
// Invariant: free, when not nil, is held by no one else (it was released,
// never sent), so take may overwrite it; lent is the last response take
// handed out, with its partitions' array, and only lent can be released.
type fetchDraft struct {
	free, lent           *protocol.FetchResponse
	freeParts, lentParts []protocol.FetchPartitionResponse
}

// take hands out an empty response for req, with room for its
// partitions in one array.
func (d *fetchDraft) take(req *protocol.FetchRequest) (*protocol.FetchResponse, []protocol.FetchPartitionResponse) {
	n := 0
	for _, t := range req.Topics {
		n += len(t.Partitions)
	}
	resp, parts := d.free, d.freeParts
	d.free, d.freeParts = nil, nil
	if resp == nil || cap(resp.Topics) < len(req.Topics) || cap(parts) < n {
		resp = &protocol.FetchResponse{Topics: make([]protocol.FetchTopicResponse, 0, len(req.Topics))}
		parts = make([]protocol.FetchPartitionResponse, 0, n)
	}
	*resp = protocol.FetchResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, Topics: resp.Topics[:0]}
	d.lent, d.lentParts = resp, parts[:0]
	return resp, parts[:0]
}

// release gives back the response take handed out last, which will never
// be sent: the next take builds in it.
func (d *fetchDraft) release(resp *protocol.FetchResponse) {
	if resp != d.lent {
		return
	}
	parts := d.lentParts[:cap(d.lentParts)]
	clear(parts) // drop the record views: they would keep old segments alive
	clear(resp.Topics[:cap(resp.Topics)])
	d.free, d.freeParts = resp, parts[:0]
	d.lent, d.lentParts = nil, nil
}

// sendFetch answers a fetch. Each partition's records go from the page
// cache to the socket with sendfile, as Kafka's FileRecords.writeTo does
// through FileChannel.transferTo (PlaintextTransportLayer.transferFrom):
// they are never copied into the broker's memory. Over TLS Kafka must
// encrypt them in the process, so SslTransportLayer.transferFrom reads
// them into a buffer instead, and zero-copy is lost; the simulator has no
// TLS listener.
//
// The answer's bytes are counted as it is sent (KafkaApis'
// processResponseCallback, BrokerTopicStats.updateBytesOut): a follower's
// under ReplicationBytesOutPerSec only, a consumer's under its topics'
// BytesOutPerSec.
func (b *Broker) sendFetch(env *sim.Env, to sim.Addr, req *protocol.FetchRequest, resp *protocol.FetchResponse, slices []storage.FileSlice) {
	for _, t := range resp.Topics {
		for _, pr := range t.Partitions {
			switch {
			case pr.ErrorCode == protocol.UNKNOWN_TOPIC_OR_PARTITION:
				// No topic, no meters: Kafka has no name for a topic
				// id it does not know.
			case req.ReplicaID >= 0:
				markReplicationBytes(env.Now(), b.meters(env).replicationBytesOut, len(pr.Records))
			default:
				b.meters(env).markTopic(env.Now(), t.Name, bytesOut, int64(len(pr.Records)))
			}
		}
	}
	for _, s := range slices {
		// The slice was read from this file in this same event, so it is
		// there and this cannot fail.
		_ = b.cfg.Disk.SendFile(s.Path, s.Position, s.Size)
	}
	b.respond(env, to, resp)
}

// read serves one partition of a fetch from this leader: it fills pr and
// returns where its records lie on disk.
func (p *Partition) read(env *sim.Env, req *protocol.FetchRequest, fp protocol.FetchPartition, pr *protocol.FetchPartitionResponse, updateFollower bool) storage.FileSlice {
	log := p.log
	hw := log.HighWatermark()
	lso, err := log.LastStableOffset()
	if err != nil {
		pr.ErrorCode = protocol.KAFKA_STORAGE_ERROR
		return storage.FileSlice{}
	}
	pr.HighWatermark, pr.LastStableOffset, pr.LogStartOffset = hw, lso, log.LogStartOffset()
	fromFollower := req.ReplicaID >= 0
	if fromFollower && fp.LastFetchedEpoch >= 0 {
		// The follower's last batch has epoch LastFetchedEpoch: if that epoch
		// ended earlier here than where the follower is, its log diverges.
		e, end := log.EndOffsetForEpoch(fp.LastFetchedEpoch)
		if e < fp.LastFetchedEpoch || end < fp.FetchOffset {
			pr.DivergingEpoch = protocol.EpochEndOffset{Epoch: e, EndOffset: end}
			return storage.FileSlice{}
		}
	}
	maxOffset := hw
	switch {
	case fromFollower:
		maxOffset = log.LogEndOffset()
	case req.IsolationLevel == protocol.ReadCommitted:
		maxOffset = lso // FetchIsolation.TXN_COMMITTED
	}
	data, slice, err := log.ReadSlice(fp.FetchOffset, int(fp.PartitionMaxBytes), maxOffset, true)
	if err == storage.ErrOffsetOutOfRange {
		pr.ErrorCode = protocol.OFFSET_OUT_OF_RANGE
		return storage.FileSlice{}
	} else if err != nil {
		pr.ErrorCode = protocol.KAFKA_STORAGE_ERROR
		return storage.FileSlice{}
	}
	pr.Records = data
	if !fromFollower && req.IsolationLevel == protocol.ReadCommitted {
		// The aborted transactions that overlap what was read
		// (LocalLog.addAbortedTransactions): up to the offset after it.
		pr.AbortedTransactions = []protocol.AbortedTransaction{}
		if upper := nextOffsetAfter(data); upper > fp.FetchOffset {
			aborted, err := log.AbortedTxns(fp.FetchOffset, upper)
			if err != nil {
				pr.ErrorCode = protocol.KAFKA_STORAGE_ERROR
				return storage.FileSlice{}
			}
			for _, a := range aborted {
				pr.AbortedTransactions = append(pr.AbortedTransactions, protocol.AbortedTransaction{ProducerID: a.ProducerID, FirstOffset: a.FirstOffset})
			}
		}
	}
	if updateFollower {
		p.updateFollowerFetchState(env, req.ReplicaID, fp.FetchOffset, req.ReplicaEpoch)
	}
	return slice
}

// checkParkedFetches completes parked fetches that now have data (new
// records for followers, a higher HW for consumers) or whose partitions
// changed leadership.
func (b *Broker) checkParkedFetches(env *sim.Env) {
	if len(b.parked) == 0 {
		return
	}
	parked := b.parked
	b.parked = nil
	for _, df := range parked {
		if df.done {
			continue
		}
		if b.fetchSatisfied(df.req) {
			b.completeFetch(env, df)
		} else {
			b.parked = append(b.parked, df)
		}
	}
}

func (b *Broker) fetchSatisfied(req *protocol.FetchRequest) bool {
	for _, t := range req.Topics {
		local := b.topicPartitions(t.Name)
		for _, fp := range t.Partitions {
			p := partitionAt(local, fp.Index)
			if p == nil || !p.isLeader && !servesConsumer(req, p) || fp.CurrentLeaderEpoch >= 0 && fp.CurrentLeaderEpoch != p.leaderEpoch {
				return true
			}
			end := p.log.HighWatermark()
			if req.ReplicaID >= 0 {
				end = p.log.LogEndOffset()
			}
			if end > fp.FetchOffset || fp.FetchOffset > p.log.LogEndOffset() {
				return true
			}
		}
	}
	return false
}

// completeFetch re-reads (without updating follower state again) and
// answers a parked fetch.
func (b *Broker) completeFetch(env *sim.Env, df *delayedFetch) {
	df.done = true
	df.timer.Stop()
	// An answered fetch leaves the purgatory (checkParkedFetches only
	// walks it when data or leadership changes, which an idle leader's
	// expiring long polls never do).
	if i := slices.Index(b.parked, df); i >= 0 {
		b.parked = slices.Delete(b.parked, i, i+1)
	}
	resp, slices, _, _ := b.readFetch(env, df.req, false)
	b.sendFetch(env, df.from, df.req, resp, slices)
	b.done(env, df.from)
}

// nextOffsetAfter is the offset after the last batch in data (whole
// batches, as a read returns them), or -1 for none.
func nextOffsetAfter(data []byte) int64 {
	next := int64(-1)
	for pos := 0; pos < len(data); {
		h, err := record.ParseHeader(data[pos:])
		if err != nil {
			break
		}
		next = h.NextOffset()
		pos += h.SizeInBytes()
	}
	return next
}
