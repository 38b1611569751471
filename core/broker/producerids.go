package broker

import (
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// pidPrefetchThreshold: when 90% of the current block is used the next one
// is requested (ProducerIdManager.PidPrefetchThreshold).
const pidPrefetchThreshold = 0.90

// allocateRetryBackoff is how long the manager waits after the controller
// refused a block (RPCProducerIdManager.RetryBackoffMs).
const allocateRetryBackoff = 50 * time.Millisecond

// producerIDBlock is [first, first+size); next is the next id to hand out.
type producerIDBlock struct {
	first, next int64
	size        int32
}

func (bl *producerIDBlock) claim() (int64, bool) {
	if bl == nil || bl.next >= bl.first+int64(bl.size) {
		return 0, false
	}
	id := bl.next
	bl.next++
	return id, true
}

// producerIDManager is the broker's RPCProducerIdManager: the transaction
// coordinator hands out producer ids from a block of 1000 the active
// controller allocated (AllocateProducerIds → ProducerIdsRecord). It never
// waits: while no block is at hand InitProducerId is answered
// COORDINATOR_LOAD_IN_PROGRESS and the producer retries, as in Kafka.
type producerIDManager struct {
	current, nextBlock *producerIDBlock
	requestInFlight    bool
	backoffUntil       sim.Time
}

// generateProducerID claims the next id, or asks for a block and fails.
func (b *Broker) generateProducerID(env *sim.Env) (int64, bool) {
	m := &b.producerIDs
	for range 2 {
		if id, ok := m.current.claim(); ok {
			if id == m.current.first+int64(float64(m.current.size)*pidPrefetchThreshold) {
				b.maybeRequestProducerIDBlock(env)
			}
			return id, true
		}
		if m.nextBlock == nil {
			b.maybeRequestProducerIDBlock(env)
			return 0, false
		}
		m.current, m.nextBlock = m.nextBlock, nil
		m.requestInFlight = false
	}
	return 0, false
}

func (b *Broker) maybeRequestProducerIDBlock(env *sim.Env) {
	m := &b.producerIDs
	if m.nextBlock != nil || m.requestInFlight || env.Now() < m.backoffUntil {
		return
	}
	if b.zk != nil {
		b.claimZkProducerIDBlock(env)
		return
	}
	m.requestInFlight = true
	req := &protocol.AllocateProducerIdsRequest{BrokerID: b.cfg.NodeID, BrokerEpoch: b.brokerEpoch}
	b.sendToController(env, req, controllerSocketTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		r, ok := resp.(*protocol.AllocateProducerIdsResponse)
		if err != nil || !ok {
			m.requestInFlight = false // "Timed out when requesting AllocateProducerIds from the controller."
			return
		}
		if r.ErrorCode == protocol.NONE && r.ProducerIDStart >= 0 && r.ProducerIDLen > 0 {
			m.nextBlock = &producerIDBlock{first: r.ProducerIDStart, next: r.ProducerIDStart, size: r.ProducerIDLen}
			env.Note(event.ProducerIDBlockReceived{Broker: b.cfg.NodeID, First: r.ProducerIDStart, Last: r.ProducerIDStart + int64(r.ProducerIDLen) - 1})
			return
		}
		m.backoffUntil = env.Now().Add(allocateRetryBackoff)
		m.requestInFlight = false
	})
}

// handleInitProducerId answers an idempotent producer with a new producer
// id and epoch 0 (TransactionCoordinator.handleInitProducerId with a null
// transactional id). Transactions are not simulated: a transactional id
// gets COORDINATOR_NOT_AVAILABLE.
func (b *Broker) handleInitProducerId(env *sim.Env, from sim.Addr, req *protocol.InitProducerIdRequest) {
	resp := &protocol.InitProducerIdResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, ProducerID: -1, ProducerEpoch: -1}
	switch {
	case req.TransactionalID != "":
		resp.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
	default:
		if id, ok := b.generateProducerID(env); ok {
			resp.ProducerID, resp.ProducerEpoch = id, 0
			env.Note(event.ProducerIDAssigned{Broker: b.cfg.NodeID, ProducerID: id})
		} else {
			resp.ErrorCode = protocol.COORDINATOR_LOAD_IN_PROGRESS
			if b.noController() {
				resp.Cause = b.cause(protocol.CauseProducerIDNoController)
			}
		}
	}
	b.respond(env, from, resp)
}
