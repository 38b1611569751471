package broker

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/kafkazk"
	"kafkascope/core/placement"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// handleCreatePartitionsZk is CreatePartitions on the ZooKeeper-era
// controller broker (ZkAdminManager.createPartitions, tag 2.8.0): for each
// topic, read its assignment from /brokers/topics/T, check the new count,
// place the new partitions (AdminZkClient.createNewPartitionsAssignment)
// and write the whole assignment back; the controller's watch on the
// topic's znode creates them (processPartitionModifications). The answer
// waits until the metadata cache has a leader for every partition, or the
// request's timeout.
func (b *Broker) handleCreatePartitionsZk(env *sim.Env, from sim.Addr, req *protocol.CreatePartitionsRequest) {
	resp := &protocol.CreatePartitionsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	counts := map[string]int32{}
	var next func(env *sim.Env, i int)
	next = func(env *sim.Env, i int) {
		if i < len(req.Topics) {
			t := req.Topics[i]
			b.zkCreatePartitions(env, t, req.ValidateOnly, func(env *sim.Env, code protocol.ErrorCode, msg string) {
				resp.Results = append(resp.Results, protocol.CreatePartitionsTopicResult{Name: t.Name, ErrorCode: code, ErrorMessage: msg})
				if code == protocol.NONE {
					counts[t.Name] = t.Count
				}
				next(env, i+1)
			})
			return
		}
		if req.ValidateOnly || req.TimeoutMs <= 0 || len(counts) == 0 {
			b.respond(env, from, resp)
			return
		}
		deadline := env.Now().Add(time.Duration(req.TimeoutMs) * time.Millisecond)
		b.zkWaitFor(env, func() bool { return b.zkHavePartitionLeaders(counts) }, deadline, func(env *sim.Env, ok bool) {
			for i, r := range resp.Results {
				if c, asked := counts[r.Name]; asked && !ok && !b.zkHavePartitionLeaders(map[string]int32{r.Name: c}) {
					resp.Results[i].ErrorCode = protocol.REQUEST_TIMED_OUT
				}
			}
			b.respond(env, from, resp)
		})
	}
	next(env, 0)
}

// zkCreatePartitions is one topic of createPartitions.
func (b *Broker) zkCreatePartitions(env *sim.Env, t protocol.CreatePartitionsTopic, validateOnly bool, done func(*sim.Env, protocol.ErrorCode, string)) {
	zk := b.zk.client
	path := kafkazk.TopicPath(t.Name)
	zk.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: path}, func(env *sim.Env, r kafkazk.Resp) {
		var data kafkazk.TopicZNodeData
		if r.Rc == zookeeper.OK {
			data, _ = kafkazk.DecodeTopic(r.Data)
		}
		if len(data.Partitions) == 0 {
			done(env, protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("The topic '%s' does not exist.", t.Name))
			return
		}
		if len(data.Adding) > 0 || len(data.Removing) > 0 {
			done(env, protocol.REASSIGNMENT_IN_PROGRESS, fmt.Sprintf("A partition reassignment is in progress for the topic '%s'.", t.Name))
			return
		}
		old := int32(len(data.Partitions))
		switch {
		case t.Count < old:
			done(env, protocol.INVALID_PARTITIONS, fmt.Sprintf("Topic currently has %d partitions, which is higher than the requested %d.", old, t.Count))
			return
		case t.Count == old:
			done(env, protocol.INVALID_PARTITIONS, fmt.Sprintf("Topic already has %d partitions.", old))
			return
		}
		add := int(t.Count - old)
		brokers := b.image.BrokerIDs()
		first := data.Partitions[0]
		rf := len(first)
		added := t.Assignments
		if added != nil {
			if code, msg := checkAddedAssignment(added, add, int(old), rf, brokers); code != protocol.NONE {
				done(env, code, msg)
				return
			}
		} else {
			if rf > len(brokers) {
				done(env, protocol.INVALID_REPLICATION_FACTOR, fmt.Sprintf("Replication factor: %d larger than available brokers: %d.", rf, len(brokers)))
				return
			}
			var ok bool
			if added, ok = placement.NewPartitions(brokers, b.image.BrokerRacks(brokers), first, int(old), add); !ok {
				done(env, protocol.UNKNOWN_SERVER_ERROR, notAllRacks)
				return
			}
		}
		if validateOnly {
			done(env, protocol.NONE, "")
			return
		}
		for i, rs := range added {
			data.Partitions[old+int32(i)] = slices.Clone(rs)
		}
		// writeTopicPartitionAssignment(isUpdate = true): setTopicAssignment,
		// any version.
		zk.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: kafkazk.EncodeTopic(data), Version: -1}, func(env *sim.Env, w kafkazk.Resp) {
			if w.Rc != zookeeper.OK {
				done(env, protocol.UNKNOWN_SERVER_ERROR, "")
				return
			}
			done(env, protocol.NONE, "")
		})
	})
}

// checkAddedAssignment is createPartitions' checks of the replicas asked
// for (unknown brokers, their count), then validateReplicaAssignment's.
func checkAddedAssignment(added [][]int32, add, old, rf int, brokers []int32) (protocol.ErrorCode, string) {
	var unknown []string
	for _, rs := range added {
		for _, id := range rs {
			if !slices.Contains(brokers, id) && !slices.Contains(unknown, fmt.Sprint(id)) {
				unknown = append(unknown, fmt.Sprint(id))
			}
		}
	}
	if len(unknown) > 0 {
		return protocol.INVALID_REPLICA_ASSIGNMENT, "Unknown broker(s) in replica assignment: " + strings.Join(unknown, ", ") + "."
	}
	if len(added) != add {
		return protocol.INVALID_REPLICA_ASSIGNMENT, fmt.Sprintf("Increasing the number of partitions by %d but %d assignments provided.", add, len(added))
	}
	if e := placement.ValidateReplicaAssignment(added, old, rf, brokers); e != nil {
		if e.Class == "BrokerNotAvailableException" {
			return protocol.BROKER_NOT_AVAILABLE, e.Message
		}
		return protocol.INVALID_REPLICA_ASSIGNMENT, e.Message
	}
	return protocol.NONE, ""
}

// zkHavePartitionLeaders reports whether the metadata cache has at least
// each topic's count of partitions, and a leader for every one it has.
func (b *Broker) zkHavePartitionLeaders(counts map[string]int32) bool {
	for name, n := range counts {
		t, ok := b.image.Topics[name]
		if !ok || int32(len(t.Partitions)) < n {
			return false
		}
		for _, p := range t.Partitions {
			if p.Leader < 0 {
				return false
			}
		}
	}
	return true
}
