package config

import (
	"fmt"
	"kafkascope/core/release"
	"testing"
)

func TestParseErrorsReadLikeKafka(t *testing.T) {
	d, _ := TopicDef(MinInsyncReplicas, v38)
	cases := map[string]string{
		"abc": "Invalid value abc for configuration min.insync.replicas: Not a number of type INT",
		"0":   "Invalid value 0 for configuration min.insync.replicas: Value must be at least 1",
	}
	for in, want := range cases {
		if _, err := d.Parse(in, v38); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
	if v, err := d.Parse("2", v38); err != nil || v.(int64) != 2 {
		t.Errorf("Parse(2) = %v, %v", v, err)
	}
	r, _ := TopicDef(MinCleanableDirtyRatio, v38)
	if _, err := r.Parse("1.5", v38); err == nil || err.Error() != "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1" {
		t.Errorf("ratio error = %v", err)
	}
	if err := ValidateTopic("no.such", "1", v38); err == nil || err.Error() != "Unknown topic config name: no.such" {
		t.Errorf("unknown name error = %v", err)
	}
}

func TestTopicFallsBackToBrokerSynonyms(t *testing.T) {
	s := Static{"log.retention.hours": "1", "min.insync.replicas": "2"}
	if e := s.Topic(nil, RetentionMs); e.Value != "3600000" || e.Source != SourceStaticBroker {
		t.Errorf("retention.ms = %+v, want 3600000 from the broker", e)
	}
	s["log.retention.ms"] = "5000" // ms wins over hours
	if e := s.Topic(nil, RetentionMs); e.Value != "5000" {
		t.Errorf("retention.ms = %+v, want 5000", e)
	}
	if e := s.Topic(map[string]string{MinInsyncReplicas: "3"}, MinInsyncReplicas); e.Value != "3" || e.Source != SourceDynamicTopic {
		t.Errorf("override lost: %+v", e)
	}
	if e := (Static{}).Topic(nil, SegmentBytes); e.Value != "1073741824" || e.Source != SourceDefault {
		t.Errorf("default segment.bytes = %+v", e)
	}
	if err := ValidateStatic(Static{"retention.ms": "1"}, v38); err == nil {
		t.Error("a topic config name was accepted as a broker config")
	}
}

func TestProtocolVersionModes(t *testing.T) {
	cases := map[string]TruncationMode{
		"0.10": TruncateToHighWatermark, "0.10.2-IV0": TruncateToHighWatermark,
		"0.11.0": TruncateByOffsetsForLeaderEpoch, "2.6": TruncateByOffsetsForLeaderEpoch,
		"2.7-IV2": TruncateOnFetch, "3.8-IV0": TruncateOnFetch,
	}
	for v, want := range cases {
		if got := (Static{"inter.broker.protocol.version": v}).Truncation(); got != want {
			t.Errorf("%s: mode %d, want %d", v, got, want)
		}
	}
	if (Static{}).Truncation() != TruncateOnFetch || (Static{}).ZooKeeperEraRegistration() {
		t.Error("the default must be the modern protocol")
	}
	if !(Static{"inter.broker.protocol.version": "0.10"}).ZooKeeperEraRegistration() {
		t.Error("0.10 is ZooKeeper-era")
	}
	if _, err := ParseProtocolVersion("banana"); err == nil {
		t.Error("a bad version parsed")
	}
}

// v38 is Kafka 3.8, the release the tests above describe.
var v38 = release.Version{Major: 3, Minor: 8}

// The tables follow each release: 4.0 removed inter.broker.protocol.version
// (KAFKA-18360), offsets.commit.required.acks (KIP-1041) and
// leader.imbalance.per.broker.percentage (KAFKA-18743); KIP-1030's 1 MiB
// minimum reached log.segment.bytes in 4.0 and segment.bytes in 4.1, which
// added internal.segment.bytes, a topic config its tests use for small
// segments that describe --all lists only when it is set.
func TestConfigsPerRelease(t *testing.T) {
	v40, v41, v43 := release.Version{Major: 4, Minor: 0}, release.Version{Major: 4, Minor: 1}, release.Version{Major: 4, Minor: 3}
	for _, name := range []string{"inter.broker.protocol.version", "offsets.commit.required.acks", "leader.imbalance.per.broker.percentage"} {
		if _, ok := BrokerDef(name, v38); !ok {
			t.Errorf("3.8 lacks %s", name)
		}
		if _, ok := BrokerDef(name, v43); ok {
			t.Errorf("4.3 has %s", name)
		}
	}
	if err := ValidateStatic(Static{"inter.broker.protocol.version": "3.8"}, v43); err == nil || err.Error() != "unknown broker config inter.broker.protocol.version" {
		t.Errorf("4.3 static IBP: %v", err)
	}
	for _, c := range []struct {
		name, value string
		v           release.Version
		want        string
	}{
		{"segment.bytes", "1024", v38, ""},
		{"segment.bytes", "1024", v40, ""},
		{"segment.bytes", "1024", v41, "Invalid value 1024 for configuration segment.bytes: Value must be at least 1048576"},
		{"segment.bytes", "1048576", v43, ""},
		{"internal.segment.bytes", "1024", v43, ""},
		{"internal.segment.bytes", "1024", v38, "Unknown topic config name: internal.segment.bytes"},
	} {
		err := ValidateTopic(c.name, c.value, c.v)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("%s=%s on %s: %v, want %q", c.name, c.value, c.v, err, c.want)
		}
	}
	if err := ValidateStatic(Static{"log.segment.bytes": "1024"}, v40); err == nil || err.Error() != "Invalid value 1024 for configuration log.segment.bytes: Value must be at least 1048576" {
		t.Errorf("4.0 log.segment.bytes=1024: %v", err)
	}
	l := Layers{Release: v43}
	for _, e := range l.TopicAll(nil) {
		if e.Name == InternalSegmentBytes {
			t.Errorf("describe --all lists %s unset", e.Name)
		}
	}
	set := map[string]string{InternalSegmentBytes: "1024"}
	if got := l.SegmentBytes(set); got != 1024 {
		t.Errorf("segment size with internal.segment.bytes=1024: %d", got)
	}
	if got := l.SegmentBytes(nil); got != 1073741824 {
		t.Errorf("default segment size: %d", got)
	}
	for _, e := range l.BrokerAll(true) {
		if e.Name == "inter.broker.protocol.version" {
			t.Errorf("a 4.3 broker lists %s", e.Name)
		}
	}
}
