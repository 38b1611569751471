package broker

import (
	"fmt"
	"slices"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Partition is this broker's replica of one partition, as leader or
// follower.
//
// Invariants (leader): HW = log.HighWatermark() never decreases within an
// epoch; HW <= min LEO of the maximal ISR; ISR always contains the leader.
// They are checked where the HW moves (partition_invariants.go): a
// violation stops the run (core/invariant).
type Partition struct {
	b       *Broker
	tp      storage.TopicPartition
	topicID metadata.Uuid
	log     *storage.Log

	// From the metadata image, as last applied.
	replicas       []int32
	isr            []int32 // the committed ISR
	leader         int32
	leaderEpoch    int32
	partitionEpoch int32
	isLeader       bool
	known          bool // metadata has described this partition at least once

	// Leader state.
	followers              followerStates
	leaderEpochStartOffset int64
	pendingISR             []int32  // an AlterPartition in flight, nil if none
	hwSeen                 leaderHW // checked: never down within an epoch
	// notedHW is the HW last noted (event.HighWatermarkUpdated), when
	// hwNoted: noteHW notes only a change.
	notedHW         int64
	hwNoted         bool
	delayedProduces []*delayedProduce

	// minISR is min.insync.replicas as resolved from the image's configs
	// with stamp minISRStamp (effectiveMinISR). The HW check reads it on
	// every follower fetch: resolving it through the config layers each
	// time (a string-keyed lookup per layer, a parse) was 2% of an idle
	// cluster. The static layer never changes and the stamp changes with
	// every change of the others, so the value holds until it does.
	minISR      int64
	minISRStamp metadata.ConfigStamp
}

// replicaState is what a leader knows of one follower, learned from its
// fetches (Kafka's Replica).
type replicaState struct {
	id                          int32 // the follower
	logEndOffset                int64 // -1 until the follower's first fetch in this epoch
	lastCaughtUpTime            sim.Time
	lastFetchLeaderLogEndOffset int64
	lastFetchTime               sim.Time
	brokerEpoch                 int64
}

// neverCaughtUp is a lastCaughtUpTime so far in the past that
// replica.lag.time.max.ms can never cover it.
const neverCaughtUp sim.Time = -1 << 62

func newPartition(b *Broker, tp storage.TopicPartition, log *storage.Log) *Partition {
	p := &Partition{b: b, tp: tp, log: log, leader: metadata.NoLeader}
	if id, err := metadata.ParseUuid(log.TopicID()); err == nil {
		p.topicID = id
	}
	return p
}

// Accessors for views.
func (p *Partition) TopicPartition() storage.TopicPartition { return p.tp }
func (p *Partition) Log() *storage.Log                      { return p.log }
func (p *Partition) IsLeader() bool                         { return p.isLeader }
func (p *Partition) Leader() int32                          { return p.leader }
func (p *Partition) LeaderEpoch() int32                     { return p.leaderEpoch }
func (p *Partition) ISR() []int32                           { return slices.Clone(p.isr) }
func (p *Partition) PendingISR() []int32                    { return slices.Clone(p.pendingISR) }

// FollowerLogEndOffset is the leader's view of a follower's LEO (-1 unknown).
func (p *Partition) FollowerLogEndOffset(id int32) int64 {
	if st := p.followers.get(id); st != nil {
		return st.logEndOffset
	}
	return -1
}

func (p *Partition) topicConfig(name string) config.Effective {
	return p.b.conf().Topic(p.b.image.TopicConfig(p.tp.Topic), name)
}

// effectiveMinISR is min(min.insync.replicas, replication factor).
func (p *Partition) effectiveMinISR() int {
	img := p.b.image
	if p.minISRStamp != img.ConfigStamp() {
		p.minISR = p.b.conf().TopicInt(img.TopicConfig(p.tp.Topic), config.MinInsyncReplicas)
		p.minISRStamp = img.ConfigStamp()
	}
	return min(int(p.minISR), len(p.replicas))
}

// maximalISR is the committed ISR plus a pending expansion (KIP-497): a
// replica being added already counts towards the HW; one being removed
// still counts until the removal is committed.
func (p *Partition) maximalISR() []int32 {
	if p.pendingISR == nil || len(p.pendingISR) < len(p.isr) {
		return p.isr
	}
	return p.pendingISR
}

// apply takes the partition's state from the metadata image, becoming
// leader or follower when leadership or the leader epoch changed.
func (p *Partition) apply(env *sim.Env, st *metadata.PartitionState, topicID metadata.Uuid) {
	me := p.b.cfg.NodeID
	p.topicID = topicID
	newEpoch := !p.known || st.LeaderEpoch != p.leaderEpoch
	p.known = true
	p.replicas = slices.Clone(st.Replicas)
	if st.PartitionEpoch >= p.partitionEpoch || newEpoch {
		p.isr = slices.Clone(st.ISR)
		p.partitionEpoch = st.PartitionEpoch
		p.pendingISR = nil
	}
	switch {
	case st.Leader == me && (!p.isLeader || newEpoch):
		p.makeLeader(env, st)
	case st.Leader != me && (p.isLeader || newEpoch || st.Leader != p.leader):
		p.makeFollower(env, st)
	case p.isLeader:
		p.syncFollowers()
		p.afterISRChange(env)
	}
}

// syncFollowers keeps the leader's follower states in step with a replica
// set that changed within its epoch (a reassignment adding replicas): new
// replicas start as never caught up, dropped ones are forgotten.
func (p *Partition) syncFollowers() {
	for _, r := range p.replicas {
		if p.followers.get(r) == nil && r != p.b.cfg.NodeID {
			p.followers.add(&replicaState{id: r, logEndOffset: -1, lastFetchLeaderLogEndOffset: -1, brokerEpoch: -1, lastCaughtUpTime: neverCaughtUp})
		}
	}
	p.followers.keepOnly(p.replicas)
}

// makeLeader starts a new leader epoch at this replica's LEO.
func (p *Partition) makeLeader(env *sim.Env, st *metadata.PartitionState) {
	p.b.removeFromFetchers(p.tp)
	p.isLeader = true
	p.leader = st.Leader
	p.leaderEpoch = st.LeaderEpoch
	if err := p.log.AssignEpoch(p.leaderEpoch); err != nil {
		panic(err)
	}
	p.leaderEpochStartOffset = p.log.LogEndOffset()
	p.followers = nil
	for _, r := range p.replicas {
		if r == p.b.cfg.NodeID {
			continue
		}
		// ISR members count as caught up from now; the others as never
		// (Kafka uses time 0, the Unix epoch: long before any virtual time).
		rs := &replicaState{id: r, logEndOffset: -1, lastFetchLeaderLogEndOffset: -1, brokerEpoch: -1, lastCaughtUpTime: neverCaughtUp}
		if slices.Contains(p.isr, r) {
			rs.lastCaughtUpTime = env.Now()
		}
		p.followers.add(rs)
	}
	env.Note(event.LeaderStarted{Broker: p.b.cfg.NodeID, TP: p.tp, Epoch: p.leaderEpoch, LEO: p.log.LogEndOffset(), ISR: slices.Clone(p.isr)})
	p.maybeIncrementHW(env)
	p.b.checkParkedFetches(env)
	p.b.groupsLeaderChange(env, p)
	p.b.txnLeaderChange(env, p)
}

// noteHW notes the replica's HW (event.HighWatermarkUpdated) if it is not
// the one noted last. It runs wherever the HW can change: the leader
// moving it, a follower taking the leader's, a truncation, the log's load.
func (p *Partition) noteHW(env *sim.Env) {
	hw := p.log.HighWatermark()
	if p.hwNoted && hw == p.notedHW {
		return
	}
	p.notedHW, p.hwNoted = hw, true
	env.Note(event.HighWatermarkUpdated{Broker: p.b.cfg.NodeID, TP: p.tp, Epoch: p.leaderEpoch, HW: hw})
}

// makeFollower stops leading (if it did) and fetches from the new leader.
// The follower does not truncate here: its first fetch carries the epoch of
// its last batch, and the leader answers with a diverging epoch if the logs
// differ.
func (p *Partition) makeFollower(env *sim.Env, st *metadata.PartitionState) {
	wasLeader := p.isLeader
	p.isLeader = false
	p.leader = st.Leader
	p.leaderEpoch = st.LeaderEpoch
	p.followers = nil
	p.pendingISR = nil
	p.failDelayedProduces(env, protocol.NOT_LEADER_OR_FOLLOWER)
	p.b.removeFromFetchers(p.tp)
	if p.leader >= 0 {
		p.b.addToFetcher(env, p.leader, p)
	}
	if wasLeader {
		p.b.groupsLeaderChange(env, p)
		p.b.txnLeaderChange(env, p)
		env.Note(event.LeaderStopped{Broker: p.b.cfg.NodeID, TP: p.tp, Leader: p.leader, Epoch: p.leaderEpoch})
	}
	env.Note(event.FollowerStarted{Broker: p.b.cfg.NodeID, TP: p.tp, Leader: p.leader, Epoch: p.leaderEpoch})
	p.b.checkParkedFetches(env)
}

// maybeIncrementHW moves the leader's HW to the smallest LEO among the
// leader, the maximal ISR and caught-up eligible replicas. It does nothing
// while the committed ISR is smaller than the effective min.insync.replicas
// (Kafka >= 3.7, KIP-966). It reports whether the HW moved, and completes
// what waited for it.
func (p *Partition) maybeIncrementHW(env *sim.Env) bool {
	if !p.isLeader {
		return false
	}
	p.checkLeader("moving its HW")
	if len(p.isr) < p.effectiveMinISR() {
		return false
	}
	leo := p.log.LogEndOffset()
	newHW := leo
	maximal := p.maximalISR()
	for _, st := range p.followers {
		if st.logEndOffset >= newHW {
			continue
		}
		if slices.Contains(maximal, st.id) || (p.isCaughtUp(env, st) && p.b.eligible(st.id)) {
			newHW = st.logEndOffset
		}
	}
	old := p.log.HighWatermark()
	if newHW <= old {
		return false
	}
	p.checkHWAdvance(newHW)
	p.log.UpdateHighWatermark(newHW)
	p.noteHW(env)
	p.completeDelayedProduces(env)
	p.b.groupAppendsHWMoved(env, p)
	p.b.checkParkedFetches(env)
	return true
}

// isCaughtUp: the follower has the leader's LEO, or had it within
// replica.lag.time.max.ms.
func (p *Partition) isCaughtUp(env *sim.Env, st *replicaState) bool {
	return st.logEndOffset == p.log.LogEndOffset() || env.Now().Sub(st.lastCaughtUpTime) <= p.b.ms("replica.lag.time.max.ms")
}

// updateFollowerFetchState records what a follower's fetch says about it:
// its LEO is the fetch offset (the fetch is the acknowledgement).
func (p *Partition) updateFollowerFetchState(env *sim.Env, id int32, fetchOffset int64, brokerEpoch int64) {
	st := p.followers.get(id)
	if st == nil {
		return
	}
	leo := p.log.LogEndOffset()
	now := env.Now()
	switch {
	case fetchOffset >= leo:
		st.lastCaughtUpTime = max(st.lastCaughtUpTime, now)
	case st.lastFetchLeaderLogEndOffset >= 0 && fetchOffset >= st.lastFetchLeaderLogEndOffset:
		st.lastCaughtUpTime = max(st.lastCaughtUpTime, st.lastFetchTime)
	}
	st.logEndOffset = fetchOffset
	st.lastFetchLeaderLogEndOffset = leo
	st.lastFetchTime = now
	st.brokerEpoch = brokerEpoch
	p.maybeExpandISR(env, id)
	p.maybeIncrementHW(env)
}

func (p *Partition) afterISRChange(env *sim.Env) {
	p.maybeIncrementHW(env)
	p.completeDelayedProduces(env)
}

func (p *Partition) String() string {
	role := "follower"
	if p.isLeader {
		role = "leader"
	}
	return fmt.Sprintf("%s %s epoch=%d LEO=%d HW=%d ISR=%v", p.tp, role, p.leaderEpoch, p.log.LogEndOffset(), p.log.HighWatermark(), p.isr)
}
