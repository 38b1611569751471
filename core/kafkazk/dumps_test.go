package kafkazk

import (
	"testing"

	"kafkascope/core/metadata"
)

// Each test here re-encodes a znode seen in a real Kafka ZooKeeper-mode
// cluster (quoted from `zookeeper-shell` / `zkCli.sh get` output published
// in blog posts and READMEs, Kafka 2.7+ with the default Scala 2.13
// build) and expects the very same bytes: the key order is Kafka's map
// iteration order, which the encoders reproduce rather than copy.

func wantBytes(t *testing.T, got []byte, want string) {
	t.Helper()
	if string(got) != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
}

func TestBrokerRegistrationDumps(t *testing.T) {
	cases := []struct {
		name string
		info BrokerInfo
		want string
	}{{
		name: "one PLAINTEXT listener",
		info: BrokerInfo{ID: 0, JmxPort: -1, Timestamp: 1692025259506,
			Endpoints: []Endpoint{{"PLAINTEXT", "macro-VirtualBox", 9092, "PLAINTEXT"}}},
		want: `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://macro-VirtualBox:9092"],"jmx_port":-1,"port":9092,"host":"macro-VirtualBox","version":5,"timestamp":"1692025259506"}`,
	}, {
		name: "an IP host",
		info: BrokerInfo{ID: 1, JmxPort: -1, Timestamp: 1610264776275,
			Endpoints: []Endpoint{{"PLAINTEXT", "192.168.28.128", 9092, "PLAINTEXT"}}},
		want: `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT"},"endpoints":["PLAINTEXT://192.168.28.128:9092"],"jmx_port":-1,"port":9092,"host":"192.168.28.128","version":5,"timestamp":"1610264776275"}`,
	}, {
		// Strimzi: four listeners, the first PLAINTEXT one third, so the
		// top-level host and port are PLAIN-9092's.
		name: "four listeners",
		info: BrokerInfo{ID: 0, JmxPort: -1, Timestamp: 1710691902130,
			Endpoints: []Endpoint{
				{"CONTROLPLANE-9090", "my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc", 9090, "SSL"},
				{"REPLICATION-9091", "my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc", 9091, "SSL"},
				{"PLAIN-9092", "my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc", 9092, "PLAINTEXT"},
				{"TLS-9093", "my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc", 9093, "SSL"},
			}},
		want: `{"features":{},"listener_security_protocol_map":{"CONTROLPLANE-9090":"SSL","REPLICATION-9091":"SSL","PLAIN-9092":"PLAINTEXT","TLS-9093":"SSL"},"endpoints":["CONTROLPLANE-9090://my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc:9090","REPLICATION-9091://my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc:9091","PLAIN-9092://my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc:9092","TLS-9093://my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc:9093"],"jmx_port":-1,"port":9092,"host":"my-cluster-kafka-0.my-cluster-kafka-brokers.myproject.svc","version":5,"timestamp":"1710691902130"}`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantBytes(t, EncodeBrokerInfo(c.info), c.want)
			back, err := DecodeBrokerInfo(c.info.ID, []byte(c.want))
			if err != nil {
				t.Fatal(err)
			}
			wantBytes(t, EncodeBrokerInfo(back), c.want)
		})
	}
}

// A docker-compose dump with a second listener; its timestamp was cut off
// in the source, so only the prefix is pinned.
func TestBrokerRegistrationTwoListeners(t *testing.T) {
	got := EncodeBrokerInfo(BrokerInfo{ID: 1, JmxPort: -1, Endpoints: []Endpoint{
		{"PLAINTEXT", "kafka-1", 9092, "PLAINTEXT"},
		{"PLAINTEXT_HOST", "localhost", 29092, "PLAINTEXT"},
	}})
	const prefix = `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT","PLAINTEXT_HOST":"PLAINTEXT"},"endpoints":["PLAINTEXT://kafka-1:9092","PLAINTEXT_HOST://localhost:29092"],"jmx_port":-1,"port":9092,"host":"kafka-1","version":5,"timestamp":"`
	if len(got) < len(prefix) || string(got[:len(prefix)]) != prefix {
		t.Fatalf("got %s", got)
	}
}

func mustUuid(t *testing.T, s string) metadata.Uuid {
	t.Helper()
	u, err := metadata.ParseUuid(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestTopicDumps(t *testing.T) {
	cases := []struct {
		name string
		data TopicZNodeData
		want string
	}{{
		name: "four partitions with a topic id",
		data: TopicZNodeData{
			Partitions: map[int32][]int32{0: {1, 0, 2}, 1: {0, 2, 1}, 2: {2, 1, 0}, 3: {1, 2, 0}},
			TopicID:    mustUuid(t, "W3mXDtj1RsWmsEhQrZjN5g"),
		},
		want: `{"partitions":{"0":[1,0,2],"1":[0,2,1],"2":[2,1,0],"3":[1,2,0]},"topic_id":"W3mXDtj1RsWmsEhQrZjN5g","adding_replicas":{},"removing_replicas":{},"version":3}`,
	}, {
		name: "one partition",
		data: TopicZNodeData{
			Partitions: map[int32][]int32{0: {3, 2, 1}},
			TopicID:    mustUuid(t, "SbJQ_jVrRFOYqlkfIgLwNg"),
		},
		want: `{"partitions":{"0":[3,2,1]},"topic_id":"SbJQ_jVrRFOYqlkfIgLwNg","adding_replicas":{},"removing_replicas":{},"version":3}`,
	}, {
		// Twelve partitions, written without a topic id: "11" comes first.
		name: "twelve partitions",
		data: TopicZNodeData{Partitions: map[int32][]int32{
			0: {0, 1, 2}, 1: {1, 2, 3}, 2: {2, 3, 4}, 3: {3, 4, 0}, 4: {4, 0, 1}, 5: {0, 2, 3},
			6: {1, 3, 4}, 7: {2, 4, 0}, 8: {3, 0, 1}, 9: {4, 1, 2}, 10: {1, 2, 3}, 11: {1, 3, 4},
		}},
		want: `{"partitions":{"11":[1,3,4],"0":[0,1,2],"1":[1,2,3],"2":[2,3,4],"3":[3,4,0],"4":[4,0,1],"5":[0,2,3],"6":[1,3,4],"7":[2,4,0],"8":[3,0,1],"9":[4,1,2],"10":[1,2,3]},"adding_replicas":{},"removing_replicas":{},"version":3}`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantBytes(t, EncodeTopic(c.data), c.want)
			back, err := DecodeTopic([]byte(c.want))
			if err != nil {
				t.Fatal(err)
			}
			wantBytes(t, EncodeTopic(back), c.want)
		})
	}
}

func TestPartitionStateDump(t *testing.T) {
	const want = `{"controller_epoch":20,"leader":1,"version":1,"leader_epoch":2,"isr":[1,0]}`
	s := PartitionState{Leader: 1, LeaderEpoch: 2, ISR: []int32{1, 0}, ControllerEpoch: 20}
	wantBytes(t, EncodePartitionState(s), want)
	back, err := DecodePartitionState([]byte(want))
	if err != nil {
		t.Fatal(err)
	}
	wantBytes(t, EncodePartitionState(back), want)
}

func TestControllerDump(t *testing.T) {
	const want = `{"version":1,"brokerid":2,"timestamp":"1673382716473"}`
	wantBytes(t, EncodeController(ControllerInfo{BrokerID: 2, Timestamp: 1673382716473}), want)
	c, err := DecodeController([]byte(want))
	if err != nil || c != (ControllerInfo{2, 1673382716473}) {
		t.Fatalf("%+v %v", c, err)
	}
	// Kafka 3.4+ writes version 2 with kraftControllerEpoch; brokerid is
	// still what is read.
	c, err = DecodeController([]byte(`{"version":2,"brokerid":0,"timestamp":"1710691902625","kraftControllerEpoch":-1}`))
	if err != nil || c.BrokerID != 0 || c.Timestamp != 1710691902625 {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestClusterIDDump(t *testing.T) {
	const want = `{"version":"1","id":"YTAd13fGSziks7O0NRs2QA"}`
	wantBytes(t, EncodeClusterID("YTAd13fGSziks7O0NRs2QA"), want)
	id, err := DecodeClusterID([]byte(want))
	if err != nil || id != "YTAd13fGSziks7O0NRs2QA" {
		t.Fatalf("%q %v", id, err)
	}
}

func TestProducerIDBlockDump(t *testing.T) {
	const want = `{"version":1,"broker":0,"block_start":"8000","block_end":"8999"}`
	b := ProducerIDBlock{BrokerID: 0, Start: 8000, End: 8999}
	wantBytes(t, EncodeProducerIDBlock(b), want)
	back, err := DecodeProducerIDBlock([]byte(want))
	if err != nil || back != b {
		t.Fatalf("%+v %v", back, err)
	}
}

func TestEntityConfigDumps(t *testing.T) {
	wantBytes(t, EncodeEntityConfig(map[string]string{"flush.messages": "1"}), `{"version":1,"config":{"flush.messages":"1"}}`)
	wantBytes(t, EncodeEntityConfig(map[string]string{"retention.ms": "100000"}), `{"version":1,"config":{"retention.ms":"100000"}}`)
	wantBytes(t, EncodeEntityConfig(nil), `{"version":1,"config":{}}`)
}

func TestControllerEpoch(t *testing.T) {
	wantBytes(t, EncodeControllerEpoch(1), "1")
	for in, want := range map[string]int32{"0": 0, "1": 1, "+7": 7, "-1": -1, "2147483647": 2147483647} {
		got, err := DecodeControllerEpoch([]byte(in))
		if err != nil || got != want {
			t.Fatalf("%q: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", " 1", "1\n", "2147483648", "x", "1.0"} {
		if _, err := DecodeControllerEpoch([]byte(in)); err == nil {
			t.Fatalf("%q accepted", in)
		}
	}
}
