package simulate

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/cluster"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// converged: every node is up and unfenced; every partition has a leader
// whose ISR holds every replica, and every replica has the leader's log end
// offset as its LEO and HW.
func (run *Run) converged() bool {
	c := run.C
	if !c.AllUnfenced() {
		return false
	}
	for _, id := range c.NodeIDs() {
		if c.State(id) != cluster.NodeRunning || run.stopping(id) {
			return false
		}
	}
	img := c.ControllerImage()
	if img == nil || !run.votersCaughtUp() {
		return false
	}
	for _, tp := range run.partitions() {
		st := img.Partition(tp.Topic, tp.Partition)
		if st == nil || st.Leader < 0 || !sameSet(st.ISR, st.Replicas) {
			return false
		}
		lp := c.Node(st.Leader).Broker.Partition(tp)
		if lp == nil || !lp.IsLeader() || lp.LeaderEpoch() != st.LeaderEpoch || !sameSet(lp.ISR(), st.Replicas) {
			return false
		}
		leo := lp.Log().LogEndOffset()
		for _, r := range st.Replicas {
			p := c.Node(r).Broker.Partition(tp)
			if p == nil || p.LeaderEpoch() != st.LeaderEpoch || p.Log().LogEndOffset() != leo || p.Log().HighWatermark() != leo {
				return false
			}
		}
	}
	return true
}

// votersCaughtUp: every controller voter runs and its __cluster_metadata
// log holds what the quorum leader has committed. A voter the leader could
// not reach (a one-way cut) stays unfenced as a broker, its heartbeats
// answered, while its metadata log falls behind; it catches up by
// fetching once healed (seed 7047 on 4.1: the brokers were all unfenced
// at the heal, and the metadata checks read voter 3 before its first
// fetch).
func (run *Run) votersCaughtUp() bool {
	var leader *raft.Node
	var voters []*raft.Node
	for _, id := range run.C.NodeIDs() {
		if !run.C.IsVoter(id) {
			continue
		}
		n := run.voterRaft(id)
		if n == nil {
			return false
		}
		if n.Role() == raft.RoleLeader {
			leader = n
		}
		voters = append(voters, n)
	}
	if len(voters) == 0 {
		return true // the ZooKeeper era: no quorum of its own
	}
	if leader == nil {
		return false
	}
	for _, n := range voters {
		if n.LogEndOffset() < leader.HighWatermark() {
			return false
		}
	}
	return true
}

// sameSet reports whether a and b hold the same elements, in any order.
func sameSet[T cmp.Ordered](a, b []T) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func (run *Run) stateDump() string {
	c := run.C
	var b strings.Builder
	img := c.ControllerImage()
	for _, id := range c.NodeIDs() {
		fmt.Fprintf(&b, "    broker %d: %s (%s)", id, c.State(id), c.Node(id).Broker.State())
		if img != nil {
			if reg := img.Brokers[id]; reg != nil {
				fmt.Fprintf(&b, " fenced=%v shutdown=%v epoch=%d", reg.Fenced, reg.InControlledShutdown, reg.Epoch)
			}
		}
		b.WriteString("\n")
	}
	if img == nil {
		b.WriteString("    no active controller\n")
	}
	for _, t := range run.Plan.Topics {
		for i, replicas := range t.Assignment {
			tp := storage.TopicPartition{Topic: t.Name, Partition: int32(i)}
			if img != nil {
				if st := img.Partition(t.Name, int32(i)); st != nil {
					fmt.Fprintf(&b, "    %s controller: leader %d epoch %d ISR %v replicas %v\n", tp, st.Leader, st.LeaderEpoch, st.ISR, st.Replicas)
				}
			}
			for _, r := range replicas {
				if p := c.Node(r).Broker.Partition(tp); p != nil {
					fmt.Fprintf(&b, "      broker %d: %s leader=%d pendingISR=%v epochs=%v\n", r, p, p.Leader(), p.PendingISR(), p.Log().Epochs().Entries())
				}
			}
		}
	}
	return b.String()
}

// finalChecks runs after the liveness phase:
//   - isr-identical: every ISR replica holds byte-identical batches
//     (offsets, values, leader epochs) from the log start up to the
//     leader's HW, and its LEO is at least the HW;
//   - epoch-cache: each replica's epoch cache is strictly increasing and
//     names the epoch of every batch;
//   - liveness: every partition has a leader, and a consumer reads exactly
//     the leader's log below the HW;
//   - acked-write-lost (lostWrites): acknowledged acks=all records of
//     topics drawn with min.insync.replicas >= 2 and unclean election off
//     are in the log at their offsets;
//   - idempotent-duplicate: no value of an idempotent producer is in a log
//     twice;
//   - committed-data-lost: the cluster's own record of committed data lost
//     at elections (cluster/loss.go) is empty, but for partitions of which
//     a power loss took unflushed records and for brokers leading an epoch
//     already superseded (staleLeadership);
//   - metadata-committed-lost, metadata-identical (checks_metadata.go): the
//     quorum kept every committed metadata entry, on every voter alike.
func (run *Run) finalChecks() error {
	c := run.C
	img := c.ControllerImage()
	if img == nil {
		run.violate("liveness", "no active controller at the end")
		return nil
	}
	run.metadataFinal()
	// Exempt: partitions of which a power loss took records (Kafka does
	// not fsync on acknowledging; see lostWrites).
	powerLost := map[string]bool{}
	for k := range run.lostToPowerLoss {
		powerLost[k.tp.String()] = true
	}
	for _, lr := range c.Losses() {
		if !powerLost[lr.Partition] && !run.staleLeadership(lr.Partition, lr.Epoch, lr.At) {
			run.violateAt(lr.At, "committed-data-lost", "%s [%d, %d) when broker %d started leading epoch %d", lr.Partition, lr.From, lr.To, lr.Leader, lr.Epoch)
		}
	}
	for _, tp := range run.partitions() {
		st := img.Partition(tp.Topic, tp.Partition)
		if st == nil || st.Leader < 0 {
			run.violate("liveness", "%s has no leader at the end", tp)
			continue
		}
		leader := c.Node(st.Leader).Broker.Partition(tp)
		if leader == nil || !leader.IsLeader() {
			run.violate("liveness", "%s: broker %d is the leader in the metadata but does not lead", tp, st.Leader)
			continue
		}
		hw := leader.Log().HighWatermark()
		lb, err := leader.Log().Batches(leader.Log().LogStartOffset(), hw)
		if err != nil {
			run.violate("liveness", "%s: reading the leader's log: %v", tp, err)
			continue
		}
		run.checkEpochs(st.Leader, leader)
		for _, m := range leader.ISR() {
			if m != st.Leader {
				run.checkISRMember(tp, st.Leader, leader, lb, m)
			}
		}
		read, err := run.consume(st.Leader, tp, hw)
		if err != nil {
			return err
		}
		if d := diffOffsetValues(lb, read); d != "" {
			run.violate("liveness", "%s: a consumer of leader %d reads something else than its log below HW %d: %s", tp, st.Leader, hw, d)
		}
		run.lostWrites(tp, st.Leader, leader, lb)
		run.duplicates(tp, lb)
	}
	run.txnFinal()
	return nil
}

// checkISRMember compares ISR member m's log with the leader's below the HW.
func (run *Run) checkISRMember(tp storage.TopicPartition, leaderID int32, leader *broker.Partition, lb []record.Batch, m int32) {
	hw := leader.Log().HighWatermark()
	p := run.C.Node(m).Broker.Partition(tp)
	if p == nil {
		run.violate("isr-identical", "%s: ISR member %d has no replica", tp, m)
		return
	}
	run.checkEpochs(m, p)
	if p.Log().LogEndOffset() < hw {
		run.violate("isr-identical", "%s: leader %d HW %d is beyond ISR member %d's LEO %d", tp, leaderID, hw, m, p.Log().LogEndOffset())
	}
	if p.Log().LogStartOffset() != leader.Log().LogStartOffset() {
		run.violate("isr-identical", "%s: ISR member %d starts at %d, the leader at %d", tp, m, p.Log().LogStartOffset(), leader.Log().LogStartOffset())
	}
	if run.exempt(exemptReledAfterPowerLoss) && run.x.reledAfterLoss[tp] {
		return
	}
	fb, err := p.Log().Batches(leader.Log().LogStartOffset(), hw)
	if err != nil {
		run.violate("isr-identical", "%s: reading broker %d's log: %v", tp, m, err)
		return
	}
	if d := diffBatches(lb, fb); d != "" {
		run.violate("isr-identical", "%s: ISR member %d differs from leader %d below HW %d: %s", tp, m, leaderID, hw, d)
		return
	}
	lraw := rawBelow(leader.Log(), leader.Log().LogStartOffset(), hw)
	fraw := rawBelow(p.Log(), leader.Log().LogStartOffset(), hw)
	if !bytes.Equal(lraw, fraw) {
		run.violate("isr-identical", "%s: ISR member %d's bytes below HW %d differ from leader %d's", tp, m, hw, leaderID)
	}
}

// rawBelow is the log's bytes from offset from up to offset to, read
// segment by segment. One read stays within one segment (Log.Read, as
// Kafka's LocalLog.read returns the first segment that has data), and a
// replica's segment boundaries need not match its leader's: a follower
// rolls as it appends each fetched chunk (UnifiedLog.appendAsFollower ->
// maybeRoll), and after a truncation it keeps the empty segment it
// truncated to. Kafka promises identical records, not identical files.
func rawBelow(l *storage.Log, from, to int64) []byte {
	var out []byte
	for next := max(from, l.LogStartOffset()); next < min(to, l.LogEndOffset()); {
		data, err := l.Read(next, 1<<30, to, true)
		if err != nil || len(data) == 0 {
			break
		}
		out = append(out, data...)
		for len(data) > 0 {
			b, n, err := record.Decode(data)
			if err != nil {
				return out
			}
			data = data[n:]
			next = b.NextOffset()
		}
	}
	return out
}

// checkEpochs (epoch-cache): batch epochs never decrease along the log, the
// epoch cache is strictly increasing in both fields, and the cache entry
// covering each batch names that batch's epoch.
func (run *Run) checkEpochs(id int32, p *broker.Partition) {
	l := p.Log()
	entries := l.Epochs().Entries()
	for i := 1; i < len(entries); i++ {
		if entries[i].Epoch <= entries[i-1].Epoch || entries[i].StartOffset <= entries[i-1].StartOffset {
			run.violate("epoch-cache", "broker %d %s: epoch cache %v is not strictly increasing", id, p.TopicPartition(), entries)
			return
		}
	}
	bs, err := l.Batches(l.LogStartOffset(), l.LogEndOffset())
	if err != nil {
		run.violate("epoch-cache", "broker %d %s: %v", id, p.TopicPartition(), err)
		return
	}
	prev := int32(-1)
	for _, b := range bs {
		if b.PartitionLeaderEpoch < prev {
			run.violate("epoch-cache", "broker %d %s: batch at %d has epoch %d after a batch of epoch %d", id, p.TopicPartition(), b.BaseOffset, b.PartitionLeaderEpoch, prev)
			return
		}
		prev = b.PartitionLeaderEpoch
		// A broker that lost records in a power loss may have led its old
		// epoch again from a shorter log before it was fenced (Kafka does
		// the same); the cache then keeps a wrong start for some epoch
		// until it is truncated. Its batches are still checked against the
		// leader's.
		if run.tainted[id] {
			continue
		}
		if e := l.Epochs().EpochForOffset(b.BaseOffset); e != b.PartitionLeaderEpoch {
			run.violate("epoch-cache", "broker %d %s: batch at %d has epoch %d, the epoch cache %v says %d", id, p.TopicPartition(), b.BaseOffset, b.PartitionLeaderEpoch, entries, e)
			return
		}
	}
}

// consume reads tp from leader as a consumer does, from offset 0 up to hw.
func (run *Run) consume(leader int32, tp storage.TopicPartition, hw int64) ([]record.Record, error) {
	var out []record.Record
	offset := int64(0)
	for rounds := 0; offset < hw && rounds < 10000; rounds++ {
		res, err := run.reader.fetch(leader, tp, offset)
		if err != nil {
			return out, err
		}
		if err := run.C.RunUntil(func() bool { return res.done }, time.Minute); err != nil {
			return out, err
		}
		switch {
		case !res.done || res.err != nil:
			run.violate("liveness", "%s: consumer fetch at %d got no answer: %v", tp, offset, res.err)
			return out, nil
		case res.code != protocol.NONE || res.decode != nil:
			run.violate("liveness", "%s: consumer fetch at %d: %s %v", tp, offset, res.code, res.decode)
			return out, nil
		case len(res.records) == 0:
			run.violate("liveness", "%s: consumer fetch at %d below HW %d returned nothing", tp, offset, hw)
			return out, nil
		}
		// Only what was below the HW when the check began is compared:
		// the world runs on while the fetch is answered, and a last
		// retried batch may commit meanwhile (seed 954). What a fetch may
		// return is checked against the HW of its own moment (read-above-hw).
		for _, r := range res.records {
			if r.Offset < hw || !run.exempt(exemptRetriedDuringCheck) {
				out = append(out, r)
			}
		}
		offset = res.records[len(res.records)-1].Offset + 1
	}
	return out, nil
}

// diffBatches describes the first difference between two batch lists.
func diffBatches(a, b []record.Batch) string {
	for i := 0; i < max(len(a), len(b)); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("extra batch at %d", b[i].BaseOffset)
		case i >= len(b):
			return fmt.Sprintf("missing batch at %d (%s)", a[i].BaseOffset, batchText(a[i]))
		}
		x, y := a[i], b[i]
		if x.BaseOffset != y.BaseOffset || x.PartitionLeaderEpoch != y.PartitionLeaderEpoch || batchText(x) != batchText(y) {
			return fmt.Sprintf("batch %d: leader %s epoch %d, replica %s epoch %d", i, batchText(x), x.PartitionLeaderEpoch, batchText(y), y.PartitionLeaderEpoch)
		}
	}
	return ""
}

func batchText(b record.Batch) string {
	var vs []string
	for _, r := range b.Records {
		vs = append(vs, fmt.Sprintf("%d:%s", r.Offset, r.Value))
	}
	return "[" + strings.Join(vs, " ") + "]"
}

func diffOffsetValues(want []record.Batch, got []record.Record) string {
	var w []record.Record
	for _, b := range want {
		w = append(w, b.Records...)
	}
	for i := 0; i < max(len(w), len(got)); i++ {
		switch {
		case i >= len(w):
			return fmt.Sprintf("extra record %d:%s", got[i].Offset, got[i].Value)
		case i >= len(got):
			return fmt.Sprintf("record %d:%s not read", w[i].Offset, w[i].Value)
		case w[i].Offset != got[i].Offset || string(w[i].Value) != string(got[i].Value):
			return fmt.Sprintf("at #%d log %d:%s, read %d:%s", i, w[i].Offset, w[i].Value, got[i].Offset, got[i].Value)
		}
	}
	return ""
}
