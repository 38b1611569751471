package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/placement"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// create is ZookeeperTopicService.createTopic (TopicCommand.scala:384-395,
// tag 2.8.0) with AdminZkClient.createTopic / createTopicWithAssignment
// (AdminZkClient.scala:52-114): read the options (CommandTopicPartition),
// warn about collision characters, place the replicas on the registered
// brokers unless --replica-assignment gives them, validate, then write
// /config/topics/T and /brokers/topics/T. The topic znode has no topic_id
// (usesTopicId defaults to false): the controller adds one when it sees
// the topic (KafkaController.processTopicIds), so the znode is written
// twice.
func (p *zkTopicsProc) create(env *sim.Env) {
	tc, o := p.tc, p.tc.p
	name := o.Value("topic")
	partitions, rf := int64(-1), int64(-1)
	for _, opt := range []struct {
		name string
		into *int64
	}{{"partitions", &partitions}, {"replication-factor", &rf}} {
		if !o.Has(opt.name) {
			continue
		}
		n, err := o.Int(opt.name, 32)
		if err != nil {
			tc.fail(err.(*javacli.OptionError).Class, err.Error())
			return
		}
		*opt.into = n
	}
	assignment, ok := tc.replicaAssignment(env)
	if !ok {
		return
	}
	configs, ok := tc.parseTopicConfigs()
	if !ok {
		return
	}
	if metadata.HasCollisionChars(name) {
		tc.t.println("WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.")
	}
	entries := make([]kafkazk.ConfigEntry, len(configs))
	for i, c := range configs {
		entries[i] = kafkazk.ConfigEntry{Name: strings.TrimSpace(c.Name), Value: strings.TrimSpace(*c.Value)}
	}
	write := func(env *sim.Env, assignment [][]int32) {
		p.validateTopicCreate(env, name, func(env *sim.Env) { p.writeTopic(env, name, entries, assignment) })
	}
	if assignment != nil {
		write(env, assignment)
		return
	}
	if partitions < 0 || rf < 0 {
		// --replica-assignment "" passes checkArgs but gives no
		// assignment: topic.partitions.get.
		tc.fail("java.util.NoSuchElementException", "None.get")
		return
	}
	p.liveBrokers(env, func(env *sim.Env, brokers []kafkazk.BrokerInfo) {
		asg, ok := p.assignReplicas(env, brokers, int(partitions), int(rf))
		if ok {
			write(env, asg)
		}
	})
}

// assignReplicas is AdminZkClient.getBrokerMetadatas (rack-aware mode
// Enforced, TopicCommand's default, or Disabled) and AdminUtils.assignReplicasToBrokers
// (AdminUtils.scala:103-146): its checks, then the placement, rack-aware
// when every broker has a broker.rack, from a random start index and
// shift drawn from the tool's stream of the run's seeded randomness.
func (p *zkTopicsProc) assignReplicas(env *sim.Env, brokers []kafkazk.BrokerInfo, partitions, rf int) ([][]int32, bool) {
	ids, racks := p.brokerRacks(brokers)
	if racks == nil {
		return nil, false
	}
	switch {
	case partitions <= 0:
		p.tc.fail("org.apache.kafka.common.errors.InvalidPartitionsException", "Number of partitions must be larger than 0.")
		return nil, false
	case rf <= 0:
		p.tc.fail("org.apache.kafka.common.errors.InvalidReplicationFactorException", "Replication factor must be larger than 0.")
		return nil, false
	case rf > len(brokers):
		p.tc.fail("org.apache.kafka.common.errors.InvalidReplicationFactorException", fmt.Sprintf("Replication factor: %d larger than available brokers: %d.", rf, len(brokers)))
		return nil, false
	}
	rnd := env.Rand("kafka-topics/assign-replicas")
	start := rnd.Intn(len(ids))
	shift := rnd.Intn(len(ids))
	out, _ := placement.AdminUtils(ids, racks, partitions, rf, start, shift, 0)
	return out, true
}

// brokerRacks is getBrokerMetadatas: the brokers' ids and racks (none with
// --disable-rack-aware, RackAwareMode.Disabled). Only some brokers with a
// rack fail the tool (RackAwareMode.Enforced), and racks is nil.
func (p *zkTopicsProc) brokerRacks(brokers []kafkazk.BrokerInfo) (ids []int32, racks []string) {
	with := 0
	ids, racks = make([]int32, len(brokers)), make([]string, len(brokers))
	for i, b := range brokers {
		ids[i] = b.ID
		if b.Rack != "" && !p.tc.p.Has("disable-rack-aware") {
			racks[i] = b.Rack
			with++
		}
	}
	if with > 0 && with < len(brokers) {
		p.tc.fail("kafka.admin.AdminOperationException", "Not all brokers have rack information. Add --disable-rack-aware in command line to make replica assignment without rack information.")
		return ids, nil
	}
	return ids, racks
}

// validateTopicCreate is AdminZkClient.validateTopicCreate's checks that
// can fail here (parseReplicaAssignment has refused uneven and duplicate
// replica lists, parseTopicConfigs the configs): the name, an existing
// topic, and for a name with '.' or '_' one it would collide with.
func (p *zkTopicsProc) validateTopicCreate(env *sim.Env, name string, k func(env *sim.Env)) {
	if msg := zkTopicNameProblem(name); msg != "" {
		p.tc.fail("org.apache.kafka.common.errors.InvalidTopicException", msg)
		return
	}
	exists := func() { p.topicExists(name) }
	p.pathExists(env, kafkazk.TopicPath(name), func(env *sim.Env, found bool) {
		switch {
		case found:
			exists()
			return
		case !metadata.HasCollisionChars(name):
			k(env)
			return
		}
		p.getChildren(env, kafkazk.TopicsPath, func(env *sim.Env, all []string) {
			if slices.Contains(all, name) {
				exists()
				return
			}
			var colliding []string
			for _, t := range all {
				if metadata.UnifyCollisionChars(t) == metadata.UnifyCollisionChars(name) {
					colliding = append(colliding, t)
				}
			}
			if len(colliding) > 0 {
				p.tc.fail("org.apache.kafka.common.errors.InvalidTopicException", fmt.Sprintf("Topic '%s' collides with existing topics: %s", name, strings.Join(colliding, ", ")))
				return
			}
			k(env)
		})
	})
}

// topicExists is the TopicExistsException createTopic catches: quiet with
// --if-not-exists, an error otherwise.
func (p *zkTopicsProc) topicExists(name string) {
	if p.tc.p.Has("if-not-exists") {
		p.tc.finish(0)
		return
	}
	p.tc.fail("org.apache.kafka.common.errors.TopicExistsException", fmt.Sprintf("Topic '%s' already exists.", name))
}

// zkTopicNameProblem is 2.8's Topic.validate message for an illegal name
// ("" if legal): clients/src/main/java/org/apache/kafka/common/internals/
// Topic.java, tag 2.8.0 (later releases word these differently).
func zkTopicNameProblem(name string) string {
	switch {
	case name == "":
		return "Topic name is illegal, it can't be empty"
	case name == "." || name == "..":
		return `Topic name cannot be "." or ".."`
	case jdk.StringLength(name) > metadata.MaxTopicNameLength:
		return fmt.Sprintf("Topic name is illegal, it can't be longer than %d characters, topic name: %s", metadata.MaxTopicNameLength, name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == '-') {
			return fmt.Sprintf(`Topic name "%s" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`, name)
		}
	}
	return ""
}

// writeTopic is createTopicWithAssignment's writes: setOrCreateEntityConfigs
// (KafkaZkClient.scala:356-379: set /config/topics/T, create it when it is
// missing, set it after all if it appeared meanwhile), then
// createTopicAssignment (the topic znode, created; NODEEXISTS is
// TopicExistsException), then "Created topic T." (TopicCommand.scala:391).
// --if-not-exists makes an existing topic a quiet success.
func (p *zkTopicsProc) writeTopic(env *sim.Env, name string, entries []kafkazk.ConfigEntry, assignment [][]int32) {
	cfgPath := kafkazk.ConfigEntityPath(kafkazk.ConfigTypeTopic, name)
	cfgData := kafkazk.EncodeEntityConfigEntries(entries)
	set := kafkazk.Req{Type: zookeeper.OpSetData, Path: cfgPath, Data: cfgData, Version: -1}
	parts := make(map[int32][]int32, len(assignment))
	for i, rs := range assignment {
		parts[int32(i)] = rs
	}
	topicZNode := func(env *sim.Env) {
		p.createRecursive(env, kafkazk.TopicPath(name), kafkazk.EncodeTopic(kafkazk.TopicZNodeData{Partitions: parts}), func(env *sim.Env, rc zookeeper.Code) {
			switch {
			case rc == zookeeper.OK:
				p.tc.t.println("Created topic " + name + ".")
				p.tc.finish(0)
			default:
				p.topicExists(name)
			}
		})
	}
	p.one(env, set, func(env *sim.Env, r kafkazk.Resp) {
		switch r.Rc {
		case zookeeper.OK:
			topicZNode(env)
		case zookeeper.NoNode:
			p.createRecursive(env, cfgPath, cfgData, func(env *sim.Env, rc zookeeper.Code) {
				if rc == zookeeper.OK {
					topicZNode(env)
					return
				}
				p.one(env, set, func(env *sim.Env, r kafkazk.Resp) {
					if r.Rc != zookeeper.OK {
						p.keeperFail(r.Rc, cfgPath)
						return
					}
					topicZNode(env)
				})
			})
		default:
			p.keeperFail(r.Rc, cfgPath)
		}
	})
}
