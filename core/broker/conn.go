package broker

import (
	"slices"

	"kafkascope/core/metrics"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// conn is one client connection. Kafka processes a connection's requests one
// at a time, in order: while a request waits in purgatory (acks=all, long
// poll) the connection is muted and later requests queue behind it.
//
// A client that gives up on a request closes its connection (sim.Closed)
// and opens a new one from another port: the closed connection's queue is
// dropped, the request in progress still runs to its end (a forwarded
// CreateTopics may yet create the topic), and its answer is never sent, as
// Kafka's SocketServer drops a response for a connection that is gone.
type conn struct {
	busy   bool
	closed bool // the client closed it while a request was in progress
	queue  []*sim.Envelope
	// start is when the request in progress was taken up, timed the
	// histogram its total time goes to (nil: not one of those measured).
	start sim.Time
	timed *metrics.Histogram
}

const maxQueuedPerConn = 1000

func (b *Broker) conn(addr sim.Addr) *conn {
	c, ok := b.conns[addr]
	if !ok {
		c = &conn{}
		b.conns[addr] = c
	}
	return c
}

// closeConn forgets a connection its client closed.
func (b *Broker) closeConn(from sim.Addr) {
	b.held = slices.DeleteFunc(b.held, func(e *sim.Envelope) bool { return e.From == from })
	c, ok := b.conns[from]
	if !ok {
		return
	}
	c.queue = nil
	if c.busy {
		c.closed = true // done forgets it
		return
	}
	delete(b.conns, from)
}

// dispatch handles a request, or queues it behind the one in progress.
func (b *Broker) dispatch(env *sim.Env, e *sim.Envelope) {
	c := b.conn(e.From)
	if c.closed {
		return // nothing comes after a FIN; a new connection has a new port
	}
	if c.busy {
		if len(c.queue) < maxQueuedPerConn {
			c.queue = append(c.queue, e)
		}
		return
	}
	c.busy = true
	b.beginRequest(env, c, e)
	if b.handle(env, e) {
		b.done(env, e.From)
	}
}

// done ends the request in progress on a connection, once it was answered:
// a connection its client closed meanwhile is forgotten; the next queued
// request is handed over in an event of its own, the connection staying
// busy (muted) until then; with none queued, the connection is idle and
// forgotten (drainConn).
//
// The next request waits for its own event as Kafka's network thread
// picks it up after the response went out: handled inline, it would run
// in the middle of whatever completed this one (a follower's fetch moving
// the HW), and that fetch, not yet parked, would miss its data.
func (b *Broker) done(env *sim.Env, from sim.Addr) {
	c := b.conn(from)
	b.endRequest(env, c)
	if c.closed {
		delete(b.conns, from)
		return
	}
	c.busy = false
	if len(c.queue) > 0 {
		c.busy = true
		env.After(0, "connection-unmute", func(env *sim.Env) {
			if b.conns[from] != c {
				return
			}
			c.busy = false
			b.drainConn(env, from, c)
		})
		return
	}
	b.drainConn(env, from, c)
}

func (b *Broker) drainConn(env *sim.Env, from sim.Addr, c *conn) {
	for !c.busy && len(c.queue) > 0 {
		e := c.queue[0]
		c.queue = c.queue[1:]
		c.busy = true
		b.beginRequest(env, c, e)
		if b.handle(env, e) {
			c.busy = false
		}
	}
	if !c.busy && len(c.queue) == 0 {
		delete(b.conns, from)
	}
}

// respond sends a response (unless its connection was closed).
func (b *Broker) respond(env *sim.Env, to sim.Addr, m sim.Message) {
	if c, ok := b.conns[to]; ok && c.closed {
		return
	}
	env.Send(b.addr, to, m)
}

// handle processes one request. It returns true if the request is finished
// (answered, or needs no answer) and false if it will be answered later.
func (b *Broker) handle(env *sim.Env, e *sim.Envelope) bool {
	switch m := e.Msg.(type) {
	case *protocol.ProduceRequest:
		return b.handleProduce(env, e.From, m)
	case *protocol.WriteTxnMarkersRequest:
		return b.handleWriteTxnMarkers(env, e.From, m)
	case *protocol.FetchRequest:
		return b.handleFetch(env, e.From, m)
	case *protocol.MetadataRequest:
		b.handleMetadata(env, e.From, m)
	case *protocol.ListOffsetsRequest:
		b.handleListOffsets(env, e.From, m)
	case *protocol.OffsetForLeaderEpochRequest:
		b.handleOffsetForLeaderEpoch(env, e.From, m)
	case *protocol.DescribeConfigsRequest:
		b.handleDescribeConfigs(env, e.From, m)
	case *protocol.DescribeLogDirsRequest:
		b.handleDescribeLogDirs(env, e.From, m)
	case *protocol.InitProducerIdRequest:
		if m.TransactionalID != "" {
			return b.txnCoordinator.Handle(env, e.From, m)
		}
		b.handleInitProducerId(env, e.From, m)
	case *protocol.AddPartitionsToTxnRequest, *protocol.AddOffsetsToTxnRequest, *protocol.EndTxnRequest,
		*protocol.DescribeTransactionsRequest, *protocol.ListTransactionsRequest:
		return b.txnCoordinator.Handle(env, e.From, e.Msg)
	case *protocol.DescribeProducersRequest:
		b.handleDescribeProducers(env, e.From, m)
	case *protocol.AlterConfigsRequest:
		if b.zk != nil {
			return b.handleAlterConfigsZk(env, e.From, m)
		}
		return b.handleAlterConfigs(env, e.From, m)
	case *protocol.IncrementalAlterConfigsRequest:
		if b.zk != nil {
			return b.handleIncrementalAlterConfigsZk(env, e.From, m)
		}
		return b.handleIncrementalAlterConfigs(env, e.From, m)
	case *protocol.CreateTopicsRequest:
		if b.zk != nil {
			return b.handleCreateTopicsZk(env, e.From, m)
		}
		b.forwardToController(env, e.From, m)
		return false
	case *protocol.LeaderAndIsrRequest:
		return b.handleLeaderAndIsr(env, e.From, m)
	case *protocol.UpdateMetadataRequest:
		b.handleUpdateMetadata(env, e.From, m)
	case *protocol.StopReplicaRequest:
		b.handleStopReplica(env, e.From, m)
	case *protocol.AlterIsrRequest:
		return b.handleAlterIsr(env, e.From, m)
	case *protocol.ControlledShutdownRequest:
		return b.handleControlledShutdown(env, e.From, m)
	case *protocol.DeleteTopicsRequest, *protocol.CreatePartitionsRequest, *protocol.ElectLeadersRequest,
		*protocol.AlterPartitionReassignmentsRequest, *protocol.ListPartitionReassignmentsRequest, *protocol.UpdateFeaturesRequest:
		if b.zk != nil {
			b.handleControllerAPIZk(env, e.From, m.(protocol.Request))
			return true
		}
		b.forwardToController(env, e.From, m.(protocol.Request))
		return false
	case *protocol.DescribeQuorumRequest, *protocol.AddRaftVoterRequest, *protocol.RemoveRaftVoterRequest:
		fw, _ := raftForwardingOf(m.(protocol.Request))
		b.forwardRaftRequest(env, e.From, m.(protocol.Request), fw)
		return false
	case *protocol.FindCoordinatorRequest:
		b.handleFindCoordinator(env, e.From, m)
	case *protocol.ApiVersionsRequest:
		b.handleApiVersions(env, e.From, m)
	case *protocol.ConsumerGroupHeartbeatRequest, *protocol.ConsumerGroupDescribeRequest:
		return b.handleConsumerGroupAPI(env, e.From, m)
	case *protocol.TxnOffsetCommitRequest:
		return b.handleTxnOffsetCommit(env, e.From, m)
	default:
		return b.coordinator.Handle(env, e.From, e.Msg)
	}
	return true
}
