package zkcontroller

import (
	"slices"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// topicChange is the TopicChange event (processTopicChange): read
// /brokers/topics again (re-arming its watch); a new topic's znode is
// read (its assignment, its id, which the controller adds if the znode
// has none) and its partitions created (onNewPartitionCreation).
func (c *Controller) topicChange(env *sim.Env, done func(*sim.Env)) {
	if !c.active {
		done(env)
		return
	}
	zk := c.cfg.ZK
	zk.One(env, kafkazk.Req{Type: opGetChildren, Path: kafkazk.TopicsPath, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		if c.ctx == nil {
			done(env)
			return
		}
		var added []string
		for _, name := range r.Children {
			if _, ok := c.ctx.topics[name]; !ok {
				added = append(added, name)
			}
		}
		for _, name := range c.ctx.topicNames() {
			if !slices.Contains(r.Children, name) {
				c.removeTopic(name)
			}
		}
		slices.Sort(added)
		c.readTopics(env, added, func(env *sim.Env, read []string) {
			var tps []storage.TopicPartition
			for _, name := range read {
				t := c.ctx.topics[name]
				rf := 0
				if len(t.assignment) > 0 {
					rf = len(t.assignment[0])
				}
				env.Note(event.TopicCreated{Topic: name, Partitions: int32(len(t.assignment)), ReplicationFactor: int16(rf)})
				for p := range t.assignment {
					tp := storage.TopicPartition{Topic: name, Partition: int32(p)}
					c.ctx.pstate[tp] = newPartition
					tps = append(tps, tp)
				}
			}
			c.toOnline(env, tps, offlineElection, c.abortIfMoved(done))
		})
	})
}

// removeTopic forgets a topic whose znode is gone.
func (c *Controller) removeTopic(name string) {
	t := c.ctx.topics[name]
	for p := range t.assignment {
		tp := storage.TopicPartition{Topic: name, Partition: int32(p)}
		delete(c.ctx.states, tp)
		delete(c.ctx.pstate, tp)
	}
	delete(c.ctx.topics, name)
	c.cfg.ZK.UnregisterNodeHandler(kafkazk.TopicPath(name))
}
