package console

import (
	"strings"
	"testing"
)

// Whatever is typed, the session answers with text and keeps working: no
// panic, no lost cluster.
func TestHostileInputNeverBreaksTheSession(t *testing.T) {
	s := NewSession()
	s.Exec("cluster create", nil)
	s.Exec("kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3", nil)
	inputs := []string{
		"", "   ", "&", "& &", "'", `"`, `\`, "$", "#", "--", "-", "--help", "kafka-topics.sh --", "kafka-topics.sh -",
		strings.Repeat("a", 70000), "kafka-topics.sh " + strings.Repeat("--list ", 5000),
		"kafka-topics.sh --create --topic ü --partitions 1", "kafka-topics.sh --create --topic " + strings.Repeat("x", 300),
		"kafka-topics.sh --create --topic big --partitions 99999999999", "kafka-topics.sh --create --topic big --partitions 5000",
		"kafka-topics.sh --create --topic big --replication-factor -1", "kafka-topics.sh --alter --topic t --partitions -5",
		"kafka-topics.sh --describe --topic '['", "kafka-topics.sh --list --topic '(?<x>a)'",
		"kafka-topics.sh --create --topic q --config =", "kafka-topics.sh --create --topic q --replica-assignment ,,,",
		"kafka-topics.sh --create --topic q --replica-assignment :", "kafka-topics.sh --create --topic q --replica-assignment ''",
		"kafka-console-consumer.sh --topic t --partition -1 --max-messages 0",
		"kafka-console-consumer.sh --topic t --max-messages -5 --timeout-ms 10",
		"kafka-console-consumer.sh --topic t --timeout-ms -1 --max-messages 0",
		"kafka-console-consumer.sh --topic t --offset 99999999999999999999 --partition 0",
		"kafka-console-consumer.sh --topic '' --timeout-ms 100",
		"kafka-console-producer.sh --topic '' ", "kafka-console-producer.sh --topic t --property key.separator= --property parse.key=true",
		"kafka-console-producer.sh --topic t --compression-codec", "kafka-console-producer.sh --topic t --timeout -1",
		"kafka-console-producer.sh --topic t --producer-property retries=-1", "kafka-console-producer.sh --topic t --producer-property batch.size=0",
		"kafka-console-producer.sh --topic t --producer-property linger.ms=999999999999",
		"kafka-get-offsets.sh --topic-partitions ::::", "kafka-get-offsets.sh --topic-partitions t:99999999999",
		"kafka-get-offsets.sh --time -9", "kafka-get-offsets.sh --bootstrap-server ,",
		"broker kill -1", "broker start 99999999999999", "broker stop 0", "network cut ->", "network cut 1->",
		"network delay 1 99999999999999999999h", "time advance 1e9s", "time advance 0", "kill %", "kill %-1", "jobs extra",
		"ls /", "ls ../../..", "cat /", "xxd /etc/passwd", "ls --broker", "ls --broker=x", "replicas --", "replicas t-99999999999",
		"cluster", "cluster create --config", "cluster create --config =", "cluster create --brokers -3",
		"kafka-topics.sh --bootstrap-server localhost:99999999 --list", "kafka-topics.sh --bootstrap-server :9092 --list",
		"kafka-topics.sh --bootstrap-server kafka-1:notaport --list", "kafka-topics.sh --bootstrap-server kafka-2:1234 --list",
		"kafka-dump-log.sh --files ,", "kafka-dump-log.sh --files .log", "kafka-dump-log.sh --files /", "kafka-dump-log.sh --files ../../../etc/passwd.log",
		"kafka-dump-log.sh --files meta.properties.log --print-data-log", "kafka-dump-log.sh --files x.checkpoint", "kafka-dump-log.sh --broker 99 --files a.log",
		"kafka-dump-log.sh --files a.log --key-decoder-class --value-decoder-class=", "kafka-dump-log.sh --files 00000000000000000000.log --max-bytes -5",
		"kafka-topics.sh --create --topic dl", "kafka-dump-log.sh --files dl-0/00000000000000000000.log --max-bytes -5 --print-data-log",
		"kafka-dump-log.sh --files dl-0/00000000000000000000.log --max-bytes 0", "kafka-dump-log.sh --files dl-0 --deep-iteration",
		"kafka-producer-perf-test.sh -- --topic t", "kafka-producer-perf-test.sh -=x", "kafka-producer-perf-test.sh --=", "kafka-producer-perf-test.sh -",
		"kafka-producer-perf-test.sh --" + strings.Repeat("x", 5000), "kafka-producer-perf-test.sh --topic " + strings.Repeat("é ", 3000),
		"kafka-producer-perf-test.sh --topic=ü --num-records=٣ --throughput=-1 --record-size=1 --producer-props==",
		"kafka-producer-perf-test.sh --topic t --num-records 99999999999999999999 --throughput 1 --record-size 1 --producer-props a=b",
		"kafka-producer-perf-test.sh --topic t --num-records 5 --throughput 2147483647 --record-size 2147483647 --producer-props acks=1",
		"kafka-producer-perf-test.sh --topic t --num-records -9223372036854775808 --throughput -2147483648 --record-size 1 --producer-props acks=1",
		"kafka-producer-perf-test.sh --topic t --num-records 50 --throughput 2147483647 --record-size 0 --producer-props acks=0",
		"kafka-producer-perf-test.sh --topic '' --num-records 2 --throughput -1 --record-size 1 --producer-props max.block.ms=100",
		"kafka-producer-perf-test.sh --topic t --num-records 3 --throughput 0 --record-size 1 --producer-props acks=1",
		"kafka-producer-perf-test.sh --topic t --num-records 3 --throughput 1 --record-size 1 --producer-props bootstrap.servers=,,, max.block.ms=-5",
		"kafka-producer-perf-test.sh --topic t --num-records 3 --throughput -1 --record-size 1 --producer-props buffer.memory=x",
		"kafka-producer-perf-test.sh --topic t --num-records 3 --throughput -1 --record-size 100 --producer-props max.request.size=0 buffer.memory=0",
		"kafka-producer-perf-test.sh --topic t --num-records 300 --throughput -1 --record-size 1000 --producer-props buffer.memory=3000 max.block.ms=10",
		"kafka-producer-perf-test.sh --topic t --num-records 3 --throughput -1 --record-size 1 --transaction-duration-ms 1 --producer-props acks=1",
		"kafka-metadata-quorum.sh", "kafka-metadata-quorum.sh -", "kafka-metadata-quorum.sh --", "kafka-metadata-quorum.sh ''", "kafka-metadata-quorum.sh -- describe",
		"kafka-metadata-quorum.sh --bootstrap-server= describe --status", "kafka-metadata-quorum.sh --bootstrap-server , describe --replication",
		"kafka-metadata-quorum.sh --bootstrap-controller kafka-1:9092 describe --status", "kafka-metadata-quorum.sh --bootstrap-controller localhost:99999 describe --status",
		"kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 --command-config / describe --status", "kafka-metadata-quorum.sh --bootstrap-server x d -hx",
		"kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 describe --replication --human-readable",
		"kafka-metadata-quorum.sh --bootstrap-controller kafka-2:9093 describe --replication --human-readable",
		"kafka-metadata-quorum.sh --bootstrap-server kafka-1:9092 describe --status --status --" + strings.Repeat("x", 3000),
	}
	for _, in := range inputs {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("input %.80q panicked: %v", in, r)
				}
			}()
			stdin := []string{"k:v", "", strings.Repeat("z", 5000)}
			s.Exec(in, stdin)
		}()
	}
	if s.Cluster() == nil || s.Cluster().World.Err() != nil {
		t.Fatalf("the cluster did not survive: %v", s.Cluster().World.Err())
	}
	out := s.Exec("kafka-topics.sh --describe --topic t", nil)
	if len(out) != 3 || !strings.HasPrefix(out[0], "Topic: t\t") {
		t.Fatalf("the session stopped working: %q", out)
	}
}

func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{`a "b c" 'd'`, `x\ y`, `"unterminated`, `'`, `--property key.separator=" => "`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := splitWords(s)
		if err == nil {
			for _, w := range words {
				if w == "" && !strings.ContainsAny(s, `"'`) {
					t.Fatalf("empty word from %q", s)
				}
			}
		}
	})
}
