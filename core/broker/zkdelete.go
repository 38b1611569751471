package broker

import (
	"slices"
	"time"

	"kafkascope/core/kafkazk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// handleDeleteTopicsZk is DeleteTopics at the controller broker
// (KafkaApis.handleDeleteTopicsRequest and ZkAdminManager.deleteTopics,
// 2.8.0): with delete.topic.enable=false every topic is
// TOPIC_DELETION_DISABLED; a topic the metadata cache does not know is
// UNKNOWN_TOPIC_OR_PARTITION; otherwise /admin/delete_topics/T is created
// (AdminZkClient.deleteTopic) and the answer waits until the topic has
// left the metadata cache, or the request's timeout.
func (b *Broker) handleDeleteTopicsZk(env *sim.Env, from sim.Addr, req *protocol.DeleteTopicsRequest) {
	resp := &protocol.DeleteTopicsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	results := make([]protocol.DeletableTopicResult, len(req.TopicNames))
	var reqs []kafkazk.Req
	var asked []int
	for i, name := range req.TopicNames {
		results[i] = protocol.DeletableTopicResult{Name: name}
		t, known := b.image.Topics[name]
		switch {
		case !b.conf().BrokerBool("delete.topic.enable"):
			results[i].ErrorCode = protocol.TOPIC_DELETION_DISABLED
		case !known:
			results[i].ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
		default:
			results[i].TopicID = t.ID
			reqs = append(reqs, kafkazk.Req{Type: zookeeper.OpCreate, Path: kafkazk.DeleteTopicPath(name)})
			asked = append(asked, i)
		}
	}
	b.zk.client.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		var waiting []string
		for j, i := range asked {
			switch resps[j].Rc {
			case zookeeper.OK:
				waiting = append(waiting, results[i].Name)
			case zookeeper.NodeExists:
				// TopicAlreadyMarkedForDeletionException: the deletion
				// in progress is what the caller waits for.
				waiting = append(waiting, results[i].Name)
			default:
				results[i].ErrorCode = protocol.UNKNOWN_SERVER_ERROR
			}
		}
		resp.Responses = results
		if len(waiting) == 0 || req.TimeoutMs <= 0 {
			b.respond(env, from, resp)
			return
		}
		b.zkWaitFor(env, func() bool {
			for _, n := range waiting {
				if _, ok := b.image.Topics[n]; ok {
					return false
				}
			}
			return true
		}, env.Now().Add(time.Duration(req.TimeoutMs)*time.Millisecond), func(env *sim.Env, ok bool) {
			if !ok {
				for i := range results {
					if slices.Contains(waiting, results[i].Name) {
						results[i].ErrorCode = protocol.REQUEST_TIMED_OUT
					}
				}
			}
			b.respond(env, from, resp)
		})
	})
}
