package zkcontroller

import (
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// stateWrite is one partition's new state and the state znode version it
// must replace.
type stateWrite struct {
	tp       storage.TopicPartition
	next     *leaderIsr
	expected int32
}

// updateLeaderAndIsr is KafkaZkClient.updateLeaderAndIsr: one guarded
// multi per partition (check /controller_epoch's version, then setData
// the state znode conditionally on expected), sent together and answered
// together. On OK the new state takes the written version. done gets each
// write's code (BADVERSION: the znode changed meanwhile, and the caller
// retries), or moved when another controller has bumped the epoch.
func (c *Controller) updateLeaderAndIsr(env *sim.Env, writes []stateWrite, done func(env *sim.Env, moved bool, codes []zookeeper.Code)) {
	reqs := make([]kafkazk.Req, len(writes))
	for i, w := range writes {
		reqs[i] = c.guarded(zookeeper.SetDataOp(kafkazk.TopicPartitionStatePath(w.tp.Topic, w.tp.Partition), kafkazk.EncodePartitionState(w.next.state()), w.expected))
	}
	c.cfg.ZK.Do(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		if anyMoved(resps) {
			done(env, true, nil)
			return
		}
		codes := make([]zookeeper.Code, len(resps))
		for i, r := range resps {
			codes[i] = r.Rc
			if r.Rc == zookeeper.OK {
				writes[i].next.zkVersion = r.Results[1].Stat.Version
			}
		}
		done(env, false, codes)
	})
}
