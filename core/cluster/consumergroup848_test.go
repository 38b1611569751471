package cluster

import (
	"testing"
	"time"

	"kafkascope/core/hashing"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// oneShotClient sends one request to a broker and keeps the answer.
type oneShotClient struct {
	self, to sim.Addr
	req      sim.Message
	resp     sim.Message
}

func (r *oneShotClient) Start(env *sim.Env)                  { env.Send(r.self, r.to, r.req) }
func (r *oneShotClient) Receive(_ *sim.Env, e *sim.Envelope) { r.resp = e.Msg }

func sendOnce(t *testing.T, c *Cluster, broker int32, req sim.Message) sim.Message {
	t.Helper()
	var rc *oneShotClient
	host, _ := c.SpawnClient("raw", func(host string) sim.Process {
		rc = &oneShotClient{self: sim.Addr(host + ":1"), to: BrokerAddr(broker), req: req}
		return rc
	})
	if err := c.RunUntil(func() bool { return rc.resp != nil }, time.Minute); err != nil {
		t.Fatal(err)
	}
	c.StopClient(host)
	return rc.resp
}

func joinRequest() *protocol.ConsumerGroupHeartbeatRequest {
	return &protocol.ConsumerGroupHeartbeatRequest{RequestHeader: protocol.RequestHeader{CorrelationID: 1, ClientID: "c"}, GroupID: "g",
		MemberID: "m1", RebalanceTimeoutMs: 300000, SubscribedTopicNames: []string{"t"}, TopicPartitions: []protocol.ConsumerGroupTopicPartitions{}}
}

// Kafka 3.8 runs the old coordinator: both KIP-848 APIs answer
// UNSUPPORTED_VERSION (KafkaApis.scala:3800-3833 at 3.8.0).
func TestConsumerGroupAPIsUnsupportedOn38(t *testing.T) {
	c, err := New(Config{Brokers: 1, Controllers: 1, Seed: 1, Stepped: true, Version: release.Version{Major: 3, Minor: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	r := sendOnce(t, c, 1, joinRequest()).(*protocol.ConsumerGroupHeartbeatResponse)
	if r.ErrorCode != protocol.UNSUPPORTED_VERSION || r.ErrorMessage != "" {
		t.Errorf("heartbeat on 3.8: %v %q", r.ErrorCode, r.ErrorMessage)
	}
	d := sendOnce(t, c, 1, &protocol.ConsumerGroupDescribeRequest{GroupIDs: []string{"g", "h"}}).(*protocol.ConsumerGroupDescribeResponse)
	if len(d.Groups) != 2 || d.Groups[0].ErrorCode != protocol.UNSUPPORTED_VERSION || d.Groups[1].GroupID != "h" {
		t.Errorf("describe on 3.8: %+v", d.Groups)
	}
}

// On 4.3 the heartbeat reaches the coordinator of the group's
// __consumer_offsets partition; another broker answers NOT_COORDINATOR.
func TestConsumerGroupHeartbeatReachesTheCoordinator(t *testing.T) {
	c := newCluster(t, nil)
	if err := c.Advance(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	createTopic(t, c, "t", 3, 3)
	createTopic(t, c, "__consumer_offsets", 50, 3)
	if err := c.Advance(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	p := hashing.CoordinatorPartition("g", 50)
	var leader int32 = -1
	for _, id := range []int32{1, 2, 3} {
		if n := c.Node(id); n != nil && n.Broker != nil && n.Broker.Image().Partition("__consumer_offsets", p).Leader >= 0 {
			leader = n.Broker.Image().Partition("__consumer_offsets", p).Leader
			break
		}
	}
	if leader < 0 {
		t.Fatal("no coordinator")
	}
	other := leader%3 + 1
	r := sendOnce(t, c, other, joinRequest()).(*protocol.ConsumerGroupHeartbeatResponse)
	if r.ErrorCode != protocol.NOT_COORDINATOR {
		t.Errorf("heartbeat to broker %d (coordinator %d): %v", other, leader, r.ErrorCode)
	}
	r = sendOnce(t, c, leader, joinRequest()).(*protocol.ConsumerGroupHeartbeatResponse)
	if r.ErrorCode != protocol.NONE || r.MemberEpoch != 2 || r.Assignment == nil || len(r.Assignment.TopicPartitions) != 1 || len(r.Assignment.TopicPartitions[0].Partitions) != 3 {
		t.Fatalf("join: %+v", r)
	}

	d := sendOnce(t, c, leader, &protocol.ConsumerGroupDescribeRequest{GroupIDs: []string{"g"}}).(*protocol.ConsumerGroupDescribeResponse)
	if d.Groups[0].GroupState != "Stable" || d.Groups[0].GroupEpoch != 2 {
		t.Errorf("describe: %+v", d.Groups[0])
	}
}
