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

// checkLoss runs when a broker starts leading a partition (in that broker's
// process, under the lockstep, so reading the other brokers' replicas is
// safe). The committed offset is the highest HW any replica holds, alive or
// not: a dead broker's last HW is what it had acknowledged. A leadership
// that is already superseded (some replica applied a newer epoch) is not
// checked: no follower will follow it for long, and nothing is lost until
// the newer leader starts without the data.
func (c *Cluster) checkLoss(e event.LeaderStarted, at sim.Time) {
	tp, leo, epoch := e.TP, e.LEO, e.Epoch
	var maxHW int64 = -1
	var holder *storage.Log
	for _, id := range c.NodeIDs() {
		n := c.nodes[id]
		if n == nil || n.Broker == nil {
			continue
		}
		p := n.Broker.Partition(tp)
		if p == nil {
			continue
		}
		if p.LeaderEpoch() > epoch {
			// A newer epoch has a leader already: this broker applies
			// a stale leadership and gives it up at once, so nothing is
			// cut at this epoch; the newer leader's own start is checked.
			// (A replica that led alone in the newer epoch may already
			// have set its HW to its LEO: seed 278 of issue 8.)
			return
		}
		if hw := p.Log().HighWatermark(); hw > maxHW {
			maxHW, holder = hw, p.Log()
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
	if batches, err := holder.Batches(leo, maxHW); err == nil {
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
