package groupcoordinator

import (
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// groupState is a classic group's state (Kafka's GroupState).
//
//	Empty --join--> PreparingRebalance --all joined or timeout--> CompletingRebalance
//	CompletingRebalance --leader's SyncGroup stored--> Stable
//	Stable/CompletingRebalance --join, leave, expiry--> PreparingRebalance
//	PreparingRebalance --no member left--> Empty;  any --deleted/unloaded--> Dead
type groupState uint8

const (
	groupEmpty groupState = iota
	groupPreparingRebalance
	groupCompletingRebalance
	groupStable
	groupDead
)

func (s groupState) String() string {
	return [...]string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable", "Dead"}[s]
}

// reply is a request parked until the group can answer it (a JoinGroup
// waiting for the rebalance, a SyncGroup waiting for the leader).
type reply struct {
	from sim.Addr
	corr int32
}

// member is one member of a group (Kafka's MemberMetadata).
type member struct {
	id, instanceID, clientID, clientHost string
	rebalanceTimeout, sessionTimeout     time.Duration
	protocolType                         string
	protocols                            []protocol.JoinGroupRequestProtocol
	assignment                           []byte
	join, sync                           *reply
	isNew                                bool
	expiry                               *sim.Timer // session (heartbeat) expiration
}

func (m *member) metadata(protocolName string) []byte {
	for _, p := range m.protocols {
		if p.Name == protocolName {
			return p.Metadata
		}
	}
	return nil
}

func (m *member) supports(name string) bool {
	return slices.ContainsFunc(m.protocols, func(p protocol.JoinGroupRequestProtocol) bool { return p.Name == name })
}

// group is one classic group (Kafka's GroupMetadata). members keeps join
// order in order; leader is the first member to join, and when it leaves
// the first remaining member in that order (Kafka takes the first key of a
// hash map; the simulator takes the oldest member, deterministically).
type group struct {
	id             string
	partition      int32
	state          groupState
	stateTimestamp int64
	protocolType   string
	protocolName   string
	generation     int32
	leader         string
	members        map[string]*member
	order          []string
	// static maps each static member's group.instance.id to its current
	// member id (GroupMetadata.staticMembers): a JoinGroup with a known
	// instance id and no member id replaces that member, and a request
	// from an older member id of the instance is fenced.
	static         map[string]string
	pending        map[string]*sim.Timer // member ids given out with MEMBER_ID_REQUIRED
	newMemberAdded bool
	join           *sim.Timer // the delayed join (initial delay or rebalance timeout)
	initialDelay   bool       // join is the initial delay
	offsets        map[offsetTopicPartition]offsetValue
	pendingOffsets int // commits being written
	// pendingTxn are transactional offset commits waiting for their
	// transaction's marker, by producer id (txnoffsets.go).
	pendingTxn map[int64][]*txnOffset
	// pendingSync: members of this generation that have not sent SyncGroup
	// yet; those still missing after the rebalance timeout are removed.
	pendingSync map[string]bool
	syncTimer   *sim.Timer
	// consumer, when set, makes this a consumer group (KIP-848,
	// consumergroup.go): the classic fields above stay empty but for the
	// offsets, which both kinds keep here.
	consumer *consumerGroup
}

// offsetTopicPartition keys a group's committed offsets.
type offsetTopicPartition struct {
	topic     string
	partition int32
}

func newGroup(id string, partition int32, now int64) *group {
	return &group{id: id, partition: partition, stateTimestamp: now, members: map[string]*member{}, static: map[string]string{},
		pending: map[string]*sim.Timer{}, offsets: map[offsetTopicPartition]offsetValue{}}
}

func (g *group) transition(s groupState, now int64) {
	g.state = s
	g.stateTimestamp = now
}

func (g *group) add(m *member) {
	if len(g.members) == 0 {
		g.protocolType = m.protocolType
	}
	g.members[m.id] = m
	g.order = append(g.order, m.id)
	if m.instanceID != "" {
		g.static[m.instanceID] = m.id
	}
	if g.leader == "" {
		g.leader = m.id
	}
}

func (g *group) remove(id string) {
	if m := g.members[id]; m != nil && m.instanceID != "" {
		delete(g.static, m.instanceID)
	}
	delete(g.members, id)
	g.order = slices.DeleteFunc(g.order, func(s string) bool { return s == id })
	if g.leader == id {
		g.leader = ""
		if len(g.order) > 0 {
			g.leader = g.order[0]
		}
	}
}

// replaceStatic gives the static member oldID the id newID, keeping its
// place in the join order, its leadership and everything else
// (GroupMetadata.replaceStaticMember). The caller answers the old id's
// parked requests first.
func (g *group) replaceStatic(oldID, newID string) *member {
	m := g.members[oldID]
	delete(g.members, oldID)
	m.id = newID
	g.members[newID] = m
	if i := slices.Index(g.order, oldID); i >= 0 {
		g.order[i] = newID
	}
	if g.leader == oldID {
		g.leader = newID
	}
	g.static[m.instanceID] = newID
	return m
}

// validateMember is GroupCoordinator.validateCurrentMember: a request
// naming a group.instance.id must come from the instance's current member
// id (else FENCED_INSTANCE_ID, or UNKNOWN_MEMBER_ID for an instance the
// group does not have); one without must name a member.
func (g *group) validateMember(memberID, instanceID string) protocol.ErrorCode {
	if instanceID != "" {
		switch cur, ok := g.static[instanceID]; {
		case !ok:
			return protocol.UNKNOWN_MEMBER_ID
		case cur != memberID:
			return protocol.FENCED_INSTANCE_ID
		}
		return protocol.NONE
	}
	if g.members[memberID] == nil {
		return protocol.UNKNOWN_MEMBER_ID
	}
	return protocol.NONE
}

// instanceIDOption renders a group.instance.id as Scala's Option does in
// the coordinator's texts: "Some(id)", or "None" for a dynamic member.
func instanceIDOption(id string) string {
	if id == "" {
		return "None"
	}
	return "Some(" + id + ")"
}

func (g *group) sortedMembers() []*member {
	out := make([]*member, 0, len(g.order))
	for _, id := range g.order {
		out = append(out, g.members[id])
	}
	return out
}

// allJoined: every member has rejoined and no member id handed out is
// still on its way back (hasAllMembersJoined).
func (g *group) allJoined() bool {
	for _, m := range g.members {
		if m.join == nil {
			return false
		}
	}
	return len(g.pending) == 0
}

// candidates are the protocols every member supports.
func (g *group) supportsProtocols(protocolType string, protos []protocol.JoinGroupRequestProtocol) bool {
	if len(g.members) == 0 {
		return protocolType != "" && len(protos) > 0
	}
	if protocolType != g.protocolType {
		return false
	}
	for _, p := range protos {
		if g.allSupport(p.Name) {
			return true
		}
	}
	return false
}

func (g *group) allSupport(name string) bool {
	for _, m := range g.members {
		if !m.supports(name) {
			return false
		}
	}
	return true
}

// selectProtocol is GroupMetadata.selectProtocol: among the protocols every
// member supports, each member votes for the first in its own preference
// order; the most votes win (ties: the earliest in the leader's order).
func (g *group) selectProtocol() string {
	votes := map[string]int{}
	for _, m := range g.members {
		for _, p := range m.protocols {
			if g.allSupport(p.Name) {
				votes[p.Name]++
				break
			}
		}
	}
	best, n := "", -1
	if l := g.members[g.leader]; l != nil {
		for _, p := range l.protocols {
			if votes[p.Name] > n {
				best, n = p.Name, votes[p.Name]
			}
		}
	}
	return best
}

// rebalanceTimeout is the largest of the members' rebalance timeouts.
func (g *group) rebalanceTimeout() time.Duration {
	var d time.Duration
	for _, m := range g.members {
		d = max(d, m.rebalanceTimeout)
	}
	return d
}

// value is what the group stores in __consumer_offsets.
func (g *group) value() groupValue {
	v := groupValue{protocolType: g.protocolType, generation: g.generation, protocol: g.protocolName, leader: g.leader, currentStateTimestamp: g.stateTimestamp}
	if len(g.members) == 0 {
		v.protocol, v.leader = "", ""
	}
	for _, m := range g.sortedMembers() {
		v.members = append(v.members, memberValue{memberID: m.id, groupInstanceID: m.instanceID, clientID: m.clientID, clientHost: m.clientHost,
			rebalanceTimeout: int32(m.rebalanceTimeout.Milliseconds()), sessionTimeout: int32(m.sessionTimeout.Milliseconds()),
			subscription: m.metadata(g.protocolName), assignment: m.assignment})
	}
	return v
}
