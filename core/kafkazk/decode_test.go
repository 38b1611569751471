package kafkazk

import (
	"reflect"
	"slices"
	"testing"
)

// Older registrations Kafka 2.8 still reads: real version 4 dumps (the
// Scala 2.12 key order), one with no PLAINTEXT listener (host null, port
// -1), and the version 1 and 2 examples of BrokerIdZNode.decode's
// comment. Re-encoded they become version 5 in the 2.13 order.
func TestDecodeOlderBrokerRegistrations(t *testing.T) {
	cases := []struct {
		name, in string
		want     BrokerInfo
		v5       string
	}{{
		name: "v4 with a rack",
		in:   `{"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT","SSL":"SSL"},"endpoints":["PLAINTEXT://192.168.2.242:9092","SSL://192.168.2.242:9093"],"rack":"/default/rack0","jmx_port":21006,"host":"192.168.2.242","timestamp":"1580886124398","port":9092,"version":4}`,
		want: BrokerInfo{ID: 1, Rack: "/default/rack0", JmxPort: 21006, Timestamp: 1580886124398, Endpoints: []Endpoint{
			{"PLAINTEXT", "192.168.2.242", 9092, "PLAINTEXT"}, {"SSL", "192.168.2.242", 9093, "SSL"}}},
		v5: `{"features":{},"listener_security_protocol_map":{"PLAINTEXT":"PLAINTEXT","SSL":"SSL"},"endpoints":["PLAINTEXT://192.168.2.242:9092","SSL://192.168.2.242:9093"],"rack":"/default/rack0","jmx_port":21006,"port":9092,"host":"192.168.2.242","version":5,"timestamp":"1580886124398"}`,
	}, {
		name: "v4 without PLAINTEXT",
		in:   `{"listener_security_protocol_map":{"SSL":"SSL"},"endpoints":["SSL://kafka-0-broker.kf-shared.mss.work01.daas.es.igrupobbva:9092"],"rack":"TC-I-2","jmx_port":9091,"host":null,"timestamp":"1537365146054","port":-1,"version":4}`,
		want: BrokerInfo{ID: 1, Rack: "TC-I-2", JmxPort: 9091, Timestamp: 1537365146054, Endpoints: []Endpoint{
			{"SSL", "kafka-0-broker.kf-shared.mss.work01.daas.es.igrupobbva", 9092, "SSL"}}},
		v5: `{"features":{},"listener_security_protocol_map":{"SSL":"SSL"},"endpoints":["SSL://kafka-0-broker.kf-shared.mss.work01.daas.es.igrupobbva:9092"],"rack":"TC-I-2","jmx_port":9091,"port":-1,"host":null,"version":5,"timestamp":"1537365146054"}`,
	}, {
		name: "v2: protocols from the listener names",
		in:   `{"version":2,"host":"localhost","port":9092,"jmx_port":9999,"timestamp":"2233345666","endpoints":["PLAINTEXT://host1:9092", "SSL://host1:9093"]}`,
		want: BrokerInfo{ID: 1, JmxPort: 9999, Timestamp: 2233345666, Endpoints: []Endpoint{
			{"PLAINTEXT", "host1", 9092, "PLAINTEXT"}, {"SSL", "host1", 9093, "SSL"}}},
	}, {
		name: "v1: host and port",
		in:   `{"version":1,"host":"localhost","port":9092,"jmx_port":9999,"timestamp":"2233345666"}`,
		want: BrokerInfo{ID: 1, JmxPort: 9999, Timestamp: 2233345666, Endpoints: []Endpoint{{"PLAINTEXT", "localhost", 9092, "PLAINTEXT"}}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeBrokerInfo(1, []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v\nwant %+v", got, c.want)
			}
			if c.v5 != "" {
				wantBytes(t, EncodeBrokerInfo(got), c.v5)
			}
		})
	}
}

func TestBrokerEndpointForms(t *testing.T) {
	b := BrokerInfo{ID: 3, JmxPort: -1, Endpoints: []Endpoint{{"INTERNAL", "::1", 9092, "SASL_SSL"}, {"EXTERNAL", "", 9093, "SSL"}}}
	data := EncodeBrokerInfo(b)
	back, err := DecodeBrokerInfo(3, data)
	if err != nil || !reflect.DeepEqual(back, b) {
		t.Fatalf("%s\n%+v %v", data, back, err)
	}
	const endpoints = `"endpoints":["INTERNAL://[::1]:9092","EXTERNAL://:9093"]`
	if !contains(string(data), endpoints) {
		t.Fatalf("%s", data)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestDecodeBrokerRejects(t *testing.T) {
	for _, in := range []string{
		``, `null`, `[]`, `{`,
		`{"version":0,"jmx_port":-1}`,
		`{"version":5}`,
		`{"version":"5","jmx_port":-1,"endpoints":[]}`,
		`{"version":5,"jmx_port":-1}`,
		`{"version":5,"jmx_port":-1,"endpoints":["nonsense"]}`,
		`{"version":5,"jmx_port":-1,"endpoints":["CLIENT://h:1"]}`,
		`{"version":5,"jmx_port":-1,"endpoints":["PLAINTEXT://h:99999999999"]}`,
		`{"version":5,"jmx_port":-1,"listener_security_protocol_map":{"A":"TLS"},"endpoints":["A://h:1"]}`,
		`{"version":5,"jmx_port":-1,"endpoints":[],"rack":7}`,
		"{\"version\":5,\"jmx_port\":-1,\"endpoints\":[],\"host\":\"\xff\"}",
	} {
		if b, err := DecodeBrokerInfo(1, []byte(in)); err == nil {
			t.Errorf("%q accepted: %+v", in, b)
		}
	}
}

// Version 1 and 2 topic znodes (a real hand-created version 1 one from a
// book's example) and reassignment lists, in any key order.
func TestDecodeTopicVersions(t *testing.T) {
	got, err := DecodeTopic([]byte(`{"version":1,"partitions":{"2":[1,2],"1":[0,1],"3":[2,1],"0":[2,0]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32][]int32{0: {2, 0}, 1: {0, 1}, 2: {1, 2}, 3: {2, 1}}
	if !reflect.DeepEqual(got.Partitions, want) || got.TopicID != [16]byte{} || len(got.Adding)+len(got.Removing) != 0 {
		t.Fatalf("%+v", got)
	}
	got, err = DecodeTopic([]byte(`{"version":2,"removing_replicas":{"1":[4],"7":[9]},"adding_replicas":{"1":[1],"0":[]},"partitions":{"1":[1,2,4],"0":[2,3]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Adding, map[int32][]int32{1: {1}}) || !reflect.DeepEqual(got.Removing, map[int32][]int32{1: {4}}) {
		t.Fatalf("%+v", got)
	}
	// Kafka writes the moving partitions, and only those, in the same
	// hash order as "partitions".
	wantBytes(t, EncodeTopic(got), `{"partitions":{"0":[2,3],"1":[1,2,4]},"adding_replicas":{"1":[1]},"removing_replicas":{"1":[4]},"version":3}`)
	for _, in := range []string{`{"partitions":{"x":[1]}}`, `{"partitions":{"0":[1.5]}}`, `{"partitions":[]}`, `{"topic_id":"short"}`, `{"topic_id":1}`, `7`} {
		if _, err := DecodeTopic([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestDecodePartitionStateAnyOrder(t *testing.T) {
	got, err := DecodePartitionState([]byte(` {"isr":[3],"leader_epoch":7,"version":1,"leader":-1,"controller_epoch":2} `))
	if err != nil || !reflect.DeepEqual(got, PartitionState{Leader: -1, LeaderEpoch: 7, ISR: []int32{3}, ControllerEpoch: 2}) {
		t.Fatalf("%+v %v", got, err)
	}
	for _, in := range []string{
		`{"leader":1,"leader_epoch":0,"isr":[1]}`,
		`{"leader":"1","leader_epoch":0,"isr":[1],"controller_epoch":1}`,
		`{"leader":1.0,"leader_epoch":0,"isr":[1],"controller_epoch":1}`,
		`{"leader":2147483648,"leader_epoch":0,"isr":[1],"controller_epoch":1}`,
		`{"leader":1,"leader_epoch":0,"isr":null,"controller_epoch":1}`,
		`{"leader":null,"leader_epoch":0,"isr":[1],"controller_epoch":1}`,
	} {
		if _, err := DecodePartitionState([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

// Jackson's escapes: a backslash for '"' and '\\', names for \b \t \n \f
// \r, \u00XX with upper-case hex for other control characters, and
// nothing for '/', DEL or non-ASCII text.
func TestJacksonStringEscapes(t *testing.T) {
	got := EncodeEntityConfig(map[string]string{"k": "\"\\/\b\t\n\f\r\x01\x1f\x7fé😀"})
	wantBytes(t, got, `{"version":1,"config":{"k":"\"\\/\b\t\n\f\r\u0001\u001F`+"\x7fé😀"+`"}}`)
	back, err := DecodeEntityConfig(got)
	if err != nil || back["k"] != "\"\\/\b\t\n\f\r\x01\x1f\x7fé😀" {
		t.Fatalf("%q %v", back, err)
	}
}

func TestDecodeEntityConfigLenience(t *testing.T) {
	for _, in := range []string{`[]`, `{"version":1}`, `{"config":[]}`, `{"config":null}`} {
		c, err := DecodeEntityConfig([]byte(in))
		if err != nil || len(c) != 0 {
			t.Errorf("%q: %v %v", in, c, err)
		}
	}
	for _, in := range []string{`{"config":{"a":1}}`, `{"config":{"a":null}}`, `{`, ``} {
		if _, err := DecodeEntityConfig([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
	// A repeated name: first place, last value (Jackson's ObjectNode).
	e, err := DecodeEntityConfigEntries([]byte(`{"config":{"a":"1","b":"2","a":"3"}}`))
	if err != nil || !slices.Equal(e, []ConfigEntry{{"a", "3"}, {"b", "2"}}) {
		t.Fatalf("%v %v", e, err)
	}
}

func TestConfigChangeAndLogDirNotifications(t *testing.T) {
	wantBytes(t, EncodeConfigChangeNotification("topics/t"), `{"version":2,"entity_path":"topics/t"}`)
	wantBytes(t, EncodeLogDirEventNotification(2), `{"version":1,"broker":2,"event":1}`)
}

func TestFeature(t *testing.T) {
	// The notes' order for the 2.13 build, from the mutable.Map rules the
	// broker and topic dumps confirm.
	wantBytes(t, EncodeFeature(), `{"features":{},"version":1,"status":1}`)
}

func TestPartitionListNotifications(t *testing.T) {
	one := []TopicPartition{{"t", 0}}
	wantBytes(t, EncodeIsrChangeNotification(one), `{"version":1,"partitions":[{"topic":"t","partition":0}]}`)
	wantBytes(t, EncodePreferredReplicaElection(one), `{"version":1,"partitions":[{"topic":"t","partition":0}]}`)

	// Up to four, an immutable Set keeps the order it was given.
	four := []TopicPartition{{"b", 1}, {"a", 0}, {"b", 0}, {"a", 1}}
	got, err := DecodePreferredReplicaElection(EncodePreferredReplicaElection(four))
	if err != nil || !slices.Equal(got, four) {
		t.Fatalf("%v %v", got, err)
	}
	// A mutable HashSet's order, and a CHAMP set's from five on, do not
	// depend on the order given, but for partitions whose maps hash alike.
	many := []TopicPartition{{"orders", 0}, {"orders", 1}, {"payments", 0}, {"payments", 5}, {"clicks", 0}, {"clicks", 12}}
	seen := map[int32]bool{}
	for _, p := range many {
		if h := partitionMapHash(p); seen[h] {
			t.Fatalf("hashes collide: %v", p)
		} else {
			seen[h] = true
		}
	}
	rev := slices.Clone(many)
	slices.Reverse(rev)
	for _, enc := range []func([]TopicPartition) []byte{EncodeIsrChangeNotification, EncodePreferredReplicaElection} {
		a, b := enc(many), enc(rev)
		if string(a) != string(b) {
			t.Fatalf("order shows:\n%s\n%s", a, b)
		}
		back, err := DecodeIsrChangeNotification(a)
		if err != nil || len(back) != len(many) {
			t.Fatalf("%v %v", back, err)
		}
	}
	// A mutable HashSet orders even two partitions by hash.
	two := EncodeIsrChangeNotification([]TopicPartition{many[1], many[0]})
	if string(two) != string(EncodeIsrChangeNotification(many[:2])) {
		t.Fatalf("%s", two)
	}
	for _, in := range []string{`{}`, `{"partitions":{}}`, `{"partitions":[1]}`, `{"partitions":[{"topic":"t"}]}`, `{"partitions":[{"topic":1,"partition":0}]}`} {
		if _, err := DecodeIsrChangeNotification([]byte(in)); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestDecodeSmallZnodesReject(t *testing.T) {
	for _, in := range []string{``, `{}`, `{"id":1}`, `"x"`} {
		if _, err := DecodeClusterID([]byte(in)); err == nil {
			t.Errorf("cluster id %q accepted", in)
		}
	}
	for _, in := range []string{`{}`, `{"brokerid":"1"}`, `[1]`} {
		if _, err := DecodeController([]byte(in)); err == nil {
			t.Errorf("controller %q accepted", in)
		}
	}
	for _, in := range []string{`{"broker":1,"block_start":1000,"block_end":"1999"}`, `{"broker":1,"block_start":"x","block_end":"1999"}`, `{"block_start":"1","block_end":"2"}`} {
		if _, err := DecodeProducerIDBlock([]byte(in)); err == nil {
			t.Errorf("producer id block %q accepted", in)
		}
	}
}

// A config change notification reads back as the entity type and name
// its entity_path names; anything else is not one.
func TestConfigChangeNotificationRoundTrip(t *testing.T) {
	typ, name, ok := DecodeConfigChangeNotification(EncodeConfigChangeNotification("topics/orders"))
	if !ok || typ != "topics" || name != "orders" {
		t.Fatalf("%q %q %v", typ, name, ok)
	}
	for _, bad := range []string{`{"version":1,"entity_type":"topics","entity_name":"t"}`, `[]`, `{"entity_path":3}`, `{"entity_path":"topics"}`, `not json`} {
		if _, _, ok := DecodeConfigChangeNotification([]byte(bad)); ok {
			t.Errorf("%s read as a notification", bad)
		}
	}
}
