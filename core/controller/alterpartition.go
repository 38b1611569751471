package controller

import (
	"slices"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleAlterPartition commits an ISR change a leader proposes, if it was
// computed from the current leader and partition epochs and every added
// replica is eligible.
func (c *Controller) handleAlterPartition(env *sim.Env, from sim.Addr, req *protocol.AlterPartitionRequest) {
	resp := &protocol.AlterPartitionResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	b := c.image.Brokers[req.BrokerID]
	if b == nil || b.Epoch != req.BrokerEpoch {
		resp.ErrorCode = protocol.STALE_BROKER_EPOCH
		c.reply(env, from, resp)
		return
	}
	for _, t := range req.Topics {
		tr := protocol.AlterPartitionTopicResponse{TopicID: t.TopicID}
		topic := c.image.TopicByID(t.TopicID)
		for _, p := range t.Partitions {
			pr := protocol.AlterPartitionPartitionResponse{PartitionIndex: p.PartitionIndex}
			var st *metadata.PartitionState
			if topic != nil && p.PartitionIndex >= 0 && int(p.PartitionIndex) < len(topic.Partitions) {
				st = topic.Partitions[p.PartitionIndex]
			}
			switch {
			case st == nil:
				pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			case st.Leader != req.BrokerID:
				pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			case p.LeaderEpoch < st.LeaderEpoch:
				pr.ErrorCode = protocol.FENCED_LEADER_EPOCH
			case p.LeaderEpoch > st.LeaderEpoch:
				pr.ErrorCode = protocol.UNKNOWN_LEADER_EPOCH
			case p.PartitionEpoch != st.PartitionEpoch:
				pr.ErrorCode = protocol.INVALID_UPDATE_VERSION
			case !slices.Contains(p.NewISR, st.Leader):
				pr.ErrorCode = protocol.INVALID_REQUEST
			}
			if pr.ErrorCode == protocol.NONE {
				for _, id := range p.NewISR {
					if !slices.Contains(st.Replicas, id) {
						pr.ErrorCode = protocol.INVALID_REQUEST
					} else if !slices.Contains(st.ISR, id) && !c.acceptable(id) {
						pr.ErrorCode = protocol.INELIGIBLE_REPLICA
					}
				}
			}
			if pr.ErrorCode == protocol.NONE {
				// The ISR change goes through the change builder, so that an ISR
				// that now holds every target replica completes a reassignment
				// in the same record.
				b := newChangeBuilder(t.TopicID, p.PartitionIndex, st, c.electionFor(topic.Name), c.acceptable)
				b.elr = c.elrFor(topic.Name, st)
				b.isr = p.NewISR
				rec := b.build()
				if st.LeaderRecoveryState == metadata.LeaderRecovering && p.LeaderRecoveryState == metadata.LeaderRecovered {
					if rec == nil {
						rec = metadata.NewPartitionChange(t.TopicID, p.PartitionIndex)
					}
					rec.LeaderRecoveryState = metadata.LeaderRecovered
				}
				if rec != nil {
					c.appendRecords(env, rec)
					if rec.Leader != metadata.NoLeaderChange && rec.Leader != req.BrokerID {
						// Completing a reassignment moved the leadership away from
						// the requester: it must refetch metadata.
						pr.ErrorCode = protocol.NEW_LEADER_ELECTED
					}
				}
			}
			if st != nil {
				pr.LeaderID, pr.LeaderEpoch, pr.PartitionEpoch = st.Leader, st.LeaderEpoch, st.PartitionEpoch
				pr.ISR = slices.Clone(st.ISR)
				pr.LeaderRecoveryState = st.LeaderRecoveryState
			}
			tr.Partitions = append(tr.Partitions, pr)
		}
		resp.Topics = append(resp.Topics, tr)
	}
	c.reply(env, from, resp)
}
