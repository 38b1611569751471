package controller

import (
	"fmt"
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// The active controller's NoOpRecords in closed form, for a leap
// (sim.World.Leap): the controller's side of the KRaft quorum's idle cycle
// (raft.QuorumLoop). Every metadata.max.idle.interval.ms its timer appends
// a NoOpRecord, which moves the working image's offset and lastWritten,
// and re-arms itself; each voter's controller, as a listener, counts the
// committed NoOps towards its next snapshot.

// NoOpLoop is the active controller's NoOp timer in a steady cycle.
type NoOpLoop struct {
	c        *Controller
	event    sim.QueuedEvent
	interval time.Duration
	payload  []byte
}

// Claim is the queued event the loop owns: the NoOp timer.
func (l *NoOpLoop) Claim() sim.QueuedEvent { return l.event }

// Interval is the time between NoOps.
func (l *NoOpLoop) Interval() time.Duration { return l.interval }

// Next is when the next NoOp is appended.
func (l *NoOpLoop) Next() sim.Time { return l.event.At }

// FindNoOpLoop returns the active controller c's NoOp timer as a loop if a
// leap can run its NoOps: c leads, waits on nothing (no reply held for a
// commit, no unclean-election check armed, every partition led), and its
// one live NoOp timer is pending.
func FindNoOpLoop(queued []sim.QueuedEvent, c *Controller) *NoOpLoop {
	if c == nil || !c.active || len(c.replies) > 0 || c.uncleanPending || c.lastWritten > c.lastCommitted() || c.someLeaderless() {
		return nil
	}
	host := c.cfg.Addr.Host()
	l := &NoOpLoop{c: c}
	found := 0
	for _, q := range queued {
		if q.Timer != nil && q.Host == host && q.Timer.Name() == "metadata-no-op" {
			l.event = q
			found++
		}
	}
	if found != 1 {
		return nil
	}
	l.interval = time.Duration(c.conf().BrokerInt("metadata.max.idle.interval.ms")) * time.Millisecond
	if l.interval <= 0 {
		return nil
	}
	l.payload = metadata.Encode(&metadata.NoOpRecord{}, 0) // version 0 at every metadata.version
	return l
}

// NoOps are the next count NoOps, as the raft loop appends them.
func (l *NoOpLoop) NoOps(count int) raft.NoOps {
	return raft.NoOps{Timer: l.event, Interval: l.interval, Count: count, Payload: l.payload}
}

// SnapshotLimits is how far committed NoOps can go on voter c before its
// snapshot policy writes a snapshot: before the instant until (its
// metadata.log.max.snapshot.interval.ms since the last one) and fewer than
// count more NoOps (its metadata.log.max.record.bytes.between.snapshots).
// A leap stops short of both; the snapshot is then written as a stepped
// run writes it.
func SnapshotLimits(c *Controller, payload int) (until sim.Time, count int64) {
	p := &c.snapshots
	until, count = sim.Time(1<<63-1), 1<<62
	if !p.started {
		return 0, 0
	}
	r := p.rules(c)
	if r.interval > 0 {
		until = p.lastAt.Add(r.interval)
	}
	if payload > 0 {
		count = (r.maxBytes - p.newBytes + int64(payload) - 1) / int64(payload)
	}
	return until, count
}

// Payload is a NoOpRecord's size as committed.
func (l *NoOpLoop) Payload() int { return len(l.payload) }

// Finish moves the controller past count NoOps appended by the leap: its
// working image's offset and lastWritten (the committed image follows by
// delivery), and its timer, re-armed by the last NoOp (through
// w.LeapRun at that instant).
func (l *NoOpLoop) Finish(w *sim.World, count int, lastOffset int64) error {
	if count == 0 {
		return nil
	}
	c := l.c
	if err := c.image.Apply(lastOffset, &metadata.NoOpRecord{}); err != nil {
		return fmt.Errorf("controller: leaping NoOps: %w", err)
	}
	c.lastWritten = lastOffset
	// The last NoOp's timer, armed by the NoOp before it.
	last := l.event.At.Add(time.Duration(count-1) * l.interval)
	c.quorum.wrote(lastOffset, last)
	return w.LeapRun(c.cfg.Addr.Host(), last, sim.PeriodicRuns(l.event, l.interval, count-1), func(env *sim.Env) { c.scheduleNoOp(env) })
}

// BalanceLoop is the active controller's leader-imbalance check when each
// run finds nothing to move (auto.leader.rebalance.enable off, or every
// partition led by its preferred replica or within the allowed imbalance):
// a leap fires it in closed form (sim.LeapPeriodic).
type BalanceLoop struct {
	event  sim.QueuedEvent
	period time.Duration
}

// Claim is the queued event the loop owns: the check's timer.
func (l *BalanceLoop) Claim() sim.QueuedEvent { return l.event }

// FindBalanceLoop returns the active controller c's leader-imbalance
// check as a loop if its runs do nothing while nothing changes.
func FindBalanceLoop(queued []sim.QueuedEvent, c *Controller) *BalanceLoop {
	if c == nil || !c.active {
		return nil
	}
	host := c.cfg.Addr.Host()
	var l *BalanceLoop
	for _, q := range queued {
		if q.Timer != nil && q.Host == host && q.Timer.Name() == "leader-imbalance-check" {
			if l != nil {
				return nil // a stale activation's timer as well
			}
			l = &BalanceLoop{event: q}
		}
	}
	if l == nil {
		return nil
	}
	l.period = time.Duration(c.conf().BrokerInt("leader.imbalance.check.interval.seconds")) * time.Second
	if l.period <= 0 || c.conf().BrokerBool("auto.leader.rebalance.enable") && len(c.leaderBalanceRecords()) > 0 {
		return nil
	}
	return l
}

// Leap fires the check's runs before end: the timer consumed, the timer
// armed by the last run, and the last run's time (ok false: none ran).
func (l *BalanceLoop) Leap(end sim.Time) (drop sim.QueuedEvent, add sim.LeapEvent, last sim.Time, ok bool) {
	runs, last, next := sim.LeapPeriodic(l.event, l.period, end)
	return l.event, next, last, runs > 0
}
