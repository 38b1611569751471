package config

import "testing"

func TestParseErrorsReadLikeKafka(t *testing.T) {
	d, _ := TopicDef(MinInsyncReplicas)
	cases := map[string]string{
		"abc": "Invalid value abc for configuration min.insync.replicas: Not a number of type INT",
		"0":   "Invalid value 0 for configuration min.insync.replicas: Value must be at least 1",
	}
	for in, want := range cases {
		if _, err := d.Parse(in); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %q", in, err, want)
		}
	}
	if v, err := d.Parse("2"); err != nil || v.(int64) != 2 {
		t.Errorf("Parse(2) = %v, %v", v, err)
	}
	r, _ := TopicDef(MinCleanableDirtyRatio)
	if _, err := r.Parse("1.5"); err == nil || err.Error() != "Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1" {
		t.Errorf("ratio error = %v", err)
	}
	if err := ValidateTopic("no.such", "1"); err == nil || err.Error() != "Unknown topic config name: no.such" {
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
	if err := ValidateStatic(Static{"retention.ms": "1"}); err == nil {
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
