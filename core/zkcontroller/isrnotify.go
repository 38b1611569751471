package zkcontroller

import (
	"slices"

	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// isrChangeNotification is the IsrChangeNotification event
// (processIsrChangeNotification, 2.8.0): leaders of a cluster below
// inter.broker.protocol.version 2.7-IV2 wrote ISRs themselves and said so
// under /isr_change_notification. Read the notifications (re-arming the
// watch), re-read those partitions' state znodes into the cache, tell
// every broker (UpdateMetadata) and delete the notifications.
func (c *Controller) isrChangeNotification(env *sim.Env, done func(*sim.Env)) {
	if !c.active {
		done(env)
		return
	}
	zk := c.cfg.ZK
	path := kafkazk.IsrChangeNotificationPath
	zk.One(env, kafkazk.Req{Type: opGetChildren, Path: path, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		children := slices.Clone(r.Children)
		slices.Sort(children)
		reads := make([]kafkazk.Req, len(children))
		for i, ch := range children {
			reads[i] = kafkazk.Req{Type: opGetData, Path: path + "/" + ch}
		}
		zk.Do(env, reads, func(env *sim.Env, resps []kafkazk.Resp) {
			if c.ctx == nil {
				done(env)
				return
			}
			seen := map[storage.TopicPartition]bool{}
			var tps []storage.TopicPartition
			for _, rr := range resps {
				if rr.Rc != zookeeper.OK {
					continue
				}
				ps, err := kafkazk.DecodeIsrChangeNotification(rr.Data)
				if err != nil {
					continue
				}
				for _, p := range ps {
					tp := storage.TopicPartition{Topic: p.Topic, Partition: p.Partition}
					if _, ok := c.ctx.topics[tp.Topic]; ok && !seen[tp] {
						seen[tp] = true
						tps = append(tps, tp)
					}
				}
			}
			slices.SortFunc(tps, storage.ComparePartitions)
			c.readStates(env, tps, func(env *sim.Env, states map[storage.TopicPartition]*leaderIsr) {
				if c.ctx == nil {
					done(env)
					return
				}
				for tp, li := range states {
					c.ctx.states[tp] = li
				}
				b := newBatch()
				c.addUpdateMetadata(b, c.ctx.liveIDs(), tps)
				c.sendBatch(env, b)
				dels := make([]kafkazk.Req, len(children))
				for i, ch := range children {
					dels[i] = c.guarded(zookeeper.DeleteOp(path+"/"+ch, -1))
				}
				// Leaders that write ISRs themselves (a cluster below
				// 2.7-IV2, or in the middle of moving to it) complete
				// reassignments through here too.
				c.maybeCompleteReassignments(env, tps, func(env *sim.Env) {
					if c.ctx == nil {
						done(env)
						return
					}
					zk.Do(env, dels, func(env *sim.Env, rs []kafkazk.Resp) {
						if anyMoved(rs) {
							c.maybeResign(env, done)
							return
						}
						done(env)
					})
				})
			})
		})
	})
}
