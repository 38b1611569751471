package broker

import (
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleDescribeProducers answers with each partition's active producers
// as this broker's replica knows them, leader or follower
// (KafkaApis.handleDescribeProducersRequest → ReplicaManager
// .activeProducerState, 3.8.0): an invalid topic name is
// INVALID_TOPIC_EXCEPTION with Topic.validate's message, a topic the
// metadata lacks UNKNOWN_TOPIC_OR_PARTITION, a partition not hosted here
// NOT_LEADER_OR_FOLLOWER (UNKNOWN_TOPIC_OR_PARTITION if the metadata lacks
// the partition).
func (b *Broker) handleDescribeProducers(env *sim.Env, from sim.Addr, req *protocol.DescribeProducersRequest) {
	resp := &protocol.DescribeProducersResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, t := range req.Topics {
		tr := protocol.DescribeProducersTopic{Name: t.Name}
		code, msg := protocol.NONE, ""
		if problem := metadata.TopicNameProblem(t.Name); problem != "" {
			code, msg = protocol.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: "+problem
		} else if _, ok := b.image.Topics[t.Name]; !ok {
			code = protocol.UNKNOWN_TOPIC_OR_PARTITION
		}
		for _, index := range t.Partitions {
			pr := protocol.DescribeProducersPartition{PartitionIndex: index, ErrorCode: code, ErrorMessage: msg}
			if code == protocol.NONE {
				b.activeProducerState(t.Name, index, &pr)
			}
			tr.Partitions = append(tr.Partitions, pr)
		}
		resp.Topics = append(resp.Topics, tr)
	}
	b.respond(env, from, resp)
}

// activeProducerState is Partition.activeProducerState for one partition
// (UnifiedLog.activeProducers).
func (b *Broker) activeProducerState(topic string, index int32, pr *protocol.DescribeProducersPartition) {
	p := b.partitions[tp(topic, index)]
	switch {
	case p == nil && b.image.Partition(topic, index) == nil:
		pr.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
		return
	case p == nil:
		pr.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
		return
	}
	ps, err := p.log.ProducerState()
	if err != nil {
		pr.ErrorCode = protocol.KAFKA_STORAGE_ERROR
		return
	}
	for _, e := range ps.ActiveProducers() {
		pr.ActiveProducers = append(pr.ActiveProducers, protocol.ProducerState{ProducerID: e.ProducerID, ProducerEpoch: int32(e.Epoch),
			LastSequence: e.LastSeq(), LastTimestamp: e.LastTimestamp, CoordinatorEpoch: e.CoordinatorEpoch, CurrentTxnStartOffset: e.CurrentTxnFirstOffset})
	}
}
