package client

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// PartitionInfo is what a client knows of one partition.
type PartitionInfo struct {
	Leader      int32
	LeaderEpoch int32
	Replicas    []int32
	ISR         []int32
	ELR         []int32 // eligible leader replicas (KIP-966, Kafka 4.1+)
}

// TopicInfo is one topic in a client's metadata.
type TopicInfo struct {
	Err        protocol.ErrorCode
	ID         [16]byte
	Partitions []PartitionInfo
}

// Metadata is a client's cache of cluster metadata, refreshed with Metadata
// requests to any known broker. Like Kafka's, it can be stale: a client only
// learns of a leader change when it refreshes.
type Metadata struct {
	net       *rpc.Client
	bootstrap []sim.Addr
	topics    map[string]bool // the topics this client asks about; nil = all
	brokers   map[int32]sim.Addr
	racks     map[int32]string // each broker's rack ("" : none)
	info      map[string]*TopicInfo
	log       func(level Level, msg string)
	// release picks the wording of the topic-error warning (the zero
	// value: release.Default's).
	release release.Version
	// last is the topic last looked up, what info held for it (nil: none)
	// and whether it is tracked: a producer asks about the same topic at
	// every send and every drain, and a map lookup hashes the name (in
	// software in wasm: a twentieth of a produce workload there). Every
	// change to topics or info empties it.
	last topicMemo

	inFlight    bool
	needUpdate  bool
	lastUpdate  sim.Time
	updated     bool
	backoff     time.Duration
	nextAllowed sim.Time
	rr          int
	// waiters run after the answer to the next request sent: one in
	// flight when they were added may not name the topics they wait for.
	waiters     []func(env *sim.Env)
	timer       *sim.Timer
	allowCreate bool
	onUpdate    func(env *sim.Env)
	// stuck hears why a topic stays unknown (the owning client's; nil
	// for none).
	stuck *stuckReporter
	// noController is the last answer's protocol.CauseNoController: the
	// broker that answered knows no active controller. Nil otherwise.
	noController *protocol.Cause
}

// NewMetadata makes a cache that starts from the bootstrap servers.
func NewMetadata(net *rpc.Client, bootstrap []sim.Addr, allowAutoCreate bool, log func(Level, string)) *Metadata {
	return &Metadata{net: net, bootstrap: bootstrap, brokers: map[int32]sim.Addr{}, info: map[string]*TopicInfo{}, allowCreate: allowAutoCreate, log: log}
}

// Add makes the cache track topic; it reports whether the topic is new
// (and so an update is wanted).
func (m *Metadata) Add(topic string) bool {
	if m.topics == nil {
		m.topics = map[string]bool{}
	}
	if m.lookup(topic).tracked {
		return false
	}
	m.topics[topic] = true
	m.forget()
	m.needUpdate = true
	m.backoff = 0 // a new topic resets the backoff (requestUpdateForNewTopics)
	m.nextAllowed = 0
	return true
}

// Remove stops tracking topic and forgets what is known of it, as
// Kafka's metadata drops a topic it no longer retains: the next request
// leaves it out.
func (m *Metadata) Remove(topic string) {
	delete(m.topics, topic)
	delete(m.info, topic)
	m.forget()
}

// lookup is the memo of topic (last), filled from the maps if it holds
// another topic.
func (m *Metadata) lookup(topic string) *topicMemo {
	if !m.last.ok || m.last.name != topic {
		m.last.name, m.last.info, m.last.tracked, m.last.ok = topic, m.info[topic], m.topics[topic], true
	}
	return &m.last
}

// topicMemo is what Metadata knew of one topic when it last looked (ok:
// it holds a topic).
type topicMemo struct {
	name    string
	info    *TopicInfo
	tracked bool
	ok      bool
}

// forget empties the memo: topics or info changed.
func (m *Metadata) forget() { m.last.ok, m.last.info = false, nil }

// Topic returns what is known of topic, or nil.
func (m *Metadata) Topic(topic string) *TopicInfo { return m.lookup(topic).info }

// Leader returns the address and id of a partition's leader, if known.
func (m *Metadata) Leader(topic string, p int32) (sim.Addr, int32, bool) {
	t := m.lookup(topic).info
	if t == nil || p < 0 || int(p) >= len(t.Partitions) {
		return "", -1, false
	}
	id := t.Partitions[p].Leader
	addr, ok := m.brokers[id]
	return addr, id, ok && id >= 0
}

// NodeString is broker id as Kafka's Node.toString prints it:
// "host:port (id: 1 rack: a)", the rack null without one.
func (m *Metadata) NodeString(addr sim.Addr, id int32) string {
	rack := m.racks[id]
	if rack == "" {
		rack = "null"
	}
	return fmt.Sprintf("%s (id: %d rack: %s)", addr, id, rack)
}

// BrokerAddr returns a known broker's address.
func (m *Metadata) BrokerAddr(id int32) (sim.Addr, bool) {
	a, ok := m.brokers[id]
	return a, ok
}

// nodeID returns the id of the known broker at addr.
func (m *Metadata) nodeID(addr sim.Addr) (int32, bool) {
	for id, a := range m.brokers {
		if a == addr {
			return id, true
		}
	}
	return -1, false
}

// Updated reports whether any metadata response has arrived.
func (m *Metadata) Updated() bool { return m.updated }

// OnUpdate registers a function run after every successful update.
func (m *Metadata) OnUpdate(fn func(env *sim.Env)) { m.onUpdate = fn }

// UpdateRequested reports whether an update is wanted and not yet sent
// (Metadata.updateRequested).
func (m *Metadata) UpdateRequested() bool { return m.needUpdate }

// RequestUpdate asks for a refresh as soon as the backoff allows.
func (m *Metadata) RequestUpdate(env *sim.Env) {
	m.needUpdate = true
	m.maybeUpdate(env)
}

// Await runs fn after the answer to the next request sent (not one
// already in flight), as ensureFreshMetadata waits for an update that
// asked for the topics tracked now.
func (m *Metadata) Await(env *sim.Env, fn func(env *sim.Env)) {
	m.waiters = append(m.waiters, fn)
	m.RequestUpdate(env)
}

func (m *Metadata) nodes() []sim.Addr {
	if len(m.brokers) == 0 {
		return m.bootstrap
	}
	ids := make([]int32, 0, len(m.brokers))
	for id := range m.brokers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]sim.Addr, len(ids))
	for i, id := range ids {
		out[i] = m.brokers[id]
	}
	return out
}

// maybeUpdate sends a Metadata request if one is wanted and allowed.
func (m *Metadata) maybeUpdate(env *sim.Env) {
	if m.inFlight || !m.needUpdate {
		return
	}
	if env.Now() < m.nextAllowed {
		if !m.timer.Pending() {
			m.timer = env.After(m.nextAllowed.Sub(env.Now()), "metadata-backoff", m.maybeUpdate)
		}
		return
	}
	nodes := m.nodes()
	to := nodes[m.rr%len(nodes)]
	m.rr++
	var topics []string
	if m.topics != nil {
		for t := range m.topics {
			topics = append(topics, t)
		}
		slices.Sort(topics)
	}
	m.inFlight = true
	m.needUpdate = false
	waiters := m.waiters
	m.waiters = nil
	req := &protocol.MetadataRequest{Topics: topics, AllowAutoTopicCreation: m.allowCreate}
	if topics == nil && m.topics != nil {
		req.Topics = []string{}
	}
	m.net.Send(env, to, req, 30*time.Second, func(env *sim.Env, resp protocol.Response, err error) {
		m.inFlight = false
		r, _ := resp.(*protocol.MetadataResponse)
		if err != nil {
			m.waiters = append(waiters, m.waiters...) // they wait for the retry
			m.needUpdate = true
			m.backoff = min(max(2*m.backoff, 50*time.Millisecond), time.Second)
			m.nextAllowed = env.Now().Add(m.backoff)
			m.maybeUpdate(env)
			return
		}
		m.apply(env, r, waiters)
	})
}

func (m *Metadata) apply(env *sim.Env, r *protocol.MetadataResponse, waiters []func(env *sim.Env)) {
	m.noController = nil
	if r.Cause != nil && r.Cause.Kind == protocol.CauseNoController {
		m.noController = r.Cause
	}
	m.updated = true
	m.lastUpdate = env.Now()
	if len(r.Brokers) > 0 {
		m.brokers, m.racks = map[int32]sim.Addr{}, map[int32]string{}
		for _, b := range r.Brokers {
			m.brokers[b.NodeID] = sim.Addr(fmt.Sprintf("%s:%d", b.Host, b.Port))
			m.racks[b.NodeID] = b.Rack
		}
	}
	errs := map[string]protocol.ErrorCode{}
	var errNames []string
	for _, t := range r.Topics {
		ti := &TopicInfo{Err: t.ErrorCode, ID: t.TopicID}
		for _, p := range t.Partitions {
			for int(p.Index) >= len(ti.Partitions) {
				ti.Partitions = append(ti.Partitions, PartitionInfo{Leader: -1})
			}
			ti.Partitions[p.Index] = PartitionInfo{Leader: p.LeaderID, LeaderEpoch: p.LeaderEpoch, Replicas: p.Replicas, ISR: p.ISR, ELR: p.ELR}
		}
		if t.ErrorCode != protocol.NONE {
			errs[t.Name] = t.ErrorCode
			delete(m.info, t.Name)
			m.forget()
			m.stuck.stuck(env, scopeTopic(t.Name), t.Cause)
			continue
		}
		if m.topics != nil && !m.topics[t.Name] {
			continue // removed while the request was in flight (Kafka's retainTopic)
		}
		m.stuck.cleared(scopeTopic(t.Name))
		m.info[t.Name] = ti
		m.forget()
	}
	// MetadataResponse.errors() holds topic-level errors only (a leaderless
	// partition is not reported), in HashMap order.
	var names []string
	for n := range errs {
		names = append(names, n)
	}
	slices.Sort(names)
	errNames = jdk.HashSetOrder(names)
	if len(errNames) > 0 {
		s := "{"
		for i, n := range errNames {
			if i > 0 {
				s += ", "
			}
			s += n + "=" + errs[n].String()
		}
		s += "}"
		// NetworkClient's warning; 4.0 reworded it (3.8.0:1213, 4.1.0:1295).
		if m.release != (release.Version{}) && !m.release.AtLeast(4, 0) {
			m.log(LevelWarn, fmt.Sprintf("Error while fetching metadata with correlation id %d : %s", r.CorrelationID, s))
		} else {
			m.log(LevelWarn, fmt.Sprintf("The metadata response from the cluster reported a recoverable issue with correlation id %d : %s", r.CorrelationID, s))
		}
		// Keep asking, backing off 100 ms doubling to 1 s.
		m.backoff = min(max(2*m.backoff, 100*time.Millisecond), time.Second)
		m.nextAllowed = env.Now().Add(m.backoff)
		m.needUpdate = true
	} else {
		m.backoff = 0
		m.nextAllowed = env.Now().Add(100 * time.Millisecond)
	}
	for _, w := range waiters {
		w(env)
	}
	if m.onUpdate != nil {
		m.onUpdate(env)
	}
	m.maybeUpdate(env)
}

// TopicNameByID finds the topic with id among those the cache knows (the
// consumer protocol sends assignments by topic id).
func (m *Metadata) TopicNameByID(id [16]byte) (string, bool) {
	names := make([]string, 0, len(m.info))
	for n := range m.info {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if m.info[n].ID == id {
			return n, true
		}
	}
	return "", false
}

// PartitionRacks is each partition's replica racks for the topics the
// cache knows (Kafka's Cluster: a replica whose broker is not in the
// metadata, or has no rack, adds none), each partition's racks sorted
// and distinct; nil when no broker in the metadata has a rack.
func (m *Metadata) PartitionRacks(topics []string) group.PartitionRacks {
	anyRack := false
	for _, r := range m.racks {
		anyRack = anyRack || r != ""
	}
	if !anyRack {
		return nil
	}
	out := group.PartitionRacks{}
	for _, t := range topics {
		info := m.Topic(t)
		if info == nil {
			continue
		}
		parts := make([][]string, len(info.Partitions))
		for i, p := range info.Partitions {
			for _, id := range p.Replicas {
				if r := m.racks[id]; r != "" && !slices.Contains(parts[i], r) {
					parts[i] = append(parts[i], r)
				}
			}
			slices.Sort(parts[i])
		}
		out[t] = parts
	}
	return out
}
