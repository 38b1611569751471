package group

import (
	"encoding/binary"
	"errors"
	"slices"

	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
)

// StickyAssignor is Kafka's StickyAssignor ("sticky", eager): each member
// sends its previous assignment and generation as subscription user data
// (version 1 of the assignor's user data schema), since an eager member
// has given its partitions up by the time it joins.
type StickyAssignor struct {
	core       stickyCore
	assignment []TopicPartition // memberAssignment; nil before the first
	assigned   bool
	generation int32
}

// NewStickyAssignor makes a fresh "sticky" assignor.
func NewStickyAssignor() *StickyAssignor {
	return &StickyAssignor{core: newStickyCore(), generation: DefaultGeneration}
}

func (*StickyAssignor) Name() string                            { return "sticky" }
func (*StickyAssignor) ClassName() string                       { return "org.apache.kafka.clients.consumer.StickyAssignor" }
func (*StickyAssignor) SupportedProtocols() []RebalanceProtocol { return []RebalanceProtocol{Eager} }

// OnAssignment remembers the assignment and generation for the next
// subscription.
func (a *StickyAssignor) OnAssignment(partitions []TopicPartition, generation int32) {
	a.assignment, a.assigned, a.generation = slices.Clone(partitions), true, generation
}

// SubscriptionUserData is the previous assignment and generation, or nil
// before the member has had an assignment.
func (a *StickyAssignor) SubscriptionUserData([]string) []byte {
	if !a.assigned {
		return nil
	}
	return EncodeStickyUserData(a.assignment, a.generation)
}

// Assign runs AbstractStickyAssignor with the user data's view of each
// member's previous partitions.
func (a *StickyAssignor) Assign(partitionsPerTopic map[string]int32, members []Member) Assignment {
	return a.AssignWithRacks(partitionsPerTopic, members, nil)
}

// AssignWithRacks is Assign with the partitions' replica racks (KIP-881).
func (a *StickyAssignor) AssignWithRacks(partitionsPerTopic map[string]int32, members []Member, racks PartitionRacks) Assignment {
	return a.core.assignPartitions(partitionsPerTopic, members, racks, stickyMemberData)
}

func stickyMemberData(m Member) memberData {
	if len(m.UserData) == 0 {
		return memberData{partitions: []TopicPartition{}}
	}
	tps, gen, hasGen, ok := DecodeStickyUserData(m.UserData)
	if !ok {
		// An unreadable previous assignment is ignored.
		return memberData{partitions: []TopicPartition{}, generation: DefaultGeneration, hasGeneration: true}
	}
	return memberData{partitions: tps, generation: gen, hasGeneration: hasGen}
}

// EncodeStickyUserData writes StickyAssignor's user data, version 1:
// previous_assignment, an array of (topic STRING, partitions
// ARRAY(INT32)) with the topics in Java HashMap order
// (CollectionUtils.groupPartitionsByTopic), then generation INT32.
func EncodeStickyUserData(partitions []TopicPartition, generation int32) []byte {
	var topics []string
	byTopic := map[string][]int32{}
	for _, tp := range partitions {
		if _, ok := byTopic[tp.Topic]; !ok {
			topics = append(topics, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	topics = jdk.HashSetOrder(topics)
	b := binary.BigEndian.AppendUint32(nil, uint32(len(topics)))
	for _, t := range topics {
		b = binary.BigEndian.AppendUint16(b, uint16(len(t)))
		b = append(b, t...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(byTopic[t])))
		for _, p := range byTopic[t] {
			b = binary.BigEndian.AppendUint32(b, uint32(p))
		}
	}
	return binary.BigEndian.AppendUint32(b, uint32(generation))
}

// errUserData marks user data that is not StickyAssignor's.
var errUserData = errors.New("malformed sticky assignor user data")

// DecodeStickyUserData reads version 1 of StickyAssignor's user data, or
// version 0 (no generation) when version 1 does not fit; ok is false when
// neither does.
func DecodeStickyUserData(b []byte) (partitions []TopicPartition, generation int32, hasGeneration, ok bool) {
	r := protocol.NewReader(b, errUserData)
	n := r.Int32()
	for i := int32(0); i < n && r.Err() == nil; i++ {
		l := r.Int16()
		topic := string(r.Take(int(l)))
		m := r.Int32()
		if m < 0 {
			r.Fail()
		}
		for j := int32(0); j < m && r.Err() == nil; j++ {
			p := r.Int32()
			if r.Err() == nil {
				partitions = append(partitions, TopicPartition{topic, p})
			}
		}
	}
	if n < 0 || r.Err() != nil {
		return nil, 0, false, false
	}
	if partitions == nil {
		partitions = []TopicPartition{}
	}
	gen := r.Int32()
	if r.Err() != nil {
		return partitions, 0, false, true
	}
	return partitions, gen, true, true
}

// CooperativeStickyAssignor is Kafka's CooperativeStickyAssignor
// ("cooperative-sticky"): members keep their partitions while they rejoin
// and report them as ownedPartitions; its user data is only the
// generation. A partition that changes owner is left out of its new
// owner's assignment this round; its old owner revokes it, which makes
// the group rebalance again, and then it is assigned.
type CooperativeStickyAssignor struct {
	core       stickyCore
	generation int32
}

// NewCooperativeStickyAssignor makes a fresh "cooperative-sticky" assignor.
func NewCooperativeStickyAssignor() *CooperativeStickyAssignor {
	return &CooperativeStickyAssignor{core: newStickyCore(), generation: DefaultGeneration}
}

func (*CooperativeStickyAssignor) Name() string { return "cooperative-sticky" }
func (*CooperativeStickyAssignor) ClassName() string {
	return "org.apache.kafka.clients.consumer.CooperativeStickyAssignor"
}

// SupportedProtocols lists COOPERATIVE and EAGER.
func (*CooperativeStickyAssignor) SupportedProtocols() []RebalanceProtocol {
	return []RebalanceProtocol{Cooperative, Eager}
}

func (a *CooperativeStickyAssignor) OnAssignment(_ []TopicPartition, generation int32) {
	a.generation = generation
}

// SubscriptionUserData is the generation as one INT32.
func (a *CooperativeStickyAssignor) SubscriptionUserData([]string) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(a.generation))
}

func cooperativeMemberData(m Member) memberData {
	owned := m.OwnedPartitions
	if owned == nil {
		owned = []TopicPartition{}
	}
	if m.GenerationID >= 0 {
		return memberData{partitions: owned, generation: m.GenerationID, hasGeneration: true}
	}
	switch {
	case m.UserData == nil:
		return memberData{partitions: owned}
	case len(m.UserData) < 4:
		return memberData{partitions: owned, generation: DefaultGeneration, hasGeneration: true}
	}
	return memberData{partitions: owned, generation: int32(binary.BigEndian.Uint32(m.UserData)), hasGeneration: true}
}

// Assign runs AbstractStickyAssignor, then takes out of each new owner's
// assignment the partitions another member still owns.
func (a *CooperativeStickyAssignor) Assign(partitionsPerTopic map[string]int32, members []Member) Assignment {
	return a.AssignWithRacks(partitionsPerTopic, members, nil)
}

// AssignWithRacks is Assign with the partitions' replica racks (KIP-881).
func (a *CooperativeStickyAssignor) AssignWithRacks(partitionsPerTopic map[string]int32, members []Member, racks PartitionRacks) Assignment {
	out := a.core.assignPartitions(partitionsPerTopic, members, racks, cooperativeMemberData)
	transferring := a.core.transferring
	if transferring == nil {
		transferring = transferringOwnership(members, out)
	}
	for tp, id := range transferring {
		out[id] = removeFirst(out[id], tp)
	}
	return out
}

// transferringOwnership is computePartitionsTransferringOwnership: the
// partitions newly assigned to one member that another member owned.
func transferringOwnership(members []Member, out Assignment) map[TopicPartition]string {
	owned := map[string][]TopicPartition{}
	for _, m := range members {
		owned[m.ID] = m.OwnedPartitions
	}
	added := map[TopicPartition]string{}
	revoked := map[TopicPartition]bool{}
	for _, id := range sortedKeys(out) {
		for _, tp := range out[id] {
			if !slices.Contains(owned[id], tp) {
				added[tp] = id
			}
		}
		for _, tp := range owned[id] {
			if !slices.Contains(out[id], tp) {
				revoked[tp] = true
			}
		}
	}
	for tp := range added {
		if !revoked[tp] {
			delete(added, tp)
		}
	}
	return added
}

func sortedKeys(a Assignment) []string {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
