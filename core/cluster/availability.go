package cluster

import (
	"sort"
	"strconv"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/sim"
)

// Availability measures, per partition, the time during which no running
// broker served as its leader: from the moment the last leader stopped
// leading (stepped down, or its process died) until some broker started
// leading it again. This is the downtime a client sees, whatever the
// metadata says: after a crash the controller still names the dead broker
// as leader until the session timeout, and the partition is down all that
// time.
//
// It is fed by the brokers' leader.started / leader.stopped notes and by
// the harness's kills, so it is exact and needs no sampling. A partition
// counts only once some broker has led it.
type Availability struct {
	parts map[string]*partitionAvailability
}

// partitionAvailability is one partition's record.
// Invariant: down is set exactly when leaders is empty and the partition
// has been led before and not deleted.
type partitionAvailability struct {
	leaders   map[int32]bool // brokers currently serving as leader (normally one)
	down      bool
	downSince sim.Time
	outages   int
	total     time.Duration // finished outages only
	longest   time.Duration
}

// PartitionAvailability is a partition's record as of a moment.
type PartitionAvailability struct {
	Partition string // topic-partition
	Leader    int32  // a broker serving as leader, or -1
	Outages   int
	Total     time.Duration // including an outage still going on
	Longest   time.Duration
	Down      bool
	DownSince sim.Time
}

func newAvailability() *Availability {
	return &Availability{parts: map[string]*partitionAvailability{}}
}

func (a *Availability) part(tp string) *partitionAvailability {
	p := a.parts[tp]
	if p == nil {
		p = &partitionAvailability{leaders: map[int32]bool{}}
		a.parts[tp] = p
	}
	return p
}

// settle closes an outage that ended at now.
func (p *partitionAvailability) settle(now sim.Time) {
	if p.down && len(p.leaders) > 0 {
		d := now.Sub(p.downSince)
		p.total += d
		p.longest = max(p.longest, d)
		p.down = false
		if d == 0 { // a hand-over within one instant is no outage
			p.outages--
		}
	}
}

func (p *partitionAvailability) stopped(broker int32, now sim.Time) {
	if !p.leaders[broker] {
		return
	}
	delete(p.leaders, broker)
	if len(p.leaders) == 0 && !p.down {
		p.down, p.downSince = true, now
		p.outages++
	}
}

// observe updates the record from one note.
func (a *Availability) observe(e sim.TraceEvent) {
	switch n := e.Note.(type) {
	case event.LeaderStarted:
		p := a.part(n.TP.String())
		p.leaders[n.Broker] = true
		p.settle(e.At)
	case event.LeaderStopped:
		if p := a.parts[n.TP.String()]; p != nil {
			p.stopped(n.Broker, e.At)
		}
	case event.ReplicaDeleted:
		delete(a.parts, n.TP.String())
	case event.BrokerShutdownFinished:
		a.brokerDied(n.Broker, e.At)
	}
}

// brokerDied ends every leadership of a broker whose process ended.
func (a *Availability) brokerDied(id int32, now sim.Time) {
	for _, p := range a.parts {
		p.stopped(id, now)
	}
}

// Reset forgets the measurements so far, keeping who leads what: outages
// in progress restart at now.
func (a *Availability) Reset(now sim.Time) {
	for _, p := range a.parts {
		p.outages, p.total, p.longest = 0, 0, 0
		if p.down {
			p.downSince = now
			p.outages = 1
		}
	}
}

// Report lists every partition's record as of now, in name order
// (topic, then partition number).
func (a *Availability) Report(now sim.Time) []PartitionAvailability {
	out := make([]PartitionAvailability, 0, len(a.parts))
	for tp, p := range a.parts {
		r := PartitionAvailability{Partition: tp, Leader: -1, Outages: p.outages, Total: p.total, Longest: p.longest, Down: p.down, DownSince: p.downSince}
		for id := range p.leaders {
			if r.Leader < 0 || id < r.Leader {
				r.Leader = id
			}
		}
		if p.down {
			d := now.Sub(p.downSince)
			r.Total += d
			r.Longest = max(r.Longest, d)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return partitionLess(out[i].Partition, out[j].Partition) })
	return out
}

// DownSince reports whether a partition is down now, and since when.
func (a *Availability) DownSince(tp string) (sim.Time, bool) {
	if p := a.parts[tp]; p != nil && p.down {
		return p.downSince, true
	}
	return 0, false
}

// partitionLess orders "topic-N" names by topic, then by N as a number.
func partitionLess(a, b string) bool {
	ta, na := splitTP(a)
	tb, nb := splitTP(b)
	if ta != tb {
		return ta < tb
	}
	return na < nb
}

func splitTP(tp string) (string, int) {
	for i := len(tp) - 1; i >= 0; i-- {
		if tp[i] == '-' {
			n, err := strconv.Atoi(tp[i+1:])
			if err == nil {
				return tp[:i], n
			}
			break
		}
	}
	return tp, 0
}
