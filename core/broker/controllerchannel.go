package broker

import (
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// controllerRetryBackoff is how long the channel waits before looking for
// the active controller again after NOT_CONTROLLER, a broken connection,
// or while no quorum leader is known.
const controllerRetryBackoff = 50 * time.Millisecond

// Channel retry timeouts (BrokerServer's channels): a forwarded admin
// request waits up to 60 s for an active controller, then its sender gets
// REQUEST_TIMED_OUT; AlterPartition never gives up (one ISR change waits
// until a controller takes it); a heartbeat gives up after half the
// session timeout (set by its caller). Each attempt's own network timeout
// is controller.socket.timeout.ms (30 s) at most.
const (
	forwardingRetryTimeout  = 60 * time.Second
	neverGiveUp             = time.Duration(1<<63 - 1)
	controllerSocketTimeout = 30 * time.Second
)

// sendToController sends req to the active controller and gives cb its
// answer, as Kafka's NodeToControllerChannelManager does: while no quorum
// leader is known the request waits; after NOT_CONTROLLER (it reached a
// voter that is not, or no longer, the active controller) or a broken
// connection it goes again to whichever voter the broker's raft client
// now knows as the leader. After timeout from the first try cb gets
// rpc.ErrTimeout: with the quorum's majority gone, every metadata change
// a broker asks for ends this way.
func (b *Broker) sendToController(env *sim.Env, req protocol.Request, timeout time.Duration, cb rpc.Callback) *controllerCall {
	cc := &controllerCall{b: b, req: req, deadline: sim.Time(1<<63 - 1), cb: cb}
	if timeout < neverGiveUp {
		cc.deadline = env.Now().Add(timeout)
	}
	cc.try(env)
	return cc
}

// controllerCall is one request on the controller channel, across its
// tries. It is an object rather than closures so that a leap (a steady
// heartbeat computed in closed form, leap_heartbeat.go) can make the call
// a stepped run would have made: the same deadline, the same callback.
type controllerCall struct {
	b        *Broker
	req      protocol.Request
	deadline sim.Time // the first try's time plus the timeout
	cb       rpc.Callback
	id       int32 // the correlation id of the latest try sent
}

// try sends the request to the active controller, or waits for one.
func (cc *controllerCall) try(env *sim.Env) {
	b := cc.b
	if b.state == StateStopped {
		return
	}
	left := cc.deadline.Sub(env.Now())
	if left <= 0 {
		cc.cb(env, nil, rpc.ErrTimeout)
		return
	}
	addr, ok := b.cfg.Quorum.ActiveController()
	if !ok {
		env.After(min(controllerRetryBackoff, left), "controller-channel-wait", cc.try)
		return
	}
	cc.id = b.net.Send(env, addr, cc.req, min(left, controllerSocketTimeout), cc.answered)
}

// answered takes a try's outcome: the answer, the end of the deadline, or
// another try.
func (cc *controllerCall) answered(env *sim.Env, resp protocol.Response, err error) {
	switch {
	case err == rpc.ErrTimeout && env.Now() >= cc.deadline:
		cc.cb(env, nil, err)
	case err != nil || protocol.IsNotController(resp):
		env.After(min(controllerRetryBackoff, max(cc.deadline.Sub(env.Now()), 0)), "controller-channel-retry", cc.try)
	default:
		cc.cb(env, resp, nil)
	}
}
