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
func (b *Broker) sendToController(env *sim.Env, req protocol.Request, timeout time.Duration, cb func(env *sim.Env, resp protocol.Response, err error)) {
	deadline := sim.Time(1<<63 - 1)
	if timeout < neverGiveUp {
		deadline = env.Now().Add(timeout)
	}
	var try func(env *sim.Env)
	try = func(env *sim.Env) {
		if b.state == StateStopped {
			return
		}
		left := deadline.Sub(env.Now())
		if left <= 0 {
			cb(env, nil, rpc.ErrTimeout)
			return
		}
		addr, ok := b.cfg.Quorum.ActiveController()
		if !ok {
			env.After(min(controllerRetryBackoff, left), "controller-channel-wait", try)
			return
		}
		b.net.Send(env, addr, req, min(left, controllerSocketTimeout), func(env *sim.Env, resp protocol.Response, err error) {
			switch {
			case err == rpc.ErrTimeout && env.Now() >= deadline:
				cb(env, nil, err)
			case err != nil || protocol.IsNotController(resp):
				env.After(min(controllerRetryBackoff, max(deadline.Sub(env.Now()), 0)), "controller-channel-retry", try)
			default:
				cb(env, resp, nil)
			}
		})
	}
	try(env)
}
