package controller

import (
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// ProducerIDBlockSize is how many producer ids one AllocateProducerIds
// hands a broker (ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE).
const ProducerIDBlockSize = 1000

// handleAllocateProducerIds gives a registered broker the next block of
// producer ids, as Kafka's ProducerIdControlManager does: the block starts
// at the image's next producer id (0 in a new cluster) and a
// ProducerIdsRecord moves that mark past it, so no id is handed out twice,
// across controller failovers too. The answer waits for the record to be
// committed.
func (c *Controller) handleAllocateProducerIds(env *sim.Env, from sim.Addr, req *protocol.AllocateProducerIdsRequest) {
	resp := &protocol.AllocateProducerIdsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	b := c.image.Brokers[req.BrokerID]
	switch {
	case b == nil:
		resp.ErrorCode = protocol.BROKER_ID_NOT_REGISTERED
	case b.Epoch != req.BrokerEpoch:
		resp.ErrorCode = protocol.STALE_BROKER_EPOCH
	}
	if resp.ErrorCode != protocol.NONE {
		c.reply(env, from, resp)
		return
	}
	start := c.image.NextProducerID
	c.appendRecords(env, &metadata.ProducerIdsRecord{BrokerID: req.BrokerID, BrokerEpoch: req.BrokerEpoch, NextProducerID: start + ProducerIDBlockSize})
	resp.ProducerIDStart, resp.ProducerIDLen = start, ProducerIDBlockSize
	env.Note(event.ProducerIDsAllocated{Broker: req.BrokerID, First: start, Size: ProducerIDBlockSize})
	c.reply(env, from, resp)
}
