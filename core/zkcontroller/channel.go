package zkcontroller

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// channel is ControllerChannelManager: a queue per broker, drained by one
// RequestSendThread each, one request in flight per broker. A request
// that fails to reach its broker is sent again after 100 ms until the
// broker is removed (its znode went away).
type channel struct {
	c       *Controller
	brokers map[int32]*brokerQueue
}

type brokerQueue struct {
	id       int32
	addr     sim.Addr
	queue    []queuedRequest
	inFlight bool
	removed  bool
}

// queuedRequest is a request and what to do with its answer (nil: nothing).
type queuedRequest struct {
	req  protocol.Request
	then func(env *sim.Env, resp protocol.Response)
}

// controllerSocketTimeout is controller.socket.timeout.ms (30000, 2.8);
// retryBackoff is RequestSendThread's wait before trying again.
const (
	controllerSocketTimeout = 30 * time.Second
	retryBackoff            = 100 * time.Millisecond
)

func newChannel(c *Controller) *channel {
	return &channel{c: c, brokers: map[int32]*brokerQueue{}}
}

func (ch *channel) addBroker(id int32, addr sim.Addr) {
	if _, ok := ch.brokers[id]; !ok {
		ch.brokers[id] = &brokerQueue{id: id, addr: addr}
	}
}

func (ch *channel) removeBroker(id int32) {
	if q, ok := ch.brokers[id]; ok {
		q.removed = true
		delete(ch.brokers, id)
	}
}

func (ch *channel) stop() {
	for id := range ch.brokers {
		ch.removeBroker(id)
	}
}

// send queues req for broker id (dropped if the channel has no such
// broker: sendRequest logs "Not sending request … to broker …, since it
// is offline").
func (ch *channel) send(env *sim.Env, id int32, req protocol.Request) {
	ch.sendThen(env, id, req, nil)
}

// sendThen queues req and calls then with the broker's answer.
func (ch *channel) sendThen(env *sim.Env, id int32, req protocol.Request, then func(env *sim.Env, resp protocol.Response)) {
	q, ok := ch.brokers[id]
	if !ok {
		return
	}
	q.queue = append(q.queue, queuedRequest{req, then})
	ch.drain(env, q)
}

func (ch *channel) drain(env *sim.Env, q *brokerQueue) {
	if q.inFlight || len(q.queue) == 0 || q.removed {
		return
	}
	q.inFlight = true
	qr := q.queue[0]
	ch.c.net.Send(env, q.addr, qr.req, controllerSocketTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		q.inFlight = false
		if q.removed {
			return
		}
		if err != nil {
			env.After(retryBackoff, "controller-send-retry", func(env *sim.Env) { ch.drain(env, q) })
			return
		}
		q.queue = q.queue[1:]
		if qr.then != nil {
			qr.then(env, resp)
		}
		ch.drain(env, q)
	})
}

// batch is ControllerBrokerRequestBatch: what one state change tells the
// brokers, sent as at most one LeaderAndIsr, one UpdateMetadata and one
// StopReplica per broker, in that order.
type batch struct {
	leaderAndIsr    map[int32]map[storage.TopicPartition]protocol.LeaderAndIsrPartitionState
	updateBrokers   map[int32]bool
	updateParts     map[storage.TopicPartition]bool
	updateAll       bool                                      // every partition with leadership info (a new broker's first UpdateMetadata)
	deleting        bool                                      // the partitions are being deleted: leader -2 (LeaderDuringDelete)
	stopReplica     map[int32]map[storage.TopicPartition]bool // → deletePartition
	stopLeaderEpoch map[storage.TopicPartition]int32
	elected         map[storage.TopicPartition]int32 // the partitions an election of the batch gave a leader
}

func newBatch() *batch {
	return &batch{
		leaderAndIsr:  map[int32]map[storage.TopicPartition]protocol.LeaderAndIsrPartitionState{},
		updateBrokers: map[int32]bool{}, updateParts: map[storage.TopicPartition]bool{},
		stopReplica: map[int32]map[storage.TopicPartition]bool{}, stopLeaderEpoch: map[storage.TopicPartition]int32{},
		elected: map[storage.TopicPartition]int32{},
	}
}

// addLeaderAndIsr tells brokers the partition's state with its full
// assignment (the replicas being added and removed too), and every live
// or shutting-down broker its metadata (addLeaderAndIsrRequestForBrokers).
func (c *Controller) addLeaderAndIsr(b *batch, brokers []int32, tp storage.TopicPartition, li *leaderIsr, isNew bool) {
	for _, id := range brokers {
		if id < 0 {
			continue
		}
		if b.leaderAndIsr[id] == nil {
			b.leaderAndIsr[id] = map[storage.TopicPartition]protocol.LeaderAndIsrPartitionState{}
		}
		full := c.ctx.full(tp)
		st := protocol.LeaderAndIsrPartitionState{
			TopicName: tp.Topic, PartitionIndex: tp.Partition, ControllerEpoch: li.controllerEpoch,
			Leader: li.leader, LeaderEpoch: li.leaderEpoch, ISR: slices.Clone(li.isr), ZkVersion: li.zkVersion,
			Replicas: slices.Clone(full.replicas), AddingReplicas: slices.Clone(full.adding), RemovingReplicas: slices.Clone(full.removing),
			IsNew: isNew,
		}
		if old, ok := b.leaderAndIsr[id][tp]; ok && old.IsNew {
			st.IsNew = true
		}
		b.leaderAndIsr[id][tp] = st
	}
	c.addUpdateMetadata(b, c.ctx.liveIDs(), []storage.TopicPartition{tp})
}

// addUpdateMetadata adds partitions (none: only the live brokers) to the
// UpdateMetadata of brokers.
func (c *Controller) addUpdateMetadata(b *batch, brokers []int32, tps []storage.TopicPartition) {
	for _, id := range brokers {
		b.updateBrokers[id] = true
	}
	for _, tp := range tps {
		b.updateParts[tp] = true
	}
}

// addStopReplica stops the partition's replica on brokers.
func (c *Controller) addStopReplica(b *batch, brokers []int32, tp storage.TopicPartition, deletePartition bool) {
	epoch := int32(-1)
	if li := c.ctx.states[tp]; li != nil {
		epoch = li.leaderEpoch
	}
	for _, id := range brokers {
		if b.stopReplica[id] == nil {
			b.stopReplica[id] = map[storage.TopicPartition]bool{}
		}
		b.stopReplica[id][tp] = b.stopReplica[id][tp] || deletePartition
		b.stopLeaderEpoch[tp] = epoch
	}
}

// sendBatch is sendRequestsToBrokers: LeaderAndIsr, then UpdateMetadata,
// then StopReplica, each only to brokers that are live or shutting down.
func (c *Controller) sendBatch(env *sim.Env, b *batch) {
	hdr := func(id int32) protocol.ControllerHeader {
		return protocol.ControllerHeader{ControllerID: c.cfg.BrokerID, ControllerEpoch: c.epoch, BrokerEpoch: c.ctx.live[id].epoch}
	}
	for _, id := range sortedIDs(b.leaderAndIsr) {
		if !c.ctx.isLiveOrShuttingDown(id) {
			continue
		}
		req := &protocol.LeaderAndIsrRequest{ControllerHeader: hdr(id)}
		leaders := map[int32]bool{}
		parts := b.leaderAndIsr[id]
		keys := sortedTPs(parts)
		for _, tp := range keys {
			st := parts[tp]
			n := len(req.TopicStates)
			if n == 0 || req.TopicStates[n-1].TopicName != tp.Topic {
				req.TopicStates = append(req.TopicStates, protocol.LeaderAndIsrTopicState{TopicName: tp.Topic, TopicID: c.ctx.topics[tp.Topic].id})
				n++
			}
			req.TopicStates[n-1].PartitionStates = append(req.TopicStates[n-1].PartitionStates, st)
			if st.Leader >= 0 {
				leaders[st.Leader] = true
			}
		}
		for _, l := range sortedIDs(leaders) {
			if lb, ok := c.ctx.live[l]; ok && len(lb.info.Endpoints) > 0 {
				req.LiveLeaders = append(req.LiveLeaders, protocol.LeaderAndIsrLiveLeader{BrokerID: l, HostName: lb.info.Endpoints[0].Host, Port: lb.info.Endpoints[0].Port})
			}
		}
		c.channel.send(env, id, req)
	}
	if len(b.updateBrokers) > 0 {
		var parts []storage.TopicPartition
		if b.updateAll {
			parts = c.ctx.allPartitions()
		} else {
			parts = sortedTPs(b.updateParts)
		}
		topics := c.updateMetadataTopics(parts, b.deleting)
		live := c.updateMetadataBrokers()
		for _, id := range sortedIDs(b.updateBrokers) {
			if !c.ctx.isLiveOrShuttingDown(id) {
				continue
			}
			c.channel.send(env, id, &protocol.UpdateMetadataRequest{ControllerHeader: hdr(id), TopicStates: topics, LiveBrokers: live})
		}
	}
	for _, id := range sortedIDs(b.stopReplica) {
		if !c.ctx.isLiveOrShuttingDown(id) {
			continue
		}
		req := &protocol.StopReplicaRequest{ControllerHeader: hdr(id)}
		for _, tp := range sortedTPs(b.stopReplica[id]) {
			n := len(req.TopicStates)
			if n == 0 || req.TopicStates[n-1].TopicName != tp.Topic {
				req.TopicStates = append(req.TopicStates, protocol.StopReplicaTopicState{TopicName: tp.Topic})
				n++
			}
			req.TopicStates[n-1].PartitionStates = append(req.TopicStates[n-1].PartitionStates, protocol.StopReplicaPartitionState{
				PartitionIndex: tp.Partition, LeaderEpoch: b.stopLeaderEpoch[tp], DeletePartition: b.stopReplica[id][tp],
			})
		}
		c.channel.send(env, id, req)
	}
}

// updateMetadataTopics is the partitions' states for UpdateMetadata: only
// those with leadership info; replicas on brokers that are not live (or
// are shutting down) are offline.
func (c *Controller) updateMetadataTopics(parts []storage.TopicPartition, deleting bool) []protocol.UpdateMetadataTopicState {
	var out []protocol.UpdateMetadataTopicState
	for _, tp := range parts {
		li := c.ctx.states[tp]
		t := c.ctx.topics[tp.Topic]
		if li == nil || t == nil {
			continue
		}
		replicas := c.ctx.replicas(tp)
		st := protocol.UpdateMetadataPartitionState{
			TopicName: tp.Topic, PartitionIndex: tp.Partition, ControllerEpoch: li.controllerEpoch,
			Leader: li.leader, LeaderEpoch: li.leaderEpoch, ISR: slices.Clone(li.isr), ZkVersion: li.zkVersion,
			Replicas: slices.Clone(replicas),
		}
		if deleting {
			st.Leader = leaderDuringDelete
		}
		for _, r := range replicas {
			if !c.ctx.isLive(r) {
				st.OfflineReplicas = append(st.OfflineReplicas, r)
			}
		}
		n := len(out)
		if n == 0 || out[n-1].TopicName != tp.Topic {
			out = append(out, protocol.UpdateMetadataTopicState{TopicName: tp.Topic, TopicID: t.id})
			n++
		}
		out[n-1].PartitionStates = append(out[n-1].PartitionStates, st)
	}
	return out
}

// updateMetadataBrokers is every live (or shutting-down) broker.
func (c *Controller) updateMetadataBrokers() []protocol.UpdateMetadataBroker {
	var out []protocol.UpdateMetadataBroker
	for _, id := range c.ctx.liveIDs() {
		info := c.ctx.live[id].info
		b := protocol.UpdateMetadataBroker{ID: id, Rack: info.Rack}
		for _, e := range info.Endpoints {
			b.Endpoints = append(b.Endpoints, endpointOf(e))
		}
		out = append(out, b)
	}
	return out
}

// sortedIDs is m's keys in order: no result may depend on map order.
func sortedIDs[V any](m map[int32]V) []int32 { return slices.Sorted(maps.Keys(m)) }

// sortedTPs is m's partitions by topic and number.
func sortedTPs[V any](m map[storage.TopicPartition]V) []storage.TopicPartition {
	return slices.SortedFunc(maps.Keys(m), storage.ComparePartitions)
}

// brokerAddr is a broker's listener, from its registration.
func brokerAddr(lb liveBroker) (sim.Addr, error) {
	if len(lb.info.Endpoints) == 0 {
		return "", fmt.Errorf("broker %d has no endpoint", lb.info.ID)
	}
	e := lb.info.Endpoints[0]
	return sim.Addr(fmt.Sprintf("%s:%d", e.Host, e.Port)), nil
}
