package console

import (
	"slices"
	"strconv"

	"kafkascope/core/javacli"
	"kafkascope/core/kafkazk"
	"kafkascope/core/placement"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// alter is ZookeeperTopicService.alterTopic (TopicCommand.scala:407-443,
// tag 2.8.0): for each matching topic, the config overrides first (two
// warnings, /config/topics/T read, the overrides added and removed, then
// AdminZkClient.changeTopicConfig: the znode written back and a
// /config/changes notification, which every broker acts on), then more
// partitions (a warning, /brokers/topics/T read, the new partitions placed
// by createNewPartitionsAssignment and the whole assignment written back,
// which the controller acts on).
func (p *zkTopicsProc) alter(env *sim.Env) {
	p.getTopics(env, func(env *sim.Env, topics []string) {
		o := p.tc.p
		n := -1
		if o.Has("partitions") {
			v, err := o.Int("partitions", 32)
			if err != nil {
				p.tc.fail(err.(*javacli.OptionError).Class, err.Error())
				return
			}
			n = int(v)
		}
		asg, ok := p.tc.replicaAssignment(env)
		if !ok {
			return
		}
		add, ok := p.tc.parseTopicConfigs()
		if !ok {
			return
		}
		if !p.ensureTopicExists(topics) {
			return
		}
		del := o.Values("delete-config")
		var next func(env *sim.Env, i int)
		next = func(env *sim.Env, i int) {
			if i == len(topics) {
				p.tc.finish(0)
				return
			}
			t := topics[i]
			p.alterTopicConfig(env, t, add, del, func(env *sim.Env) {
				if n < 0 {
					next(env, i+1)
					return
				}
				p.addPartitions(env, t, n, asg, func(env *sim.Env) { next(env, i+1) })
			})
		}
		next(env, 0)
	})
}

// alterTopicConfig is alterTopic's config part: fetchEntityConfig always,
// the change only when --config or --delete-config is given.
func (p *zkTopicsProc) alterTopicConfig(env *sim.Env, topic string, add []protocol.ConfigEntry, del []string, k func(env *sim.Env)) {
	path := kafkazk.ConfigEntityPath(kafkazk.ConfigTypeTopic, topic)
	p.getData(env, path, func(env *sim.Env, data []byte, ok bool) {
		if len(add) == 0 && len(del) == 0 {
			k(env)
			return
		}
		p.tc.t.println("WARNING: Altering topic configuration from this script has been deprecated and may be removed in future releases.")
		p.tc.t.println("         Going forward, please use kafka-configs.sh for this functionality")
		var props []kafkazk.ConfigEntry
		if ok {
			props, _ = kafkazk.DecodeEntityConfigEntries(data)
		}
		for _, c := range add {
			if i := slices.IndexFunc(props, func(e kafkazk.ConfigEntry) bool { return e.Name == c.Name }); i >= 0 {
				props[i].Value = *c.Value
			} else {
				props = append(props, kafkazk.ConfigEntry{Name: c.Name, Value: *c.Value})
			}
		}
		props = slices.DeleteFunc(props, func(e kafkazk.ConfigEntry) bool { return slices.Contains(del, e.Name) })
		p.changeEntityConfig(env, kafkazk.ConfigTypeTopic, topic, props, func(env *sim.Env) {
			p.tc.t.println("Updated config for topic " + topic + ".")
			k(env)
		})
	})
}

// addPartitions is alterTopic's partitions part and
// AdminZkClient.addPartitions: the checks and placement of
// createNewPartitionsAssignment, then writeTopicPartitionAssignment
// (the topic's id read again, the znode set with any version).
func (p *zkTopicsProc) addPartitions(env *sim.Env, topic string, n int, asg [][]int32, k func(env *sim.Env)) {
	if zkTopicsInternal(topic) {
		p.tc.fail("java.lang.IllegalArgumentException", "The number of partitions for the internal topic "+topic+" cannot be changed.")
		return
	}
	p.tc.t.println("WARNING: If partitions are increased for a topic that has a key, the partition logic or ordering of the messages will be affected")
	path := kafkazk.TopicPath(topic)
	p.getData(env, path, func(env *sim.Env, data []byte, ok bool) {
		var znode kafkazk.TopicZNodeData
		if ok {
			znode, _ = kafkazk.DecodeTopic(data)
		}
		if len(znode.Partitions) == 0 {
			p.tc.fail("org.apache.kafka.common.errors.InvalidTopicException", "The topic "+topic+" does not exist")
			return
		}
		p.liveBrokers(env, func(env *sim.Env, brokers []kafkazk.BrokerInfo) {
			ids, racks := p.brokerRacks(brokers)
			if racks == nil {
				return
			}
			old := len(znode.Partitions)
			first := znode.Partitions[0]
			if n <= old {
				p.tc.fail("org.apache.kafka.common.errors.InvalidPartitionsException",
					"The number of partitions for a topic can only be increased. Topic "+topic+" currently has "+strconv.Itoa(old)+" partitions, "+strconv.Itoa(n)+" would not be an increase.")
				return
			}
			var added [][]int32
			if len(asg) > old {
				added = asg[old:]
				if e := placement.ValidateReplicaAssignment(added, old, len(first), ids); e != nil {
					p.tc.fail("org.apache.kafka.common.errors."+e.Class, e.Message)
					return
				}
			} else {
				added, _ = placement.NewPartitions(ids, racks, first, old, n-old)
			}
			for i, rs := range added {
				znode.Partitions[int32(old+i)] = slices.Clone(rs)
			}
			p.getData(env, path, func(env *sim.Env, _ []byte, _ bool) {
				p.one(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: kafkazk.EncodeTopic(znode), Version: -1}, func(env *sim.Env, r kafkazk.Resp) {
					if r.Rc != zookeeper.OK {
						p.keeperFail(r.Rc, path)
						return
					}
					p.tc.t.println("Adding partitions succeeded!")
					k(env)
				})
			})
		})
	})
}
