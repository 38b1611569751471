package broker

import (
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Before AlterIsr (inter.broker.protocol.version below 2.7-IV2; 2.8's
// ZkIsrManager), a leader writes its partition's new ISR to the state
// znode itself, conditionally on the version it knows and without the
// controller-epoch check (ReplicationUtils.updateLeaderAndIsr), keeping
// the epoch of the controller that made it leader. The controller learns
// of it through /isr_change_notification: every 2.5 s the broker writes
// one sequential znode naming every partition it changed, once no change
// came for 5 s or 60 s passed since the last one
// (maybePropagateIsrChanges). Kafka runs that task every 2.5 s from
// startup; here it is armed by the first change and runs while changes
// wait, so its ticks start from that change.

// Propagation timing (ZkIsrManager at tag 2.8.0).
const (
	isrChangePropagationInterval = 2500 * time.Millisecond
	isrChangePropagationBlackout = 5000 * time.Millisecond
	isrChangeMaxPropagationDelay = 60000 * time.Millisecond
)

// writeIsrToZk writes newISR to the state znode; on success it is the
// ISR, and the change waits to be announced. A version that moved means
// the write lost (the controller or an earlier write changed the znode):
// the leader keeps its ISR and tries again at the next check.
func (p *Partition) writeIsrToZk(env *sim.Env, newISR []int32) {
	b := p.b
	z, ok := b.zk.parts[p.tp]
	if !ok {
		p.pendingISR = nil
		return
	}
	epoch, version := p.leaderEpoch, p.partitionEpoch
	data := kafkazk.EncodePartitionState(kafkazk.PartitionState{Leader: b.cfg.NodeID, LeaderEpoch: epoch, ISR: slices.Clone(newISR), ControllerEpoch: z.controllerEpoch})
	path := kafkazk.TopicPartitionStatePath(p.tp.Topic, p.tp.Partition)
	b.zk.client.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: data, Version: version}, func(env *sim.Env, r kafkazk.Resp) {
		// A failed write is "Cached zkVersion … not equal to that in
		// zookeeper, skip updating ISR".
		ok := r.Rc == zookeeper.OK
		if ok && p.leadsEpoch(epoch) {
			env.Note(event.ISRChanged{TP: p.tp, ISR: slices.Clone(newISR), Leader: b.cfg.NodeID})
			b.recordIsrChange(env, p.tp)
		}
		p.isrAnswered(env, epoch, ok, newISR, r.Stat.Version)
	})
}

// recordIsrChange notes a partition to announce, and arms the
// propagation task.
func (b *Broker) recordIsrChange(env *sim.Env, tp storage.TopicPartition) {
	if b.zk.isrChanges == nil {
		b.zk.isrChanges = map[storage.TopicPartition]bool{}
	}
	b.zk.isrChanges[tp] = true
	b.zk.lastIsrChange = env.Now()
	if !b.zk.isrPropagationArmed {
		b.zk.isrPropagationArmed = true
		env.After(isrChangePropagationInterval, "isr-change-propagation", b.maybePropagateIsrChanges)
	}
}

// maybePropagateIsrChanges writes one notification for every partition
// changed, when the changes have settled or waited too long.
func (b *Broker) maybePropagateIsrChanges(env *sim.Env) {
	if b.state == StateStopped {
		return
	}
	now := env.Now()
	if len(b.zk.isrChanges) == 0 {
		b.zk.isrPropagationArmed = false
		return
	}
	if now.Sub(b.zk.lastIsrChange) > isrChangePropagationBlackout || now.Sub(b.zk.lastIsrPropagation) > isrChangeMaxPropagationDelay {
		var tps []kafkazk.TopicPartition
		for tp := range b.zk.isrChanges {
			tps = append(tps, kafkazk.TopicPartition{Topic: tp.Topic, Partition: tp.Partition})
		}
		slices.SortFunc(tps, func(x, y kafkazk.TopicPartition) int {
			return storage.ComparePartitions(storage.TopicPartition{Topic: x.Topic, Partition: x.Partition}, storage.TopicPartition{Topic: y.Topic, Partition: y.Partition})
		})
		b.zk.isrChanges = nil
		b.zk.lastIsrPropagation = now
		b.zk.client.One(env, kafkazk.Req{Type: zookeeper.OpCreate, Path: kafkazk.IsrChangeCreatePath(), Data: kafkazk.EncodeIsrChangeNotification(tps), Mode: zookeeper.PersistentSequential}, func(*sim.Env, kafkazk.Resp) {})
		b.zk.isrPropagationArmed = false
		return
	}
	env.After(isrChangePropagationInterval, "isr-change-propagation", b.maybePropagateIsrChanges)
}
