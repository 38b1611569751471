package console

import (
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
