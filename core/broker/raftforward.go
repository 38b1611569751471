package broker

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// DescribeQuorum, AddRaftVoter and RemoveRaftVoter (KIP-853) are answered
// by the quorum leader's raft client, not by a broker: KafkaApis forwards
// them (forwardToController) through the same "forwarding" channel as
// CreateTopics, to whichever voter the broker's raft client knows as the
// leader. There the raft client answers (ControllerApis.handleRaftRequest);
// if that voter no longer leads, its NOT_LEADER_OR_FOLLOWER goes back to
// the client. The channel itself behaves as sendToController: it waits
// while no leader is known, goes again after a broken connection, gives
// each try at most controller.socket.timeout.ms, and after 60 s answers
// REQUEST_TIMED_OUT (each request's getErrorResponse: DescribeQuorum sets
// the top-level error, Add/RemoveRaftVoter the error code and the error's
// default message).
//
// The requests a voter's raft client reads are the raft package's, not
// protocol.Requests, so the broker's rpc client cannot carry them: this
// file keeps its own table of the requests in flight.

// quorumForwards is a broker's table of forwarded raft client requests.
type quorumForwards struct {
	next     int32
	inflight map[int32]*quorumForward
}

// quorumForward is one forwarded request's current try.
type quorumForward struct {
	to    sim.Addr
	timer *sim.Timer
	done  func(env *sim.Env, resp raft.ClientMessage, err bool)
}

// raftForwarding is how one API crosses the broker: the raft request to
// send for the client's, the client's answer to the raft client's, and the
// answer when the channel gives up. Every answer carries corr, the
// client's correlation id.
type raftForwarding struct {
	request  func() raft.ClientRequest
	answer   func(resp raft.ClientMessage, corr int32) protocol.Response
	timedOut func(corr int32) protocol.Response
}

// raftForwardingOf is the forwarding of a raft client request; ok is false
// for any other request.
func raftForwardingOf(req protocol.Request) (raftForwarding, bool) {
	switch r := req.(type) {
	case *protocol.DescribeQuorumRequest:
		return raftForwarding{
			request: func() raft.ClientRequest { return &raft.DescribeQuorumRequest{} },
			answer: func(resp raft.ClientMessage, corr int32) protocol.Response {
				out := quorumResponse(resp.(*raft.DescribeQuorumResponse))
				out.CorrelationID = corr
				return out
			},
			timedOut: func(corr int32) protocol.Response {
				return &protocol.DescribeQuorumResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr},
					ErrorCode: protocol.REQUEST_TIMED_OUT, LeaderID: -1, LeaderEpoch: -1, HighWatermark: -1}
			},
		}, true
	case *protocol.AddRaftVoterRequest:
		return raftForwarding{
			request: func() raft.ClientRequest {
				q := &raft.AddRaftVoterRequest{ClusterID: r.ClusterID, TimeoutMs: r.TimeoutMs, VoterID: r.VoterID,
					VoterDirectoryID: r.VoterDirectoryID, AckWhenCommitted: true}
				for _, l := range r.Listeners {
					q.Listeners = append(q.Listeners, raft.RaftVoterListener{Name: l.Name, Host: l.Host, Port: l.Port})
				}
				return q
			},
			answer: func(resp raft.ClientMessage, corr int32) protocol.Response {
				a := resp.(*raft.AddRaftVoterResponse)
				return &protocol.AddRaftVoterResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr},
					ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage}
			},
			timedOut: func(corr int32) protocol.Response {
				msg := protocol.REQUEST_TIMED_OUT.Message()
				return &protocol.AddRaftVoterResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr},
					ErrorCode: protocol.REQUEST_TIMED_OUT, ErrorMessage: &msg}
			},
		}, true
	case *protocol.RemoveRaftVoterRequest:
		return raftForwarding{
			request: func() raft.ClientRequest {
				return &raft.RemoveRaftVoterRequest{ClusterID: r.ClusterID, VoterID: r.VoterID, VoterDirectoryID: r.VoterDirectoryID}
			},
			answer: func(resp raft.ClientMessage, corr int32) protocol.Response {
				a := resp.(*raft.RemoveRaftVoterResponse)
				return &protocol.RemoveRaftVoterResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr},
					ErrorCode: a.ErrorCode, ErrorMessage: a.ErrorMessage}
			},
			timedOut: func(corr int32) protocol.Response {
				msg := protocol.REQUEST_TIMED_OUT.Message()
				return &protocol.RemoveRaftVoterResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr},
					ErrorCode: protocol.REQUEST_TIMED_OUT, ErrorMessage: &msg}
			},
		}, true
	}
	return raftForwarding{}, false
}

// forwardRaftRequest relays a client's raft client request to the quorum
// leader and its answer back; the connection stays muted meanwhile.
func (b *Broker) forwardRaftRequest(env *sim.Env, from sim.Addr, req protocol.Request, fw raftForwarding) {
	if b.quorumCalls == nil {
		b.quorumCalls = &quorumForwards{inflight: map[int32]*quorumForward{}}
	}
	deadline := env.Now().Add(forwardingRetryTimeout)
	clientCorr := req.Header().CorrelationID
	answer := func(env *sim.Env, resp protocol.Response) {
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
			answer(env, fw.timedOut(clientCorr))
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
		f.done = func(env *sim.Env, resp raft.ClientMessage, failed bool) {
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
			answer(env, fw.answer(resp, clientCorr))
		}
		q.inflight[corr] = f
		out := fw.request()
		out.SetClientCorrelation(corr)
		f.timer = env.After(min(left, controllerSocketTimeout), "request-timeout "+out.Kind(), func(env *sim.Env) {
			if q.inflight[corr] == f {
				f.done(env, nil, true)
			}
		})
		env.Send(b.addr, addr, out)
	}
	try(env)
}

// handleQuorumForwardReply takes the raft client's answer to a forwarded
// request, or the reset of a refused one; it reports whether e was one.
func (b *Broker) handleQuorumForwardReply(env *sim.Env, e *sim.Envelope) bool {
	q := b.quorumCalls
	switch m := e.Msg.(type) {
	case *raft.DescribeQuorumResponse, *raft.AddRaftVoterResponse, *raft.RemoveRaftVoterResponse:
		resp := m.(raft.ClientMessage)
		if q != nil {
			if f, ok := q.inflight[resp.ClientCorrelation()]; ok && f.to == e.From {
				f.done(env, resp, false)
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
		r, ok := m.Request.(raft.ClientRequest)
		if !ok {
			return false
		}
		if q != nil {
			if f, ok := q.inflight[r.ClientCorrelation()]; ok && f.to == m.Peer {
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
