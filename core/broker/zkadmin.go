package broker

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/placement"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// handleCreateTopicsZk is CreateTopics on a ZooKeeper-era broker
// (KafkaApis.handleCreateTopicsRequest and ZkAdminManager.createTopics,
// tag 2.8.0). Only the controller broker takes it (others answer
// NOT_CONTROLLER, and the admin client asks the controller its metadata
// names). For each topic: the checks (names, defaults, the replica
// placement of AdminUtils), then two ZooKeeper reads (is it being deleted,
// does it exist), then the writes: /config/topics/T, and /brokers/topics/T
// with the assignment and a new topic id. The controller's watch on
// /brokers/topics does the rest. The answer waits until the metadata
// cache has a leader for every partition, or the request's timeout.
func (b *Broker) handleCreateTopicsZk(env *sim.Env, from sim.Addr, req *protocol.CreateTopicsRequest) bool {
	resp := &protocol.CreateTopicsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if !b.zk.controller.Active() {
		for _, t := range req.Topics {
			resp.Topics = append(resp.Topics, protocol.CreatableTopicResult{Name: t.Name, ErrorCode: protocol.NOT_CONTROLLER})
		}
		b.respond(env, from, resp)
		return true
	}
	results := make([]protocol.CreatableTopicResult, len(req.Topics))
	left := len(req.Topics)
	var created []string
	finish := func(env *sim.Env) {
		resp.Topics = results
		if req.TimeoutMs <= 0 || req.ValidateOnly || len(created) == 0 {
			b.answerLater(env, from, resp)
			return
		}
		b.zkWaitForLeaders(env, created, env.Now().Add(time.Duration(req.TimeoutMs)*time.Millisecond), func(env *sim.Env, ok bool) {
			if !ok {
				for i := range results {
					if slices.Contains(created, results[i].Name) {
						results[i].ErrorCode = protocol.REQUEST_TIMED_OUT
					}
				}
			}
			b.answerLater(env, from, resp)
		})
	}
	if left == 0 {
		finish(env)
		return false
	}
	for i, t := range req.Topics {
		b.zkCreateTopic(env, t, req.ValidateOnly, func(env *sim.Env, r protocol.CreatableTopicResult) {
			results[i] = r
			if r.ErrorCode == protocol.NONE {
				created = append(created, r.Name)
			}
			if left--; left == 0 {
				finish(env)
			}
		})
	}
	return false
}

// zkCreateTopic checks and writes one topic.
func (b *Broker) zkCreateTopic(env *sim.Env, t protocol.CreatableTopic, validateOnly bool, done func(*sim.Env, protocol.CreatableTopicResult)) {
	res := protocol.CreatableTopicResult{Name: t.Name, NumPartitions: -1, ReplicationFactor: -1}
	fail := func(code protocol.ErrorCode, msg string) {
		res.ErrorCode, res.ErrorMessage = code, msg
		done(env, res)
	}
	if p := metadata.TopicNameProblem(t.Name); p != "" {
		fail(protocol.INVALID_TOPIC_EXCEPTION, p)
		return
	}
	if _, ok := b.image.Topics[t.Name]; ok {
		fail(protocol.TOPIC_ALREADY_EXISTS, fmt.Sprintf("Topic '%s' already exists.", t.Name))
		return
	}
	assignment := t.Assignments
	if assignment == nil {
		partitions, rf := t.NumPartitions, int(t.ReplicationFactor)
		if partitions == -1 {
			partitions = int32(b.conf().BrokerInt("num.partitions"))
		}
		if rf == -1 {
			rf = int(b.conf().BrokerInt("default.replication.factor"))
		}
		if partitions <= 0 {
			fail(protocol.INVALID_PARTITIONS, "Number of partitions must be larger than 0.")
			return
		}
		if rf <= 0 {
			fail(protocol.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0.")
			return
		}
		brokers := b.image.BrokerIDs()
		if rf > len(brokers) {
			fail(protocol.INVALID_REPLICATION_FACTOR, fmt.Sprintf("Replication factor: %d larger than available brokers: %d.", rf, len(brokers)))
			return
		}
		rnd := env.Rand(fmt.Sprintf("broker-%d/assign-replicas", b.cfg.NodeID))
		start, shift := rnd.Intn(len(brokers)), rnd.Intn(len(brokers))
		var ok bool
		if assignment, ok = placement.AdminUtils(brokers, b.image.BrokerRacks(brokers), int(partitions), rf, start, shift, 0); !ok {
			fail(protocol.UNKNOWN_SERVER_ERROR, notAllRacks)
			return
		}
	}
	res.NumPartitions, res.ReplicationFactor = int32(len(assignment)), int16(len(assignment[0]))
	configs := map[string]string{}
	var entries []kafkazk.ConfigEntry
	for _, c := range t.Configs {
		if c.Value != nil {
			configs[c.Name] = *c.Value
			entries = append(entries, kafkazk.ConfigEntry{Name: c.Name, Value: *c.Value})
		}
	}
	zk := b.zk.client
	zk.Do(env, []kafkazk.Req{
		{Type: zookeeper.OpExists, Path: kafkazk.DeleteTopicPath(t.Name)},
		{Type: zookeeper.OpExists, Path: kafkazk.TopicPath(t.Name)},
	}, func(env *sim.Env, rs []kafkazk.Resp) {
		switch {
		case rs[0].Rc == zookeeper.OK:
			fail(protocol.TOPIC_ALREADY_EXISTS, fmt.Sprintf("Topic '%s' is marked for deletion.", t.Name))
			return
		case rs[1].Rc == zookeeper.OK:
			fail(protocol.TOPIC_ALREADY_EXISTS, fmt.Sprintf("Topic '%s' already exists.", t.Name))
			return
		case validateOnly:
			done(env, res)
			return
		}
		id := metadata.RandomUuid(env.Rand("zk-admin/topic-ids").Uint64)
		res.TopicID = id
		parts := map[int32][]int32{}
		for p, rs := range assignment {
			parts[int32(p)] = slices.Clone(rs)
		}
		cfgPath := kafkazk.ConfigEntityPath("topics", t.Name)
		cfgData := kafkazk.EncodeEntityConfigEntries(entries)
		// setOrCreateEntityConfigs: set, or create when it is not there.
		zk.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: cfgPath, Data: cfgData, Version: -1}, func(env *sim.Env, r kafkazk.Resp) {
			then := func(env *sim.Env) {
				b.createRecursive(env, kafkazk.TopicPath(t.Name), kafkazk.EncodeTopic(kafkazk.TopicZNodeData{Partitions: parts, TopicID: id}), func(env *sim.Env, rc zookeeper.Code) {
					if rc == zookeeper.NodeExists {
						fail(protocol.TOPIC_ALREADY_EXISTS, fmt.Sprintf("Topic '%s' already exists.", t.Name))
						return
					}
					b.image.SetTopicConfig(t.Name, configs)
					b.zk.configsRead[t.Name] = true
					done(env, res)
				})
			}
			if r.Rc == zookeeper.NoNode {
				b.createRecursive(env, cfgPath, cfgData, func(env *sim.Env, _ zookeeper.Code) { then(env) })
				return
			}
			then(env)
		})
	})
}

// zkWaitForLeaders is DelayedCreatePartitions: done(true) once the
// metadata cache has a leader for every partition of topics, done(false)
// at the deadline. It looks again after every UpdateMetadata.
func (b *Broker) zkWaitForLeaders(env *sim.Env, topics []string, deadline sim.Time, done func(*sim.Env, bool)) {
	b.zkWaitFor(env, func() bool { return b.zkHaveLeaders(topics) }, deadline, done)
}

// zkWaitFor is a delayed admin operation (DelayedCreatePartitions,
// DelayedDeleteTopics): done(true) once ready holds, tried after every
// UpdateMetadata; done(false) at the deadline.
func (b *Broker) zkWaitFor(env *sim.Env, ready func() bool, deadline sim.Time, done func(*sim.Env, bool)) {
	w := &zkTopicWait{ready: ready, deadline: deadline, done: done}
	b.zk.waits = append(b.zk.waits, w)
	w.timer = env.After(deadline.Sub(env.Now()), "delayed-create-topics", func(env *sim.Env) {
		b.zk.waits = slices.DeleteFunc(b.zk.waits, func(x *zkTopicWait) bool { return x == w })
		w.done(env, false)
	})
	b.zkCheckWaits(env)
}

// zkTopicWait is one CreateTopics waiting for its leaders.
type zkTopicWait struct {
	ready    func() bool
	deadline sim.Time
	done     func(*sim.Env, bool)
	timer    *sim.Timer
}

// zkCheckWaits completes the waits whose topics all have leaders.
func (b *Broker) zkCheckWaits(env *sim.Env) {
	var keep []*zkTopicWait
	var ready []*zkTopicWait
	for _, w := range b.zk.waits {
		if w.ready() {
			ready = append(ready, w)
		} else {
			keep = append(keep, w)
		}
	}
	b.zk.waits = keep
	for _, w := range ready {
		w.timer.Stop()
		w.done(env, true)
	}
}

// zkHaveLeaders reports whether every topic has partitions, each with a
// leader.
func (b *Broker) zkHaveLeaders(topics []string) bool {
	counts := make(map[string]int32, len(topics))
	for _, t := range topics {
		counts[t] = 1
	}
	return b.zkHavePartitionLeaders(counts)
}

// notAllRacks is AdminZkClient.getBrokerMetadatas' refusal (rack-aware
// mode Enforced) when only some brokers have a broker.rack; the admin
// manager answers it as an unexpected error.
const notAllRacks = "Not all brokers have rack information. Add --disable-rack-aware in command line to make replica assignment without rack information."
