package broker

import (
	"slices"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// eligible: a broker may join an ISR only while it is registered, unfenced
// and not shutting down (KRaft's ISR eligibility, KIP-841). A
// ZooKeeper-era leader (2.8) checks only that the follower caught up.
func (b *Broker) eligible(id int32) bool {
	if b.zk != nil {
		return true
	}
	r, ok := b.image.Brokers[id]
	return ok && !r.Fenced && !r.InControlledShutdown
}

// maybeExpandISR adds a follower that has caught up: its LEO has reached the
// HW and the start of the leader's current epoch.
func (p *Partition) maybeExpandISR(env *sim.Env, id int32) {
	st := p.followers.get(id)
	if p.pendingISR != nil || slices.Contains(p.isr, id) || st == nil {
		return
	}
	if st.logEndOffset < p.log.HighWatermark() || st.logEndOffset < p.leaderEpochStartOffset || !p.b.eligible(id) {
		return
	}
	// The follower's registration must be the one that fetched (KIP-903,
	// 3.5); a ZooKeeper-era fetch carries no broker epoch.
	if reg := p.b.image.Brokers[id]; p.b.zk == nil && (reg == nil || (st.brokerEpoch >= 0 && reg.Epoch != st.brokerEpoch)) {
		return
	}
	newISR := append(slices.Clone(p.isr), id)
	env.Note(event.ISRExpandRequested{Broker: p.b.cfg.NodeID, TP: p.tp, From: slices.Clone(p.isr), To: slices.Clone(newISR), Replica: id})
	p.alterISR(env, newISR)
}

// isrExpirationTask runs every replica.lag.time.max.ms / 2: each leader
// drops followers that have not caught up within replica.lag.time.max.ms.
func (b *Broker) isrExpirationTask(env *sim.Env) {
	if b.state == StateStopped {
		return
	}
	for _, p := range b.Partitions() {
		p.maybeShrinkISR(env)
	}
	env.After(b.ms("replica.lag.time.max.ms")/2, "isr-expiration", b.isrExpirationTask)
}

func (p *Partition) maybeShrinkISR(env *sim.Env) {
	if !p.isLeader || p.pendingISR != nil {
		return
	}
	var out []int32
	for _, id := range p.isr {
		if id == p.b.cfg.NodeID {
			continue
		}
		st := p.followers.get(id)
		if st == nil || !p.isCaughtUp(env, st) {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return
	}
	newISR := slices.DeleteFunc(slices.Clone(p.isr), func(id int32) bool { return slices.Contains(out, id) })
	env.Note(event.ISRShrinkRequested{Broker: p.b.cfg.NodeID, TP: p.tp, From: slices.Clone(p.isr), To: slices.Clone(newISR), Replicas: out})
	p.alterISR(env, newISR)
}

// alterISR proposes newISR to the controller. Until the answer, the
// maximal ISR includes an added replica (but still includes a removed one).
func (p *Partition) alterISR(env *sim.Env, newISR []int32) {
	b := p.b
	p.pendingISR = newISR
	if b.zk != nil {
		if config.AlterIsrSupported(b.conf().Broker("inter.broker.protocol.version")) {
			p.alterIsrZk(env, newISR)
		} else {
			p.writeIsrToZk(env, newISR)
		}
		return
	}
	epoch, pepoch := p.leaderEpoch, p.partitionEpoch
	req := &protocol.AlterPartitionRequest{
		BrokerID: b.cfg.NodeID, BrokerEpoch: b.brokerEpoch,
		Topics: []protocol.AlterPartitionTopic{{TopicID: p.topicID, Partitions: []protocol.AlterPartitionPartition{{
			PartitionIndex: p.tp.Partition, LeaderEpoch: epoch, NewISR: slices.Clone(newISR), PartitionEpoch: pepoch,
		}}}},
	}
	b.sendToController(env, req, neverGiveUp, func(env *sim.Env, resp protocol.Response, err error) {
		r, _ := resp.(*protocol.AlterPartitionResponse)
		if err != nil || r.ErrorCode != protocol.NONE || len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 || r.Topics[0].Partitions[0].ErrorCode != protocol.NONE {
			p.isrAnswered(env, epoch, false, nil, 0)
			return
		}
		pr := r.Topics[0].Partitions[0]
		p.isrAnswered(env, epoch, true, pr.ISR, pr.PartitionEpoch)
	})
}

// isrAnswered takes the controller's answer to an ISR change proposed in
// leader epoch epoch: ignored if the replica no longer leads that epoch; a
// failure drops the proposal (the next check proposes again); a success
// takes the committed ISR if its version (partition epoch, or the state
// znode's version in the ZooKeeper era) is newer than the one known.
func (p *Partition) isrAnswered(env *sim.Env, epoch int32, ok bool, isr []int32, version int32) {
	if !p.leadsEpoch(epoch) {
		return
	}
	// The answer counts only if the proposal is still pending: the
	// metadata log may have brought the committed change first, which
	// replaces the partition's state (apply), and Kafka then ignores the
	// answer ("Ignoring failed ISR update ... since we have already
	// updated state", Partition.submitAlterPartition) and marks nothing.
	pending := p.pendingISR != nil
	shrink := len(p.pendingISR) < len(p.isr)
	p.pendingISR = nil
	m := p.b.meters(env)
	if !ok {
		if pending { // Partition.handleAlterPartitionError
			m.failedIsrUpdates.Mark(env.Now(), 1)
		}
		return
	}
	stale := version < p.partitionEpoch
	if version > p.partitionEpoch {
		p.isr = slices.Clone(isr)
		p.partitionEpoch = version
	}
	// A committed change counts by its kind, even when the controller
	// found the ISR already so (the same partition epoch): the pending
	// PendingShrinkIsr or PendingExpandIsr notifies the listener
	// (handleAlterPartitionUpdate). An answer older than what the
	// replica knows is a failed update.
	switch {
	case !pending:
	case stale:
		m.failedIsrUpdates.Mark(env.Now(), 1)
	case shrink:
		m.isrShrinks.Mark(env.Now(), 1)
	default:
		m.isrExpands.Mark(env.Now(), 1)
	}
	p.afterISRChange(env)
}

// alterIsrZk proposes newISR to the ZooKeeper-era controller (AlterIsr,
// KIP-497, IBP 2.7-IV2 and later: 2.8's default), quoting the leader
// epoch and the state znode's version it knows; the answer carries the
// version written. Kafka's AlterIsrManager batches every pending change
// into one request at a time; here each partition's goes on its own.
func (p *Partition) alterIsrZk(env *sim.Env, newISR []int32) {
	b := p.b
	epoch, version := p.leaderEpoch, p.partitionEpoch
	req := &protocol.AlterIsrRequest{
		BrokerID: b.cfg.NodeID, BrokerEpoch: b.brokerEpoch,
		Topics: []protocol.AlterIsrTopic{{Name: p.tp.Topic, Partitions: []protocol.AlterIsrPartition{{
			PartitionIndex: p.tp.Partition, LeaderEpoch: epoch, NewISR: slices.Clone(newISR), CurrentIsrVersion: version,
		}}}},
	}
	b.sendToController(env, req, neverGiveUp, func(env *sim.Env, resp protocol.Response, err error) {
		r, _ := resp.(*protocol.AlterIsrResponse)
		if err != nil || r.ErrorCode != protocol.NONE || len(r.Topics) != 1 || len(r.Topics[0].Partitions) != 1 || r.Topics[0].Partitions[0].ErrorCode != protocol.NONE {
			p.isrAnswered(env, epoch, false, nil, 0)
			return
		}
		pr := r.Topics[0].Partitions[0]
		p.isrAnswered(env, epoch, true, pr.ISR, pr.CurrentIsrVersion)
	})
}

// leadsEpoch: this replica is still the broker's and leads in epoch.
func (p *Partition) leadsEpoch(epoch int32) bool {
	return p.b.partitions[p.tp] == p && p.isLeader && p.leaderEpoch == epoch
}
