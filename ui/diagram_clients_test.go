package ui

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/player"
	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// dgProducer starts a producer with cfg in its own client process on the
// player's cluster and sends values to topic's partition; it returns the
// process's host.
func dgSpawnProducer(t *testing.T, p *player.Player, cfg client.ProducerConfig, topic string, partition int32, values ...string) string {
	t.Helper()
	c := p.TL.Cluster()
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
	cfg := client.DefaultProducerConfig()
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
	if got := dgText(dg1(doc, card, "kd-cc-cfg")); !strings.Contains(got, "batch.size 16384 · linger.ms 1000 · acks=all") {
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
	if len(flights) != 1 || flights[0] != "broker "+dgItoa(int64(leader))+": 0/5 in flight" {
		t.Errorf("in flight %q (leader %d)", flights, leader)
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
