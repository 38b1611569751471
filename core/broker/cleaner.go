package broker

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// logCleaner is the broker's LogCleaner: its cleaner thread wakes, cleans
// the dirtiest compacted log if one is dirty enough, and otherwise sleeps
// log.cleaner.backoff.ms. Each broker cleans its own replicas, leader or
// follower, on its own schedule; the algorithm is core/storage's.
//
// A pass takes no virtual time here (Kafka's takes as long as its I/O),
// so one wake-up cleans every eligible log in turn, as a thread that finds
// one after another would. log.cleaner.threads only divides the offset
// map's memory; several threads would clean the same logs at the same
// instants.
type logCleaner struct {
	offsetMap *storage.OffsetMap // one thread's map, reused by its passes
	// uncleanable: logs a pass failed on; Kafka skips them until they are
	// deleted (LogCleanerManager.markPartitionUncleanable).
	uncleanable map[storage.TopicPartition]bool
	// passesNow counts passes at the current instant, to fail loudly if
	// the cleaner ever stops making progress.
	passesNow int
	passesAt  sim.Time
}

// maxPassesPerInstant bounds the passes a cleaner runs without virtual time
// moving. Every pass moves a log's first dirty offset forward, so this is
// only reached by a bug.
const maxPassesPerInstant = 10000

const cleanerThreadName = "kafka-log-cleaner-thread-0"

// startLogCleaner starts the cleaner thread, as LogManager.startup does
// when the broker first publishes metadata, if log.cleaner.enable.
func (b *Broker) startLogCleaner(env *sim.Env) {
	conf := b.conf()
	if b.cleaner != nil || !conf.BrokerBool("log.cleaner.enable") {
		return
	}
	b.cleaner = &logCleaner{uncleanable: map[storage.TopicPartition]bool{}}
	env.After(0, cleanerThreadName, b.cleanerDoWork)
}

// cleanerDoWork is CleanerThread.doWork: clean if there is a dirty log,
// else sleep for log.cleaner.backoff.ms.
func (b *Broker) cleanerDoWork(env *sim.Env) {
	if b.state == StateStopped || b.state == StateShuttingDown {
		return
	}
	c := b.cleaner
	if env.Now() != c.passesAt {
		c.passesAt, c.passesNow = env.Now(), 0
	}
	cleaned := b.cleanFilthiestLog(env)
	b.deleteOldSegmentsOfCompactedLogs(env)
	for tp := range c.uncleanable {
		if b.partitions[tp] == nil {
			delete(c.uncleanable, tp)
		}
	}
	next := time.Duration(0)
	if !cleaned {
		next = b.ms("log.cleaner.backoff.ms")
	} else if c.passesNow++; c.passesNow > maxPassesPerInstant {
		panic(fmt.Sprintf("broker %d: log cleaner ran %d passes at %s without finishing", b.cfg.NodeID, c.passesNow, env.Now()))
	}
	env.After(next, cleanerThreadName, b.cleanerDoWork)
}

// cleanFilthiestLog picks the dirtiest log (LogCleanerManager.
// grabFilthiestCompactedLog), cleans it and checkpoints how far it got. It
// reports whether a log was cleaned.
func (b *Broker) cleanFilthiestLog(env *sim.Env) bool {
	c := b.cleaner
	now := env.Now().UnixMilli()
	var cands []storage.CleanCandidate
	for _, p := range b.Partitions() {
		if c.uncleanable[p.tp] {
			continue
		}
		if cfg := b.cleanerLogConfig(p.tp.Topic); cfg.Compact {
			cands = append(cands, storage.CleanCandidate{Log: p.log, Config: cfg})
		}
	}
	if len(cands) == 0 {
		return false
	}
	ltc, resets := storage.GrabFilthiestLog(cands, storage.ReadCleanerCheckpoint(b.cfg.Disk, b.logDir), now)
	if len(resets) > 0 {
		b.updateCleanerCheckpoint(resets)
	}
	if ltc == nil {
		return false
	}
	tp := ltc.Log.TopicPartition()
	res, err := storage.Clean(ltc, b.offsetMap(), now)
	if err != nil {
		// Kafka checkpoints the first dirty offset and gives up on the log.
		b.updateCleanerCheckpoint(map[storage.TopicPartition]int64{tp: ltc.FirstDirtyOffset})
		c.uncleanable[tp] = true
		env.Note(event.LogCleanerFailed{Broker: b.cfg.NodeID, TP: tp, Error: err.Error()})
		return false
	}
	b.updateCleanerCheckpoint(map[storage.TopicPartition]int64{tp: res.EndOffset})
	st := res.Stats
	env.Note(event.LogCleaned{Broker: b.cfg.NodeID, TP: tp, From: res.FirstDirtyOffset, To: res.EndOffset,
		CleanableRatio: ltc.CleanableRatio, Read: st.MessagesRead, Kept: st.MessagesWritten,
		Tombstones: st.TombstonesRemoved, Segments: len(res.Segments)})
	return true
}

// deleteOldSegmentsOfCompactedLogs is the rest of Kafka's
// cleanFilthiestLog: after each attempt to clean, the cleaner runs
// UnifiedLog.deleteOldSegments on every compacted log it may clean
// (LogCleanerManager.deletableLogs), since the retention task skips them.
// With cleanup.policy=compact,delete that applies retention.ms and
// retention.bytes; with compact alone only segments below the log start
// offset go.
func (b *Broker) deleteOldSegmentsOfCompactedLogs(env *sim.Env) {
	for _, p := range b.Partitions() {
		if b.cleaner.uncleanable[p.tp] || !p.log.Config().Compact {
			continue
		}
		b.deleteOldSegments(env, p)
	}
}

// offsetMap is the thread's map, sized from log.cleaner.dedupe.buffer.size,
// log.cleaner.threads and log.cleaner.io.buffer.load.factor (remade when
// they change, as Kafka remakes its cleaners on reconfiguration).
func (b *Broker) offsetMap() *storage.OffsetMap {
	conf := b.conf()
	load, err := strconv.ParseFloat(strings.TrimSpace(conf.Broker("log.cleaner.io.buffer.load.factor")), 64)
	if err != nil {
		load = 0.9
	}
	capacity := storage.OffsetMapCapacity(conf.BrokerInt("log.cleaner.dedupe.buffer.size"), int(conf.BrokerInt("log.cleaner.threads")), load)
	if m := b.cleaner.offsetMap; m != nil && m.Capacity() == max(capacity, 1) {
		return m
	}
	b.cleaner.offsetMap = storage.NewOffsetMap(capacity)
	return b.cleaner.offsetMap
}

// cleanerLogConfig resolves the topic configs the cleaner reads for one
// log, from the topic's overrides and this broker's defaults.
func (b *Broker) cleanerLogConfig(topic string) storage.CleanerLogConfig {
	conf := b.conf()
	over := b.image.TopicConfig(topic)
	cfg := storage.CleanerLogConfig{
		DeleteRetentionMs:  conf.TopicInt(over, "delete.retention.ms"),
		MinCompactionLagMs: conf.TopicInt(over, "min.compaction.lag.ms"),
		MaxCompactionLagMs: conf.TopicInt(over, "max.compaction.lag.ms"),
		SegmentBytes:       conf.SegmentBytes(over),
		SegmentIndexBytes:  conf.TopicInt(over, "segment.index.bytes"),
	}
	cfg.Compact, cfg.Delete = b.cleanupPolicy(topic)
	ratio, err := strconv.ParseFloat(strings.TrimSpace(conf.Topic(over, "min.cleanable.dirty.ratio").Value), 64)
	if err != nil {
		ratio = 0.5
	}
	cfg.MinCleanableRatio = ratio
	return cfg
}

// cleanupPolicy says whether topic's cleanup.policy includes compact and
// delete (Kafka's LogConfig.compact and .delete).
func (b *Broker) cleanupPolicy(topic string) (compact, del bool) {
	for _, policy := range strings.Split(b.conf().Topic(b.image.TopicConfig(topic), "cleanup.policy").Value, ",") {
		switch strings.ToLower(strings.TrimSpace(policy)) {
		case "compact":
			compact = true
		case "delete":
			del = true
		}
	}
	return compact, del
}

// updateCleanerCheckpoint rewrites cleaner-offset-checkpoint with updates,
// dropping partitions this broker no longer has.
func (b *Broker) updateCleanerCheckpoint(updates map[storage.TopicPartition]int64, remove ...storage.TopicPartition) {
	keep := func(tp storage.TopicPartition) bool { return b.partitions[tp] != nil }
	if err := storage.UpdateCleanerCheckpoint(b.cfg.Disk, b.logDir, keep, updates, remove...); err != nil {
		panic(fmt.Sprintf("broker %d: writing %s: %v", b.cfg.NodeID, storage.CleanerOffsetCheckpoint, err))
	}
}

// CleanerCheckpoint is the offset up to which this broker has cleaned tp
// (its first dirty offset), if it has cleaned it: for views that draw the
// clean and dirty sections of a compacted log.
func (b *Broker) CleanerCheckpoint(tp storage.TopicPartition) (int64, bool) {
	o, ok := storage.ReadCleanerCheckpoint(b.cfg.Disk, b.logDir)[tp]
	return o, ok
}

// dropCleanerState forgets tp's cleaning state when its replica is deleted
// (LogManager.asyncDelete), so a new topic of the same name starts dirty.
func (b *Broker) dropCleanerState(tp storage.TopicPartition) {
	if b.cleaner != nil {
		delete(b.cleaner.uncleanable, tp)
	}
	if _, ok := storage.ReadCleanerCheckpoint(b.cfg.Disk, b.logDir)[tp]; ok {
		b.updateCleanerCheckpoint(nil, tp)
	}
}

// truncated follows a truncation of p's log: the cleaner's checkpoint
// (truncateCleanerCheckpoint) and the HW, which the truncation may have
// lowered.
func (p *Partition) truncated(env *sim.Env) {
	p.b.truncateCleanerCheckpoint(p)
	p.noteHW(env)
}

// truncateCleanerCheckpoint follows a truncation of p's log: the log is
// clean at most up to its active segment's base offset now
// (LogManager.maybeTruncateCleanerCheckpointToActiveSegmentBaseOffset).
func (b *Broker) truncateCleanerCheckpoint(p *Partition) {
	if compact, _ := b.cleanupPolicy(p.tp.Topic); !compact {
		return
	}
	base := p.log.Segments()[len(p.log.Segments())-1].BaseOffset
	if o, ok := storage.ReadCleanerCheckpoint(b.cfg.Disk, b.logDir)[p.tp]; ok && o > base {
		b.updateCleanerCheckpoint(map[storage.TopicPartition]int64{p.tp: base})
	}
}
