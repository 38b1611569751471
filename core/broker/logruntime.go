package broker

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// logConfig is a topic's log config as this broker resolves it: the
// topic's overrides over the broker's layers (the log.* synonyms) over
// Kafka's defaults.
func (b *Broker) logConfig(topic string) storage.LogConfig {
	conf, over := b.conf(), b.image.TopicConfig(topic)
	n := func(name string) int64 { return conf.TopicInt(over, name) }
	var policy []string
	for _, p := range strings.Split(conf.Topic(over, config.CleanupPolicy).Value, ",") {
		policy = append(policy, strings.ToLower(strings.TrimSpace(p)))
	}
	return storage.LogConfig{
		SegmentBytes: conf.SegmentBytes(over), SegmentMs: n(config.SegmentMs), SegmentJitterMs: n(config.SegmentJitterMs),
		SegmentIndexBytes: n(config.SegmentIndexBytes), IndexIntervalBytes: n(config.IndexIntervalBytes),
		RetentionMs: n(config.RetentionMs), RetentionBytes: n(config.RetentionBytes), FileDeleteDelayMs: n(config.FileDeleteDelayMs),
		Delete: slices.Contains(policy, "delete"), Compact: slices.Contains(policy, "compact"),
		MaxCompactionLagMs: n(config.MaxCompactionLagMs),
	}
}

// attachLog gives a partition's log this broker's scheduler (for deleting
// segment files later) and its own stream of the run's seed for roll
// jitter.
func (b *Broker) attachLog(env *sim.Env, log *storage.Log) {
	log.SetRuntime(b.schedule, env.Rand(fmt.Sprintf("broker-%d/segment-jitter/%s/%d", b.cfg.NodeID, log.TopicPartition(), env.Now())))
}

// schedule runs fn after delay in this broker process (Kafka's
// KafkaScheduler). Storage calls it only while the broker handles an
// event, so the process's Env is the running one.
func (b *Broker) schedule(delay time.Duration, name string, fn func()) {
	if b.state == StateStopped {
		return
	}
	b.env.After(delay, name, func(*sim.Env) {
		if b.state != StateStopped {
			fn()
		}
	})
}

// noteRoll tells that an append rolled the log to a new segment.
func (p *Partition) noteRoll(env *sim.Env, info storage.AppendInfo) {
	if info.Rolled >= 0 {
		env.Note(event.SegmentRolled{Broker: p.b.cfg.NodeID, TP: p.tp, Base: info.Rolled, Reason: info.RollReason})
	}
}

// logCreateFailed: the replica's log could not be created (a full disk, or
// a config no index can be made with, such as segment.index.bytes below
// one time index entry). Kafka fails the state change and the replica
// stays offline; so does this one, and the directory left behind is
// removed so a later attempt starts clean.
func (b *Broker) logCreateFailed(env *sim.Env, key storage.TopicPartition, err error) {
	b.cfg.Disk.RemoveAll(path.Join(b.logDir, key.DirName()))
	env.Note(event.LogCreateFailed{Broker: b.cfg.NodeID, TP: key, Error: err.Error()})
}
