package controller

import (
	"fmt"
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// snapshotPolicy decides when a voter writes a snapshot of its committed
// image, as Kafka's SnapshotGenerator does: once
// metadata.log.max.record.bytes.between.snapshots of new records have been
// committed since the last one, or metadata.log.max.snapshot.interval.ms
// has passed with new records. After a snapshot, the log before it is
// dropped once what it retains exceeds metadata.max.retention.bytes, or
// once the snapshot before it is older than metadata.max.retention.ms (the
// metadata log cleaner's two rules).
//
// Invariant: newBytes counts payload bytes committed since the last
// snapshot; retainedBytes those since the log start.
type snapshotPolicy struct {
	last          raft.SnapshotID
	lastAt        sim.Time
	started       bool
	newBytes      int64
	retainedBytes int64
	history       []snapshotAt  // snapshots this incarnation wrote, oldest first
	cachedRules   snapshotRules // rules
}

// snapshotRules are the two settings afterCommit reads after every
// committed batch, kept until the configs change (their stamp): resolving them by name through the config layers each
// time was 1% of an idle cluster's time in wasm, where the runtime's
// string hash has no AES instructions.
//
// Invariant: maxBytes and interval were read from configs with stamp.
type snapshotRules struct {
	stamp    metadata.ConfigStamp
	maxBytes int64
	interval time.Duration
}

// rules are the snapshot settings of c's current image and configs.
func (p *snapshotPolicy) rules(c *Controller) snapshotRules {
	r := &p.cachedRules
	if r.stamp != c.image.ConfigStamp() {
		conf := c.conf()
		*r = snapshotRules{
			stamp:    c.image.ConfigStamp(),
			maxBytes: conf.BrokerInt("metadata.log.max.record.bytes.between.snapshots"),
			interval: time.Duration(conf.BrokerInt("metadata.log.max.snapshot.interval.ms")) * time.Millisecond,
		}
	}
	return *r
}

type snapshotAt struct {
	id raft.SnapshotID
	at sim.Time
}

func (p *snapshotPolicy) loaded(id raft.SnapshotID) { p.last = id }

// afterCommit counts a committed batch and snapshots when a rule says so.
func (p *snapshotPolicy) afterCommit(env *sim.Env, c *Controller, bytes int64) {
	if !p.started {
		p.started, p.lastAt = true, env.Now()
	}
	due := p.dueAfter(env, c, bytes)
	p.newBytes += bytes
	p.retainedBytes += bytes
	if !due {
		return
	}
	end := c.committed.Offset + 1
	var payloads [][]byte
	for _, r := range metadata.SnapshotRecords(c.committed) {
		payloads = append(payloads, metadata.Encode(r, c.committed.Features[release.MetadataVersionFeature]))
	}
	id, err := c.raft.CreateSnapshot(env, end, payloads)
	if err != nil {
		return // e.g. the end is not committed on this node yet: try after the next batch
	}
	p.last, p.lastAt, p.newBytes = id, env.Now(), 0
	p.history = append(p.history, snapshotAt{id, env.Now()})
	p.clean(env, c)
}

// dueAfter reports whether a snapshot falls due once bytes more are
// committed now (metadata.log.max.record.bytes.between.snapshots, or
// metadata.log.max.snapshot.interval.ms since the last one).
func (p *snapshotPolicy) dueAfter(env *sim.Env, c *Controller, bytes int64) bool {
	lastAt := p.lastAt
	if !p.started {
		lastAt = env.Now()
	}
	rules := p.rules(c)
	newBytes := p.newBytes + bytes
	return newBytes >= rules.maxBytes || rules.interval > 0 && newBytes > 0 && env.Now().Sub(lastAt) >= rules.interval
}

// clean moves the log start up to the newest snapshot when the log keeps
// more than metadata.max.retention.bytes, or its oldest snapshot is older
// than metadata.max.retention.ms.
func (p *snapshotPolicy) clean(env *sim.Env, c *Controller) {
	conf := c.conf()
	maxBytes := conf.BrokerInt("metadata.max.retention.bytes")
	maxAge := time.Duration(conf.BrokerInt("metadata.max.retention.ms")) * time.Millisecond
	oldest := p.history[0]
	tooBig := maxBytes >= 0 && p.retainedBytes > maxBytes
	tooOld := maxAge >= 0 && len(p.history) > 1 && env.Now().Sub(oldest.at) > maxAge
	if !tooBig && !tooOld {
		return
	}
	if _, err := c.raft.DeleteBeforeSnapshot(env, p.last); err != nil {
		panic(fmt.Sprintf("controller %d: %v", c.cfg.NodeID, err))
	}
	p.retainedBytes = 0
	p.history = p.history[len(p.history)-1:]
}

// imageFromSnapshot rebuilds the image a snapshot holds.
func imageFromSnapshot(s raft.LoadedSnapshot) (*metadata.Image, error) {
	return metadata.ImageFromPayloads(s.ID.EndOffset-1, s.Payloads)
}
