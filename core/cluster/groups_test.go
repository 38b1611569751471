package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/hashing"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// groupMember is one subscribed consumer run by a test.
type groupMember struct {
	host string
	c    *client.Consumer
	got  []client.ConsumerRecord
}

func startMember(t testing.TB, c *Cluster, group, topic string, strategy ...string) *groupMember {
	t.Helper()
	m := &groupMember{}
	cfg := client.DefaultConsumerConfig()
	cfg.ClientID, cfg.GroupID, cfg.AutoOffsetReset = "test-consumer", group, "earliest"
	if len(strategy) > 0 {
		cfg.AssignmentStrategy = strategy
	}
	host, err := c.SpawnClient("member", func(host string) sim.Process {
		m.c = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, func(client.Level, string, string) {})
		m.c.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { m.got = append(m.got, recs...) })
		return &client.Process{Handlers: []client.Handler{m.c}, OnStart: func(env *sim.Env) {
			m.c.Subscribe(env, sim.Addr(host+":2"), []string{topic})
		}}
	})
	if err != nil {
		t.Fatal(err)
	}
	m.host = host
	return m
}

// coordinatorOf is the leader of the group's __consumer_offsets partition,
// as the controller sees it.
func coordinatorOf(t testing.TB, c *Cluster, group string) int32 {
	t.Helper()
	return leaderOf(t, c, metadata.ConsumerOffsetsTopic, hashing.CoordinatorPartition(group, 50))
}

// leaderOf is the controller's leader of topic-p.
func leaderOf(t testing.TB, c *Cluster, topic string, p int32) int32 {
	t.Helper()
	ctl := c.Controller()
	if ctl == nil {
		t.Fatal("no active controller")
	}
	st := ctl.Image().Partition(topic, p)
	if st == nil {
		t.Fatalf("controller does not know %s-%d", topic, p)
	}
	return st.Leader
}

func describeGroup(t testing.TB, c *Cluster, rc *rawClient, group string) protocol.DescribedGroup {
	t.Helper()
	call := &call{}
	rc.sendAll(t, outgoing{to: coordinatorOf(t, c, group), c: call, build: func(*sim.Env) protocol.Request {
		return &protocol.DescribeGroupsRequest{Groups: []string{group}}
	}})
	rc.wait(t, call, time.Minute)
	return call.resp.(*protocol.DescribeGroupsResponse).Groups[0]
}

func committed(t testing.TB, c *Cluster, rc *rawClient, group, topic string, partitions int32) []int64 {
	t.Helper()
	call := &call{}
	var idx []int32
	for p := int32(0); p < partitions; p++ {
		idx = append(idx, p)
	}
	rc.sendAll(t, outgoing{to: coordinatorOf(t, c, group), c: call, build: func(*sim.Env) protocol.Request {
		return &protocol.OffsetFetchRequest{Groups: []protocol.OffsetFetchRequestGroup{{GroupID: group, MemberEpoch: -1, Topics: []protocol.OffsetFetchRequestTopics{{Name: topic, PartitionIndexes: idx}}}}}
	}})
	rc.wait(t, call, time.Minute)
	g := call.resp.(*protocol.OffsetFetchResponse).Groups[0]
	if g.ErrorCode != protocol.NONE {
		t.Fatalf("OffsetFetch: %s", g.ErrorCode)
	}
	var out []int64
	for _, p := range g.Topics[0].Partitions {
		out = append(out, p.CommittedOffset)
	}
	return out
}

// Four members on three partitions: the range assignor gives 1,1,1,0 and
// the group settles Stable with four members.
func TestGroupFourMembersThreePartitions(t *testing.T) {
	c := newCluster(t, nil)
	createTopic(t, c, "orders", 3, 3)
	var members []*groupMember
	for i := 0; i < 4; i++ {
		members = append(members, startMember(t, c, "search", "orders"))
	}
	runUntil(t, c, func() bool {
		n := 0
		for _, m := range members {
			n += len(m.c.Assignment())
		}
		return n == 3
	}, time.Minute, "the group assigning orders' three partitions")
	advance(t, c, 5*time.Second)
	var counts []int
	for _, m := range members {
		counts = append(counts, len(m.c.Assignment()))
	}
	slices.Sort(counts)
	if !slices.Equal(counts, []int{0, 1, 1, 1}) {
		t.Fatalf("partition counts %v, want [0 1 1 1]", counts)
	}
	d := describeGroup(t, c, newRawClient(t, c, 1), "search")
	if d.GroupState != "Stable" || len(d.Members) != 4 || d.ProtocolData != "range" {
		t.Fatalf("group %+v", d)
	}
	views := c.Node(coordinatorOf(t, c, "search")).Broker.GroupCoordinator().Groups()
	if len(views) != 1 || views[0].ID != "search" || views[0].State != "Stable" || len(views[0].Members) != 4 {
		t.Fatalf("coordinator's view %+v", views)
	}
}

// After everything is consumed and the member closes (committing), the
// committed offsets equal the log end offsets; a coordinator failover keeps
// them (the new leader loads them from __consumer_offsets).
func TestGroupCommitsEqualLogEndAndSurviveFailover(t *testing.T) {
	c := newCluster(t, nil)
	createTopic(t, c, "orders", 2, 3)
	produce(t, c, "orders", -1, "a", "b", "c", "d", "e")
	m := startMember(t, c, "billing", "orders")
	runUntil(t, c, func() bool { return len(m.got) == 5 }, time.Minute, "reading five records")
	closed := false
	if err := c.World.Call(m.host, "close", func(env *sim.Env) { m.c.Close(env, func(*sim.Env) { closed = true }) }); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return closed }, time.Minute, "closing")
	c.StopClient(m.host)
	rc := newRawClient(t, c, 1)
	var leo []int64
	for p := int32(0); p < 2; p++ {
		leo = append(leo, c.Node(leaderOf(t, c, "orders", p)).Broker.Partition(tpOf("orders", p)).Log().LogEndOffset())
	}
	if leo[0]+leo[1] != 5 {
		t.Fatalf("log end offsets %v do not hold the five records", leo)
	}
	if got := committed(t, c, rc, "billing", "orders", 2); !slices.Equal(got, leo) {
		t.Fatalf("committed %v, log end offsets %v", got, leo)
	}
	old := coordinatorOf(t, c, "billing")
	if err := c.Kill(old, false); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return coordinatorOf(t, c, "billing") != old }, time.Minute, "a new coordinator")
	advance(t, c, time.Second)
	if got := committed(t, c, rc, "billing", "orders", 2); !slices.Equal(got, leo) {
		t.Fatalf("after failover committed %v, want %v", got, leo)
	}
	if d := describeGroup(t, c, rc, "billing"); d.GroupState != "Empty" {
		t.Fatalf("loaded group state %s, want Empty", d.GroupState)
	}
}

// The eager StickyAssignor keeps partitions where they were: when a third
// member joins, the first two keep a subset of what they had (range would
// move partitions between them). The member's own last assignment reaches
// the assignor through onAssignment, since an eager member has revoked
// everything by the time it rejoins.
func TestGroupEagerStickyKeepsPartitions(t *testing.T) {
	c := newCluster(t, nil)
	createTopic(t, c, "orders", 6, 3)
	total := func(ms []*groupMember) int {
		n := 0
		for _, m := range ms {
			n += len(m.c.Assignment())
		}
		return n
	}
	a := startMember(t, c, "g", "orders", client.StickyAssignorClass)
	b := startMember(t, c, "g", "orders", client.StickyAssignorClass)
	runUntil(t, c, func() bool { return total([]*groupMember{a, b}) == 6 && len(a.c.Assignment()) == 3 }, time.Minute, "two members sharing six partitions")
	before := []string{fmt.Sprint(a.c.Assignment()), fmt.Sprint(b.c.Assignment())}
	prevA, prevB := a.c.Assignment(), b.c.Assignment()
	third := startMember(t, c, "g", "orders", client.StickyAssignorClass)
	runUntil(t, c, func() bool { return len(third.c.Assignment()) == 2 && total([]*groupMember{a, b, third}) == 6 }, 2*time.Minute, "the third member getting two partitions")
	for i, pair := range [][2][]string{{prevA, a.c.Assignment()}, {prevB, b.c.Assignment()}} {
		for _, tp := range pair[1] {
			if !slices.Contains(pair[0], tp) {
				t.Fatalf("member %d had %v and now has %v: %s moved between old members", i, before[i], pair[1], tp)
			}
		}
		if len(pair[1]) != 2 {
			t.Fatalf("member %d has %v, want 2 partitions", i, pair[1])
		}
	}
}

// A member cut off from every broker for longer than session.timeout.ms
// finds its coordinator again after the heal and rejoins: the coordinator
// it finds gets a full session (Kafka resets the session timer on
// FindCoordinator). Without that it dropped each coordinator it found at
// once, for good (seed 5 of the simulator, issue 8).
func TestGroupMemberRecoversAfterLongerThanASessionCutOff(t *testing.T) {
	c := newCluster(t, nil)
	createTopic(t, c, "orders", 3, 3)
	m := startMember(t, c, "search", "orders")
	runUntil(t, c, func() bool { return len(m.c.Assignment()) == 3 }, time.Minute, "the member getting the three partitions")
	for _, id := range c.NodeIDs() {
		c.World.Net().Cut(m.host, Host(id))
		c.World.Net().Cut(Host(id), m.host)
	}
	advance(t, c, 2*client.DefaultConsumerConfig().SessionTimeout)
	if err := c.Heal(0, 0, true); err != nil {
		t.Fatal(err)
	}
	before := messagesFrom(c)
	advance(t, c, time.Minute)
	// Each drop of the coordinator is followed by a FindCoordinator (the
	// feed's consumer.coordinator-unknown note only tells of coordinators
	// that had answered, so it cannot count drops of one found just now).
	lookups := 0
	for _, e := range c.World.Trace().Since(before) {
		if e.Kind == sim.TraceDeliver && e.Env.From.Host() == m.host && e.Env.Msg.Kind() == "FindCoordinator" {
			lookups++
		}
	}
	if lookups > 3 || len(m.c.Assignment()) != 3 {
		t.Fatalf("a minute after the heal: the member looked its coordinator up %d times; it has %d partitions", lookups, len(m.c.Assignment()))
	}
	d := describeGroup(t, c, newRawClient(t, c, 1), "search")
	if d.GroupState != "Stable" || len(d.Members) != 1 {
		t.Fatalf("group %s with %d members, want Stable with 1", d.GroupState, len(d.Members))
	}
}

// A consumer whose position is past the log end gets OFFSET_OUT_OF_RANGE,
// resets by auto.offset.reset, and reports the reset (OnOffsetReset, which
// the simulator's committed-offset checker counts as the reset it allows).
func TestConsumerReportsAnOffsetReset(t *testing.T) {
	c := newCluster(t, nil)
	createTopic(t, c, "orders", 1, 1)
	produce(t, c, "orders", -1, "a", "b")
	cfg := client.DefaultConsumerConfig()
	cfg.ClientID, cfg.AutoOffsetReset = "resetter", "earliest"
	var resets []int64
	var got []client.ConsumerRecord
	if _, err := c.SpawnClient("resetter", func(host string) sim.Process {
		co := client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, func(client.Level, string, string) {})
		co.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { got = append(got, recs...) })
		co.OnOffsetReset(func(env *sim.Env, topic string, partition int32, from int64) {
			if topic == "orders" && partition == 0 {
				resets = append(resets, from)
			}
		})
		return &client.Process{Handlers: []client.Handler{co}, OnStart: func(env *sim.Env) {
			co.Assign(env, "orders", []int32{0}, 1000)
		}}
	}); err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return len(got) == 2 }, time.Minute, "the consumer reading both records after its reset")
	if !slices.Equal(resets, []int64{1000}) || got[0].Offset != 0 {
		t.Fatalf("resets from %v; first record at offset %d", resets, got[0].Offset)
	}
}
