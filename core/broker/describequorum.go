package broker

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// DescribeQuorum is answered by the quorum leader's raft client, not by a
// broker: KafkaApis forwards it (forwardToControllerOrFail) through the
// same "forwarding" channel as CreateTopics, to whichever voter the broker's
// raft client knows as the leader. There the raft client answers; if that
// voter no longer leads, its NOT_LEADER_OR_FOLLOWER goes back to the client,
// which retries. The channel itself behaves as sendToController: it waits
// while no leader is known, goes again after a broken connection, gives each
// try at most controller.socket.timeout.ms, and after 60 s answers
// REQUEST_TIMED_OUT (DescribeQuorumRequest.getErrorResponse sets the
// top-level error).
//
// The request a voter's raft client reads is raft.DescribeQuorumRequest, not
// a protocol.Request, so the broker's rpc client cannot carry it: this file
// keeps its own table of the requests in flight.

// quorumForwards is a broker's table of forwarded DescribeQuorum requests.
type quorumForwards struct {
	next     int32
	inflight map[int32]*quorumForward
}

// quorumForward is one forwarded request's current try.
type quorumForward struct {
	to    sim.Addr
	timer *sim.Timer
	done  func(env *sim.Env, resp *raft.DescribeQuorumResponse, err bool)
}

// forwardDescribeQuorum relays a client's DescribeQuorum to the quorum
// leader and its answer back; the connection stays muted meanwhile.
func (b *Broker) forwardDescribeQuorum(env *sim.Env, from sim.Addr, req *protocol.DescribeQuorumRequest) {
	if b.quorumCalls == nil {
		b.quorumCalls = &quorumForwards{inflight: map[int32]*quorumForward{}}
	}
	deadline := env.Now().Add(forwardingRetryTimeout)
	answer := func(env *sim.Env, resp *protocol.DescribeQuorumResponse) {
		resp.CorrelationID = req.CorrelationID
		b.respond(env, from, resp)
		b.done(env, from)
	}
	var try func(env *sim.Env)
	retry := func(env *sim.Env) {
		env.After(min(controllerRetryBackoff, max(deadline.Sub(env.Now()), 0)), "controller-channel-retry", try)
	}
	try = func(env *sim.Env) {
		if b.state == StateStopped {
			return
		}
		left := deadline.Sub(env.Now())
		if left <= 0 {
			answer(env, &protocol.DescribeQuorumResponse{ErrorCode: protocol.REQUEST_TIMED_OUT, LeaderID: -1, LeaderEpoch: -1, HighWatermark: -1})
			return
		}
		addr, ok := b.cfg.Quorum.ActiveController()
		if !ok {
			env.After(min(controllerRetryBackoff, left), "controller-channel-wait", try)
			return
		}
		q := b.quorumCalls
		corr := q.next
		q.next++
		f := &quorumForward{to: addr}
		f.done = func(env *sim.Env, resp *raft.DescribeQuorumResponse, failed bool) {
			delete(q.inflight, corr)
			f.timer.Stop()
			if failed {
				if env.Now() >= deadline {
					try(env) // answers REQUEST_TIMED_OUT
					return
				}
				retry(env)
				return
			}
			answer(env, quorumResponse(resp))
		}
		q.inflight[corr] = f
		f.timer = env.After(min(left, controllerSocketTimeout), "request-timeout DescribeQuorum", func(env *sim.Env) {
			if q.inflight[corr] == f {
				f.done(env, nil, true)
			}
		})
		env.Send(b.addr, addr, &raft.DescribeQuorumRequest{CorrelationID: corr})
	}
	try(env)
}

// handleQuorumForwardReply takes the raft client's answer to a forwarded
// DescribeQuorum, or the reset of a refused one; it reports whether e was
// one.
func (b *Broker) handleQuorumForwardReply(env *sim.Env, e *sim.Envelope) bool {
	q := b.quorumCalls
	switch m := e.Msg.(type) {
	case *raft.DescribeQuorumResponse:
		if q != nil {
			if f, ok := q.inflight[m.CorrelationID]; ok && f.to == e.From {
				f.done(env, m, false)
			}
		}
		return true
	case *sim.Disconnected:
		if m.Request == nil {
			// The peer's process died with our connection open: every
			// request on it fails (the broker's rpc client gets the reset
			// too).
			if q != nil {
				for _, corr := range sortedCorrs(q.inflight) {
					if f, ok := q.inflight[corr]; ok && f.to == m.Peer {
						f.done(env, nil, true)
					}
				}
			}
			return false
		}
		r, ok := m.Request.(*raft.DescribeQuorumRequest)
		if !ok {
			return false
		}
		if q != nil {
			if f, ok := q.inflight[r.CorrelationID]; ok && f.to == m.Peer {
				f.done(env, nil, true)
			}
		}
		return true
	}
	return false
}

// quorumResponse is the raft client's answer in the client protocol's
// shape (DescribeQuorumResponseData).
func quorumResponse(r *raft.DescribeQuorumResponse) *protocol.DescribeQuorumResponse {
	out := &protocol.DescribeQuorumResponse{
		ErrorCode: r.ErrorCode, PartitionError: r.PartitionError,
		LeaderID: r.Quorum.LeaderID, LeaderEpoch: r.Quorum.LeaderEpoch, HighWatermark: r.Quorum.HighWatermark,
	}
	for _, v := range r.Quorum.CurrentVoters {
		out.CurrentVoters = append(out.CurrentVoters, quorumReplica(v))
	}
	for _, o := range r.Quorum.Observers {
		out.Observers = append(out.Observers, quorumReplica(o))
	}
	return out
}

func quorumReplica(r raft.ReplicaInfo) protocol.QuorumReplicaState {
	return protocol.QuorumReplicaState{ReplicaID: r.ReplicaID, LogEndOffset: r.LogEndOffset,
		LastFetchTimestamp: r.LastFetchTimestamp, LastCaughtUpTimestamp: r.LastCaughtUpTimestamp}
}

func sortedCorrs(m map[int32]*quorumForward) []int32 {
	ids := make([]int32, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
