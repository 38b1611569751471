package config

import (
	"fmt"
	"testing"

	"kafkascope/core/release"
)

var v28 = release.Version{Major: 2, Minor: 8}

// The expectations below are read from Kafka's sources at tag 2.8.0
// (core/src/main/scala/kafka/server/KafkaConfig.scala, kafka/log/LogConfig.scala,
// kafka/api/ApiVersion.scala), not from the tables.

// TestKafka28Keys: keys 2.8's KafkaConfig defines and keys it does not.
func TestKafka28Keys(t *testing.T) {
	for _, name := range []string{
		"zookeeper.session.timeout.ms", "zookeeper.connection.timeout.ms", "zookeeper.max.in.flight.requests", // L1039-1043
		"controlled.shutdown.max.retries", "controlled.shutdown.retry.backoff.ms", // L1186-1187
		"inter.broker.protocol.version", "log.message.format.version", "request.timeout.ms", // L1181, L1153, L1070
		"broker.heartbeat.interval.ms", "broker.session.timeout.ms", // L1080-1081, internal
	} {
		if _, ok := BrokerDef(name, v28); !ok {
			t.Errorf("2.8 lacks broker config %s", name)
		}
	}
	// No Prop of 2.8's KafkaConfig names these (KIP-848's group.consumer.*,
	// the KRaft metadata log's snapshot and retention configs).
	for _, name := range []string{
		"group.consumer.heartbeat.interval.ms", "group.consumer.session.timeout.ms", "group.consumer.max.size",
		"metadata.max.idle.interval.ms", "metadata.log.max.snapshot.interval.ms",
		"metadata.log.max.record.bytes.between.snapshots", "metadata.max.retention.bytes", "metadata.max.retention.ms",
		"unclean.leader.election.interval.ms",
	} {
		if _, ok := BrokerDef(name, v28); ok {
			t.Errorf("2.8 defines broker config %s", name)
		}
		if _, ok := BrokerDef(name, v38); !ok && name != "unclean.leader.election.interval.ms" {
			t.Errorf("3.8 lacks broker config %s", name)
		}
	}
	// defineInternal keys are not listed (ConfigHelper.allConfigs:
	// nonInternalValues, ConfigHelper.scala:44-45).
	listed := map[string]bool{}
	for _, e := range (Layers{Release: v28}).BrokerAll(true) {
		listed[e.Name] = true
	}
	if listed["broker.heartbeat.interval.ms"] || listed["broker.session.timeout.ms"] || listed["group.consumer.max.size"] {
		t.Errorf("2.8 lists an internal or 3.x key: %v", listed)
	}
	if !listed["zookeeper.session.timeout.ms"] || !listed["log.message.format.version"] {
		t.Errorf("2.8 does not list its keys: %v", listed)
	}
	listed38 := map[string]bool{}
	for _, e := range (Layers{Release: v38}).BrokerAll(true) {
		listed38[e.Name] = true
	}
	if !listed38["broker.heartbeat.interval.ms"] || !listed38["metadata.max.idle.interval.ms"] {
		t.Errorf("3.8 no longer lists its keys: %v", listed38)
	}
}

// TestKafka28Defaults: the defaults 2.8 gives, where 3.8's differ.
func TestKafka28Defaults(t *testing.T) {
	l28, l38 := Layers{Release: v28}, Layers{Release: v38}
	for name, want := range map[string]string{
		"inter.broker.protocol.version":        "2.8-IV1", // L167: ApiVersion.latestVersion (ApiVersion.scala:115,133)
		"log.message.format.version":           "2.8-IV1", // L137: InterBrokerProtocolVersion
		"zookeeper.session.timeout.ms":         "18000",   // L53
		"zookeeper.max.in.flight.requests":     "10",      // L56
		"controlled.shutdown.max.retries":      "3",       // L170
		"controlled.shutdown.retry.backoff.ms": "5000",    // L171
	} {
		if got := l28.Broker(name); got != want {
			t.Errorf("2.8 %s = %s, want %s", name, got, want)
		}
	}
	if got := l38.Broker("inter.broker.protocol.version"); got != "3.8-IV0" {
		t.Errorf("3.8 inter.broker.protocol.version = %s", got)
	}
	if got := l38.Broker("log.message.format.version"); got != "3.0-IV1" {
		t.Errorf("3.8 log.message.format.version = %s", got)
	}
	// LogConfig.scala:61: the topic's default is the broker's.
	if e := l28.Topic(nil, MessageFormatVersion); e.Value != "2.8-IV1" || e.Source != SourceDefault {
		t.Errorf("2.8 message.format.version = %+v", e)
	}
	if e := l38.Topic(nil, MessageFormatVersion); e.Value != "3.0-IV1" {
		t.Errorf("3.8 message.format.version = %+v", e)
	}
	// L1040: null, so DescribeConfigs has no value and no synonym.
	for _, e := range l28.BrokerAll(true) {
		switch e.Name {
		case "zookeeper.connection.timeout.ms":
			if !e.Null || len(e.Synonyms) != 0 {
				t.Errorf("2.8 zookeeper.connection.timeout.ms = %+v", e)
			}
		case "inter.broker.protocol.version":
			if e.Value != "2.8-IV1" || len(e.Synonyms) != 1 || e.Synonyms[0] != (Synonym{e.Name, "2.8-IV1", SourceDefault}) {
				t.Errorf("2.8 inter.broker.protocol.version = %+v", e)
			}
		}
	}
}

// TestKafka28Validators: 2.8 validates some keys less, or differently.
func TestKafka28Validators(t *testing.T) {
	ok28fail38 := []struct{ name, value string }{
		{SegmentIndexBytes, "0"}, // LogConfig.scala:246 atLeast(0)
		{FlushMessages, "0"},     // LogConfig.scala:248 atLeast(0)
	}
	for _, c := range ok28fail38 {
		if err := ValidateTopic(c.name, c.value, v28); err != nil {
			t.Errorf("2.8 %s=%s: %v", c.name, c.value, err)
		}
		if err := ValidateTopic(c.name, c.value, v38); err == nil {
			t.Errorf("3.8 accepts %s=%s", c.name, c.value)
		}
	}
	for name, value := range map[string]string{
		"log.cleaner.min.cleanable.ratio":         "2",  // L1136, no validator
		"log.cleaner.delete.retention.ms":         "-5", // L1138
		"leader.imbalance.check.interval.seconds": "0",  // L1178
		"compression.type":                        "GZIP",
	} {
		if err := ValidateStatic(Static{name: value}, v28); err != nil {
			t.Errorf("2.8 %s=%s: %v", name, value, err)
		}
		if err := ValidateStatic(Static{name: value}, v38); err == nil {
			t.Errorf("3.8 accepts %s=%s", name, value)
		}
	}
	// KafkaConfig.validateValues, L1926-1927.
	if err := ValidateStatic(Static{"compression.type": "foo"}, v28); err == nil || err.Error() != "requirement failed: compression.type : foo is not valid. Valid options are uncompressed,zstd,lz4,snappy,gzip,producer" {
		t.Errorf("2.8 compression.type=foo: %v", err)
	}
	// ApiVersionValidator (ApiVersion.scala:119-131, 450-458): 2.8 knows
	// no 3.x version, and a release name means its last version.
	for _, c := range []struct{ name, value, want string }{
		{"inter.broker.protocol.version", "3.0", "Invalid value 3.0 for configuration inter.broker.protocol.version: Version `3.0` is not a valid version"},
		{"log.message.format.version", "3.0-IV1", "Invalid value 3.0-IV1 for configuration log.message.format.version: Version `3.0-IV1` is not a valid version"},
		{"inter.broker.protocol.version", "2.7", ""},
		{"log.message.format.version", "0.10.2.1", ""},
	} {
		err := ValidateStatic(Static{c.name: c.value}, v28)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("2.8 %s=%s: %v, want %q", c.name, c.value, err, c.want)
		}
	}
	if err := ValidateTopic(MessageFormatVersion, "3.0", v28); err == nil {
		t.Errorf("2.8 accepts message.format.version=3.0")
	}
	if err := ValidateTopic(MessageFormatVersion, "3.0", v38); err != nil {
		t.Errorf("3.8 message.format.version=3.0: %v", err)
	}
	for in, want := range map[string]string{"2.8": "2.8-IV1", "2.7": "2.7-IV2", "0.10.0": "0.10.0-IV1", "0.8.2.2": "0.8.2", "2.8-IV0": "2.8-IV0"} {
		if got, ok := APIVersion28(in); !ok || got != want {
			t.Errorf("APIVersion28(%s) = %s, %v, want %s", in, got, ok, want)
		}
	}
}

// 2.8 refuses a message format newer than the inter-broker protocol can
// carry (KafkaConfig.scala:1961-1964): 0.10.2's brokers need the format
// set down too. 3.x has no such check here (its IBP is at least 3.0 on
// KRaft).
func TestMessageFormatNeedsProtocol28(t *testing.T) {
	v28 := release.Version{Major: 2, Minor: 8}
	for _, c := range []struct {
		static Static
		rel    release.Version
		want   string
	}{
		{Static{"inter.broker.protocol.version": "0.10.2"}, v28, "requirement failed: log.message.format.version 2.8-IV1 can only be used when inter.broker.protocol.version is set to version 0.11.0 or higher"},
		{Static{"inter.broker.protocol.version": "0.10.2", "log.message.format.version": "0.10.2"}, v28, ""},
		{Static{"inter.broker.protocol.version": "0.9.0", "log.message.format.version": "0.10.1"}, v28, "requirement failed: log.message.format.version 0.10.1 can only be used when inter.broker.protocol.version is set to version 0.10.0 or higher"},
		{Static{"inter.broker.protocol.version": "0.11.0"}, v28, ""},
		{Static{"inter.broker.protocol.version": "0.10.2"}, release.Version{Major: 3, Minor: 8}, ""},
	} {
		err := ValidateStatic(c.static, c.rel)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("%v on %s: %v, want %q", c.static, c.rel, err, c.want)
		}
	}
}
