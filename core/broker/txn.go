package broker

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// The broker's side of its transaction coordinator (core/txncoordinator),
// as for the group coordinator (groups.go): it hands it the transaction
// requests, tells it when this broker gains or loses the leadership of a
// __transaction_state partition (TransactionCoordinator.onElection with
// the partition's leader epoch as the coordinator epoch, and
// onResignation), and serves it as its Host.

// TxnCoordinator is this broker's transaction coordinator.
func (b *Broker) TxnCoordinator() *txncoordinator.Coordinator { return b.txnCoordinator }

// txnHost is the Broker as its transaction coordinator's Host.
type txnHost Broker

func (h *txnHost) broker() *Broker { return (*Broker)(h) }

func (h *txnHost) NodeID() int32                                    { return h.cfg.NodeID }
func (h *txnHost) Respond(env *sim.Env, to sim.Addr, m sim.Message) { h.broker().respond(env, to, m) }
func (h *txnHost) Done(env *sim.Env, to sim.Addr)                   { h.broker().done(env, to) }
func (h *txnHost) Config(name string) int64                         { return h.broker().confInt(name) }

// Append writes to a __transaction_state partition, acks -1 (the
// coordinator's write times out as a request does).
func (h *txnHost) Append(env *sim.Env, partition int32, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode)) {
	h.broker().coordinatorAppend(env, tp(txncoordinator.TransactionStateTopic, partition), recs, "request.timeout.ms", done)
}

func (h *txnHost) ReadLog(partition int32) []record.Batch {
	p := h.broker().partitions[tp(txncoordinator.TransactionStateTopic, partition)]
	if p == nil {
		return nil
	}
	batches, _ := p.log.Batches(p.log.LogStartOffset(), p.log.LogEndOffset())
	return batches
}

func (h *txnHost) GenerateProducerID(env *sim.Env) (int64, bool) {
	id, ok := h.broker().generateProducerID(env)
	if ok {
		env.Note(event.ProducerIDAssigned{Broker: h.broker().cfg.NodeID, ProducerID: id})
	}
	return id, ok
}

func (h *txnHost) KnownPartition(key storage.TopicPartition) bool {
	return h.broker().image.Partition(key.Topic, key.Partition) != nil
}

func (h *txnHost) GroupPartition(groupID string) int32 {
	return h.broker().coordinator.PartitionFor(groupID)
}

func (h *txnHost) LeaderOf(key storage.TopicPartition) (int32, bool) {
	st := h.broker().image.Partition(key.Topic, key.Partition)
	if st == nil || st.Leader < 0 {
		return -1, false
	}
	return st.Leader, true
}

func (h *txnHost) TransactionVersion() int16 {
	return h.broker().image.Features[release.TransactionVersionFeature]
}

// SendMarkers sends WriteTxnMarkers to a broker (itself included, over
// the network as Kafka's marker channel does).
func (h *txnHost) SendMarkers(env *sim.Env, broker int32, req *protocol.WriteTxnMarkersRequest, done func(env *sim.Env, resp *protocol.WriteTxnMarkersResponse)) {
	b := h.broker()
	if _, ok := b.image.Brokers[broker]; !ok {
		done(env, nil)
		return
	}
	addr := sim.Addr(fmt.Sprintf("%s:%d", b.hostOf(broker), BrokerPort))
	if b.markerNet == nil {
		b.markerNet = rpc.NewClient(env.EphemeralPort(), fmt.Sprintf("broker-%d-txn-marker-sender", b.cfg.NodeID))
	}
	b.markerNet.Send(env, addr, req, b.ms("request.timeout.ms"), func(env *sim.Env, resp protocol.Response, err error) {
		if b.state == StateStopped {
			return
		}
		r, _ := resp.(*protocol.WriteTxnMarkersResponse)
		if err != nil {
			r = nil
		}
		done(env, r)
	})
}

// txnLeaderChange follows a __transaction_state replica's role.
func (b *Broker) txnLeaderChange(env *sim.Env, p *Partition) {
	if p.tp.Topic != txncoordinator.TransactionStateTopic {
		return
	}
	if p.isLeader {
		b.txnCoordinator.OnElection(env, p.tp.Partition, p.leaderEpoch)
		return
	}
	b.txnResign(env, p.tp.Partition)
}

// txnResign is this broker ceasing to lead a __transaction_state
// partition.
func (b *Broker) txnResign(env *sim.Env, partition int32) {
	b.txnCoordinator.OnResignation(env, partition)
	b.failCoordinatorAppends(env, tp(txncoordinator.TransactionStateTopic, partition))
}

// findTxnCoordinator is FindCoordinator for a transactional id: the leader
// of its __transaction_state partition, COORDINATOR_NOT_AVAILABLE while
// the topic is missing (it is being created) or the partition has no
// leader (KafkaApis.handleFindCoordinatorRequest, 3.8.0).
func (b *Broker) findTxnCoordinator(key string) protocol.Coordinator {
	co := protocol.Coordinator{Key: key, NodeID: -1, Port: -1, ErrorCode: protocol.COORDINATOR_NOT_AVAILABLE}
	if _, ok := b.image.Topics[txncoordinator.TransactionStateTopic]; !ok {
		return co
	}
	b.topicSeen(txncoordinator.TransactionStateTopic)
	st := b.image.Partition(txncoordinator.TransactionStateTopic, b.txnCoordinator.PartitionFor(key))
	if st == nil || st.Leader < 0 {
		return co
	}
	reg, ok := b.image.Brokers[st.Leader]
	if !ok || len(reg.Endpoints) == 0 {
		return co
	}
	co.ErrorCode = protocol.NONE
	co.NodeID, co.Host, co.Port = st.Leader, reg.Endpoints[0].Host, reg.Endpoints[0].Port
	return co
}

// createTxnTopic asks the controller for __transaction_state with Kafka's
// settings for it (AutoTopicCreationManager with
// TransactionStateManager.transactionTopicConfigs).
func (b *Broker) createTxnTopic(env *sim.Env) {
	if b.creatingTxnTopic {
		return
	}
	b.creatingTxnTopic = true
	name := txncoordinator.TransactionStateTopic
	req := &protocol.CreateTopicsRequest{TimeoutMs: int32(b.conf().BrokerInt("request.timeout.ms"))}
	req.Topics = append(req.Topics, protocol.CreatableTopic{
		Name: name, NumPartitions: int32(b.conf().BrokerInt("transaction.state.log.num.partitions")),
		ReplicationFactor: int16(b.conf().BrokerInt("transaction.state.log.replication.factor")),
		Configs:           b.txnCoordinator.TransactionTopicConfigs(),
	})
	if b.askCreate(name) {
		env.Note(event.TopicAutoCreateRequested{Broker: b.cfg.NodeID, Topics: []string{name}})
	}
	b.sendToController(env, req, forwardingRetryTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		b.creatingTxnTopic = false
		code := protocol.REQUEST_TIMED_OUT
		if r, ok := resp.(*protocol.CreateTopicsResponse); err == nil && ok && len(r.Topics) > 0 {
			code = r.Topics[0].ErrorCode
		}
		b.createAnswered(name, code)
	})
}
