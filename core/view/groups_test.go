package view_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// groupMember is a minimal classic-protocol consumer for these tests: it
// finds the coordinator, joins (twice: KIP-394 hands out the member id
// first), syncs (as leader it assigns topic's partitions by the range rule
// over the sorted member ids), heartbeats, and rejoins on a rebalance. The
// real consumer lives in core/client; this one only drives the broker's
// coordinator so the view can be checked against it.
type groupMember struct {
	net        *rpc.Client
	group      string
	topic      string
	partitions int32
	coord      sim.Addr
	id         string
	gen        int32
	stopped    bool
}

const testWait = 100 * time.Millisecond

func (m *groupMember) find(env *sim.Env) {
	if m.stopped {
		return
	}
	req := &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeGroup, CoordinatorKeys: []string{m.group}}
	m.net.Send(env, cluster.BrokerAddr(1), req, 5*time.Second, func(env *sim.Env, resp protocol.Response, err error) {
		if err == nil {
			if co := resp.(*protocol.FindCoordinatorResponse).Coordinators[0]; co.ErrorCode == protocol.NONE {
				m.coord = sim.Addr(fmt.Sprintf("%s:%d", co.Host, co.Port))
				m.join(env)
				return
			}
		}
		env.After(testWait, "find-again", m.find)
	})
}

func (m *groupMember) retry(env *sim.Env, code protocol.ErrorCode) {
	if code == protocol.NOT_COORDINATOR || code == protocol.COORDINATOR_NOT_AVAILABLE {
		env.After(testWait, "find-again", m.find)
		return
	}
	env.After(testWait, "join-again", m.join)
}

func (m *groupMember) join(env *sim.Env) {
	if m.stopped {
		return
	}
	sub := protocol.ConsumerProtocolSubscription{Topics: []string{m.topic}, GenerationID: -1}
	req := &protocol.JoinGroupRequest{GroupID: m.group, SessionTimeoutMs: 45000, RebalanceTimeoutMs: 10000, MemberID: m.id,
		ProtocolType: protocol.ConsumerProtocolType, Protocols: []protocol.JoinGroupRequestProtocol{{Name: "range", Metadata: sub.Encode()}}}
	m.net.Send(env, m.coord, req, 0, func(env *sim.Env, resp protocol.Response, err error) {
		if err != nil {
			env.After(testWait, "find-again", m.find)
			return
		}
		r := resp.(*protocol.JoinGroupResponse)
		switch r.ErrorCode {
		case protocol.MEMBER_ID_REQUIRED:
			m.id = r.MemberID
			m.join(env)
			return
		case protocol.NONE:
		default:
			m.retry(env, r.ErrorCode)
			return
		}
		m.id, m.gen = r.MemberID, r.GenerationID
		sync := &protocol.SyncGroupRequest{GroupID: m.group, GenerationID: m.gen, MemberID: m.id,
			ProtocolType: protocol.ConsumerProtocolType, ProtocolName: r.ProtocolName}
		if r.Leader == m.id {
			ids := make([]string, 0, len(r.Members))
			for _, mm := range r.Members {
				ids = append(ids, mm.MemberID)
			}
			slices.Sort(ids)
			n := int32(len(ids))
			per, extra := m.partitions/n, m.partitions%n
			next := int32(0)
			for i, id := range ids {
				count := per
				if int32(i) < extra {
					count++
				}
				a := protocol.ConsumerProtocolAssignment{}
				if count > 0 {
					tps := protocol.TopicPartitions{Topic: m.topic}
					for p := next; p < next+count; p++ {
						tps.Partitions = append(tps.Partitions, p)
					}
					a.AssignedPartitions = append(a.AssignedPartitions, tps)
				}
				next += count
				sync.Assignments = append(sync.Assignments, protocol.SyncGroupRequestAssignment{MemberID: id, Assignment: a.Encode()})
			}
		}
		m.net.Send(env, m.coord, sync, 0, func(env *sim.Env, resp protocol.Response, err error) {
			if err != nil {
				env.After(testWait, "find-again", m.find)
				return
			}
			if code := resp.(*protocol.SyncGroupResponse).ErrorCode; code != protocol.NONE {
				m.retry(env, code)
				return
			}
			m.heartbeat(env, m.gen)
		})
	})
}

func (m *groupMember) heartbeat(env *sim.Env, gen int32) {
	env.After(3*time.Second, "heartbeat", func(env *sim.Env) {
		if m.stopped || gen != m.gen {
			return
		}
		req := &protocol.HeartbeatRequest{GroupID: m.group, GenerationID: m.gen, MemberID: m.id}
		m.net.Send(env, m.coord, req, 5*time.Second, func(env *sim.Env, resp protocol.Response, err error) {
			switch {
			case err != nil:
				env.After(testWait, "find-again", m.find)
			case resp.(*protocol.HeartbeatResponse).ErrorCode == protocol.NONE:
				m.heartbeat(env, gen)
			default:
				m.join(env)
			}
		})
	})
}

// commit commits offset for partition of the member's topic.
func (m *groupMember) commit(env *sim.Env, partition int32, offset int64) {
	req := &protocol.OffsetCommitRequest{GroupID: m.group, GenerationIDOrMemberEpoch: m.gen, MemberID: m.id, RetentionTimeMs: -1,
		Topics: []protocol.OffsetCommitRequestTopic{{Name: m.topic, Partitions: []protocol.OffsetCommitRequestPartition{
			{PartitionIndex: partition, CommittedOffset: offset, CommittedLeaderEpoch: -1}}}}}
	m.net.Send(env, m.coord, req, 5*time.Second, func(*sim.Env, protocol.Response, error) {})
}

func spawnMember(t *testing.T, c *cluster.Cluster, clientID, group, topic string, partitions int32) (string, *groupMember) {
	t.Helper()
	m := &groupMember{group: group, topic: topic, partitions: partitions}
	host, err := c.SpawnClient(clientID, func(host string) sim.Process {
		m.net = rpc.NewClient(sim.Addr(host+":1"), clientID)
		return &client.Process{Handlers: []client.Handler{m.net}, OnStart: m.find}
	})
	if err != nil {
		t.Fatal(err)
	}
	return host, m
}

func groupOf(t *testing.T, s *view.Snapshot, id string) view.Group {
	t.Helper()
	for _, g := range s.Groups {
		if g.GroupID == id {
			return g
		}
	}
	t.Fatalf("no group %s in %+v", id, s.Groups)
	return view.Group{}
}

// Two members of group g on a 3-partition topic: the view shows the group
// Stable at its generation on the broker leading its __consumer_offsets
// partition, both members with the range assignment (2 and 1 partitions),
// and after a commit the committed offset and the lag against the log end.
func TestGroupTwoMembersAssignmentAndLag(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3")
	produce(t, s, "t", "", "a", "b", "c", "d", "e", "f")
	advance(t, s, time.Second)
	c := s.Cluster()
	h1, m1 := spawnMember(t, c, "member-one", "g", "t", 3)
	advance(t, s, time.Second)
	spawnMember(t, c, "member-two", "g", "t", 3)
	// FindCoordinator creates __consumer_offsets; the first join waits
	// group.initial.rebalance.delay.ms (3 s); the second join rebalances.
	advance(t, s, 15*time.Second)

	snap := view.Take(c)
	g := groupOf(t, snap, "g")
	if g.State != "Stable" || g.ProtocolType != "consumer" || g.Protocol != "range" || g.Generation < 1 {
		t.Errorf("group %s gen %d %s/%s", g.State, g.Generation, g.ProtocolType, g.Protocol)
	}
	var offsets view.Topic
	for _, tp := range snap.Topics {
		if tp.Name == "__consumer_offsets" {
			offsets = tp
		}
	}
	if len(offsets.Partitions) != 50 || offsets.Partitions[g.Partition].Leader != g.Coordinator {
		t.Errorf("coordinator %d for partition %d; __consumer_offsets has %d partitions", g.Coordinator, g.Partition, len(offsets.Partitions))
	}
	if len(g.Members) != 2 {
		t.Fatalf("%d members, want 2: %+v", len(g.Members), g.Members)
	}
	counts := map[string]int{}
	total := 0
	for _, mm := range g.Members {
		counts[mm.ClientID] = len(mm.Assigned)
		total += len(mm.Assigned)
	}
	if total != 3 || counts["member-one"]+counts["member-two"] != 3 || min(counts["member-one"], counts["member-two"]) != 1 {
		t.Errorf("assignment %v, want 2 and 1 of 3 partitions", counts)
	}
	leaders := 0
	for _, mm := range g.Members {
		if mm.Leader {
			leaders++
		}
	}
	if leaders != 1 {
		t.Errorf("%d leaders", leaders)
	}
	if len(g.Partitions) != 3 {
		t.Fatalf("partitions %+v", g.Partitions)
	}
	for _, p := range g.Partitions {
		if p.Committed != -1 || p.HasLag || p.ClientID == "" || p.LogEnd < 0 {
			t.Errorf("before any commit: %+v", p)
		}
	}
	kinds := []string{}
	for _, e := range g.Events {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Contains(kinds, "rebalance") || kinds[len(kinds)-1] != "stable" {
		t.Errorf("events %v, want rebalances ending Stable", kinds)
	}

	// A commit shows as the partition's committed offset and lag, on the
	// partition that holds the records.
	busiest := slices.MaxFunc(g.Partitions, func(a, b view.GroupPartition) int { return int(a.LogEnd - b.LogEnd) })
	if busiest.LogEnd < 2 {
		t.Fatalf("the records are not there: %+v", g.Partitions)
	}
	if err := c.World.Call(h1, "commit", func(env *sim.Env) { m1.commit(env, busiest.Partition, 1) }); err != nil {
		t.Fatal(err)
	}
	advance(t, s, time.Second)
	p := groupOf(t, view.Take(c), "g").Partitions[busiest.Partition]
	if p.Committed != 1 || p.LogEnd != busiest.LogEnd || !p.HasLag || p.Lag != busiest.LogEnd-1 {
		t.Errorf("t-%d after committing 1: %+v (log end %d)", busiest.Partition, p, busiest.LogEnd)
	}
}

// BenchmarkTakeWithOffsetsTopic is a frame's Take on a cluster with
// __consumer_offsets (50 partitions, replication factor 3), a topic, a
// group of two and a producer.
func BenchmarkTakeWithOffsetsTopic(b *testing.B) {
	s := session(b, "")
	out := s.Exec("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	_ = out
	c := s.Cluster()
	for _, id := range []string{"one", "two"} {
		m := &groupMember{group: "g", topic: "t", partitions: 3}
		if _, err := c.SpawnClient(id, func(host string) sim.Process {
			m.net = rpc.NewClient(sim.Addr(host+":1"), id)
			return &client.Process{Handlers: []client.Handler{m.net}, OnStart: m.find}
		}); err != nil {
			b.Fatal(err)
		}
	}
	advance(b, s, 15*time.Second)
	if n := len(view.Take(c).Groups); n != 1 {
		b.Fatalf("%d groups", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		view.Take(c)
	}
}

// Two console consumers in group g (the real consumer): both are members
// with their consumer's own view (STABLE at the group's generation), each
// partition's position is the consumer's, and after auto-commit the
// committed offsets reach the log end offsets: lag 0 everywhere.
func TestGroupOfConsoleConsumers(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3")
	s.Start("kafka-console-consumer.sh --topic t --group g &", nil)
	s.Start("kafka-console-consumer.sh --topic t --group g &", nil)
	advance(t, s, 10*time.Second)
	produce(t, s, "t", "--property parse.key=true --property key.separator=:", "a:1", "b:2", "c:3", "d:4", "e:5", "f:6")
	advance(t, s, 12*time.Second) // auto.commit.interval.ms is 5 s
	c := s.Cluster()
	g := groupOf(t, view.Take(c), "g")
	if g.State != "Stable" || len(g.Members) != 2 || len(g.Joining) != 0 {
		t.Fatalf("group %s with %d members, %d joining", g.State, len(g.Members), len(g.Joining))
	}
	for _, m := range g.Members {
		if m.ClientState != "STABLE" || m.ClientGeneration != g.Generation || len(m.Assigned) == 0 {
			t.Errorf("member %s: consumer sees %s at generation %d (group %d), assigned %v", m.ClientID, m.ClientState, m.ClientGeneration, g.Generation, m.Assigned)
		}
	}
	total := int64(0)
	for _, p := range g.Partitions {
		if p.Position != p.LogEnd || p.Committed != p.LogEnd || !p.HasLag || p.Lag != 0 {
			t.Errorf("t-%d: position %d, committed %d, log end %d, lag %d", p.Partition, p.Position, p.Committed, p.LogEnd, p.Lag)
		}
		total += p.LogEnd
	}
	if len(g.Partitions) != 3 || total != 6 {
		t.Errorf("%d partitions holding %d records, want 3 and 6", len(g.Partitions), total)
	}
}
