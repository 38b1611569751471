package console

import (
	"kafkascope/core/javacli"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// delete is ZookeeperTopicService.deleteTopic (TopicCommand.scala:498-519,
// tag 2.8.0): each matching topic is marked for deletion by creating
// /admin/delete_topics/T (KafkaZkClient.createDeleteTopicPath, no data);
// deleting it is the controller's work (TopicDeletionManager), when the
// brokers run with delete.topic.enable, as the note printed says. An
// internal topic stops the tool; a topic already marked is only said so.
func (p *zkTopicsProc) delete(env *sim.Env) {
	p.getTopics(env, func(env *sim.Env, topics []string) {
		if !p.ensureTopicExists(topics) {
			return
		}
		var next func(env *sim.Env, i int)
		next = func(env *sim.Env, i int) {
			if i == len(topics) {
				p.tc.finish(0)
				return
			}
			topic := topics[i]
			if zkTopicsInternal(topic) {
				p.tc.fail("kafka.admin.AdminOperationException", "Topic "+topic+" is a kafka internal topic and is not allowed to be marked for deletion.")
				return
			}
			p.createRecursive(env, kafkazk.DeleteTopicPath(topic), nil, func(env *sim.Env, rc zookeeper.Code) {
				if rc == zookeeper.NodeExists {
					p.tc.t.println("Topic " + topic + " is already marked for deletion.")
				} else {
					p.tc.t.println("Topic " + topic + " is marked for deletion.")
					p.tc.t.println("Note: This will have no impact if delete.topic.enable is not set to true.")
				}
				next(env, i+1)
			})
		}
		next(env, 0)
	})
}

// alter is ZookeeperTopicService.alterTopic (TopicCommand.scala:407-443)
// as far as kafkascope follows it: the topics, the options read
// (CommandTopicPartition) and ensureTopicExists. Its writes, new config
// overrides (/config/topics/T and a /config/changes notification) and new
// partitions (/brokers/topics/T rewritten), are not made by the tool yet,
// though the brokers and the controller act on them
// (broker/zkconfigs.go, zkcontroller/modifications.go): the tool points
// to --bootstrap-server and kafka-configs.sh, which make the same writes
// through a broker.
func (p *zkTopicsProc) alter(env *sim.Env) {
	p.getTopics(env, func(env *sim.Env, topics []string) {
		o := p.tc.p
		if o.Has("partitions") {
			if _, err := o.Int("partitions", 32); err != nil {
				p.tc.fail(err.(*javacli.OptionError).Class, err.Error())
				return
			}
		}
		if _, ok := p.tc.replicaAssignment(env); !ok {
			return
		}
		if _, ok := p.tc.parseTopicConfigs(); !ok {
			return
		}
		if !p.ensureTopicExists(topics) {
			return
		}
		if len(topics) == 0 || !o.Has("partitions") && !o.Has("config") && !o.Has("delete-config") {
			p.tc.finish(0)
			return
		}
		p.tc.t.println("kafkascope: kafka-topics.sh --zookeeper --alter (config overrides, more partitions) is not simulated on Kafka 2.8 yet: use --bootstrap-server for more partitions and kafka-configs.sh for configs, which make the same ZooKeeper writes through a broker")
		p.tc.finish(1)
	})
}
