package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"kafkascope/core/release"
)

// Source says where an effective value came from, as DescribeConfigs names
// it (ConfigEntry.ConfigSource).
type Source uint8

const (
	SourceDefault              Source = iota + 1 // DEFAULT_CONFIG
	SourceStaticBroker                           // STATIC_BROKER_CONFIG (server.properties)
	SourceDynamicTopic                           // DYNAMIC_TOPIC_CONFIG
	SourceDynamicBroker                          // DYNAMIC_BROKER_CONFIG (this broker's id)
	SourceDynamicDefaultBroker                   // DYNAMIC_DEFAULT_BROKER_CONFIG (every broker)
)

func (s Source) String() string {
	switch s {
	case SourceStaticBroker:
		return "STATIC_BROKER_CONFIG"
	case SourceDynamicTopic:
		return "DYNAMIC_TOPIC_CONFIG"
	case SourceDynamicBroker:
		return "DYNAMIC_BROKER_CONFIG"
	case SourceDynamicDefaultBroker:
		return "DYNAMIC_DEFAULT_BROKER_CONFIG"
	}
	return "DEFAULT_CONFIG"
}

// Static is a broker's server.properties: the values set at start.
type Static map[string]string

// ValidateStatic checks broker configs given at cluster creation of
// release rel.
func ValidateStatic(s Static, rel release.Version) error {
	for _, name := range sortedKeys(s) {
		d, ok := BrokerDef(name, rel)
		if !ok {
			if syn := BrokerSynonym(name); syn != "" && isTopicConfig(name, rel) {
				return fmt.Errorf("unknown broker config %s (the broker default for the topic config %s is %s)", name, name, syn)
			}
			return fmt.Errorf("unknown broker config %s", name)
		}
		if _, err := d.Parse(s[name], rel); err != nil {
			return err
		}
	}
	// KafkaConfig.validateValues: the cleaner's offset map needs room (and
	// Kafka divides by the thread count without checking it first).
	switch threads := s.BrokerInt("log.cleaner.threads"); {
	case threads == 0:
		return fmt.Errorf("java.lang.ArithmeticException: / by zero")
	case s.BrokerInt("log.cleaner.dedupe.buffer.size")/threads <= 1024*1024:
		return fmt.Errorf("requirement failed: log.cleaner.dedupe.buffer.size must be at least 1MB per cleaner thread.")
	}
	// Before 3.0 the message format may not be newer than what the
	// inter-broker protocol can carry (KafkaConfig.scala:1961-1964 at
	// 2.8.0): inter.broker.protocol.version=0.10.2 needs
	// log.message.format.version set down too.
	if !orDefault(rel).AtLeast(3, 0) {
		l := Layers{Static: s, Release: orDefault(rel)}
		format := l.Broker("log.message.format.version")
		ibp, err1 := ParseProtocolVersion(l.Broker("inter.broker.protocol.version"))
		mf, err2 := ParseProtocolVersion(format)
		if err1 == nil && err2 == nil && RecordVersion(ibp) < RecordVersion(mf) {
			return fmt.Errorf("requirement failed: log.message.format.version %s can only be used when inter.broker.protocol.version is set to version %s or higher",
				format, [...]string{"0.8.0", "0.10.0", "0.11.0"}[RecordVersion(mf)])
		}
	}
	// Before 3.3 compression.type had no ConfigDef validator; validateValues
	// required a codec name, in any case (KafkaConfig.scala:1926-1927 at
	// 2.8.0, BrokerCompressionCodec.isValid in CompressionCodec.scala:52).
	if ct := s.Broker("compression.type"); !orDefault(rel).AtLeast(3, 3) && !slices.Contains(brokerCompressionOptions, strings.ToLower(ct)) {
		return fmt.Errorf("requirement failed: compression.type : %s is not valid. Valid options are %s", ct, strings.Join(brokerCompressionOptions, ","))
	}
	return nil
}

// brokerCompressionOptions are the broker's compression.type values, in
// Kafka's order (BrokerCompressionCodec.brokerCompressionOptions,
// CompressionCodec.scala:49-50 at 2.8.0).
var brokerCompressionOptions = []string{"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"}

// Broker returns a broker config's effective value as a string, from
// server.properties alone (see Layers for the dynamic layers).
func (s Static) Broker(name string) string { return Layers{Static: s}.Broker(name) }

// BrokerInt returns a numeric broker config.
func (s Static) BrokerInt(name string) int64 { return Layers{Static: s}.BrokerInt(name) }

// BrokerBool returns a boolean broker config.
func (s Static) BrokerBool(name string) bool { return Layers{Static: s}.BrokerBool(name) }

// Effective is a topic config's value and where it came from.
type Effective struct {
	Name   string
	Value  string
	Source Source
}

// Topic resolves a topic config against server.properties alone.
func (s Static) Topic(overrides map[string]string, name string) Effective {
	return Layers{Static: s}.Topic(overrides, name)
}

// TopicInt resolves a numeric topic config.
func (s Static) TopicInt(overrides map[string]string, name string) int64 {
	return Layers{Static: s}.TopicInt(overrides, name)
}

// TopicBool resolves a boolean topic config.
func (s Static) TopicBool(overrides map[string]string, name string) bool {
	return Layers{Static: s}.TopicBool(overrides, name)
}

// ValidateTopic checks one topic config as CreateTopics / AlterConfigs do. An
// ValidateTopic checks a topic config as release rel's LogConfig.validate
// does.
func ValidateTopic(name, value string, rel release.Version) error {
	d, ok := TopicDef(name, rel)
	if !ok {
		return fmt.Errorf("Unknown topic config name: %s", name)
	}
	_, err := d.Parse(value, rel)
	return err
}

func isTopicConfig(name string, rel release.Version) bool {
	_, ok := TopicDef(name, rel)
	return ok
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
