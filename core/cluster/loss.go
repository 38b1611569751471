package cluster

import (
	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// LostRange is committed data a partition lost: offsets below the highest
// high watermark any replica had reached (acknowledged to acks=all
// producers, visible to consumers) that the broker that just became leader
// does not have. Its followers will truncate them, so they are gone for
// good. This happens with unclean leader election, with the pre-KIP-101
// truncation rule, and when a power loss wipes unflushed writes.
type LostRange struct {
	Partition string
	From, To  int64 // [From, To)
	Leader    int32 // the broker that became leader without them
	Epoch     int32 // its leader epoch
	At        sim.Time
	Values    [][]byte // the lost records' values, if a replica still holds them
}

// MaxLostRanges bounds the loss record kept per run.
const MaxLostRanges = 1000

// replicaMark is what the notes said last of one replica: its leader
// epoch and its HW.
type replicaMark struct {
	epoch int32
	hw    int64
	hwSet bool
}

// replicaMarks keeps every replica's last mark, per partition and broker,
// from the brokers' notes (event.LeaderStarted, event.FollowerStarted,
// event.HighWatermarkUpdated, event.ReplicaDeleted). A dead broker keeps
// its marks: its last HW is what it had acknowledged. A broker's marks go
// when its process starts again (forget): the new process knows only the
// logs it loads, and notes their HWs as it does.
type replicaMarks map[storage.TopicPartition]map[int32]replicaMark

func (m replicaMarks) observe(n sim.Note) {
	switch n := n.(type) {
	case event.LeaderStarted:
		m.set(n.TP, n.Broker, func(r *replicaMark) { r.epoch = n.Epoch })
	case event.FollowerStarted:
		m.set(n.TP, n.Broker, func(r *replicaMark) { r.epoch = n.Epoch })
	case event.HighWatermarkUpdated:
		m.set(n.TP, n.Broker, func(r *replicaMark) { r.epoch, r.hw, r.hwSet = n.Epoch, n.HW, true })
	case event.ReplicaDeleted:
		delete(m[n.TP], n.Broker)
	}
}

func (m replicaMarks) set(tp storage.TopicPartition, broker int32, f func(*replicaMark)) {
	rs := m[tp]
	if rs == nil {
		rs = map[int32]replicaMark{}
		m[tp] = rs
	}
	r := rs[broker]
	f(&r)
	rs[broker] = r
}

// forget drops a broker's marks (its process starts again).
func (m replicaMarks) forget(broker int32) {
	for _, rs := range m {
		delete(rs, broker)
	}
}

// checkLoss runs when a broker starts leading a partition. The committed
// offset is the highest HW any replica holds, alive or not (replicaMarks).
// A leadership that is already superseded (some replica applied a newer
// epoch) is not checked: no follower will follow it for long, and nothing
// is lost until the newer leader starts without the data. (A replica that
// led alone in the newer epoch may already have set its HW to its LEO:
// seeds 278 and 459 of the fault simulator, which
// TestSupersededLeadershipLosesNothing pins.)
//
// The decision reads only the notes. The lost records' values, for the
// `lost` tool and the page, are read from the log of the replica with the
// highest HW, at this instant (in the new leader's process, under the
// lockstep, so the read is safe): its followers truncate them soon after.
func (c *Cluster) checkLoss(e event.LeaderStarted, at sim.Time) {
	tp, leo, epoch := e.TP, e.LEO, e.Epoch
	var maxHW int64 = -1
	holder := int32(-1)
	// The result does not depend on the map's order: any newer epoch
	// ends the check, and ties go to the smallest broker id.
	for id, r := range c.marks[tp] {
		if r.epoch > epoch && !c.checkSuperseded {
			return
		}
		if r.hwSet && (r.hw > maxHW || r.hw == maxHW && id < holder) {
			maxHW, holder = r.hw, id
		}
	}
	if maxHW <= leo {
		return
	}
	if n := len(c.losses); n > 0 {
		last := c.losses[n-1]
		if last.Partition == tp.String() && last.From == leo && last.To == maxHW {
			return // the same gap seen again (e.g. a later epoch on the same leader)
		}
	}
	lr := LostRange{Partition: tp.String(), From: leo, To: maxHW, Leader: e.Broker, Epoch: epoch, At: at}
	if l := c.replicaLog(holder, tp); l != nil {
		batches, _ := l.Batches(leo, maxHW)
		for _, b := range batches {
			for _, r := range b.Records {
				if r.Offset >= leo && r.Offset < maxHW {
					lr.Values = append(lr.Values, append([]byte(nil), r.Value...))
				}
			}
		}
	}
	if len(c.losses) >= MaxLostRanges {
		c.losses = c.losses[1:]
	}
	c.losses = append(c.losses, lr)
}

// Losses lists the committed data lost so far, oldest first.
func (c *Cluster) Losses() []LostRange { return c.losses }

// replicaLog is broker id's log of tp, or nil.
func (c *Cluster) replicaLog(id int32, tp storage.TopicPartition) *storage.Log {
	if n := c.nodes[id]; n != nil && n.Broker != nil {
		if p := n.Broker.Partition(tp); p != nil {
			return p.Log()
		}
	}
	return nil
}
