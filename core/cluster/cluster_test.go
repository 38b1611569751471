package cluster

import (
	"fmt"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

func newCluster(t testing.TB, static config.Static) *Cluster {
	t.Helper()
	c, err := New(Config{Brokers: 3, Controllers: 1, Seed: 1, Static: static, Stepped: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func createTopic(t testing.TB, c *Cluster, name string, partitions int32, rf int16) {
	t.Helper()
	var result *protocol.CreateTopicsResponse
	var failure *client.Error
	proc := &client.Process{}
	var admin *client.Admin
	proc.OnStart = func(env *sim.Env) {
		admin.Call(env, "createTopics", func() protocol.Request {
			return &protocol.CreateTopicsRequest{Topics: []protocol.CreatableTopic{{Name: name, NumPartitions: partitions, ReplicationFactor: rf}}, TimeoutMs: 30000}
		}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
			failure = err
			if resp != nil {
				result = resp.(*protocol.CreateTopicsResponse)
			}
		})
	}
	host, _ := c.SpawnClient("admin", func(host string) sim.Process {
		admin = client.NewAdmin(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, client.DefaultAdminConfig())
		proc.Handlers = []client.Handler{admin}
		return proc
	})
	if err := c.RunUntil(func() bool { return result != nil || failure != nil }, time.Minute); err != nil {
		t.Fatal(err)
	}
	c.StopClient(host)
	if failure != nil || result.Topics[0].ErrorCode != protocol.NONE {
		t.Fatalf("create %s: %v %+v", name, failure, result)
	}
	// Let every broker learn the topic and elect leaders.
	if err := c.Advance(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
}

func produce(t testing.TB, c *Cluster, topic string, acks int16, values ...string) []string {
	t.Helper()
	return produceTo(t, c, topic, -1, acks, values...)
}

// produceTo is produce to one partition (-1: the partitioner's choice).
func produceTo(t testing.TB, c *Cluster, topic string, partition int32, acks int16, values ...string) []string {
	t.Helper()
	cfg := client.DefaultProducerConfig(release.Default)
	cfg.ClientID = "test-producer"
	cfg.Acks = acks
	var out []string
	closed := false
	var p *client.Producer
	proc := &client.Process{}
	proc.OnStart = func(env *sim.Env) {
		for _, v := range values {
			v := v
			p.Send(env, client.ProducerRecord{Topic: topic, Partition: partition, Value: []byte(v)}, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
				if err != nil {
					out = append(out, v+":"+err.Error())
				} else {
					out = append(out, fmt.Sprintf("%s:%s-%d@%d", v, md.Topic, md.Partition, md.Offset))
				}
			})
		}
		p.Close(env, func(*sim.Env) { closed = true })
	}
	host, _ := c.SpawnClient("producer", func(host string) sim.Process {
		p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, cfg, c.World.Rand("test-producer"), func(client.Level, string, string) {})
		proc.Handlers = []client.Handler{p}
		return proc
	})
	if err := c.RunUntil(func() bool { return closed }, 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	c.StopClient(host)
	if !closed {
		t.Fatal("producer did not finish")
	}
	return out
}

func TestClusterStartsAndReplicates(t *testing.T) {
	c := newCluster(t, nil)
	if !c.AllUnfenced() {
		t.Fatal("brokers not unfenced after startup")
	}
	createTopic(t, c, "peter-test01", 1, 3)
	got := produce(t, c, "peter-test01", -1, "Message1", "Message2")
	if fmt.Sprint(got) != "[Message1:peter-test01-0@0 Message2:peter-test01-0@1]" {
		t.Fatalf("produce: %v", got)
	}
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	for _, id := range c.NodeIDs() {
		p := c.Node(id).Broker.Partition(tpOf("peter-test01", 0))
		if p == nil || p.Log().LogEndOffset() != 2 || p.Log().HighWatermark() != 2 {
			t.Fatalf("broker %d: %v", id, p)
		}
	}
}

func TestSameSeedSameTrace(t *testing.T) {
	run := func() uint64 {
		c, err := New(Config{Brokers: 3, Seed: 1, TraceContent: true, Stepped: true})
		if err != nil {
			t.Fatal(err)
		}
		createTopic(t, c, "t", 3, 3)
		produce(t, c, "t", -1, "a", "b", "c")
		c.Advance(5 * time.Second)
		return c.World.Trace().Hash()
	}
	if a, b := run(), run(); a != b {
		t.Fatalf("same seed, different traces: %x vs %x", a, b)
	}
}
