package group

import (
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
)

// The target assignment builder of the consumer rebalance protocol:
// Kafka 4.3's TargetAssignmentBuilder.ConsumerTargetAssignmentBuilder
// (modern/TargetAssignmentBuilder.java) with the rules of ConsumerGroup
// that choose its inputs (the preferred server assignor, the subscription
// type). The group coordinator runs it on the first heartbeat that finds
// the group epoch ahead of the assignment epoch.

// TargetMember is a ConsumerGroupMember as the builder reads it.
type TargetMember struct {
	MemberID   string
	InstanceID string // "" = dynamic
	RackID     string
	// SubscribedTopicNames in the order the member's HashSet<String> was
	// filled: a replayed member's record lists them sorted; a member
	// updated by this heartbeat has the request's order.
	SubscribedTopicNames []string
	SubscribedTopicRegex string // "" = none
}

// MemberUpdate is one addOrUpdateMember (Member set) or removeMember
// (Member nil) call on the builder.
type MemberUpdate struct {
	MemberID string
	Member   *TargetMember
}

// TargetAssignmentInput is what GroupMetadataManager hands the builder.
type TargetAssignmentInput struct {
	GroupEpoch int32
	Assignor   ServerAssignor
	// Members is group.members() in its TimelineHashMap order
	// (jdk.BaseHashTable replays it).
	Members []TargetMember
	// StaticMembers maps instance ids to member ids (looked up only).
	StaticMembers map[string]string
	// SubscriptionType is the group's, as ComputeSubscriptionType gives
	// it over the members including the updated one.
	SubscriptionType SubscriptionType
	// TargetAssignment is the group's current target of each member, as
	// AssignmentFromRecord left it (looked up only).
	TargetAssignment map[string]MemberAssignment
	Topics           TopicImage
	// ResolvedRegularExpressions maps a regex to its resolved topic
	// names, in the order its set was filled (looked up only).
	ResolvedRegularExpressions map[string][]string
	// Updates are the addOrUpdateMember/removeMember calls in call order.
	Updates []MemberUpdate
}

// TargetAssignmentRecord is one ConsumerGroupTargetAssignmentMember
// record: the member's new target, topics and partitions in the order of
// the assignor's map.
type TargetAssignmentRecord struct {
	MemberID   string
	Partitions MemberAssignment
}

// TargetAssignmentResult is TargetAssignmentResult: the records in the
// order Kafka writes them (then one ConsumerGroupTargetAssignmentMetadata
// at AssignmentEpoch and the current time) and every member's new target.
type TargetAssignmentResult struct {
	Records          []TargetAssignmentRecord
	AssignmentEpoch  int32
	TargetAssignment GroupAssignment
	// MemberOrder is memberSpecs.keySet(): the member order the assignor
	// saw, which the records follow.
	MemberOrder []string
}

// MemberSpecOrder is the iteration order of the builder's memberSpecs, a
// default java.util.HashMap<String, ...>: the group's members put in
// their order, then the updates applied in the order of the updatedMembers
// HashMap (itself filled in call order; a repeated id keeps its first
// place and its last value). A put of a present id keeps its place; a
// removal leaves the table as large as it grew.
func MemberSpecOrder(members []string, updates []MemberUpdate) []string {
	specs := newJavaHashSet(jdk.StringHashCode)
	for _, id := range members {
		specs.add(id)
	}
	for _, u := range orderedUpdates(updates) {
		if u.Member == nil {
			specs.remove(u.MemberID)
		} else {
			specs.add(u.MemberID)
		}
	}
	return specs.ordered()
}

// orderedUpdates is the updatedMembers HashMap in its iteration order.
func orderedUpdates(updates []MemberUpdate) []MemberUpdate {
	var firsts []MemberUpdate
	last := map[string]MemberUpdate{}
	for _, u := range updates {
		if _, ok := last[u.MemberID]; !ok {
			firsts = append(firsts, u)
		}
		last[u.MemberID] = u
	}
	hashes := make([]int32, len(firsts))
	for i, u := range firsts {
		hashes[i] = jdk.StringHashCode(u.MemberID)
	}
	out := make([]MemberUpdate, 0, len(firsts))
	for _, i := range jdk.HashOrder(hashes) {
		out = append(out, last[firsts[i].MemberID])
	}
	return out
}

// subscribedTopicIDs is newMemberSubscriptionAndAssignment's TopicIds:
// the member's names, or its regex's topics, or their UnionSet (the
// larger set first, then the other's topics not in it), resolved against
// the image, names without a topic skipped.
func subscribedTopicIDs(m TargetMember, resolved map[string][]string, topics TopicImage) []metadata.Uuid {
	names := jdk.HashSetOrder(dedupe(m.SubscribedTopicNames))
	if m.SubscribedTopicRegex != "" {
		if regexTopics, ok := resolved[m.SubscribedTopicRegex]; ok {
			regexNames := jdk.HashSetOrder(dedupe(regexTopics))
			switch {
			case len(names) == 0:
				names = regexNames
			case len(regexNames) > 0:
				large, small := regexNames, names
				if len(names) > len(regexNames) {
					large, small = names, regexNames
				}
				union := append([]string(nil), large...)
				inLarge := map[string]bool{}
				for _, n := range large {
					inLarge[n] = true
				}
				for _, n := range small {
					if !inLarge[n] {
						union = append(union, n)
					}
				}
				names = union
			}
		}
	}
	var out []metadata.Uuid
	for _, n := range names {
		if id, ok := topics.TopicID(n); ok {
			out = append(out, id)
		}
	}
	return out
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// BuildTargetAssignment is TargetAssignmentBuilder.build.
func BuildTargetAssignment(in TargetAssignmentInput) (TargetAssignmentResult, error) {
	byID := map[string]TargetMember{}
	var memberIDs []string
	for _, m := range in.Members {
		byID[m.MemberID] = m
		memberIDs = append(memberIDs, m.MemberID)
	}
	assignmentOf := map[string]MemberAssignment{}
	for _, m := range in.Members {
		assignmentOf[m.MemberID] = in.TargetAssignment[m.MemberID]
	}
	for _, u := range orderedUpdates(in.Updates) {
		if u.Member == nil {
			continue
		}
		byID[u.MemberID] = *u.Member
		a := in.TargetAssignment[u.MemberID]
		// A new static member replacing a departed one inherits its target.
		if u.Member.InstanceID != "" {
			if prev, ok := in.StaticMembers[u.Member.InstanceID]; ok && prev != u.MemberID {
				a = in.TargetAssignment[prev]
			}
		}
		assignmentOf[u.MemberID] = a
	}

	order := MemberSpecOrder(memberIDs, in.Updates)
	spec := GroupSpec{
		SubscriptionType:         in.SubscriptionType,
		InvertedTargetAssignment: InvertTargets(in.TargetAssignment),
	}
	for _, id := range order {
		m := byID[id]
		spec.Members = append(spec.Members, MemberSpec{
			MemberID:           id,
			InstanceID:         m.InstanceID,
			RackID:             m.RackID,
			SubscribedTopicIDs: subscribedTopicIDs(m, in.ResolvedRegularExpressions, in.Topics),
			Assignment:         assignmentOf[id],
		})
	}
	assigned, err := in.Assignor.Assign(spec, in.Topics)
	if err != nil {
		return TargetAssignmentResult{}, err
	}

	out := TargetAssignmentResult{AssignmentEpoch: in.GroupEpoch, TargetAssignment: assigned, MemberOrder: order}
	for _, id := range order {
		next := assigned[id]
		if next == nil {
			next = MemberAssignment{}
		}
		if old, ok := in.TargetAssignment[id]; !ok || !next.Equal(old) {
			out.Records = append(out.Records, TargetAssignmentRecord{MemberID: id, Partitions: next})
		}
	}
	return out, nil
}

// AssignorCount is one entry of ConsumerGroup.serverAssignors: how many
// members ask for a server assignor.
type AssignorCount struct {
	Name  string
	Count int
}

// PreferredServerAssignor is ConsumerGroup.computePreferredServerAssignor
// for a member whose ServerAssignor goes from oldAssignor to newAssignor
// ("" = none): the group's counts (in the serverAssignors TimelineHashMap
// order) copied into a HashMap (JDK 21's HashMap(Map)), the member's old
// choice decremented (dropped at zero), its new one incremented, and the
// first entry with the highest count in the copy's iteration order
// (Stream.max keeps the earlier of equals). ok is false when no member
// names one; the coordinator then uses the first of
// group.consumer.assignors, "uniform".
func PreferredServerAssignor(counts []AssignorCount, oldAssignor, newAssignor string) (name string, ok bool) {
	table := newJavaHashMapCopy(jdk.StringHashCode, len(counts))
	value := map[string]int{}
	for _, c := range counts {
		table.add(c.Name)
		value[c.Name] = c.Count
	}
	if oldAssignor != "" && table.contains(oldAssignor) {
		if value[oldAssignor] <= 1 {
			table.remove(oldAssignor)
			delete(value, oldAssignor)
		} else {
			value[oldAssignor]--
		}
	}
	if newAssignor != "" {
		table.add(newAssignor)
		value[newAssignor]++
	}
	best := -1
	for _, n := range table.ordered() {
		if value[n] > best {
			name, best, ok = n, value[n], true
		}
	}
	return name, ok
}

// ComputeSubscriptionType is ConsumerGroup.subscriptionType over the
// members (including the one updated by the heartbeat). Without regexes
// the group is homogeneous iff every subscribed name has every member as
// a subscriber; with regexes, iff all members use one and the same regex
// and none subscribes by name. A member has at most one regex.
func ComputeSubscriptionType(members []TargetMember) SubscriptionType {
	regexCount := map[string]int{}
	nameCount := map[string]int{}
	for _, m := range members {
		if m.SubscribedTopicRegex != "" {
			regexCount[m.SubscribedTopicRegex]++
		}
		for _, n := range dedupe(m.SubscribedTopicNames) {
			nameCount[n]++
		}
	}
	if len(regexCount) == 0 {
		for _, c := range nameCount {
			if c != len(members) {
				return Heterogeneous
			}
		}
		return Homogeneous
	}
	if len(regexCount) == 1 && len(nameCount) == 0 {
		for _, c := range regexCount {
			if c == len(members) {
				return Homogeneous
			}
		}
	}
	return Heterogeneous
}
