package zkcontroller

import (
	"slices"

	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// partitionModifications is the PartitionModifications event of a
// topic's znode changing (processPartitionModifications, 2.8.0): read
// the assignment again (re-arming the data watch); partitions the context
// does not have yet are new (a CreatePartitions wrote them) and are
// created as a new topic's are (onNewPartitionCreation). A topic queued
// for deletion gets none; Kafka also writes its old assignment back
// (restorePartitionReplicaAssignment), which is not done here.
func (c *Controller) partitionModifications(topic string) func(env *sim.Env, done func(*sim.Env)) {
	return func(env *sim.Env, done func(*sim.Env)) {
		if !c.active || c.ctx == nil {
			done(env)
			return
		}
		c.cfg.ZK.One(env, kafkazk.Req{Type: opGetData, Path: kafkazk.TopicPath(topic)}, func(env *sim.Env, r kafkazk.Resp) {
			t := c.ctxTopic(topic)
			if t == nil || r.Rc != zookeeper.OK {
				done(env)
				return
			}
			data, err := kafkazk.DecodeTopic(r.Data)
			if err != nil || c.ctx.del.queued[topic] {
				done(env)
				return
			}
			var tps []storage.TopicPartition
			for p := int32(len(t.assignment)); ; p++ {
				rs, ok := data.Partitions[p]
				if !ok {
					break
				}
				t.assignment = append(t.assignment, slices.Clone(rs))
				tp := storage.TopicPartition{Topic: topic, Partition: p}
				c.ctx.pstate[tp] = newPartition
				tps = append(tps, tp)
			}
			t.dataVersion = r.Stat.Version
			if len(tps) == 0 {
				done(env)
				return
			}
			c.toOnline(env, tps, offlineElection, c.abortIfMoved(done))
		})
	}
}

// ctxTopic is the context's topic (nil without a context or topic).
func (c *Controller) ctxTopic(name string) *topicInfo {
	if c.ctx == nil {
		return nil
	}
	return c.ctx.topics[name]
}
