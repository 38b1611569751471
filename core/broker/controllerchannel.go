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

// sendToController sends req to the active controller and gives cb its
// answer, as Kafka's NodeToControllerChannelManager does: while no quorum
// leader is known the request waits; after NOT_CONTROLLER (it reached a
// voter that is not, or no longer, the active controller) or a broken
// connection it goes again to whichever voter the broker's raft client
// now knows as the leader. After timeout from the first try cb gets
// rpc.ErrTimeout: with the quorum's majority gone, every metadata change
// a broker asks for ends this way.
func (b *Broker) sendToController(env *sim.Env, req protocol.Request, timeout time.Duration, cb func(env *sim.Env, resp protocol.Response, err error)) {
	deadline := env.Now().Add(timeout)
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
		b.net.Send(env, addr, req, left, func(env *sim.Env, resp protocol.Response, err error) {
			switch {
			case err == rpc.ErrTimeout:
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
