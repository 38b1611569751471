package broker

import (
	"math"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// A broker's periodic tasks in closed form, for a leap (sim.World.Leap).
//
// While nothing changes, each periodic task finds nothing to do, or does
// the same thing again: the ISR expiration finds every follower caught up,
// the log cleaner finds no compacted log, the retention task no segment to
// delete (until one ages past retention.ms), and the checkpoints rewrite
// the same offsets. Each then re-arms itself one period later. A TaskLoop
// proves that of one task's timer; LeapTaskLoops fires it in closed form:
// the checkpoints' writes happen for real, at their own instants (the
// disk dates its pages and journal by the clock), in the order a stepped
// run gives them; the other tasks leave nothing behind but their next
// timer.

// LoopTimer reports whether a timer of this name may be a loop's: a
// parked fetch's expiry, a fetch's or a heartbeat's timeout, a heartbeat
// or a session's expiry, or a periodic task a leap fires.
func LoopTimer(name string) bool {
	switch name {
	case "delayed-fetch-expiry", "request-timeout Fetch", "isr-expiration", "highwatermark-checkpoint",
		"kafka-recovery-point-checkpoint", cleanerThreadName, "kafka-log-retention",
		heartbeatTimerName, "request-timeout BrokerHeartbeat", "broker-session-expiry":
		return true
	}
	return false
}

// LoopMessage reports whether m may be a loop's: a follower's Fetch, a
// broker's heartbeat, or their answers.
func LoopMessage(m sim.Message) bool {
	switch m.(type) {
	case *protocol.FetchRequest, *protocol.FetchResponse, *protocol.BrokerHeartbeatRequest, *protocol.BrokerHeartbeatResponse:
		return true
	}
	return false
}

// taskKind is a periodic task a leap can fire.
type taskKind uint8

const (
	taskISRExpiration taskKind = iota + 1
	taskHWCheckpoint
	taskRecoveryCheckpoint
	taskCleaner
	taskRetention
)

// TaskLoop is one periodic task whose every run in a span does nothing
// that could change what it does next.
type TaskLoop struct {
	b      *Broker
	kind   taskKind
	event  sim.QueuedEvent // its timer
	period time.Duration
	// until is when a run would first do something (the retention task
	// deleting a segment): runs from then on are stepped.
	until sim.Time
}

// Until is the first run a leap must not fire: the first at or after the
// time the task would do something (never: the largest time).
func (l *TaskLoop) Until() sim.Time {
	if l.until == math.MaxInt64 || l.until <= l.event.At {
		return max(l.until, l.event.At)
	}
	p := sim.Time(l.period)
	return l.event.At + (l.until-l.event.At+p-1)/p*p
}

// Claims are the queued events the loop owns: its timer.
func (l *TaskLoop) Claims() []sim.QueuedEvent { return []sim.QueuedEvent{l.event} }

// TaskLoops finds the periodic tasks of brokers (running brokers' by host)
// that a leap can fire in closed form now.
func TaskLoops(queued []sim.QueuedEvent, brokers map[string]*Broker) []*TaskLoop {
	var loops []*TaskLoop
	for _, q := range queued {
		if q.Timer == nil {
			continue
		}
		b := brokers[q.Host]
		if b == nil || b.state != StateRunning {
			continue
		}
		l := &TaskLoop{b: b, event: q, until: math.MaxInt64}
		switch q.Timer.Name() {
		case "isr-expiration":
			l.kind, l.period = taskISRExpiration, b.ms("replica.lag.time.max.ms")/2
			if !b.isrsStayCaughtUp() {
				continue
			}
		case "highwatermark-checkpoint":
			l.kind, l.period = taskHWCheckpoint, b.ms("replica.high.watermark.checkpoint.interval.ms")
		case "kafka-recovery-point-checkpoint":
			l.kind, l.period = taskRecoveryCheckpoint, time.Duration(b.conf().BrokerInt("log.flush.offset.checkpoint.interval.ms"))*time.Millisecond
		case cleanerThreadName:
			l.kind, l.period = taskCleaner, b.ms("log.cleaner.backoff.ms")
			if !b.cleanerIdle() {
				continue
			}
		case "kafka-log-retention":
			l.kind, l.period = taskRetention, b.retentionEvery
			due, ok := b.retentionDue()
			if !ok {
				continue
			}
			l.until = due
		default:
			continue
		}
		if l.period <= 0 {
			continue
		}
		loops = append(loops, l)
	}
	return loops
}

// isrsStayCaughtUp reports whether the ISR expiration would shrink no ISR
// at any time while nothing changes: every ISR follower of every led
// partition has the leader's LEO (isCaughtUp whatever the clock).
func (b *Broker) isrsStayCaughtUp() bool {
	for _, p := range b.partitions {
		if !p.isLeader || p.pendingISR != nil {
			continue
		}
		leo := p.log.LogEndOffset()
		for _, id := range p.isr {
			if id == b.cfg.NodeID {
				continue
			}
			if st := p.followers.get(id); st == nil || st.logEndOffset != leo {
				return false
			}
		}
	}
	return true
}

// cleanerIdle reports whether the log cleaner's runs find nothing to do
// while nothing changes: no compacted log at all (so nothing to clean and
// no compacted log's old segments to delete), and nothing marked
// uncleanable.
func (b *Broker) cleanerIdle() bool {
	c := b.cleaner
	if c == nil || len(c.uncleanable) > 0 {
		return false
	}
	var seen map[string]bool
	for _, p := range b.partitions {
		if p.log.Config().Compact {
			return false
		}
		if t := p.tp.Topic; !seen[t] {
			// cleanFilthiestLog's test: cleanerLogConfig(t).Compact.
			if compact, _ := b.cleanupPolicy(t); compact {
				return false
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[t] = true
		}
	}
	return true
}

// retentionDue is when the retention task would first delete something
// while nothing changes (ok false if it cannot tell).
func (b *Broker) retentionDue() (sim.Time, bool) {
	due := int64(math.MaxInt64)
	for _, p := range b.partitions {
		if p.log.Config().Compact {
			continue
		}
		ms, err := p.log.RetentionDueMs()
		if err != nil {
			return 0, false
		}
		due = min(due, ms)
	}
	switch {
	case due == math.MaxInt64:
		return math.MaxInt64, true
	case due <= sim.EpochUnixMilli:
		return math.MinInt64, true
	}
	return sim.FromUnixMilli(due), true
}

// LeapTaskLoops fires loops' timers due before horizon in closed form. It
// returns the checkpoints' writes (a run of them per task), to run at their
// instants in a stepped run's order with other loops' disk work
// (sim.World.RunLeapOps), the
// timers consumed, the timers pending at the end, and the time of the last
// run (now if none).
func LeapTaskLoops(now, horizon sim.Time, loops []*TaskLoop) (ops []sim.LeapRun, drop []sim.QueuedEvent, add []sim.LeapEvent, last sim.Time) {
	last = now
	for _, l := range loops {
		n, final, next := sim.LeapPeriodic(l.event, l.period, horizon)
		if n == 0 {
			continue
		}
		first, p := l.event.At, sim.Time(l.period)
		last = max(last, final)
		drop = append(drop, l.event)
		add = append(add, next)
		switch l.kind {
		case taskHWCheckpoint, taskRecoveryCheckpoint:
			// A run's timer was armed by the run before it. Every run
			// writes the same offsets (nothing changes them in a span):
			// they are encoded once.
			b := l.b
			var do func(int)
			switch {
			case l.kind == taskRecoveryCheckpoint:
				do = b.recoveryCheckpointWriter(b.recoveryCheckpoints())
			case len(b.partitions) > 0:
				data, p := b.hwCheckpoint(), b.file(storage.ReplicationOffsetCheckpoint)
				do = func(int) { b.mustWritePath(p, data) }
			default:
				continue
			}
			r := &checkpointRun{first: first, every: p, n: n, event: l.event, period: l.period, do: do, machine: b.addr.Host()}
			r.pathAt = r.path
			ops = append(ops, r)
		case taskCleaner:
			if c := l.b.cleaner; c.passesAt != final {
				c.passesAt, c.passesNow = final, 0
			}
		}
	}
	return ops, drop, add, last
}

// checkpointRun is a task's checkpoint writes in a span as a run of ops
// (sim.LeapRun): n writes, every period from first, each armed by the one
// before.
type checkpointRun struct {
	first, every sim.Time
	n            int
	event        sim.QueuedEvent
	period       time.Duration
	do           func(int) // the write (of every op: the argument is unused)
	machine      string    // the broker's host: its writes go to that disk
	// pathAt is path, as a function value made once: a path boxed for
	// each op was an allocation a write.
	pathAt func(int) sim.PushPath
}

func (r *checkpointRun) Len() int { return r.n }

// Machine implements sim.LeapMachine: the writes change the broker's
// disk only.
func (r *checkpointRun) Machine() string { return r.machine }

func (r *checkpointRun) Op(i int) sim.LeapOp {
	return sim.LeapOp{At: r.first + sim.Time(i)*r.every, Arg: i, Path: r.pathAt, Do: r.do}
}

// path is write i's push path: armed by the write before it.
func (r *checkpointRun) path(i int) sim.PushPath { return sim.PeriodicRuns(r.event, r.period, i) }
