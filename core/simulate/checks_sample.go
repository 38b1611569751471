package simulate

import (
	"kafkascope/core/cluster"
	"kafkascope/core/storage"
)

// sample checks what must hold at every moment, on every running broker
// (every second of virtual time, and around the phases):
//   - offsets-in-order: logStartOffset <= HW <= LEO on every replica;
//   - epoch-monotonic: a replica's leader epoch never decreases (within an
//     incarnation, and across restarts once the new incarnation has
//     applied metadata);
//   - hw-monotonic: a leader's HW never decreases within its epoch;
//   - isr-behind-hw: a leader's HW is at most the LEO of every member of its
//     ISR (members that lost data in a power loss excepted: Kafka does not
//     promise it for them);
//   - read-above-hw (checks_reads.go): consumer fetches sent at the
//     previous sample got nothing at or above the HW;
//   - committed-offset-monotonic (groups.go): no group's committed offset
//     went back;
//   - lso-above-hw (checks_txn_reads.go): with a transactional workload,
//     every leader's LSO is between its log start and its HW;
//   - metadata-committed-lost (checks_metadata.go): every voter's last
//     committed __cluster_metadata-0 entry is the one first seen committed
//     at that offset.
func (run *Run) sample() {
	c := run.C
	run.Stats.Checks++
	for _, id := range c.NodeIDs() {
		if c.State(id) != cluster.NodeRunning {
			continue
		}
		for _, p := range c.Node(id).Broker.Partitions() {
			l := p.Log()
			tp := p.TopicPartition()
			key := replicaKey{id, tp}
			if !(l.LogStartOffset() <= l.HighWatermark() && l.HighWatermark() <= l.LogEndOffset()) {
				run.violate("offsets-in-order", "broker %d %s: logStart %d HW %d LEO %d out of order", id, tp, l.LogStartOffset(), l.HighWatermark(), l.LogEndOffset())
			}
			run.maxHW[tp] = max(run.maxHW[tp], l.HighWatermark())
			e := p.LeaderEpoch()
			if prev, ok := run.epochSeen[p]; ok && e < prev {
				run.violate("epoch-monotonic", "broker %d %s: leader epoch went back from %d to %d", id, tp, prev, e)
			}
			run.epochSeen[p] = e
			if p.Leader() >= 0 || e > 0 {
				if m, ok := run.maxEpoch[key]; ok && e < m {
					run.violate("epoch-monotonic", "broker %d %s: applied leader epoch %d after an earlier incarnation had %d", id, tp, e, m)
				}
				run.maxEpoch[key] = max(run.maxEpoch[key], e)
			}
			if !p.IsLeader() {
				delete(run.hwSeen, p)
				continue
			}
			hw := l.HighWatermark()
			if prev, ok := run.hwSeen[p]; ok && prev.epoch == e && hw < prev.hw {
				run.violate("hw-monotonic", "broker %d %s: leader HW went back from %d to %d in epoch %d", id, tp, prev.hw, hw, e)
			}
			run.hwSeen[p] = hwMark{e, hw}
			for _, m := range p.ISR() {
				if m == id || c.State(m) != cluster.NodeRunning || run.tainted[m] {
					continue
				}
				mp := c.Node(m).Broker.Partition(tp)
				if mp == nil {
					continue
				}
				if leo := mp.Log().LogEndOffset(); leo < hw {
					run.violate("isr-behind-hw", "broker %d leads %s (epoch %d) with HW %d, but ISR member %d has LEO %d", id, tp, e, hw, m, leo)
				}
			}
		}
	}
	run.checkReads()
	run.sampleLSO()
	run.checkCommits()
	run.checkMetadata()
}

// partitions lists every partition of the run, in order.
func (run *Run) partitions() []storage.TopicPartition {
	var out []storage.TopicPartition
	for _, t := range run.Plan.Topics {
		for i := range t.Assignment {
			out = append(out, storage.TopicPartition{Topic: t.Name, Partition: int32(i)})
		}
	}
	return out
}
