package group

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func tp(topic string, p int32) TopicPartition { return TopicPartition{topic, p} }

func tps(a ...TopicPartition) []TopicPartition { return a }

// initial is AbstractStickyAssignorTest.subscription(topics, i): a member
// that has never had an assignment.
func initial(id string, topics ...string) Member {
	return Member{ID: id, Topics: topics, GenerationID: DefaultGeneration}
}

// stickyV2 is StickyAssignorTest.buildSubscriptionV2Above: the previous
// assignment in user data and as owned partitions, with its generation.
func stickyV2(id string, topics []string, owned []TopicPartition, gen int32) Member {
	return Member{ID: id, Topics: topics, UserData: EncodeStickyUserData(owned, gen), OwnedPartitions: owned, GenerationID: gen}
}

// coopV2 is CooperativeStickyAssignorTest.buildSubscriptionV2Above.
func coopV2(id string, topics []string, owned []TopicPartition, gen int32) Member {
	return Member{ID: id, Topics: topics, UserData: NewCooperativeStickyAssignor().SubscriptionUserData(topics), OwnedPartitions: owned, GenerationID: gen}
}

func show(list []TopicPartition) string {
	var s []string
	for _, tp := range list {
		s = append(s, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func expect(t *testing.T, a Assignment, id string, want ...TopicPartition) {
	t.Helper()
	if show(a[id]) != show(want) {
		t.Errorf("%s: got %s, want %s", id, show(a[id]), show(want))
	}
}

func expectSet(t *testing.T, a Assignment, id string, want ...TopicPartition) {
	t.Helper()
	got := slices.Clone(a[id])
	slices.SortFunc(got, compareTP)
	slices.SortFunc(want, compareTP)
	if show(got) != show(want) {
		t.Errorf("%s: got %s, want the set %s", id, show(got), show(want))
	}
}

func compareTP(x, y TopicPartition) int {
	if c := strings.Compare(x.Topic, y.Topic); c != 0 {
		return c
	}
	return int(x.Partition - y.Partition)
}

// verifyValid is AbstractStickyAssignorTest.verifyValidityAndBalance's
// core: members get only subscribed topics' partitions, every partition
// of a subscribed topic goes to exactly one member, and no member could
// take a partition from one with two or more partitions more.
func verifyValid(t *testing.T, members []Member, parts map[string]int32, a Assignment) {
	t.Helper()
	seen := map[TopicPartition]string{}
	subscribed := map[string]bool{}
	for _, m := range members {
		for _, topic := range m.Topics {
			subscribed[topic] = true
		}
		for _, x := range a[m.ID] {
			if !slices.Contains(m.Topics, x.Topic) {
				t.Errorf("%s got %v of a topic it does not subscribe to", m.ID, x)
			}
			if other, dup := seen[x]; dup {
				t.Errorf("%v assigned to %s and %s", x, other, m.ID)
			}
			seen[x] = m.ID
		}
	}
	for topic, n := range parts {
		for p := int32(0); p < n; p++ {
			if _, ok := seen[tp(topic, p)]; !ok && subscribed[topic] {
				t.Errorf("%s-%d unassigned", topic, p)
			}
		}
	}
	for _, m := range members {
		for _, o := range members {
			if len(a[m.ID])+1 < len(a[o.ID]) {
				for _, x := range a[o.ID] {
					if slices.Contains(m.Topics, x.Topic) {
						t.Errorf("%s (%d) could take %v from %s (%d)", m.ID, len(a[m.ID]), x, o.ID, len(a[o.ID]))
					}
				}
			}
		}
	}
}

// Cases from Kafka 3.8's AbstractStickyAssignorTest and StickyAssignorTest
// that assert exact assignments, run on the eager assignor.
func TestStickyAssignorMatchesKafkasVectors(t *testing.T) {
	all := []string{"topic1", "topic2"}
	t.Run("OneConsumerOneTopic", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 3}, []Member{initial("consumer", "topic")})
		expect(t, a, "consumer", tp("topic", 0), tp("topic", 1), tp("topic", 2))
	})
	t.Run("OnlyAssignsPartitionsFromSubscribedTopics", func(t *testing.T) {
		m := stickyV2("consumer", []string{"topic"}, tps(tp("topic", 0), tp("topic", 1), tp("other", 0), tp("other", 1)), 1)
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 2}, []Member{m})
		expect(t, a, "consumer", tp("topic", 0), tp("topic", 1))
	})
	t.Run("OneConsumerMultipleTopics", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic1": 1, "topic2": 2}, []Member{initial("consumer", all...)})
		expect(t, a, "consumer", tp("topic1", 0), tp("topic2", 0), tp("topic2", 1))
	})
	t.Run("OneConsumerNonexistentTopic", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 0}, []Member{initial("consumer", "topic")})
		if got, ok := a["consumer"]; !ok || len(got) != 0 {
			t.Errorf("got %v", a)
		}
	})
	t.Run("TwoConsumersOneTopicTwoPartitions", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 2}, []Member{initial("consumer1", "topic"), initial("consumer2", "topic")})
		expect(t, a, "consumer1", tp("topic", 0))
		expect(t, a, "consumer2", tp("topic", 1))
	})
	t.Run("MultipleConsumersMixedTopicSubscriptions", func(t *testing.T) {
		s := NewStickyAssignor()
		a := s.Assign(map[string]int32{"topic1": 3, "topic2": 2},
			[]Member{initial("consumer1", "topic1"), initial("consumer2", all...), initial("consumer3", "topic1")})
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic1", 2))
		expect(t, a, "consumer2", tp("topic2", 0), tp("topic2", 1))
		expect(t, a, "consumer3", tp("topic1", 1))
		if s.core.transferring != nil {
			t.Errorf("the general builder leaves partitionsTransferringOwnership null")
		}
	})
	t.Run("TwoConsumersTwoTopicsSixPartitions", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic1": 3, "topic2": 3}, []Member{initial("consumer1", all...), initial("consumer2", all...)})
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic1", 2), tp("topic2", 1))
		expect(t, a, "consumer2", tp("topic1", 1), tp("topic2", 0), tp("topic2", 2))
	})
	t.Run("ConsumerOwningMinQuotaExpectedMaxQuota", func(t *testing.T) {
		s := NewStickyAssignor()
		a := s.Assign(map[string]int32{"topic1": 2, "topic2": 3}, []Member{
			stickyV2("consumer1", all, tps(tp("topic1", 0), tp("topic2", 1)), 1),
			stickyV2("consumer2", all, tps(tp("topic1", 1), tp("topic2", 2)), 1)})
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic2", 1), tp("topic2", 0))
		expect(t, a, "consumer2", tp("topic1", 1), tp("topic2", 2))
		if len(s.core.transferring) != 0 {
			t.Errorf("transferring %v", s.core.transferring)
		}
	})
	t.Run("MaxQuotaConsumerMoreThanNumExpectedMaxCapacityMembers", func(t *testing.T) {
		s := NewStickyAssignor()
		a := s.Assign(map[string]int32{"topic1": 2, "topic2": 2}, []Member{
			stickyV2("consumer1", all, tps(tp("topic1", 0), tp("topic2", 0)), 1),
			stickyV2("consumer2", all, tps(tp("topic1", 1), tp("topic2", 1)), 1),
			stickyV2("consumer3", all, nil, 1)})
		expect(t, a, "consumer1", tp("topic1", 0))
		expect(t, a, "consumer2", tp("topic1", 1), tp("topic2", 1))
		expect(t, a, "consumer3", tp("topic2", 0))
		if fmt.Sprint(s.core.transferring) != fmt.Sprint(map[TopicPartition]string{tp("topic2", 0): "consumer3"}) {
			t.Errorf("transferring %v", s.core.transferring)
		}
	})
	t.Run("AllConsumersAreUnderMinQuota", func(t *testing.T) {
		a := NewStickyAssignor().Assign(map[string]int32{"topic1": 2, "topic2": 3}, []Member{
			stickyV2("consumer1", all, tps(tp("topic1", 0)), 1),
			stickyV2("consumer2", all, tps(tp("topic1", 1)), 1),
			stickyV2("consumer3", all, nil, 1)})
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic2", 1))
		expect(t, a, "consumer2", tp("topic1", 1), tp("topic2", 2))
		expect(t, a, "consumer3", tp("topic2", 0))
	})
	t.Run("AddRemoveConsumerOneTopic", func(t *testing.T) {
		s := NewStickyAssignor()
		parts := map[string]int32{"topic": 3}
		a := s.Assign(parts, []Member{initial("consumer1", "topic")})
		expect(t, a, "consumer1", tp("topic", 0), tp("topic", 1), tp("topic", 2))
		a = s.Assign(parts, []Member{stickyV2("consumer1", []string{"topic"}, a["consumer1"], 1), stickyV2("consumer2", []string{"topic"}, nil, 1)})
		expect(t, a, "consumer1", tp("topic", 0), tp("topic", 1))
		expect(t, a, "consumer2", tp("topic", 2))
		a = s.Assign(parts, []Member{stickyV2("consumer2", []string{"topic"}, a["consumer2"], 1)})
		expectSet(t, a, "consumer2", tp("topic", 0), tp("topic", 1), tp("topic", 2))
	})
	t.Run("AddRemoveTwoConsumersTwoTopics", func(t *testing.T) {
		s := NewStickyAssignor()
		parts := map[string]int32{"topic1": 3, "topic2": 4}
		a := s.Assign(parts, []Member{initial("consumer1", all...), initial("consumer2", all...)})
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic1", 2), tp("topic2", 1), tp("topic2", 3))
		expect(t, a, "consumer2", tp("topic1", 1), tp("topic2", 0), tp("topic2", 2))
		a = s.Assign(parts, []Member{stickyV2("consumer1", all, a["consumer1"], 1), stickyV2("consumer2", all, a["consumer2"], 1),
			stickyV2("consumer3", all, nil, 1), stickyV2("consumer4", all, nil, 1)})
		want := map[TopicPartition]string{tp("topic1", 2): "consumer3", tp("topic2", 3): "consumer3", tp("topic2", 2): "consumer4"}
		if fmt.Sprint(s.core.transferring) != fmt.Sprint(want) {
			t.Errorf("transferring %v, want %v", s.core.transferring, want)
		}
		expect(t, a, "consumer1", tp("topic1", 0), tp("topic2", 1))
		expect(t, a, "consumer2", tp("topic2", 0), tp("topic1", 1))
		expect(t, a, "consumer3", tp("topic1", 2), tp("topic2", 3))
		expect(t, a, "consumer4", tp("topic2", 2))
		a = s.Assign(parts, []Member{stickyV2("consumer3", all, a["consumer3"], 1), stickyV2("consumer4", all, a["consumer4"], 1)})
		expect(t, a, "consumer3", tp("topic1", 2), tp("topic2", 3), tp("topic1", 0), tp("topic2", 1))
		expect(t, a, "consumer4", tp("topic2", 2), tp("topic1", 1), tp("topic2", 0))
	})
	t.Run("AllConsumersReachExpectedQuotaAndAreConsideredFilled", func(t *testing.T) {
		top := []string{"topic"}
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 4}, []Member{
			stickyV2("consumer1", top, tps(tp("topic", 0), tp("topic", 1)), 1),
			stickyV2("consumer2", top, tps(tp("topic", 2)), 1),
			stickyV2("consumer3", top, nil, 1)})
		expect(t, a, "consumer1", tp("topic", 0), tp("topic", 1))
		expect(t, a, "consumer2", tp("topic", 2))
		expect(t, a, "consumer3", tp("topic", 3))
	})
	t.Run("OwnedPartitionsAreInvalidatedForConsumerWithStaleGeneration", func(t *testing.T) {
		top := []string{"topic", "topic2"}
		owned := tps(tp("topic", 0), tp("topic", 2), tp("topic2", 1))
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 3, "topic2": 3}, []Member{
			stickyV2("consumer1", top, owned, 10), stickyV2("consumer2", top, owned, 9)})
		expectSet(t, a, "consumer1", owned...)
		expectSet(t, a, "consumer2", tp("topic", 1), tp("topic2", 0), tp("topic2", 2))
	})
	t.Run("ClaimedByMultipleConsumersInSameGeneration", func(t *testing.T) {
		top := []string{"topic"}
		for _, n := range []int32{3, 4} {
			s := NewStickyAssignor()
			a := s.Assign(map[string]int32{"topic": n}, []Member{
				stickyV2("consumer1", top, tps(tp("topic", 0), tp("topic", 1)), 1),
				stickyV2("consumer2", top, tps(tp("topic", 0), tp("topic", 2)), 1),
				stickyV2("consumer3", top, nil, 1)})
			if n == 3 {
				expect(t, a, "consumer1", tp("topic", 1))
			} else {
				expect(t, a, "consumer1", tp("topic", 1), tp("topic", 3))
			}
			expect(t, a, "consumer2", tp("topic", 2))
			expect(t, a, "consumer3", tp("topic", 0))
			if s.core.transferring[tp("topic", 0)] != "consumer3" {
				t.Errorf("transferring %v", s.core.transferring)
			}
		}
	})
	t.Run("EnsurePartitionsAssignedToHighestGeneration", func(t *testing.T) {
		top := []string{"topic", "topic2", "topic3"}
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 3, "topic2": 3, "topic3": 3}, []Member{
			stickyV2("consumer1", top, tps(tp("topic", 0), tp("topic2", 0), tp("topic3", 0)), 10),
			stickyV2("consumer2", top, tps(tp("topic", 1), tp("topic2", 1), tp("topic3", 1)), 9),
			stickyV2("consumer3", top, tps(tp("topic2", 1), tp("topic3", 0), tp("topic3", 2)), 8)})
		expectSet(t, a, "consumer1", tp("topic", 0), tp("topic2", 0), tp("topic3", 0))
		expectSet(t, a, "consumer2", tp("topic", 1), tp("topic2", 1), tp("topic3", 1))
		expectSet(t, a, "consumer3", tp("topic", 2), tp("topic2", 2), tp("topic3", 2))
	})
	t.Run("NoReassignmentOnCurrentMembers", func(t *testing.T) {
		top := []string{"topic", "topic2", "topic3", "topic1"}
		noGen := stickyV2("consumer1", top, nil, 0)
		noGen.UserData = EncodeStickyUserData(nil, DefaultGeneration)
		a := NewStickyAssignor().Assign(map[string]int32{"topic": 3, "topic1": 3, "topic2": 3, "topic3": 3}, []Member{
			noGen,
			stickyV2("consumer2", top, tps(tp("topic", 0), tp("topic2", 0), tp("topic1", 0)), 9),
			stickyV2("consumer3", top, tps(tp("topic3", 2), tp("topic2", 2), tp("topic1", 1)), 8),
			stickyV2("consumer4", top, tps(tp("topic3", 1), tp("topic", 1), tp("topic", 2)), 7)})
		expectSet(t, a, "consumer1", tp("topic1", 2), tp("topic2", 1), tp("topic3", 0))
	})
	t.Run("AssignorWithOldVersionSubscriptions", func(t *testing.T) {
		top := []string{"topic1"}
		v0 := Member{ID: "consumer1", Topics: top, UserData: EncodeStickyUserData(tps(tp("topic1", 0)), 1), GenerationID: DefaultGeneration}
		v1 := Member{ID: "consumer2", Topics: top, UserData: EncodeStickyUserData(tps(tp("topic1", 1)), 1), OwnedPartitions: tps(tp("topic1", 1)), GenerationID: DefaultGeneration}
		a := NewStickyAssignor().Assign(map[string]int32{"topic1": 3}, []Member{v0, v1, stickyV2("consumer3", top, nil, 1)})
		expect(t, a, "consumer1", tp("topic1", 0))
		expect(t, a, "consumer2", tp("topic1", 1))
		expect(t, a, "consumer3", tp("topic1", 2))
	})
}

// Four consumers on three partitions: the first three member ids get one
// partition each, the last none (scenario 20 with the sticky assignors).
func TestStickyMoreConsumersThanPartitions(t *testing.T) {
	members := []Member{initial("c4", "t"), initial("c2", "t"), initial("c1", "t"), initial("c3", "t")}
	for _, as := range []Assignor{NewStickyAssignor(), NewCooperativeStickyAssignor()} {
		a := as.Assign(map[string]int32{"t": 3}, members)
		expect(t, a, "c1", tp("t", 0))
		expect(t, a, "c2", tp("t", 1))
		expect(t, a, "c3", tp("t", 2))
		expect(t, a, "c4")
	}
}

func TestStickyUserData(t *testing.T) {
	owned := tps(tp("topic1", 0), tp("topic2", 1))
	data := stickyMemberData(Member{UserData: EncodeStickyUserData(owned, 0)})
	if show(data.partitions) != show(owned) || !data.hasGeneration || data.generation != 0 {
		t.Errorf("round trip: %+v", data)
	}
	// Version 0 had no generation.
	v1 := EncodeStickyUserData(owned, 7)
	data = stickyMemberData(Member{UserData: v1[:len(v1)-4]})
	if show(data.partitions) != show(owned) || data.hasGeneration {
		t.Errorf("v0: %+v", data)
	}
	// Garbage is ignored, with the default generation.
	data = stickyMemberData(Member{UserData: []byte{0, 0, 0, 5, 1}})
	if len(data.partitions) != 0 || !data.hasGeneration || data.generation != DefaultGeneration {
		t.Errorf("garbage: %+v", data)
	}
	// The eager assignor always believes its user data, not the
	// subscription's owned partitions (testMemberDataWillHonorUserData).
	data = stickyMemberData(Member{UserData: EncodeStickyUserData(owned, 0), GenerationID: 1})
	if data.generation != 0 {
		t.Errorf("generation %d", data.generation)
	}
	s := NewStickyAssignor()
	if s.SubscriptionUserData(nil) != nil {
		t.Errorf("no user data before the first assignment")
	}
	s.OnAssignment(tps(tp("a", 1)), 3)
	want := []byte{0, 0, 0, 1, 0, 1, 'a', 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 3}
	if got := s.SubscriptionUserData(nil); string(got) != string(want) {
		t.Errorf("user data % x, want % x", got, want)
	}
}

func TestCooperativeStickyAssignor(t *testing.T) {
	top := []string{"topic"}
	t.Run("ClaimedByMultipleConsumersInSameGeneration", func(t *testing.T) {
		for _, n := range []int32{3, 4} {
			a := NewCooperativeStickyAssignor().Assign(map[string]int32{"topic": n}, []Member{
				coopV2("consumer1", top, tps(tp("topic", 0), tp("topic", 1)), 1),
				coopV2("consumer2", top, tps(tp("topic", 0), tp("topic", 2)), 1),
				coopV2("consumer3", top, nil, 1)})
			if n == 3 {
				expect(t, a, "consumer1", tp("topic", 1))
			} else {
				expect(t, a, "consumer1", tp("topic", 1), tp("topic", 3))
			}
			expect(t, a, "consumer2", tp("topic", 2))
			// topic-0 must be revoked by both claimants first.
			expect(t, a, "consumer3")
		}
	})
	t.Run("AssignorWithOldVersionSubscriptions", func(t *testing.T) {
		v1 := func(id string, owned ...TopicPartition) Member {
			c := NewCooperativeStickyAssignor()
			c.OnAssignment(owned, 1)
			return Member{ID: id, Topics: []string{"topic1"}, UserData: c.SubscriptionUserData(nil), OwnedPartitions: owned, GenerationID: DefaultGeneration}
		}
		a := NewCooperativeStickyAssignor().Assign(map[string]int32{"topic1": 3}, []Member{
			v1("consumer1", tp("topic1", 0)), v1("consumer2", tp("topic1", 1)), coopV2("consumer3", []string{"topic1"}, nil, 1)})
		expect(t, a, "consumer1", tp("topic1", 0))
		expect(t, a, "consumer2", tp("topic1", 1))
		expect(t, a, "consumer3", tp("topic1", 2))
	})
	t.Run("TwoRoundsToMoveAPartition", func(t *testing.T) {
		// A second member joins: the first keeps topic-0 and revokes
		// topic-1, which the second gets only in the next rebalance.
		c := NewCooperativeStickyAssignor()
		parts := map[string]int32{"topic": 2}
		a := c.Assign(parts, []Member{coopV2("consumer1", top, tps(tp("topic", 0), tp("topic", 1)), 1), coopV2("consumer2", top, nil, DefaultGeneration)})
		expect(t, a, "consumer1", tp("topic", 0))
		expect(t, a, "consumer2")
		a = c.Assign(parts, []Member{coopV2("consumer1", top, a["consumer1"], 2), coopV2("consumer2", top, nil, 2)})
		expect(t, a, "consumer1", tp("topic", 0))
		expect(t, a, "consumer2", tp("topic", 1))
	})
	t.Run("MemberData", func(t *testing.T) {
		c := NewCooperativeStickyAssignor()
		d := cooperativeMemberData(Member{Topics: top, UserData: c.SubscriptionUserData(top), GenerationID: DefaultGeneration})
		if !d.hasGeneration || d.generation != DefaultGeneration {
			t.Errorf("encoded default generation: %+v", d)
		}
		c.OnAssignment(nil, 10)
		d = cooperativeMemberData(Member{Topics: top, UserData: c.SubscriptionUserData(top), GenerationID: DefaultGeneration})
		if d.generation != 10 {
			t.Errorf("encoded generation: %+v", d)
		}
		if d := cooperativeMemberData(Member{Topics: top, GenerationID: DefaultGeneration}); d.hasGeneration {
			t.Errorf("no user data, no generation: %+v", d)
		}
		// The subscription's owned partitions win over anything else.
		d = cooperativeMemberData(Member{UserData: c.SubscriptionUserData(top), OwnedPartitions: tps(tp("topic", 0)), GenerationID: DefaultGeneration})
		if show(d.partitions) != "[topic-0]" || d.generation != 10 {
			t.Errorf("inconsistent data: %+v", d)
		}
	})
}

// Randomised churn in the spirit of testReassignmentWithRandomSubscriptionsAndChanges:
// every assignment is valid and balanced, sticky keeps every partition that
// stays assigned within one move, and cooperative never gives a partition
// to a new owner while another member still owns it.
func TestStickyAssignorsRandomChurn(t *testing.T) {
	seed := uint32(12345)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	topics := []string{"t1", "t2", "t3", "t4"}
	for round := 0; round < 80; round++ {
		parts := map[string]int32{}
		for _, topic := range topics {
			parts[topic] = int32(1 + rnd(6))
		}
		n := 1 + rnd(7)
		var members []Member
		for i := 0; i < n; i++ {
			var subs []string
			for _, topic := range topics {
				if round%2 == 0 || rnd(2) == 0 {
					subs = append(subs, topic)
				}
			}
			if len(subs) == 0 {
				subs = []string{"t1"}
			}
			members = append(members, initial(fmt.Sprintf("consumer-%d", rnd(1000)+i*1000), subs...))
		}
		s, c := NewStickyAssignor(), NewCooperativeStickyAssignor()
		a := s.Assign(parts, members)
		verifyValid(t, members, parts, a)
		// A member leaves; the others report what they had.
		next := []Member{}
		for _, m := range members[1:] {
			next = append(next, stickyV2(m.ID, m.Topics, a[m.ID], 1))
		}
		b := s.Assign(parts, next)
		verifyValid(t, next, parts, b)
		if s.core.movements != nil && !s.core.movements.isSticky() {
			t.Errorf("round %d: partitions moved both ways", round)
		}
		// Cooperative: repeat rebalances until nothing is revoked.
		owned := Assignment{}
		gen := int32(1)
		cur := members
		for i := 0; i < 5; i++ {
			out := c.Assign(parts, cur)
			revoked := false
			for _, m := range cur {
				for _, x := range out[m.ID] {
					for _, o := range cur {
						if o.ID != m.ID && slices.Contains(owned[o.ID], x) {
							t.Fatalf("round %d: %v given to %s while %s owns it", round, x, m.ID, o.ID)
						}
					}
				}
				for _, x := range owned[m.ID] {
					revoked = revoked || !slices.Contains(out[m.ID], x)
				}
			}
			owned = out
			gen++
			var again []Member
			for _, m := range cur {
				again = append(again, coopV2(m.ID, m.Topics, out[m.ID], gen))
			}
			cur = again
			if !revoked && i > 0 {
				break
			}
		}
		verifyValid(t, cur, parts, owned)
	}
}

func TestPickRebalanceProtocol(t *testing.T) {
	r, _ := NewAssignor("org.apache.kafka.clients.consumer.RangeAssignor")
	c, _ := NewAssignor("cooperative-sticky")
	if p, ok := PickRebalanceProtocol([]Assignor{r, c}); !ok || p != Eager {
		t.Errorf("default strategy: %v %v", p, ok)
	}
	if p, ok := PickRebalanceProtocol([]Assignor{c}); !ok || p != Cooperative {
		t.Errorf("cooperative-sticky alone: %v %v", p, ok)
	}
	if _, ok := NewAssignor("org.example.Nope"); ok {
		t.Errorf("unknown class accepted")
	}
	for _, name := range AssignorNames() {
		a, ok := NewAssignor(name)
		if !ok || a.Name() != name || classNames[a.ClassName()] != name {
			t.Errorf("%s: %v", name, a)
		}
	}
}
