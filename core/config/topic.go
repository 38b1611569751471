package config

import "kafkascope/core/release"

// Topic-level config names.
const (
	CleanupPolicy               = "cleanup.policy"
	CompressionType             = "compression.type"
	DeleteRetentionMs           = "delete.retention.ms"
	FileDeleteDelayMs           = "file.delete.delay.ms"
	FlushMessages               = "flush.messages"
	FlushMs                     = "flush.ms"
	IndexIntervalBytes          = "index.interval.bytes"
	MaxCompactionLagMs          = "max.compaction.lag.ms"
	MaxMessageBytes             = "max.message.bytes"
	MessageDownConversionEnable = "message.downconversion.enable"
	MessageFormatVersion        = "message.format.version"
	MessageTimestampDiffMaxMs   = "message.timestamp.difference.max.ms"
	MessageTimestampType        = "message.timestamp.type"
	MinCleanableDirtyRatio      = "min.cleanable.dirty.ratio"
	MinCompactionLagMs          = "min.compaction.lag.ms"
	MinInsyncReplicas           = "min.insync.replicas"
	Preallocate                 = "preallocate"
	RetentionBytes              = "retention.bytes"
	RetentionMs                 = "retention.ms"
	SegmentBytes                = "segment.bytes"
	InternalSegmentBytes        = "internal.segment.bytes"
	SegmentIndexBytes           = "segment.index.bytes"
	SegmentJitterMs             = "segment.jitter.ms"
	SegmentMs                   = "segment.ms"
	UncleanLeaderElectionEnable = "unclean.leader.election.enable"
)

// Releases that changed the tables below.
var (
	v30 = release.Version{Major: 3, Minor: 0}
	v32 = release.Version{Major: 3, Minor: 2}
	v33 = release.Version{Major: 3, Minor: 3}
	v34 = release.Version{Major: 3, Minor: 4}
	v35 = release.Version{Major: 3, Minor: 5}
	v36 = release.Version{Major: 3, Minor: 6}
	v39 = release.Version{Major: 3, Minor: 9}
	v40 = release.Version{Major: 4, Minor: 0}
	v41 = release.Version{Major: 4, Minor: 1}
	v43 = release.Version{Major: 4, Minor: 3}
)

// maxLong is Long.MAX_VALUE (math.MaxInt64), a constant so that the tables
// of configs stay static data.
const maxLong = "9223372036854775807"

// TopicDefs are the topic-level configs, in the order Kafka documents them.
// What Kafka 2.8 defines differently is from its LogConfig.scala at tag
// 2.8.0.
var TopicDefs = []*Def{
	{Name: CleanupPolicy, Type: List, Default: "delete", Validate: Check{Kind: ListIn, Valid: []string{"compact", "delete"}}},
	{Name: CompressionType, Type: String, Default: "producer", Validate: Check{Kind: OneOf, Valid: []string{"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"}}},
	{Name: DeleteRetentionMs, Type: Long, Default: "86400000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: FileDeleteDelayMs, Type: Long, Default: "60000", Validate: Check{Kind: AtLeast, Min: 0}},
	// 2.8 allows 0 (LogConfig.scala:248 at 2.8.0); 3.3 requires 1 (3.3.0 L338).
	{Name: FlushMessages, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 0}, Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 1}}},
	{Name: FlushMs, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: IndexIntervalBytes, Type: Int, Default: "4096", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: MaxCompactionLagMs, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: MaxMessageBytes, Type: Int, Default: "1048588", Validate: Check{Kind: AtLeast, Min: 0}},
	// Three keys 3.8 still defines, deprecated, and 4.0 removed (upgrade
	// notes 4.0; LogConfig at 3.8.0). message.format.version (KIP-724) is
	// ignored once inter.broker.protocol.version is 3.0-IV1 or newer
	// (LogConfig.shouldIgnoreMessageFormatVersion), so always under KRaft;
	// message.timestamp.difference.max.ms (KIP-937) stands in for
	// message.timestamp.before/after.max.ms while those keep their
	// defaults; message.downconversion.enable only matters to a fetch
	// older than the v2 record format. 2.8's message.format.version is
	// its broker default's, 2.8-IV1, validated by ApiVersion
	// (LogConfig.scala:61,282 at 2.8.0; see log.message.format.version).
	{Name: MessageDownConversionEnable, Type: Boolean, Default: "true", Until: v40},
	{Name: MessageFormatVersion, Type: String, Default: "3.0-IV1", Validate: Check{Kind: KnownAPIVersion28}, Raised: &Raise{From: v30, Validate: Check{Kind: KnownMetadataVersion}}, Older: &OlderDefault{Before: v30, Value: "2.8-IV1"}, Until: v40},
	{Name: MessageTimestampDiffMaxMs, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 0}, Until: v40},
	{Name: MessageTimestampType, Type: String, Default: "CreateTime", Validate: Check{Kind: OneOf, Valid: []string{"CreateTime", "LogAppendTime"}}},
	{Name: MinCleanableDirtyRatio, Type: Double, Default: "0.5", Validate: Check{Kind: Between, Min: 0, Max: 1}},
	{Name: MinCompactionLagMs, Type: Long, Default: "0", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: MinInsyncReplicas, Type: Int, Default: "1", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: Preallocate, Type: Boolean, Default: "false"},
	{Name: RetentionBytes, Type: Long, Default: "-1"},
	{Name: RetentionMs, Type: Long, Default: "604800000", Validate: Check{Kind: AtLeast, Min: -1}},
	// KIP-1030 raised the minimum to 1 MiB: the broker's log.segment.bytes
	// in 4.0, the topic's segment.bytes in 4.1 (KAFKA-19080, which added
	// internal.segment.bytes for tests that need small segments).
	{Name: SegmentBytes, Type: Int, Default: "1073741824", Validate: Check{Kind: AtLeast, Min: 14}, Raised: &Raise{From: v41, Validate: Check{Kind: AtLeast, Min: 1048576}}},
	// internal.segment.bytes overrides segment.bytes (LogConfig.segmentSize).
	{Name: InternalSegmentBytes, Type: Int, NullDefault: true, Since: v41, Internal: true},
	// 2.8 allows 0 (LogConfig.scala:246 at 2.8.0); 3.3 requires 4 (3.3.0 L336).
	{Name: SegmentIndexBytes, Type: Int, Default: "10485760", Validate: Check{Kind: AtLeast, Min: 0}, Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 4}}},
	{Name: SegmentJitterMs, Type: Long, Default: "0", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: SegmentMs, Type: Long, Default: "604800000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: UncleanLeaderElectionEnable, Type: Boolean, Default: "false"},
}

// synonym is a broker config that supplies a topic config's value when the
// topic does not override it; Scale converts its unit to the topic's
// (hours to ms, ...).
type synonym struct {
	Name  string
	Scale int64
}

// topicSynonyms lists, for each topic config, the broker configs consulted in
// order (Kafka's ServerTopicConfigSynonyms), made from topicSynonymList.
var topicSynonyms = func() map[string][]synonym {
	m := make(map[string][]synonym, len(topicSynonymList))
	for _, e := range topicSynonymList {
		m[e.topic] = e.synonyms
	}
	return m
}()

// topicSynonymList is topicSynonyms as a slice, which is static data: a map
// literal of fewer than 25 entries compiles to code that assigns each.
var topicSynonymList = []struct {
	topic    string
	synonyms []synonym
}{
	{SegmentBytes, []synonym{{"log.segment.bytes", 1}}},
	{SegmentMs, []synonym{{"log.roll.ms", 1}, {"log.roll.hours", 3600000}}},
	{SegmentJitterMs, []synonym{{"log.roll.jitter.ms", 1}, {"log.roll.jitter.hours", 3600000}}},
	{SegmentIndexBytes, []synonym{{"log.index.size.max.bytes", 1}}},
	{FlushMessages, []synonym{{"log.flush.interval.messages", 1}}},
	{FlushMs, []synonym{{"log.flush.interval.ms", 1}, {"log.flush.scheduler.interval.ms", 1}}},
	{RetentionBytes, []synonym{{"log.retention.bytes", 1}}},
	{RetentionMs, []synonym{{"log.retention.ms", 1}, {"log.retention.minutes", 60000}, {"log.retention.hours", 3600000}}},
	{MaxMessageBytes, []synonym{{"message.max.bytes", 1}}},
	{IndexIntervalBytes, []synonym{{"log.index.interval.bytes", 1}}},
	{DeleteRetentionMs, []synonym{{"log.cleaner.delete.retention.ms", 1}}},
	{MinCompactionLagMs, []synonym{{"log.cleaner.min.compaction.lag.ms", 1}}},
	{MaxCompactionLagMs, []synonym{{"log.cleaner.max.compaction.lag.ms", 1}}},
	{FileDeleteDelayMs, []synonym{{"log.segment.delete.delay.ms", 1}}},
	{MinCleanableDirtyRatio, []synonym{{"log.cleaner.min.cleanable.ratio", 1}}},
	{CleanupPolicy, []synonym{{"log.cleanup.policy", 1}}},
	{UncleanLeaderElectionEnable, []synonym{{"unclean.leader.election.enable", 1}}},
	{MinInsyncReplicas, []synonym{{"min.insync.replicas", 1}}},
	{CompressionType, []synonym{{"compression.type", 1}}},
	{Preallocate, []synonym{{"log.preallocate", 1}}},
	{MessageTimestampType, []synonym{{"log.message.timestamp.type", 1}}},
	{MessageFormatVersion, []synonym{{"log.message.format.version", 1}}},
	{MessageTimestampDiffMaxMs, []synonym{{"log.message.timestamp.difference.max.ms", 1}}},
	{MessageDownConversionEnable, []synonym{{"log.message.downconversion.enable", 1}}},
}

var topicDefByName = func() map[string]*Def {
	m := map[string]*Def{}
	for _, d := range TopicDefs {
		m[d.Name] = d
	}
	return m
}()

// TopicDef returns the definition of a topic config in release rel.
func TopicDef(name string, rel release.Version) (*Def, bool) {
	d, ok := topicDefByName[name]
	if !ok || !d.In(rel) {
		return nil, false
	}
	return d, true
}

// BrokerSynonym is the first broker config that backs a topic config ("" if
// none).
func BrokerSynonym(topicConfig string) string {
	if s := topicSynonyms[topicConfig]; len(s) > 0 {
		return s[0].Name
	}
	return ""
}
