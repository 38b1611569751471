package simulate

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
	"kafkascope/core/storage"
)

// committed-offset-monotonic: once the coordinator has acknowledged a
// group's offset commit to a member, the group's committed offset for that
// partition never goes below it again, but by a reset (nothing in the
// workload resets offsets explicitly; the consumers' auto.offset.reset
// after OFFSET_OUT_OF_RANGE does, see watchCommits). The checker holds the
// group's coordinator to the highest offset acknowledged so far, at every
// sample.
//
// The coordinator is the broker the active controller names as leader of
// the group's __consumer_offsets partition, once it has applied that
// leadership and loaded the partition. Two things a coordinator's cache shows are not
// held against it, because Kafka 3.8 shows them too and they break no
// promise made to a consumer (the first simulator session reported both,
// seeds 85 and 13; those runs have since drifted, and seeds 88, 214, 315,
// 316, 409, 554 and 695 of 1-700 show the first today on Kafka 3.8, which
// exemptions_test.go pins):
//   - a deposed leader cut off from the controller still believes it leads
//     and answers from the cache it had (a consumer told so re-reads
//     records, which at-least-once allows);
//   - loading reads the partition up to its log end offset
//     (GroupMetadataManager.doLoadGroupsAndOffsets), so a coordinator may
//     show commits that were never acknowledged and that a later leader
//     does not have.
//
// Exempt: the groups whose __consumer_offsets partition lost records in a
// power loss, from that moment on (run.x.offsetsLost). __consumer_offsets
// is written with acks=all but the broker default min.insync.replicas=1,
// and, like any partition, not fsynced on append (checks_writes.go): a
// replica that lost the last commits may lead it again, and its
// coordinator then loads the older ones.
func (run *Run) checkCommits() {
	if len(run.acked) == 0 {
		return
	}
	coordinator := run.coordinators()
	for _, id := range run.C.NodeIDs() {
		if run.C.State(id) != cluster.NodeRunning {
			continue
		}
		for _, g := range run.C.Node(id).Broker.GroupCoordinator().Groups() {
			if run.x.offsetsLost[g.Partition] {
				continue // an exempt group
			}
			if run.exempt(exemptDeposedCoordinator) && coordinator[g.Partition] != id || !run.believesItLeads(id, g.Partition) {
				continue // a deposed leader's cache, or not a leader's
			}
			has := map[storage.TopicPartition]int64{}
			for _, o := range g.Offsets {
				has[storage.TopicPartition{Topic: o.Topic, Partition: o.Partition}] = o.Offset
			}
			for _, key := range sortedCommitKeys(run.acked) {
				if key.group != g.ID {
					continue
				}
				acked := run.acked[key]
				if o, ok := has[key.tp]; !ok || o < acked.offset {
					shown := "none"
					if ok {
						shown = strconv.FormatInt(o, 10)
					}
					run.violate("committed-offset-monotonic", "group %s %s: offset %d was acknowledged to %s at %s, but coordinator %d now has %s", g.ID, key.tp, acked.offset, acked.member, acked.at, id, shown)
				}
			}
		}
	}
}

// watchCommits records every offset commit a coordinator acknowledges to a
// member of the workload: the highest per group and partition. A reset
// wipes the record for its partition: when a member's fetch position is out
// of range (the partition's log lost records, a power loss of its only
// replica say), auto.offset.reset moves it to the log start and what it
// commits next may be lower. That is the reset the guarantee allows, done
// by the client's configured policy, not an offset lost by the group.
//
// A commit sent before a reset may be acknowledged after it (seed 880:
// the reset at T+2m16.846s, the acknowledgement of the earlier commit of
// 52 at T+2m16.848s, then the reset position 41 committed). A member
// never commits past its position, which only a reset moves back: an
// acknowledged offset above the member's position now, or one that
// arrives while a reset's lookup leaves the position unknown, is such a
// commit, and is not held against the group.
func (run *Run) watchCommits(m *member) {
	reset := map[commitKey]bool{} // reset, and no commit acknowledged since at a known position
	m.c.OnCommitted(func(env *sim.Env, topic string, partition int32, offset int64) {
		key := commitKey{m.group, storage.TopicPartition{Topic: topic, Partition: partition}}
		pos, known := m.c.Position(group.TopicPartition{Topic: topic, Partition: partition})
		if known && offset > pos || !known && reset[key] {
			return
		}
		if known {
			delete(reset, key)
		}
		if prev, ok := run.acked[key]; !ok || offset > prev.offset {
			run.acked[key] = commitMark{offset: offset, member: m.name, at: env.Now()}
		}
	})
	m.c.OnOffsetReset(func(env *sim.Env, topic string, partition int32, from int64) {
		key := commitKey{m.group, storage.TopicPartition{Topic: topic, Partition: partition}}
		delete(run.acked, key)
		reset[key] = true
		run.Stats.OffsetResets++
	})
}

// coordinators maps each __consumer_offsets partition to its coordinator
// now: the broker the active controller names as its leader, if that
// broker runs and has applied the same leader epoch. Without an active
// controller the map is empty: a broker's own belief that it leads is not
// enough (a deposed leader cut off from the controller keeps it, and the
// newer leader may be down).
func (run *Run) coordinators() map[int32]int32 {
	out := map[int32]int32{}
	img := run.C.ControllerImage()
	if img == nil {
		return out
	}
	t := img.Topics[metadata.ConsumerOffsetsTopic]
	if t == nil {
		return out
	}
	for i, st := range t.Partitions {
		if st.Leader < 0 || run.C.State(st.Leader) != cluster.NodeRunning {
			continue
		}
		tp := storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: int32(i)}
		if p := run.C.Node(st.Leader).Broker.Partition(tp); p != nil && p.IsLeader() && p.LeaderEpoch() == st.LeaderEpoch {
			out[int32(i)] = st.Leader
		}
	}
	return out
}

type commitKey struct {
	group string
	tp    storage.TopicPartition
}

func (k commitKey) String() string { return k.group + "/" + k.tp.String() }

// commitMark is the highest offset acknowledged for a commitKey: to which
// member, and when.
type commitMark struct {
	offset int64
	member string
	at     sim.Time
}

func sortedCommitKeys(m map[commitKey]commitMark) []commitKey {
	keys := slices.Collect(maps.Keys(m))
	sorts.Func(keys, func(a, b commitKey) int { return strings.Compare(a.String(), b.String()) })
	return keys
}

// believesItLeads tells whether broker id's own replica of a
// __consumer_offsets partition is its leader, whatever the controller
// says.
func (run *Run) believesItLeads(id, partition int32) bool {
	p := run.C.Node(id).Broker.Partition(storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: partition})
	return p != nil && p.IsLeader()
}
