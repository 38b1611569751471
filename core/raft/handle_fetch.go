package raft

import (
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// parkedFetch is a Fetch the leader holds (Kafka's fetch purgatory) until
// its log end offset grows past the fetch offset or MaxWaitMs passes.
type parkedFetch struct {
	n        *Node
	from, to sim.Addr
	req      *FetchRequest
	// resp is the answer computed when the fetch was parked; on expiry it
	// is sent as is ("no new data").
	resp *FetchResponse
	// timer is the expiry (MaxWaitMs), armed with the fetch itself as its
	// task: one allocation a parked fetch, where a closure would add two.
	timer sim.Timer
	done  bool
}

// Fire (sim.Task) expires the fetch: it is answered with the response
// computed when it was parked.
func (pf *parkedFetch) Fire(env *sim.Env) {
	pf.n.run(env, func() {
		if !pf.done {
			pf.done = true
			env.Send(pf.to, pf.from, pf.resp)
			pf.n.dropDoneFetches()
		}
	})
}

// maxParkedFetches bounds the purgatory (one fetch per replica is normal).
const maxParkedFetches = 4096

func (n *Node) emptyFetchResponse(corr int32, err protocol.ErrorCode) *FetchResponse {
	return &FetchResponse{CorrelationID: corr, PartitionError: err, HighWatermark: -1, LogStartOffset: n.log.startOffset,
		CurrentLeader: n.quorum.leaderAndEpoch(), DivergingEpoch: EpochEndOffset{Epoch: -1, EndOffset: -1}, SnapshotID: noSnapshot}
}

// handleFetchRequest answers a Fetch now, or parks it when there is nothing
// to send yet (KafkaRaftClient.handleFetchRequest, KafkaRaftClient.java:1048-1128).
// It replies at once on an error, with records, with MaxWaitMs 0, or when the
// fetcher must truncate or load a snapshot first.
func (n *Node) handleFetchRequest(env *sim.Env, e *sim.Envelope, r *FetchRequest) *FetchResponse {
	if !n.validClusterID(r.ClusterID) {
		resp := n.emptyFetchResponse(r.CorrelationID, protocol.NONE)
		resp.ErrorCode = protocol.INCONSISTENT_CLUSTER_ID
		return resp
	}
	if r.MaxWaitMs < 0 || r.FetchOffset < 0 || r.LastFetchedEpoch < 0 || r.LastFetchedEpoch > r.CurrentLeaderEpoch {
		resp := n.emptyFetchResponse(r.CorrelationID, protocol.INVALID_REQUEST)
		return resp
	}
	resp := n.tryCompleteFetchRequest(env, r)
	if resp.PartitionError != protocol.NONE || len(resp.Records) > 0 || r.MaxWaitMs == 0 ||
		resp.DivergingEpoch.Epoch >= 0 || resp.SnapshotID.Epoch >= 0 || len(n.parked) >= maxParkedFetches {
		return resp
	}
	pf := &parkedFetch{n: n, from: e.From, to: e.To, req: r, resp: resp}
	env.Arm(&pf.timer, time.Duration(r.MaxWaitMs)*time.Millisecond, "raft fetch expiry", pf)
	n.parked = append(n.parked, pf)
	return nil
}

// tryCompleteFetchRequest builds the answer to a Fetch (KafkaRaftClient.java:1130-1173).
// The fetch position is checked against the log: valid (records from the
// fetch offset, and the fetch counts as the replica's end offset, which may
// move the high watermark), diverging (the fetcher must truncate), or below
// the log start (the fetcher must load the snapshot). A fetch from offset 0
// is sent the latest snapshot whenever there is one: loading it is cheaper
// than replaying the log (KAFKA-15078).
func (n *Node) tryCompleteFetchRequest(env *sim.Env, r *FetchRequest) *FetchResponse {
	if e := n.validateLeaderOnlyRequest(r.CurrentLeaderEpoch); e != protocol.NONE {
		return n.emptyFetchResponse(r.CorrelationID, e)
	}
	s := n.quorum.state.(*leaderState)
	if r.ReplicaID == n.cfg.NodeID {
		return n.emptyFetchResponse(r.CorrelationID, protocol.UNKNOWN_SERVER_ERROR)
	}
	var v validOffsetAndEpoch
	if snap, ok := n.log.latestSnapshot(); ok && r.FetchOffset == 0 {
		v = validOffsetAndEpoch{kind: snapshotOffset, offset: snap.EndOffset, epoch: snap.Epoch}
	} else {
		v = n.log.validateOffsetAndEpoch(r.FetchOffset, r.LastFetchedEpoch)
	}
	resp := n.emptyFetchResponse(r.CorrelationID, protocol.NONE)
	switch v.kind {
	case validOffset:
		maxBytes := int(min(r.MaxBytes, MaxBatchSizeBytes))
		data, _, err := n.log.log.ReadSlice(r.FetchOffset, max(maxBytes, 1), n.log.endOffset(), true) // a view: sent as it is
		if err != nil {
			return n.emptyFetchResponse(r.CorrelationID, protocol.UNKNOWN_SERVER_ERROR)
		}
		resp.Records = data
		if s.updateReplicaState(r.ReplicaID, env.Now(), r.FetchOffset) {
			n.onUpdateLeaderHighWatermark(env, s)
		}
	case divergingOffset:
		resp.DivergingEpoch = EpochEndOffset{Epoch: v.epoch, EndOffset: v.offset}
	case snapshotOffset:
		resp.SnapshotID = SnapshotID{EndOffset: v.offset, Epoch: v.epoch}
	}
	resp.HighWatermark = s.hw
	return resp
}

// maybeCompleteParkedFetches answers parked fetches whose offset the log
// end offset has reached (ThresholdPurgatory.maybeComplete: threshold <=
// value), recomputing each answer now.
func (n *Node) maybeCompleteParkedFetches(env *sim.Env, leo int64) {
	// A copy: answering may reach a listener that appends, which completes
	// parked fetches again further down the stack. The copy goes into a
	// scratch slice kept between calls; a nested call finds it in use and
	// makes its own.
	var parked []*parkedFetch
	if n.parkedScratchBusy {
		parked = slices.Clone(n.parked)
	} else {
		n.parkedScratchBusy = true
		n.parkedScratch = append(n.parkedScratch[:0], n.parked...)
		parked = n.parkedScratch
		defer func() {
			clear(n.parkedScratch)
			n.parkedScratchBusy = false
		}()
	}
	for _, pf := range parked {
		if pf.done || pf.req.FetchOffset > leo {
			continue
		}
		pf.done = true
		pf.timer.Stop()
		env.Send(pf.to, pf.from, n.tryCompleteFetchRequest(env, pf.req))
	}
	n.dropDoneFetches()
}

// completeParkedFetches answers every parked fetch with err (the node is
// no longer the leader).
func (n *Node) completeParkedFetches(env *sim.Env, err protocol.ErrorCode) {
	for _, pf := range n.parked {
		if !pf.done {
			pf.done = true
			pf.timer.Stop()
			env.Send(pf.to, pf.from, n.emptyFetchResponse(pf.req.CorrelationID, err))
		}
	}
	n.parked = nil
}

func (n *Node) dropDoneFetches() {
	live := n.parked[:0]
	for _, pf := range n.parked {
		if !pf.done {
			live = append(live, pf)
		}
	}
	for i := len(live); i < len(n.parked); i++ {
		n.parked[i] = nil
	}
	n.parked = live
}

// onUpdateLeaderHighWatermark mirrors the leader's new high watermark into
// the log and lets the listeners read up to it.
func (n *Node) onUpdateLeaderHighWatermark(env *sim.Env, s *leaderState) {
	if s.hw >= 0 {
		n.log.log.UpdateHighWatermark(s.hw)
		n.committedUpTo(env.Now(), s.hw)
		n.updateListenersProgress(env)
	}
}

// flushLeaderLog fsyncs the log after the leader appended, counts its own
// LEO (which may commit) and wakes the parked fetches
// (KafkaRaftClient.flushLeaderLog, KafkaRaftClient.java:549-553). Kafka
// updates the end offset just before the fsync so parked fetches return
// sooner; within one lockstep handler the order cannot be observed, so the
// fsync goes first and nothing leaves the node before its entries are
// durable.
func (n *Node) flushLeaderLog(env *sim.Env, s *leaderState) {
	if n.cfg.hooks == nil || !n.cfg.hooks.skipFlush {
		if err := n.log.log.Flush(); err != nil {
			panic("raft: flushing the leader's log: " + err.Error())
		}
	}
	leo := n.log.endOffset()
	if s.updateLocalState(leo) {
		n.onUpdateLeaderHighWatermark(env, s)
	}
	n.maybeCompleteParkedFetches(env, leo)
}
