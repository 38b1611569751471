package storage

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// LogConfig is the part of a topic's config the log itself needs, with
// Kafka's names and units.
type LogConfig struct {
	SegmentBytes       int64 // segment.bytes
	SegmentMs          int64 // segment.ms
	SegmentJitterMs    int64 // segment.jitter.ms
	SegmentIndexBytes  int64 // segment.index.bytes: an index file's preallocated size
	IndexIntervalBytes int64 // index.interval.bytes
	RetentionMs        int64 // retention.ms; -1: no limit
	RetentionBytes     int64 // retention.bytes; -1: no limit
	FileDeleteDelayMs  int64 // file.delete.delay.ms
	// cleanup.policy: Delete runs retention by time and size; Compact
	// makes the log cleaner's. Both may be set.
	Delete, Compact    bool
	MaxCompactionLagMs int64 // max.compaction.lag.ms (bounds segment.ms of a compacted topic)
}

// DefaultLogConfig is Kafka's default topic config.
var DefaultLogConfig = LogConfig{
	SegmentBytes: 1 << 30, SegmentMs: 7 * 24 * 3600 * 1000, SegmentIndexBytes: 10 << 20, IndexIntervalBytes: 4096,
	RetentionMs: 7 * 24 * 3600 * 1000, RetentionBytes: -1, FileDeleteDelayMs: 60000, Delete: true, MaxCompactionLagMs: math.MaxInt64,
}

// maxSegmentMs is the roll time: segment.ms, or max.compaction.lag.ms if
// smaller on a compacted topic (LogConfig.maxSegmentMs).
func (c LogConfig) maxSegmentMs() int64 {
	if c.Compact && c.MaxCompactionLagMs > 0 {
		return min(c.MaxCompactionLagMs, c.SegmentMs)
	}
	return c.SegmentMs
}

// Scheduler runs fn after delay in the process that owns the log (Kafka's
// KafkaScheduler.scheduleOnce): storage keeps no timers of its own. A task
// dies with the process, as a JVM's would.
type Scheduler func(delay time.Duration, name string, fn func())

// SetRuntime gives the log its owner's scheduler (for deleting files
// file.delete.delay.ms after a segment goes) and the random stream its roll
// jitter is drawn from (Kafka uses ThreadLocalRandom; the simulator a
// stream of the run's seed). Without a scheduler, files are deleted at
// once; without a stream, the jitter comes from a fixed stream named after
// the log's directory.
func (l *Log) SetRuntime(schedule Scheduler, jitter *sim.Rand) {
	l.schedule, l.jitter = schedule, jitter
}

// randomSegmentJitter draws a new segment's jitter: a value in
// [0, min(segment.jitter.ms, segment.ms)), 0 without jitter
// (LogConfig.randomSegmentJitter).
func (l *Log) randomSegmentJitter() int64 {
	if l.cfg.SegmentJitterMs <= 0 {
		return 0
	}
	if l.jitter == nil {
		l.jitter = sim.NewRand(0, "segment-jitter"+l.dir)
	}
	// Kafka: abs(nextInt()) % min(jitter, segment.ms), an int draw.
	return l.jitter.Int63n(math.MaxInt32) % min(l.cfg.SegmentJitterMs, l.cfg.SegmentMs)
}
