package storage

// CleanerLogConfig is what the log cleaner reads from one log's topic
// configs (Kafka's LogConfig fields the cleaner uses). The broker resolves
// them from the topic's overrides and its own defaults at each pass, so a
// kafka-configs.sh change applies from the next pass on.
type CleanerLogConfig struct {
	Compact bool // cleanup.policy contains compact: the cleaner considers the log
	Delete  bool // cleanup.policy contains delete (compact,delete)

	MinCleanableRatio  float64 // min.cleanable.dirty.ratio: eligible above it
	DeleteRetentionMs  int64   // delete.retention.ms: how long a cleaned tombstone stays
	MinCompactionLagMs int64   // min.compaction.lag.ms: younger segments stay dirty
	MaxCompactionLagMs int64   // max.compaction.lag.ms: older dirty data forces a pass

	SegmentBytes      int64 // segment.bytes: the most one cleaned segment may hold
	SegmentIndexBytes int64 // segment.index.bytes: the same bound for its indexes
}

// DefaultCleanerLogConfig is Kafka's defaults with cleanup.policy=compact.
var DefaultCleanerLogConfig = CleanerLogConfig{
	Compact:            true,
	MinCleanableRatio:  0.5,
	DeleteRetentionMs:  86400000,
	MinCompactionLagMs: 0,
	MaxCompactionLagMs: 1<<63 - 1,
	SegmentBytes:       1 << 30,
	SegmentIndexBytes:  10485760,
}

// Kafka's SkimpyOffsetMap stores a 16-byte MD5 of each key and an 8-byte
// offset: 24 bytes an entry.
const offsetMapBytesPerEntry = 16 + 8

// OffsetMapCapacity is how many keys one cleaner thread's offset map takes
// before a pass stops mapping (Kafka: slots * load factor). dedupeBufferSize
// is log.cleaner.dedupe.buffer.size, shared by threads cleaner threads (each
// thread's share is capped at 2 GiB), loadFactor is
// log.cleaner.io.buffer.load.factor. At Kafka's defaults (128 MiB, 1
// thread, 0.9) that is 5,033,164 keys.
func OffsetMapCapacity(dedupeBufferSize int64, threads int, loadFactor float64) int {
	if threads < 1 {
		threads = 1
	}
	perThread := min(dedupeBufferSize/int64(threads), 1<<31-1)
	slots := perThread / offsetMapBytesPerEntry
	return int(float64(slots) * loadFactor)
}
