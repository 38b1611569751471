package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/player"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// dgProducer starts a producer with cfg in its own client process on the
// player's cluster and sends values to topic's partition; it returns the
// process's host.
func dgSpawnProducer(t *testing.T, p *player.Player, cfg client.ProducerConfig, topic string, partition int32, values ...string) string {
	t.Helper()
	c := sessionTL(p).Cluster()
	var prod *client.Producer
	host, err := c.SpawnClient("ui-producer", func(host string) sim.Process {
		prod = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, c.World.Rand("ui/"+host), func(client.Level, string, string) {})
		return &client.Process{Handlers: []client.Handler{prod}}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = c.World.Call(host, "send", func(env *sim.Env) {
		for _, v := range values {
			prod.Send(env, client.ProducerRecord{Topic: topic, Partition: partition, Value: []byte(v)}, func(*sim.Env, client.RecordMetadata, *client.Error) {})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return host
}

// A producer with linger.ms=1000 shows, under the brokers, one open batch
// of its three records on t-1 with the linger time left, the in-flight
// meter of the partition's leader at 0/5; after linger.ms the batch is
// gone. Folding the card leaves its one-line summary.
func TestDiagramProducerAccumulator(t *testing.T) {
	p := dgCluster(t)
	cfg := client.DefaultProducerConfig(release.Default)
	cfg.ClientID = "lingering"
	cfg.Linger = time.Second
	host := dgSpawnProducer(t, p, cfg, "t", 1, "a", "b", "c")
	dgAdvance(p, 300*time.Millisecond)
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	card := doc.one(doc.root, "producer card", dgByAttr("data-producer", host))
	if got := dgText(dg1(doc, card, "kd-cc-name")); got != "lingering" {
		t.Errorf("card name %q", got)
	}
	if got := dgText(dg1(doc, card, "kd-cc-sub")); got != "3 records in 1 batch · 0 requests in flight" {
		t.Errorf("summary %q", got)
	}
	if got := dgText(dg1(doc, card, "kd-cc-cfg")); got != "acks=all · batch.size 16384 · linger.ms 1000 · max.in.flight.requests.per.connection 5 · enable.idempotence=true" {
		t.Errorf("config line %q", got)
	}
	q := doc.one(card, "queue t-1", dgByAttr("data-partition", "t-1"))
	batches := dgAll(q, dgByClass("kd-batch"))
	if len(batches) != 1 || !dgHasClass(batches[0], "kd-b-open") {
		t.Fatalf("t-1 shows %d batches, want one open", len(batches))
	}
	if got := dgText(dg1(doc, batches[0], "kd-b-text")); got != "3 rec · 66/16384 B" {
		t.Errorf("batch %q", got)
	}
	sub := dgText(dg1(doc, batches[0], "kd-b-sub"))
	if !strings.HasPrefix(sub, "filling · linger.ms ") || !strings.HasSuffix(sub, " ms left") {
		t.Errorf("batch state %q", sub)
	}
	leader := p.Snapshot().Topics[0].Partitions[1].Leader
	flights := doc.texts("kd-flight")
	want := []string{"buffer.memory: 16384 of 33554432 bytes held by batches", "broker " + dgItoa(int64(leader)) + ": 0/5 in flight"}
	if !slices.Equal(flights, want) {
		t.Errorf("meters %q, want %q", flights, want)
	}
	// The default producer is idempotent: InitProducerId gave it an id
	// before the batch could be drained.
	if got := dgText(dg1(doc, card, "kd-idem")); !strings.HasPrefix(got, "idempotent: producer id ") || !strings.HasSuffix(got, ", epoch 0") {
		t.Errorf("idempotence %q", got)
	}

	dgAdvance(p, time.Second)
	doc = dgRender(t, d)
	card = doc.one(doc.root, "producer card", dgByAttr("data-producer", host))
	q = doc.one(card, "queue t-1", dgByAttr("data-partition", "t-1"))
	if n := len(dgAll(q, dgByClass("kd-batch"))); n != 0 {
		t.Errorf("%d batches after linger.ms, want none", n)
	}
	if got := dgText(dg1(doc, q, "kd-q-empty")); got != "no batch" {
		t.Errorf("empty queue says %q", got)
	}

	d.toggleClient(d.lay.Prods[0].Key)
	doc = dgRender(t, d)
	card = doc.one(doc.root, "producer card", dgByAttr("data-producer", host))
	if len(dgAll(card, dgByClass("kd-cc-body"))) != 0 || dgText(dg1(doc, card, "kd-cc-sub")) == "" {
		t.Error("a folded card still draws its body, or lost its summary")
	}

	p.SetLang("ko")
	doc = dgRender(t, d)
	card = doc.one(doc.root, "producer card", dgByAttr("data-producer", host))
	if got := dgText(dg1(doc, card, "kd-cc-sub")); got != "배치 0개에 레코드 0개 · 전송 중 요청 0개" {
		t.Errorf("Korean summary %q", got)
	}
}

// __consumer_offsets' 50 partitions start folded (Kafka's internal topics
// do), so the user's topics keep their full rows; a click opens it, and
// another folds it again.
func TestDiagramInternalTopicsStartFolded(t *testing.T) {
	s := dgMany()
	s.Topics = s.Topics[:1] // clicks: 10 partitions
	offsets := view.Topic{Name: "__consumer_offsets"}
	for i := range int32(50) {
		offsets.Partitions = append(offsets.Partitions, view.Partition{Topic: offsets.Name, Index: i, Leader: 1 + i%9,
			Assignment: []int32{1 + i%9}, ISR: []int32{1 + i%9}, CommittedHW: 0,
			Replicas: []view.Replica{{Broker: 1 + i%9, Present: true, Role: "leader", InISR: true, LeaderViewLEO: -1}}})
	}
	s.Topics = append([]view.Topic{offsets}, s.Topics...)
	d := &Diagram{Snapshot: s}
	doc := dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 10 {
		t.Fatalf("%d partition rows, want clicks' 10 only", n)
	}
	if len(dgAll(doc.root, dgByClass("kd-caption"))) == 0 {
		t.Error("10 visible rows should be full rows with captions")
	}
	head := doc.one(doc.root, "__consumer_offsets header", dgByAttr("data-topic", "__consumer_offsets"))
	if got := dgText(head); !strings.Contains(got, "50 partitions") || !strings.Contains(got, "▸") {
		t.Errorf("header %q", got)
	}
	d.toggleTopic("__consumer_offsets")
	doc = dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 60 {
		t.Errorf("%d rows with __consumer_offsets open, want 60", n)
	}
	d.toggleTopic("__consumer_offsets")
	doc = dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 10 {
		t.Errorf("%d rows after folding it again", n)
	}
}

// dgWithGroup is the hand-made cluster with group g: two members on
// orders' three partitions, offsets committed on two, coordinated by
// broker 3.
func dgWithGroup() *view.Snapshot {
	s := dgHandMade()
	s.Groups = []view.Group{{
		GroupID: "g", Coordinator: 3, Partition: 41, State: "Stable", Generation: 2, ProtocolType: "consumer", Protocol: "range",
		Members: []view.GroupMember{
			{MemberID: "console-consumer-1-4f0c7f5e-2a7e-4b8e-9a51-0c1d2e3f4a5b", ClientID: "console-consumer-1", ClientHost: "/10.0.0.7", Leader: true,
				Assigned: []view.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}},
			{MemberID: "console-consumer-2-0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", ClientID: "console-consumer-2", ClientHost: "/10.0.0.8",
				Assigned: []view.TopicPartition{{Topic: "orders", Partition: 2}}},
		},
		Partitions: []view.GroupPartition{
			{Topic: "orders", Partition: 0, Committed: 18, LogEnd: 18, HasLag: true, ClientID: "console-consumer-1", Position: 18},
			{Topic: "orders", Partition: 1, Committed: 3, LogEnd: 7, Lag: 4, HasLag: true, ClientID: "console-consumer-1", Position: 5},
			{Topic: "orders", Partition: 2, Committed: -1, LogEnd: 5, ClientID: "console-consumer-2", Position: -1},
		},
		Events: []view.GroupEvent{
			{At: sim.Time(12 * time.Second), Broker: 3, Kind: "rebalance", Generation: 1, Reason: "Adding new member console-consumer-2", Members: -1},
			{At: sim.Time(15 * time.Second), Broker: 3, Kind: "generation", Generation: 2, Members: -1},
			{At: sim.Time(15*time.Second + 2*time.Millisecond), Broker: 3, Kind: "stable", Generation: 2, Members: 2},
		},
	}}
	return s
}

// A group's card: its state and generation, both members with what each
// was assigned, the offsets table with the lag, the rebalance events; the
// coordinator's broker card carries the badge.
func TestDiagramConsumerGroupCard(t *testing.T) {
	d := &Diagram{Snapshot: dgWithGroup()}
	doc := dgRender(t, d)
	card := doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if got := dgText(dg1(doc, card, "kd-gstate")); got != "Stable" {
		t.Errorf("state %q", got)
	}
	if got := dgText(dg1(doc, card, "kd-cc-sub")); got != "generation 2 · 2 members · coordinator: broker 3" {
		t.Errorf("summary %q", got)
	}
	if got := dgText(dg1(doc, card, "kd-cc-cfg")); got != "assignor range · offsets in __consumer_offsets-41 on broker 3" {
		t.Errorf("info %q", got)
	}
	members := dgAll(card, dgByClass("kd-member"))
	if len(members) != 2 {
		t.Fatalf("%d members, want 2", len(members))
	}
	if got := dgText(dg1(doc, members[0], "kd-m-assigned")); got != "orders-0, orders-1" {
		t.Errorf("first member assigned %q", got)
	}
	if got := dgText(dg1(doc, members[1], "kd-m-assigned")); got != "orders-2" {
		t.Errorf("second member assigned %q", got)
	}
	if got := dgText(dg1(doc, members[0], "kd-m-leader")); got != "group leader" {
		t.Errorf("leader badge %q", got)
	}
	if n := len(dgAll(members[1], dgByClass("kd-m-leader"))); n != 0 {
		t.Error("the second member is marked leader")
	}
	var rows []string
	for _, r := range dgAll(card, dgByClass("kd-lagrow")) {
		var cells []string
		for c := r.FirstChild; c != nil; c = c.NextSibling {
			cells = append(cells, dgText(c))
		}
		rows = append(rows, strings.Join(cells, " "))
	}
	want := []string{"orders-0 18 18 0 console-consumer-1 18", "orders-1 3 7 4 console-consumer-1 5", "orders-2 - 5 - console-consumer-2 -"}
	if !slices.Equal(rows, want) {
		t.Errorf("offsets table %q, want %q", rows, want)
	}
	if n := len(dgAll(card, dgByClass("kd-lag-behind"))); n != 1 {
		t.Errorf("%d rows marked behind, want 1", n)
	}
	evs := dgAll(card, func(n *html.Node) bool { return n.Data == "li" })
	if len(evs) != 3 || dgText(evs[0]) != "T+12.000srebalance from generation 1: Adding new member console-consumer-2" {
		t.Fatalf("%d events, the first %q", len(evs), dgText(evs[0]))
	}
	if got := dgText(evs[2]); got != "T+15.002sStable at generation 2" {
		t.Errorf("last event %q", got)
	}
	badge := dgAll(doc.card(3), dgByClass("kd-coord-text"))
	if len(badge) != 1 || dgText(badge[0]) != "coordinator: g" {
		t.Errorf("broker 3 badge %v", badge)
	}
	if n := len(dgAll(doc.card(1), dgByClass("kd-coord"))); n != 0 {
		t.Error("broker 1 is marked a coordinator")
	}
	// Folded: the summary stays, the body is not laid out.
	d.toggleClient("group/g")
	doc = dgRender(t, d)
	card = doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if len(dgAll(card, dgByClass("kd-cc-body"))) != 0 || len(d.lay.Groups[0].Rows) != 0 {
		t.Error("a folded group card still lays out its body")
	}
}

// On a real cluster, __consumer_offsets (made by the first FindCoordinator)
// is read without its replicas while folded, and whole once opened: 50
// rows with three replicas each.
func TestDiagramConsumerOffsetsReadOnlyWhenOpen(t *testing.T) {
	p := dgCluster(t)
	c := sessionTL(p).Cluster()
	var net *rpc.Client
	host, err := c.SpawnClient("ui-find", func(host string) sim.Process {
		net = rpc.NewClient(sim.Addr(host+":1"), "ui-find")
		return &client.Process{Handlers: []client.Handler{net}}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = c.World.Call(host, "find", func(env *sim.Env) {
		net.Send(env, cluster.BrokerAddr(1), &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeGroup, CoordinatorKeys: []string{"g"}},
			time.Second, func(*sim.Env, protocol.Response, error) {})
	})
	if err != nil {
		t.Fatal(err)
	}
	dgAdvance(p, 3*time.Second)
	var offsets *view.Topic
	for i, tp := range p.Snapshot().Topics {
		if tp.Name == "__consumer_offsets" {
			offsets = &p.Snapshot().Topics[i]
		}
	}
	if offsets == nil || !offsets.Light || len(offsets.Partitions) != 50 || len(offsets.Partitions[0].Replicas) != 0 {
		t.Fatalf("__consumer_offsets in the snapshot: %+v", offsets)
	}
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	rows := dgAll(doc.root, dgByClass("kd-prow"))
	if len(rows) != 3 {
		t.Fatalf("%d partition rows, want t's 3 (__consumer_offsets folded)", len(rows))
	}
	d.toggleTopic("__consumer_offsets")
	doc = dgRender(t, d)
	n, reps := 0, 0
	for _, r := range dgAll(doc.root, dgByClass("kd-prow")) {
		if strings.HasPrefix(htmltest.Attr(r, "data-partition"), "__consumer_offsets-") {
			n++
			reps += len(dgAll(r, dgByClass("kd-rep")))
		}
	}
	if n != 50 || reps != 150 {
		t.Errorf("opened: %d rows with %d replicas, want 50 with 150", n, reps)
	}
	if p.Snapshot().Topics[0].Light != true {
		t.Error("the diagram changed the player's snapshot")
	}
}

// Four console consumers in one group on three partitions (the real
// consumer and coordinator): the card shows four members, one with no
// partitions, every partition committed up to its log end (lag 0), and
// the coordinator's card carries the badge.
func TestDiagramGroupOfFourConsumers(t *testing.T) {
	p := dgCluster(t)
	for range 4 {
		p.Run("kafka-console-consumer.sh --bootstrap-server kafka-1:9092 --topic t --group four &", nil)
		dgSettle(t, p)
	}
	dgAdvance(p, 10*time.Second)
	p.Run("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t", []string{"a", "b", "c", "d", "e", "f"})
	dgSettle(t, p)
	dgAdvance(p, 12*time.Second)
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	card := doc.one(doc.root, "group card", dgByAttr("data-group", "four"))
	if got := dgText(dg1(doc, card, "kd-gstate")); got != "Stable" {
		t.Errorf("state %q", got)
	}
	members := dgAll(card, dgByClass("kd-member"))
	if len(members) != 4 {
		t.Fatalf("%d members, want 4", len(members))
	}
	idle := 0
	for _, m := range members {
		if dgText(dg1(doc, m, "kd-m-assigned")) == "no partitions assigned" {
			idle++
		}
	}
	if idle != 1 {
		t.Errorf("%d members without partitions, want 1", idle)
	}
	rows := dgAll(card, dgByClass("kd-lagrow"))
	if len(rows) != 3 {
		t.Fatalf("%d offsets rows", len(rows))
	}
	for _, r := range rows {
		var cells []string
		for c := r.FirstChild; c != nil; c = c.NextSibling {
			cells = append(cells, dgText(c))
		}
		if cells[1] != cells[2] || cells[3] != "0" || cells[5] != cells[2] {
			t.Errorf("row %q: want committed = log end = position, lag 0", cells)
		}
	}
	var g view.Group
	for _, x := range p.Snapshot().Groups {
		if x.GroupID == "four" {
			g = x
		}
	}
	badge := dgAll(doc.card(g.Coordinator), dgByClass("kd-coord-text"))
	if len(badge) != 1 || dgText(badge[0]) != "coordinator: four" {
		t.Errorf("coordinator %d's badge %v", g.Coordinator, badge)
	}
}

// An Empty group starts folded (a console consumer's group after it
// ended): one line, no body; a click opens it.
func TestDiagramEmptyGroupStartsFolded(t *testing.T) {
	s := dgWithGroup()
	s.Groups[0].State, s.Groups[0].Members = "Empty", nil
	d := &Diagram{Snapshot: s}
	doc := dgRender(t, d)
	card := doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if len(dgAll(card, dgByClass("kd-cc-body"))) != 0 {
		t.Fatal("an Empty group's card starts open")
	}
	d.toggleClient("group/g")
	doc = dgRender(t, d)
	card = doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if got := dgText(dg1(doc, card, "kd-cc-note")); got != "Consumer group 'g' has no active members." {
		t.Errorf("opened, it says %q", got)
	}
	d.toggleClient("group/g")
	doc = dgRender(t, d)
	card = doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if len(dgAll(card, dgByClass("kd-cc-body"))) != 0 {
		t.Error("a second click does not fold it again")
	}
}

// BenchmarkDiagramBuildClients is BenchmarkDiagramBuildSmall's cluster
// with a group's card and a producer's card open (compare the two for
// what the cards cost a frame).
func BenchmarkDiagramBuildClients(b *testing.B) {
	s := dgWithGroup()
	s.Producers = []view.Producer{{Host: "kafka-producer-perf-test-1", ClientID: "perf-producer-client", Acks: -1, BatchSize: 16384, LingerMs: 1000,
		MaxInFlight: 5, BufferMemory: 33554432, BufferUsed: 32768, Idempotent: true, ProducerID: 1000, Records: 7, Bytes: 847,
		Partitions: []view.ProducerPartition{
			{Topic: "orders", Partition: 0, Leader: 1, NextSequence: 12, LastAckedSequence: 8, Batches: []view.ProducerBatch{
				{Records: 3, Bytes: 363, State: view.BatchInFlight, AgeMs: 1200, BaseSequence: 9, LastSequence: 11},
				{Records: 4, Bytes: 484, State: view.BatchOpen, AgeMs: 300, LingerLeftMs: 700, BaseSequence: -1, LastSequence: -1}}},
			{Topic: "orders", Partition: 1, Leader: 3, NextSequence: 0, LastAckedSequence: -1}},
		InFlight: []view.ProducerInFlight{{Broker: 1, Requests: 1}}}}
	d := &Diagram{Snapshot: s}
	env, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		env.RunBuild(d)
	}
}

// A consumer-protocol group (KIP-848) has no generation: its card gives the
// group and target epochs, each member's epoch, the partitions a member is
// still giving back, and its target while it differs from what it holds.
func TestDiagramConsumerProtocolGroupCard(t *testing.T) {
	s := dgHandMade()
	tp := func(p int32) view.TopicPartition { return view.TopicPartition{Topic: "orders", Partition: p} }
	s.Groups = []view.Group{{
		GroupID: "g", Coordinator: 3, Partition: 41, State: "Reconciling", Type: "consumer", ProtocolType: "consumer",
		GroupEpoch: 3, AssignmentEpoch: 3,
		Members: []view.GroupMember{
			{MemberID: "Xq3kZ1oWTmW4c3e9Jd2h1A", ClientID: "c1", ClientHost: "/10.0.0.7", Epoch: 2, State: "UNREVOKED_PARTITIONS",
				Assigned: []view.TopicPartition{tp(0), tp(1)}, Revoking: []view.TopicPartition{tp(2)}, Target: []view.TopicPartition{tp(0), tp(1)}},
			{MemberID: "Pb0cM2fYQw6v1yR8sT4uKg", ClientID: "c2", ClientHost: "/10.0.0.8", Epoch: 3, State: "UNRELEASED_PARTITIONS",
				Target: []view.TopicPartition{tp(2)}},
		},
	}}
	doc := dgRender(t, &Diagram{Snapshot: s})
	card := doc.one(doc.root, "group card", dgByAttr("data-group", "g"))
	if got := dgText(dg1(doc, card, "kd-cc-sub")); got != "group epoch 3 · target epoch 3 · 2 members · coordinator: broker 3" {
		t.Errorf("summary %q", got)
	}
	members := dgAll(card, dgByClass("kd-member"))
	if len(members) != 2 {
		t.Fatalf("%d members, want 2", len(members))
	}
	if got := dgText(dg1(doc, members[0], "kd-m-epoch")); got != "epoch 2" {
		t.Errorf("first member's epoch %q", got)
	}
	if got := dgText(dg1(doc, members[0], "kd-m-assigned")); got != "orders-0, orders-1 (giving back orders-2)" {
		t.Errorf("first member assigned %q", got)
	}
	if n := len(dgAll(members[0], dgByClass("kd-m-target"))); n != 0 {
		t.Errorf("the first member holds its target, yet shows %d targets", n)
	}
	if got := dgText(dg1(doc, members[1], "kd-m-target")); got != "→ target: orders-2" {
		t.Errorf("second member's target %q", got)
	}
	if got := dgText(dg1(doc, members[1], "kd-m-assigned")); got != "no partitions assigned" {
		t.Errorf("second member assigned %q", got)
	}
	if n := len(dgAll(card, dgByClass("kd-m-leader"))); n != 0 {
		t.Error("a consumer-protocol group has no leader")
	}
}
