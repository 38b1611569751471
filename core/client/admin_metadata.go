package client

import (
	"fmt"
	"math"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// metadataManager is AdminMetadataManager: the nodes the client knows (the
// bootstrap addresses until the first answer), the controller, and when to
// fetch metadata again: at once when asked after retry.backoff.ms since the
// last attempt, otherwise every metadata.max.age.ms.
type metadataManager struct {
	state       mdState
	nodes       []Node
	bootstrap   bool  // nodes are still the bootstrap addresses
	controller  int32 // -1: none known
	lastUpdate  sim.Time
	lastAttempt sim.Time
	updated     bool // lastUpdate is set
	attempted   bool // lastAttempt is set
}

type mdState uint8

const (
	mdQuiescent mdState = iota
	mdUpdateRequested
	mdUpdatePending
)

func (m *metadataManager) init(bootstrap []sim.Addr) {
	m.bootstrap, m.controller = true, -1
	for i, addr := range bootstrap {
		m.nodes = append(m.nodes, Node{ID: int32(-1 - i), Addr: addr})
	}
}

// ready is isReady: metadata was fetched from the cluster.
func (m *metadataManager) ready() bool { return len(m.nodes) > 0 && !m.bootstrap }

func (m *metadataManager) has(id int32) bool {
	for _, n := range m.nodes {
		if n.ID == id {
			return true
		}
	}
	return false
}

func (m *metadataManager) requestUpdate() {
	if m.state == mdQuiescent {
		m.state = mdUpdateRequested
	}
}

// fetchDelay is metadataFetchDelayMs.
func (m *metadataManager) fetchDelay(now sim.Time, cfg AdminConfig) time.Duration {
	sinceAttempt := func() time.Duration {
		if !m.attempted {
			return 0
		}
		return max(0, cfg.RetryBackoff-now.Sub(m.lastAttempt))
	}
	switch m.state {
	case mdQuiescent:
		expire := time.Duration(0)
		if m.updated {
			expire = max(0, cfg.MetadataMaxAge-now.Sub(m.lastUpdate))
		}
		return max(sinceAttempt(), expire)
	case mdUpdateRequested:
		return sinceAttempt()
	}
	return time.Duration(math.MaxInt64)
}

func (m *metadataManager) update(now sim.Time, nodes []Node, controller int32) {
	m.lastUpdate, m.updated, m.state = now, true, mdQuiescent
	if len(nodes) > 0 {
		m.nodes, m.bootstrap, m.controller = nodes, false, -1
		for _, n := range nodes {
			if n.ID == controller {
				m.controller = controller
			}
		}
	}
}

func (m *metadataManager) updateFailed() { m.state = mdQuiescent }

// metadataCall is makeMetadataCall: an internal call, due within
// request.timeout.ms, to the least loaded known node.
func (a *Admin) metadataCall(env *sim.Env) *call {
	if a.cfg.BootstrapControllers {
		return a.controllerMetadataCall(env)
	}
	c := &call{name: "fetchMetadata", target: Target{kind: targetMetadata}, deadline: env.Now().Add(a.cfg.RequestTimeout)}
	c.build = func(int32) sim.Message {
		return &protocol.MetadataRequest{Topics: []string{}, AllowAutoTopicCreation: true}
	}
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		md := resp.(*protocol.MetadataResponse)
		a.md.update(env.Now(), metadataNodes(md), md.ControllerID)
		a.unassign(func(int32) bool { return true })
		return nil
	}
	c.onFailure = func(*sim.Env, *Error) { a.md.updateFailed() }
	return c
}

// controllerMetadataCall is the metadata call with bootstrap controllers.
// Kafka sends DescribeCluster to a controller listener, which answers with
// the registered controllers and, as the active controller, the leader its
// raft client knows. kafkascope's controllers do not serve DescribeCluster,
// so the call asks the raft client directly with DescribeQuorum: the leader
// answers with itself, any other voter with NOT_LEADER_OR_FOLLOWER and the
// leader it knows (or none). The controllers' endpoints come from the
// configuration (ControllerNodes), as every node's controller.quorum.voters
// lists them.
func (a *Admin) controllerMetadataCall(env *sim.Env) *call {
	c := &call{name: "describeCluster", target: Target{kind: targetMetadata}, deadline: env.Now().Add(a.cfg.RequestTimeout)}
	c.build = func(int32) sim.Message { return &raft.DescribeQuorumRequest{} }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		r := resp.(*raft.DescribeQuorumResponse)
		a.md.update(env.Now(), a.cfg.ControllerNodes, r.Quorum.LeaderID)
		a.unassign(func(int32) bool { return true })
		return nil
	}
	c.onFailure = func(*sim.Env, *Error) { a.md.updateFailed() }
	return c
}

// metadataNodes are a Metadata answer's brokers, in its order.
func metadataNodes(md *protocol.MetadataResponse) []Node {
	var out []Node
	for _, b := range md.Brokers {
		out = append(out, Node{ID: b.NodeID, Addr: sim.Addr(fmt.Sprintf("%s:%d", b.Host, b.Port))})
	}
	return out
}
