package view_test

import (
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// spawnProducer starts a client process running one producer with cfg.
func spawnProducer(t testing.TB, c *cluster.Cluster, cfg client.ProducerConfig) (string, *client.Producer) {
	t.Helper()
	var p *client.Producer
	host, err := c.SpawnClient("test-producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, c.World.Rand("test/"+host), func(client.Level, string, string) {})
		return &client.Process{Handlers: []client.Handler{p}}
	})
	if err != nil {
		t.Fatal(err)
	}
	return host, p
}

// sendTo sends values to one partition of topic from the producer's process.
func sendTo(t testing.TB, c *cluster.Cluster, host string, p *client.Producer, topic string, partition int32, values ...string) *int {
	t.Helper()
	acked := new(int)
	err := c.World.Call(host, "send", func(env *sim.Env) {
		for _, v := range values {
			p.Send(env, client.ProducerRecord{Topic: topic, Partition: partition, Value: []byte(v)},
				func(_ *sim.Env, _ client.RecordMetadata, err *client.Error) {
					if err != nil {
						t.Errorf("send %s: %s", v, err.Message)
					}
					*acked++
				})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return acked
}

func producerOf(t *testing.T, s *view.Snapshot, host string) view.Producer {
	t.Helper()
	for _, p := range s.Producers {
		if p.Host == host {
			return p
		}
	}
	t.Fatalf("no producer on %s in %+v", host, s.Producers)
	return view.Producer{}
}

// A producer with linger.ms=1000 holds its records in one open batch until
// linger.ms has passed; then the batch is sent, answered and gone.
func TestProducerAccumulatorLinger(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3")
	advance(t, s, time.Second)
	c := s.Cluster()
	cfg := client.DefaultProducerConfig(release.Default)
	cfg.ClientID = "lingering"
	cfg.Linger = time.Second
	host, p := spawnProducer(t, c, cfg)
	advance(t, s, 10*time.Millisecond)
	acked := sendTo(t, c, host, p, "t", 1, "a", "b", "c")
	advance(t, s, 300*time.Millisecond)

	pv := producerOf(t, view.Take(c), host)
	if pv.ClientID != "lingering" || pv.LingerMs != 1000 || pv.BatchSize != 16384 || pv.MaxInFlight != 5 {
		t.Errorf("producer %+v", pv)
	}
	if len(pv.Partitions) != 1 || pv.Partitions[0].Topic != "t" || pv.Partitions[0].Partition != 1 {
		t.Fatalf("queues %+v, want t-1 only", pv.Partitions)
	}
	q := pv.Partitions[0]
	if len(q.Batches) != 1 {
		t.Fatalf("t-1 holds %d batches, want 1", len(q.Batches))
	}
	b := q.Batches[0]
	if b.State != view.BatchOpen || b.Records != 3 || b.Bytes <= 0 || b.Bytes >= pv.BatchSize {
		t.Errorf("batch %+v, want open with 3 records", b)
	}
	// The records went in (after metadata arrived) some time in the last
	// 300 ms: linger.ms has 700 to 1000 ms left.
	if b.LingerLeftMs < 700 || b.LingerLeftMs > 1000 || b.AgeMs+b.LingerLeftMs != 1000 {
		t.Errorf("linger left %d ms at age %d ms", b.LingerLeftMs, b.AgeMs)
	}
	if pv.Records != 3 || len(pv.InFlight) != 0 || *acked != 0 {
		t.Errorf("records %d, in flight %+v, acked %d", pv.Records, pv.InFlight, *acked)
	}
	if q.Leader != view.Take(c).Topics[0].Partitions[1].Leader {
		t.Errorf("queue leader %d", q.Leader)
	}
	// Idempotent (the default): a producer id, and no sequence given to a
	// batch before it is drained. The batch holds batch.size of
	// buffer.memory.
	if !pv.Idempotent || pv.ProducerID < 0 || pv.ProducerEpoch != 0 || b.BaseSequence != -1 || q.NextSequence != 0 || q.LastAckedSequence != -1 {
		t.Errorf("idempotence: %+v, queue next %d acked %d, batch seq %d", pv, q.NextSequence, q.LastAckedSequence, b.BaseSequence)
	}
	if pv.BufferMemory != 33554432 || pv.BufferUsed != 16384 {
		t.Errorf("buffer.memory %d of %d", pv.BufferUsed, pv.BufferMemory)
	}

	advance(t, s, time.Second)
	pv = producerOf(t, view.Take(c), host)
	if *acked != 3 || pv.Records != 0 || len(pv.Partitions) != 1 || len(pv.Partitions[0].Batches) != 0 || pv.BufferUsed != 0 {
		t.Errorf("after linger.ms: acked %d, accumulator %+v", *acked, pv.Partitions)
	}
	if q := pv.Partitions[0]; q.NextSequence != 3 || q.LastAckedSequence != 2 {
		t.Errorf("sequences after the batch of 3: next %d, last acked %d", q.NextSequence, q.LastAckedSequence)
	}
}

// A full batch does not wait for linger.ms, and a request to a broker that
// does not answer stays in flight, counted against
// max.in.flight.requests.per.connection; when it times out the batch backs
// off and is retried.
func TestProducerInFlightAndRetry(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	advance(t, s, time.Second)
	c := s.Cluster()
	leader := view.Take(c).Topics[0].Partitions[0].Leader
	cfg := client.DefaultProducerConfig(release.Default)
	cfg.ClientID = "slow"
	cfg.Linger = time.Hour
	cfg.BatchSize = 100
	cfg.RequestTimeout = 2 * time.Second
	host, p := spawnProducer(t, c, cfg)
	advance(t, s, 10*time.Millisecond)
	sendTo(t, c, host, p, "t", 0, "x") // metadata first
	advance(t, s, 100*time.Millisecond)
	if err := c.Delay(leader, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	// Each record counts 22 bytes: a 100-byte batch is full at four, so
	// these batches are ready at once while linger.ms (an hour) is not over.
	sendTo(t, c, host, p, "t", 0, "1", "2", "3", "4", "5", "6")
	advance(t, s, 10*time.Millisecond)
	pv := producerOf(t, view.Take(c), host)
	if len(pv.InFlight) != 1 || pv.InFlight[0].Broker != leader {
		t.Fatalf("in flight %+v, want requests to broker %d only", pv.InFlight, leader)
	}
	// One partition: each request carries one batch of it.
	inFlight, records := 0, 0
	for _, b := range pv.Partitions[0].Batches {
		if b.State == view.BatchInFlight {
			inFlight++
		}
		records += b.Records
	}
	if inFlight != pv.InFlight[0].Requests || inFlight > pv.MaxInFlight || records != 7 || pv.Records != 7 {
		t.Fatalf("%d batches in flight, %d requests, %d records: %+v", inFlight, pv.InFlight[0].Requests, records, pv.Partitions[0].Batches)
	}
	// request.timeout.ms passes: the batch is retried after a backoff.
	var retried bool
	for range 40 {
		advance(t, s, 50*time.Millisecond)
		pv = producerOf(t, view.Take(c), host)
		if b := pv.Partitions[0].Batches[0]; b.Attempt == 1 && (b.State == view.BatchBackoff || b.State == view.BatchInFlight) {
			retried = true
			break
		}
	}
	if !retried {
		t.Fatalf("no retry seen: %+v", pv.Partitions[0].Batches)
	}
}
