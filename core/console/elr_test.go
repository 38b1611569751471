package console

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"kafkascope/core/cluster"
	"kafkascope/core/config"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/view"
)

// kafka43Session is a session on a running Kafka 4.3 cluster of brokers
// nodes (the first three are the controller quorum), made with Unfinished
// while users cannot choose 4.3 yet.
func kafka43Session(t *testing.T, brokers int) *Session {
	t.Helper()
	c, err := cluster.New(cluster.Config{Brokers: brokers, Seed: 1, Static: config.Static{"offsets.topic.replication.factor": "3"},
		Version: release.Version{Major: 4, Minor: 3}, Unfinished: true})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession()
	s.cluster = c
	return s
}

// TestEligibleLeaderReplicasOnKafka43 follows KIP-966 through a running
// 4.3 cluster (not yet offered to users, so made with Unfinished): with
// min.insync.replicas=2 on three replicas, a follower that shuts down
// cleanly while the ISR is below min ISR becomes an eligible leader
// replica; when the last ISR member goes too the ISR empties, and the
// follower is elected from the ELR when it returns.
func TestEligibleLeaderReplicasOnKafka43(t *testing.T) {
	s := kafka43Session(t, 6)
	run := func(line string) []string {
		t.Helper()
		out := s.Exec(line, nil)
		t.Logf("$ %s\n%s", line, strings.Join(out, "\n"))
		return out
	}
	// field reads "Name: value" from the partition line of describe.
	describe := func() map[string]string {
		t.Helper()
		out := run("kafka-topics.sh --describe --topic t")
		if len(out) != 2 {
			t.Fatalf("describe printed %q", out)
		}
		fields := map[string]string{}
		for _, f := range strings.Split(strings.TrimPrefix(out[1], "\t"), "\t") {
			k, v, _ := strings.Cut(f, ": ")
			fields[k] = v
		}
		return fields
	}
	// The replicas are on brokers 4-6, so that the controller quorum (the
	// voters 1-3) outlives them.
	run("kafka-topics.sh --create --topic t --replica-assignment 4:5:6 --config min.insync.replicas=2")
	d := describe()
	leader := d["Leader"]
	var followers []string
	for _, r := range strings.Split(d["Replicas"], ",") {
		if r != leader {
			followers = append(followers, r)
		}
	}
	if d["Isr"] == "" || len(followers) != 2 || d["Elr"] != "" {
		t.Fatalf("fresh topic: %v", d)
	}
	// One follower leaves: the ISR (2) is still at min ISR, no ELR.
	run("broker stop " + followers[0])
	if d = describe(); d["Elr"] != "" || len(strings.Split(d["Isr"], ",")) != 2 {
		t.Fatalf("after stopping %s: %v", followers[0], d)
	}
	// The second leaves while the ISR would drop below min ISR: it is
	// eligible.
	run("broker stop " + followers[1])
	if d = describe(); d["Isr"] != leader || d["Elr"] != followers[1] || d["Leader"] != leader {
		t.Fatalf("after stopping %s: %v", followers[1], d)
	}
	// The leader goes: the ISR empties, both are eligible (by id), and
	// the last leader is remembered.
	run("broker stop " + leader)
	d = describe()
	want := []string{leader, followers[1]}
	if want[0] > want[1] {
		want[0], want[1] = want[1], want[0]
	}
	if d["Leader"] != "none" || d["Isr"] != "" || d["Elr"] != strings.Join(want, ",") || d["LastKnownElr"] != leader {
		t.Fatalf("after stopping the leader %s: %v", leader, d)
	}
	// The page draws the same: every ELR member marked, no one in the ISR.
	for _, tv := range view.Take(s.cluster).Topics {
		if tv.Name != "t" {
			continue
		}
		p := tv.Partitions[0]
		var marked []string
		for _, r := range p.Replicas {
			if r.InISR {
				t.Errorf("view: %d in the ISR", r.Broker)
			}
			if r.InELR {
				marked = append(marked, fmt.Sprint(r.Broker))
			}
		}
		if strings.Join(marked, ",") != strings.Join(want, ",") || sim.FormatIDs(p.LastKnownElr) != leader {
			t.Errorf("view: ELR marked on %v, last known %v", marked, p.LastKnownElr)
		}
	}
	// The eligible follower returns and leads, alone in the ISR.
	run("broker start " + followers[1])
	if d = describe(); d["Leader"] != followers[1] || d["Isr"] != followers[1] || d["Elr"] != leader || d["LastKnownElr"] != "" {
		t.Fatalf("after starting %s: %v", followers[1], d)
	}
}

// TestUncleanRestartLeavesTheELR: a replica that crashed (no clean-shutdown
// file, so its registration's PreviousBrokerEpoch does not match) may have
// lost acknowledged records: on its return it leaves the ELR and is not
// elected, where a cleanly stopped one would be (the test above).
func TestUncleanRestartLeavesTheELR(t *testing.T) {
	s := kafka43Session(t, 6)
	describe := func() string {
		t.Helper()
		out := s.Exec("kafka-topics.sh --describe --topic t", nil)
		if len(out) != 2 {
			t.Fatalf("describe printed %q", out)
		}
		_, line, _ := strings.Cut(out[1], "Leader: ")
		return "Leader: " + line
	}
	for _, line := range []string{
		"kafka-topics.sh --create --topic t --replica-assignment 4:5:6 --config min.insync.replicas=2",
		"broker stop 5", "broker kill 6", "time advance 15s", "broker stop 4",
	} {
		s.Exec(line, nil)
	}
	if got, want := describe(), "Leader: none\tReplicas: 4,5,6\tIsr: \tElr: 4,6\tLastKnownElr: 4"; got != want {
		t.Fatalf("before the restart: %q, want %q", got, want)
	}
	s.Exec("broker start 6", nil)
	if got, want := describe(), "Leader: none\tReplicas: 4,5,6\tIsr: \tElr: 4\tLastKnownElr: 4"; got != want {
		t.Fatalf("after 6's unclean restart: %q, want %q", got, want)
	}
	// The cleanly stopped last leader returns and leads.
	s.Exec("broker start 4", nil)
	if got, want := describe(), "Leader: 4\tReplicas: 4,5,6\tIsr: 4"; !strings.HasPrefix(got, want) {
		t.Fatalf("after 4's clean restart: %q, want it to start %q", got, want)
	}
}

// TestKafka43Outputs: what a fresh 4.3 cluster prints where 3.8 differs:
// the cluster-level min.insync.replicas that ELR writes (a fresh topic
// shows it among its configs, KAFKA-16540), the features a 4.3 broker
// reports in 4.3's padded layout, ELR's refusals of per-broker and
// removed cluster-level min.insync.replicas, and the tools' version.
func TestKafka43Outputs(t *testing.T) {
	s := kafka43Session(t, 3)
	pad := func(name, lo, hi, fin string) string {
		return fmt.Sprintf("Feature: %-40s  SupportedMinVersion: %-15s  SupportedMaxVersion: %-15s  FinalizedVersionLevel: %-15s  Epoch: ", name, lo, hi, fin)
	}
	for _, c := range []struct {
		line string
		want []string // each output line starts with its want
	}{
		{"kafka-topics.sh --create --topic a --partitions 1 --replication-factor 3", []string{"Created topic a."}},
		{"kafka-topics.sh --describe --topic a", []string{
			"Topic: a\tTopicId: ", // ... PartitionCount: 1	ReplicationFactor: 3	Configs: min.insync.replicas=1 (checked below)
			"\tTopic: a\tPartition: 0\tLeader: "}},
		{"kafka-features.sh --bootstrap-server localhost:9092 describe", []string{
			pad("eligible.leader.replicas.version", "0", "1", "1"),
			pad("group.version", "0", "1", "1"),
			pad("kraft.version", "0", "1", "0"),
			pad("metadata.version", "3.3-IV3", "4.3-IV0", "4.3-IV0"),
			pad("share.version", "0", "1", "1"),
			pad("streams.version", "0", "1", "1"),
			pad("transaction.version", "0", "2", "2")}},
		{"kafka-configs.sh --bootstrap-server localhost:9092 --describe --entity-type brokers --entity-default", []string{
			"Default configs for brokers in the cluster are:",
			"  min.insync.replicas=1 sensitive=false synonyms={DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=1}"}},
		{"kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type brokers --entity-name 1 --add-config min.insync.replicas=2", []string{
			"Error while executing config command with args '--bootstrap-server localhost:9092 --alter --entity-type brokers --entity-name 1 --add-config min.insync.replicas=2'",
			"java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Broker-level min.insync.replicas cannot be altered while ELR is enabled.",
			"Caused by: org.apache.kafka.common.errors.InvalidConfigurationException: Broker-level min.insync.replicas cannot be altered while ELR is enabled."}},
		{"kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type brokers --entity-default --delete-config min.insync.replicas", []string{
			"Error while executing config command with args '--bootstrap-server localhost:9092 --alter --entity-type brokers --entity-default --delete-config min.insync.replicas'",
			"java.util.concurrent.ExecutionException: org.apache.kafka.common.errors.InvalidConfigurationException: Cluster-level min.insync.replicas cannot be removed while ELR is enabled.",
			"Caused by: org.apache.kafka.common.errors.InvalidConfigurationException: Cluster-level min.insync.replicas cannot be removed while ELR is enabled."}},
		{"kafka-console-producer.sh --version", []string{"4.3.0"}},
	} {
		out := s.Exec(c.line, nil)
		if len(out) != len(c.want) {
			t.Errorf("$ %s\n%s\nwant %d lines", c.line, strings.Join(out, "\n"), len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(out[i], w) {
				t.Errorf("$ %s: line %d\n got %q\nwant %q...", c.line, i, out[i], w)
			}
		}
		if strings.HasPrefix(c.line, "kafka-topics.sh --describe") && !strings.HasSuffix(out[0], "\tPartitionCount: 1\tReplicationFactor: 3\tConfigs: min.insync.replicas=1") {
			t.Errorf("a fresh topic on 4.3: %q", out[0])
		}
	}
}

// TestKafka4RefusesTheProtocolVersion: inter.broker.protocol.version, the
// simulator's knob for older replication rules, does not exist from Kafka
// 4.0 on; a cluster of such a release is not made with it.
func TestKafka4RefusesTheProtocolVersion(t *testing.T) {
	_, err := cluster.New(cluster.Config{Brokers: 3, Seed: 1, Version: release.Version{Major: 4, Minor: 3}, Unfinished: true,
		Static: config.Static{"inter.broker.protocol.version": "0.10"}})
	if err == nil || !strings.Contains(err.Error(), "inter.broker.protocol.version does not exist in Kafka 4.3") {
		t.Fatalf("got %v", err)
	}
	if _, err := cluster.New(cluster.Config{Brokers: 3, Seed: 1, Version: release.Version{Major: 3, Minor: 8}, Static: config.Static{"inter.broker.protocol.version": "0.10"}}); err != nil {
		t.Fatalf("3.8: %v", err)
	}
}

// TestKafka43MetadataRecords reads a 4.3 cluster's metadata log: no
// ZooKeeper migration state at bootstrap, registrations at version 4 with
// every feature the broker supports, the cordoned directories each broker
// reports once it caught up (an empty list, version 3), partition records
// at version 2 without ELR fields, and a ClearElrRecord after each
// min.insync.replicas change.
func TestKafka43MetadataRecords(t *testing.T) {
	s := kafka43Session(t, 3)
	for _, line := range []string{
		"kafka-topics.sh --create --topic a --partitions 1 --replication-factor 3 --config min.insync.replicas=2",
		"kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type topics --entity-name a --add-config min.insync.replicas=1",
		"kafka-configs.sh --bootstrap-server localhost:9092 --alter --entity-type brokers --entity-default --add-config min.insync.replicas=1",
		"time advance 1s",
	} {
		s.Exec(line, nil)
	}
	dump := strings.Join(s.Exec("kafka-dump-log.sh --cluster-metadata-decoder --files /tmp/kafka-logs/__cluster_metadata-0/00000000000000000000.log", nil), "\n")
	payloads := regexp.MustCompile(`payload: (\{.*\})`).FindAllStringSubmatch(dump, -1)
	var got []string
	for _, p := range payloads {
		got = append(got, p[1])
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`{"type":"FEATURE_LEVEL_RECORD","version":0,"data":{"name":"metadata.version","featureLevel":30}}`,
		`{"type":"CONFIG_RECORD","version":0,"data":{"resourceType":4,"resourceName":"","name":"min.insync.replicas","value":"1"}}`,
		`"maxSupportedVersion":30}`,
		`{"name":"streams.version","minSupportedVersion":0,"maxSupportedVersion":1}`,
		`"cordonedLogDirs":[]}}`,
		`{"type":"CONFIG_RECORD","version":0,"data":{"resourceType":2,"resourceName":"a","name":"min.insync.replicas","value":"2"}}` + "\n" +
			`{"type":"CLEAR_ELR_RECORD","version":0,"data":{"topicName":"a"}}` + "\n" + `{"type":"PARTITION_RECORD","version":2,`,
		`{"type":"CONFIG_RECORD","version":0,"data":{"resourceType":2,"resourceName":"a","name":"min.insync.replicas","value":"1"}}` + "\n" +
			`{"type":"CLEAR_ELR_RECORD","version":0,"data":{"topicName":"a"}}`,
		`{"type":"CONFIG_RECORD","version":0,"data":{"resourceType":4,"resourceName":"","name":"min.insync.replicas","value":"1"}}` + "\n" +
			`{"type":"CLEAR_ELR_RECORD","version":0,"data":{"topicName":""}}`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the metadata log lacks\n%s\nin\n%s", want, all)
		}
	}
	for _, absent := range []string{"ZK_MIGRATION_STATE_RECORD", `"type":"REGISTER_BROKER_RECORD","version":3`, `"type":"PARTITION_RECORD","version":1`, "eligibleLeaderReplicas"} {
		if strings.Contains(all, absent) {
			t.Errorf("a 4.3 metadata log holds %s:\n%s", absent, all)
		}
	}
	if n := strings.Count(all, `"cordonedLogDirs":[]`); n != 3 {
		t.Errorf("%d cordoned-directory reports, want one per broker (3)", n)
	}
}
