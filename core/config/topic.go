package config

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
	MessageTimestampType        = "message.timestamp.type"
	MinCleanableDirtyRatio      = "min.cleanable.dirty.ratio"
	MinCompactionLagMs          = "min.compaction.lag.ms"
	MinInsyncReplicas           = "min.insync.replicas"
	Preallocate                 = "preallocate"
	RetentionBytes              = "retention.bytes"
	RetentionMs                 = "retention.ms"
	SegmentBytes                = "segment.bytes"
	SegmentIndexBytes           = "segment.index.bytes"
	SegmentJitterMs             = "segment.jitter.ms"
	SegmentMs                   = "segment.ms"
	UncleanLeaderElectionEnable = "unclean.leader.election.enable"
)

// maxLong is Long.MAX_VALUE (math.MaxInt64), a constant so that the tables
// of configs stay static data.
const maxLong = "9223372036854775807"

// TopicDefs are the topic-level configs, in the order Kafka documents them.
var TopicDefs = []*Def{
	{Name: CleanupPolicy, Type: List, Default: "delete", Validate: Check{Kind: ListIn, Valid: []string{"compact", "delete"}}},
	{Name: CompressionType, Type: String, Default: "producer", Validate: Check{Kind: OneOf, Valid: []string{"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"}}},
	{Name: DeleteRetentionMs, Type: Long, Default: "86400000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: FileDeleteDelayMs, Type: Long, Default: "60000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: FlushMessages, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: FlushMs, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: IndexIntervalBytes, Type: Int, Default: "4096", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: MaxCompactionLagMs, Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: MaxMessageBytes, Type: Int, Default: "1048588", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: MessageTimestampType, Type: String, Default: "CreateTime", Validate: Check{Kind: OneOf, Valid: []string{"CreateTime", "LogAppendTime"}}},
	{Name: MinCleanableDirtyRatio, Type: Double, Default: "0.5", Validate: Check{Kind: Between, Min: 0, Max: 1}},
	{Name: MinCompactionLagMs, Type: Long, Default: "0", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: MinInsyncReplicas, Type: Int, Default: "1", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: Preallocate, Type: Boolean, Default: "false"},
	{Name: RetentionBytes, Type: Long, Default: "-1"},
	{Name: RetentionMs, Type: Long, Default: "604800000", Validate: Check{Kind: AtLeast, Min: -1}},
	{Name: SegmentBytes, Type: Int, Default: "1073741824", Validate: Check{Kind: AtLeast, Min: 14}},
	{Name: SegmentIndexBytes, Type: Int, Default: "10485760", Validate: Check{Kind: AtLeast, Min: 4}},
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
// order (Kafka's ServerTopicConfigSynonyms).
var topicSynonyms = map[string][]synonym{
	SegmentBytes:                {{"log.segment.bytes", 1}},
	SegmentMs:                   {{"log.roll.ms", 1}, {"log.roll.hours", 3600000}},
	SegmentJitterMs:             {{"log.roll.jitter.ms", 1}, {"log.roll.jitter.hours", 3600000}},
	SegmentIndexBytes:           {{"log.index.size.max.bytes", 1}},
	FlushMessages:               {{"log.flush.interval.messages", 1}},
	FlushMs:                     {{"log.flush.interval.ms", 1}, {"log.flush.scheduler.interval.ms", 1}},
	RetentionBytes:              {{"log.retention.bytes", 1}},
	RetentionMs:                 {{"log.retention.ms", 1}, {"log.retention.minutes", 60000}, {"log.retention.hours", 3600000}},
	MaxMessageBytes:             {{"message.max.bytes", 1}},
	IndexIntervalBytes:          {{"log.index.interval.bytes", 1}},
	DeleteRetentionMs:           {{"log.cleaner.delete.retention.ms", 1}},
	MinCompactionLagMs:          {{"log.cleaner.min.compaction.lag.ms", 1}},
	MaxCompactionLagMs:          {{"log.cleaner.max.compaction.lag.ms", 1}},
	FileDeleteDelayMs:           {{"log.segment.delete.delay.ms", 1}},
	MinCleanableDirtyRatio:      {{"log.cleaner.min.cleanable.ratio", 1}},
	CleanupPolicy:               {{"log.cleanup.policy", 1}},
	UncleanLeaderElectionEnable: {{"unclean.leader.election.enable", 1}},
	MinInsyncReplicas:           {{"min.insync.replicas", 1}},
	CompressionType:             {{"compression.type", 1}},
	Preallocate:                 {{"log.preallocate", 1}},
	MessageTimestampType:        {{"log.message.timestamp.type", 1}},
}

var topicDefByName = func() map[string]*Def {
	m := map[string]*Def{}
	for _, d := range TopicDefs {
		m[d.Name] = d
	}
	return m
}()

// TopicDef returns the definition of a topic config.
func TopicDef(name string) (*Def, bool) {
	d, ok := topicDefByName[name]
	return d, ok
}

// BrokerSynonym is the first broker config that backs a topic config ("" if
// none).
func BrokerSynonym(topicConfig string) string {
	if s := topicSynonyms[topicConfig]; len(s) > 0 {
		return s[0].Name
	}
	return ""
}
