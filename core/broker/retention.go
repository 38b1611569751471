package broker

import (
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// logInitialTaskDelay is log.initial.task.delay.ms (an internal broker
// config, 30 s): how long after the log manager starts its periodic tasks
// (retention, flushes, checkpoints) first run.
const logInitialTaskDelay = 30 * time.Second

// startRetention schedules LogManager's kafka-log-retention task. In KRaft
// the log manager starts when the broker first publishes the metadata
// image; the task then runs at the initial delay and every
// log.retention.check.interval.ms (read once, as Kafka reads it at start),
// at a fixed rate.
func (b *Broker) startRetention(env *sim.Env) {
	interval := b.ms("log.retention.check.interval.ms")
	b.retentionEvery = interval
	var run func(env *sim.Env)
	run = func(env *sim.Env) {
		if b.state == StateStopped {
			return
		}
		b.cleanupLogs(env)
		env.After(interval, "kafka-log-retention", run)
	}
	env.After(logInitialTaskDelay, "kafka-log-retention", run)
}

// cleanupLogs is LogManager.cleanupLogs: old segments of every log whose
// cleanup.policy does not include compact are deleted. A compacted log's
// (compact, or compact,delete) are deleted by the log cleaner, which calls
// deleteOldSegments on them after each attempt to clean
// (deleteOldSegmentsOfCompactedLogs); with log.cleaner.enable=false
// nothing deletes them, as in Kafka.
func (b *Broker) cleanupLogs(env *sim.Env) {
	for _, p := range b.Partitions() {
		if !p.log.Config().Compact {
			b.deleteOldSegments(env, p)
		}
	}
}

// deleteOldSegments runs UnifiedLog.deleteOldSegments on one replica and
// tells what it deleted. It returns the number of segments deleted.
func (b *Broker) deleteOldSegments(env *sim.Env, p *Partition) int {
	dels, err := p.log.DeleteOldSegments(env.Now().UnixMilli())
	n := 0
	for _, d := range dels {
		n += len(d.Bases)
		cfg := p.log.Config()
		env.Note(event.SegmentsDeleted{Broker: b.cfg.NodeID, TP: p.tp, Reason: d.Reason, Limit: retentionLimit(d.Reason, cfg),
			Bases: d.Bases, Bytes: d.Bytes, Start: d.LogStartOffset, Delay: time.Duration(cfg.FileDeleteDelayMs) * time.Millisecond})
	}
	if err != nil {
		env.Note(event.LogRetentionFailed{Broker: b.cfg.NodeID, TP: p.tp, Error: err.Error()})
	}
	return n
}

// retentionLimit is the limit a deletion for reason breached: retention.ms
// or retention.bytes (0 for a deletion below the log start offset).
func retentionLimit(reason string, cfg storage.LogConfig) int64 {
	switch reason {
	case storage.DeletedRetentionMs:
		return cfg.RetentionMs
	case storage.DeletedRetentionBytes:
		return cfg.RetentionBytes
	}
	return 0
}
