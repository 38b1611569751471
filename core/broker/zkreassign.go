package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zkcontroller"
)

// handleAlterPartitionReassignmentsZk is KafkaApis
// .handleAlterPartitionReassignmentsRequest (2.8.0): the controller runs
// the moves (zkcontroller/reassign.go) and the answer comes when it has
// taken each partition its first step; null replicas cancel.
func (b *Broker) handleAlterPartitionReassignmentsZk(env *sim.Env, from sim.Addr, req *protocol.AlterPartitionReassignmentsRequest) {
	var reqs []zkcontroller.Reassignment
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			// nil replicas: a revert call.
			reqs = append(reqs, zkcontroller.Reassignment{TP: storage.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}, Replicas: p.Replicas})
		}
	}
	corr := req.CorrelationID
	b.zk.controller.AlterPartitionReassignments(env, reqs, func(env *sim.Env, code protocol.ErrorCode, results []zkcontroller.ReassignmentResult) {
		resp := &protocol.AlterPartitionReassignmentsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}, ErrorCode: code}
		if code != protocol.NONE {
			resp.ErrorMessage = code.Message()
		}
		for _, r := range results {
			n := len(resp.Responses)
			if n == 0 || resp.Responses[n-1].Name != r.TP.Topic {
				resp.Responses = append(resp.Responses, protocol.ReassignableTopicResponse{Name: r.TP.Topic})
				n++
			}
			resp.Responses[n-1].Partitions = append(resp.Responses[n-1].Partitions, protocol.ReassignablePartitionResponse{
				PartitionIndex: r.TP.Partition, ErrorCode: r.Code, ErrorMessage: r.Message,
			})
		}
		b.respond(env, from, resp)
	})
}

// handleListPartitionReassignmentsZk is KafkaApis
// .handleListPartitionReassignmentsRequest: the controller's list.
func (b *Broker) handleListPartitionReassignmentsZk(env *sim.Env, from sim.Addr, req *protocol.ListPartitionReassignmentsRequest) {
	var tps []storage.TopicPartition
	if req.Topics != nil {
		tps = []storage.TopicPartition{}
		for _, t := range req.Topics {
			for _, p := range t.PartitionIndexes {
				tps = append(tps, storage.TopicPartition{Topic: t.Name, Partition: p})
			}
		}
	}
	corr := req.CorrelationID
	b.zk.controller.ListPartitionReassignments(env, tps, func(env *sim.Env, code protocol.ErrorCode, moving []protocol.OngoingTopicReassignment) {
		resp := &protocol.ListPartitionReassignmentsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}, ErrorCode: code, Topics: moving}
		if code != protocol.NONE {
			resp.ErrorMessage = code.Message()
		}
		b.respond(env, from, resp)
	})
}
