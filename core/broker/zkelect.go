package broker

import (
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// handleElectLeadersZk is ElectLeaders on the controller broker (2.8.0:
// KafkaApis.handleElectReplicaLeader, ReplicaManager.electLeaders): no
// partitions named means every partition in the metadata cache; the
// controller elects, and the answer waits (DelayedElectLeader) until the
// metadata cache shows each new leader, or the request's timeout.
func (b *Broker) handleElectLeadersZk(env *sim.Env, from sim.Addr, req *protocol.ElectLeadersRequest) {
	var tps []storage.TopicPartition
	if req.TopicPartitions == nil {
		for _, name := range b.image.TopicNames() {
			for i := range b.image.Topics[name].Partitions {
				tps = append(tps, tp(name, int32(i)))
			}
		}
	} else {
		for _, t := range req.TopicPartitions {
			for _, p := range t.Partitions {
				tps = append(tps, tp(t.Topic, p))
			}
		}
	}
	corr := req.CorrelationID
	b.zk.controller.ElectLeaders(env, tps, req.ElectionType == protocol.ElectUnclean, func(env *sim.Env, results map[storage.TopicPartition]protocol.ElectPartitionResult, leaders map[storage.TopicPartition]int32) {
		answer := func(env *sim.Env, ok bool) {
			resp := &protocol.ElectLeadersResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}}
			keys := make([]storage.TopicPartition, 0, len(results))
			for k := range results {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, storage.ComparePartitions)
			for _, k := range keys {
				r := results[k]
				if _, waited := leaders[k]; waited && !ok {
					r = protocol.ElectPartitionResult{PartitionID: k.Partition, ErrorCode: protocol.REQUEST_TIMED_OUT}
				}
				n := len(resp.Results)
				if n == 0 || resp.Results[n-1].Topic != k.Topic {
					resp.Results = append(resp.Results, protocol.ElectTopicResult{Topic: k.Topic})
					n++
				}
				resp.Results[n-1].Partitions = append(resp.Results[n-1].Partitions, r)
			}
			b.respond(env, from, resp)
		}
		if len(leaders) == 0 || req.TimeoutMs <= 0 {
			answer(env, true)
			return
		}
		b.zkWaitFor(env, func() bool {
			for k, l := range leaders {
				if st := b.image.Partition(k.Topic, k.Partition); st == nil || st.Leader != l {
					return false
				}
			}
			return true
		}, env.Now().Add(time.Duration(req.TimeoutMs)*time.Millisecond), answer)
	})
}
