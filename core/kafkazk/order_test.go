package kafkazk

import (
	"kafkascope/core/scalacoll"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func partitionKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	return keys
}

// The Scala 2.13 orders behind the real dumps of dumps_test.go, one map
// at a time, plus the ones no dump showed but the same rules give.
func TestScalaMapOrders(t *testing.T) {
	cases := []struct {
		name string
		got  []string
		want string
	}{
		// Seen in real dumps.
		{"partition state (Map of 5: CHAMP)",
			scalacoll.ImmutableStringOrder([]string{"version", "leader", "leader_epoch", "controller_epoch", "isr"}),
			"controller_epoch leader version leader_epoch isr"},
		{"broker v5 (mutable literal of 6, then 2 more)",
			scalacoll.MutableStringOrder([]string{"version", "host", "port", "endpoints", "jmx_port", "timestamp", "listener_security_protocol_map", "features"}, 6),
			"features listener_security_protocol_map endpoints jmx_port port host version timestamp"},
		{"topic v3 (mutable literal of 4, then topic_id)",
			scalacoll.MutableStringOrder([]string{"version", "partitions", "adding_replicas", "removing_replicas", "topic_id"}, 4),
			"partitions topic_id adding_replicas removing_replicas version"},
		{"11 partitions (mutable, from empty)",
			scalacoll.MutableStringOrder(partitionKeys(11), 0), "0 1 2 3 4 5 6 7 8 9 10"},
		{"12 partitions", scalacoll.MutableStringOrder(partitionKeys(12), 0), "11 0 1 2 3 4 5 6 7 8 9 10"},
		{"four listeners (Map4: insertion order)",
			scalacoll.ImmutableStringOrder([]string{"CONTROLPLANE-9090", "REPLICATION-9091", "PLAIN-9092", "TLS-9093"}),
			"CONTROLPLANE-9090 REPLICATION-9091 PLAIN-9092 TLS-9093"},
		// Given by the same rules.
		{"broker v5 with a rack",
			scalacoll.MutableStringOrder([]string{"version", "host", "port", "endpoints", "jmx_port", "timestamp", "rack", "listener_security_protocol_map", "features"}, 6),
			"features listener_security_protocol_map endpoints rack jmx_port port host version timestamp"},
		{"topic v3 without a topic id",
			scalacoll.MutableStringOrder([]string{"version", "partitions", "adding_replicas", "removing_replicas"}, 4),
			"partitions adding_replicas removing_replicas version"},
		{"feature (mutable literal of 3)",
			scalacoll.MutableStringOrder([]string{"version", "status", "features"}, 3), "features version status"},
		{"50 partitions (__consumer_offsets)", scalacoll.MutableStringOrder(partitionKeys(50), 0),
			"44 45 46 47 48 49 10 11 12 13 14 15 16 17 18 19 0 1 2 3 4 5 6 7 8 9 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43"},
	}
	for _, c := range cases {
		if got := strings.Join(c.got, " "); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// Properties orders measured on JDK 17 (whose Properties and
// ConcurrentHashMap are JDK 11's): new Properties(), setProperty in the
// given order, then the entrySet's keys. The two 26-key cases differ only
// in insertion order and show it: transfer reverses the nodes it moves
// ahead of a bin's last run.
func TestJavaPropertiesOrder(t *testing.T) {
	cases := []struct{ in, want string }{
		{"max.message.bytes cleanup.policy", "cleanup.policy max.message.bytes"},
		{"retention.ms cleanup.policy segment.bytes min.insync.replicas", "cleanup.policy min.insync.replicas retention.ms segment.bytes"},
		{"follower.replication.throttled.replicas unclean.leader.election.enable segment.ms retention.ms message.timestamp.difference.max.ms message.timestamp.type min.compaction.lag.ms preallocate compression.type message.format.version segment.jitter.ms flush.messages max.message.bytes",
			"compression.type message.format.version max.message.bytes min.compaction.lag.ms message.timestamp.type preallocate segment.jitter.ms unclean.leader.election.enable follower.replication.throttled.replicas retention.ms segment.ms message.timestamp.difference.max.ms flush.messages"},
		{"min.cleanable.dirty.ratio index.interval.bytes cleanup.policy leader.replication.throttled.replicas message.timestamp.difference.max.ms compression.type delete.retention.ms min.compaction.lag.ms min.insync.replicas retention.ms follower.replication.throttled.replicas max.message.bytes flush.ms message.format.version flush.messages segment.ms segment.jitter.ms segment.index.bytes unclean.leader.election.enable segment.bytes file.delete.delay.ms max.compaction.lag.ms message.downconversion.enable retention.bytes preallocate message.timestamp.type",
			"compression.type leader.replication.throttled.replicas min.insync.replicas message.downconversion.enable segment.jitter.ms cleanup.policy flush.ms follower.replication.throttled.replicas retention.ms segment.bytes flush.messages message.format.version file.delete.delay.ms max.compaction.lag.ms max.message.bytes min.compaction.lag.ms message.timestamp.type preallocate min.cleanable.dirty.ratio index.interval.bytes unclean.leader.election.enable delete.retention.ms retention.bytes segment.ms message.timestamp.difference.max.ms segment.index.bytes"},
		{"follower.replication.throttled.replicas flush.messages max.compaction.lag.ms delete.retention.ms segment.ms message.timestamp.difference.max.ms preallocate segment.bytes message.downconversion.enable flush.ms compression.type message.timestamp.type segment.jitter.ms cleanup.policy file.delete.delay.ms max.message.bytes unclean.leader.election.enable min.compaction.lag.ms min.cleanable.dirty.ratio retention.ms leader.replication.throttled.replicas retention.bytes message.format.version segment.index.bytes index.interval.bytes min.insync.replicas",
			"compression.type leader.replication.throttled.replicas message.downconversion.enable min.insync.replicas segment.jitter.ms cleanup.policy flush.ms follower.replication.throttled.replicas segment.bytes retention.ms flush.messages message.format.version max.compaction.lag.ms file.delete.delay.ms max.message.bytes min.compaction.lag.ms message.timestamp.type preallocate min.cleanable.dirty.ratio index.interval.bytes unclean.leader.election.enable delete.retention.ms retention.bytes segment.ms message.timestamp.difference.max.ms segment.index.bytes"},
	}
	for _, c := range cases {
		if got := strings.Join(javaPropertiesOrder(strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	// A repeated name keeps its first place.
	if got, want := javaPropertiesOrder([]string{"b", "a", "b"}), javaPropertiesOrder([]string{"b", "a"}); !slices.Equal(got, want) {
		t.Fatalf("repeat: %v, want %v", got, want)
	}
}

// The real two-key config dump `{"version":1,"config":{"cleanup.policy":
// "compact","max.message.bytes":"10000"}}` comes out whichever way the
// names were set.
func TestEntityConfigDumpTwoKeys(t *testing.T) {
	const want = `{"version":1,"config":{"cleanup.policy":"compact","max.message.bytes":"10000"}}`
	wantBytes(t, EncodeEntityConfigEntries([]ConfigEntry{{"max.message.bytes", "10000"}, {"cleanup.policy", "compact"}}), want)
	wantBytes(t, EncodeEntityConfig(map[string]string{"cleanup.policy": "compact", "max.message.bytes": "10000"}), want)
	entries, err := DecodeEntityConfigEntries([]byte(want))
	if err != nil || len(entries) != 2 || entries[0] != (ConfigEntry{"cleanup.policy", "compact"}) {
		t.Fatalf("%v %v", entries, err)
	}
}

// java.util.HashMap.hashCode of {topic=t, partition=0} and
// {topic=__consumer_offsets, partition=17}, measured on JDK 17: the
// AbstractMap contract the Scala wrapper keeps.
func TestPartitionMapHash(t *testing.T) {
	if got := partitionMapHash(TopicPartition{"t", 0}); got != -1689264059 {
		t.Errorf("t-0: %d", got)
	}
	if got := partitionMapHash(TopicPartition{"__consumer_offsets", 17}); got != 1433966323 {
		t.Errorf("__consumer_offsets-17: %d", got)
	}
}
