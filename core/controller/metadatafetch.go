package controller

import (
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleMetadataFetch serves committed records to a broker. A fetch with
// nothing new waits (long poll) until a record is committed or the wait
// expires, as KRaft's fetch purgatory does.
func (c *Controller) handleMetadataFetch(env *sim.Env, from sim.Addr, req *protocol.MetadataFetchRequest) {
	if req.FetchOffset < c.HighWatermark() || req.MaxWaitMs <= 0 {
		c.answerFetch(env, from, req)
		return
	}
	pf := &parkedFetch{from: from, req: req}
	pf.timer = env.After(time.Duration(req.MaxWaitMs)*time.Millisecond, "metadata-fetch-expiry", func(env *sim.Env) {
		if !pf.done {
			pf.done = true
			c.answerFetch(env, pf.from, pf.req)
			c.dropDone()
		}
	})
	c.parked = append(c.parked, pf)
}

func (c *Controller) wakeFetches(env *sim.Env) {
	for _, pf := range c.parked {
		if !pf.done && pf.req.FetchOffset < c.HighWatermark() {
			pf.done = true
			pf.timer.Stop()
			c.answerFetch(env, pf.from, pf.req)
		}
	}
	c.dropDone()
}

func (c *Controller) dropDone() {
	live := c.parked[:0]
	for _, pf := range c.parked {
		if !pf.done {
			live = append(live, pf)
		}
	}
	c.parked = live
}

func (c *Controller) answerFetch(env *sim.Env, to sim.Addr, req *protocol.MetadataFetchRequest) {
	resp := &protocol.MetadataFetchResponse{
		ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
		HighWatermark:  c.HighWatermark(),
		LeaderID:       c.cfg.NodeID,
		LeaderEpoch:    c.epoch,
	}
	from := req.FetchOffset
	if from < c.logStart {
		resp.Snapshot = c.snapshot.Clone()
		resp.SnapshotOffset = c.logStart - 1
		from = c.logStart
	}
	entries := c.Entries(from)
	if len(entries) > metadataFetchBatch {
		entries = entries[:metadataFetchBatch]
	}
	resp.Entries = append(resp.Entries, entries...)
	c.reply(env, to, resp)
}
