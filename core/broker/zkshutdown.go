package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// zkControlledShutdown is KafkaServer.controlledShutdown (2.8): ask the
// controller the metadata cache names to move this broker's leaderships
// (ControlledShutdown); done when it answers with nothing left to move;
// otherwise wait controlled.shutdown.retry.backoff.ms and ask again, up to
// controlled.shutdown.max.retries times, then shut down anyway ("an
// unclean shutdown as all the controlled shutdown attempts failed").
func (b *Broker) zkControlledShutdown(env *sim.Env) {
	if b.state != StatePendingControlledShutdown {
		return
	}
	retry := func(env *sim.Env) {
		b.zk.shutdownTries--
		if b.zk.shutdownTries <= 0 {
			b.finishShutdown(env)
			return
		}
		env.After(b.ms("controlled.shutdown.retry.backoff.ms"), "controlled-shutdown-retry", b.zkControlledShutdown)
	}
	req := &protocol.ControlledShutdownRequest{BrokerID: b.cfg.NodeID, BrokerEpoch: b.brokerEpoch}
	b.sendToController(env, req, controllerSocketTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if b.state != StatePendingControlledShutdown {
			return
		}
		r, ok := resp.(*protocol.ControlledShutdownResponse)
		if err != nil || !ok || r.ErrorCode != protocol.NONE || len(r.RemainingPartitions) > 0 {
			retry(env)
			return
		}
		b.finishShutdown(env)
	})
}

// handleControlledShutdown hands a broker's ControlledShutdown to this
// broker's controller (which answers NOT_CONTROLLER unless it is active).
func (b *Broker) handleControlledShutdown(env *sim.Env, from sim.Addr, req *protocol.ControlledShutdownRequest) bool {
	if b.zk == nil {
		return true
	}
	b.zk.controller.ControlledShutdown(env, req, func(env *sim.Env, resp *protocol.ControlledShutdownResponse) {
		resp.CorrelationID = req.CorrelationID
		b.answerLater(env, from, resp)
	})
	return false
}

// handleAlterIsr hands a leader's AlterIsr to this broker's controller.
func (b *Broker) handleAlterIsr(env *sim.Env, from sim.Addr, req *protocol.AlterIsrRequest) bool {
	if b.zk == nil {
		return true
	}
	b.zk.controller.AlterIsr(env, req, func(env *sim.Env, resp *protocol.AlterIsrResponse) {
		resp.CorrelationID = req.CorrelationID
		b.answerLater(env, from, resp)
	})
	return false
}

// answerLater sends the answer to a request handle left open, and frees
// its connection for the next.
func (b *Broker) answerLater(env *sim.Env, from sim.Addr, resp sim.Message) {
	b.respond(env, from, resp)
	b.done(env, from)
}
