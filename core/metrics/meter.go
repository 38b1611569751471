package metrics

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// MeterTick is how often Yammer's tick thread updates a meter's moving
// averages (Meter's TICK_INTERVAL, EWMA's INTERVAL: 5 s).
const MeterTick = 5 * time.Second

// The moving averages' smoothing factors, per 5 s tick: 1 - e^(-5/60/N)
// for N = 1, 5 and 15 minutes (EWMA.M1_ALPHA, M5_ALPHA, M15_ALPHA).
var (
	m1Alpha  = 1 - math.Exp(-5.0/60/1)
	m5Alpha  = 1 - math.Exp(-5.0/60/5)
	m15Alpha = 1 - math.Exp(-5.0/60/15)
)

// ewma is one exponentially weighted moving average, in events per
// second. The first tick sets it to that tick's rate; every later one
// moves it alpha of the way to the tick's rate (EWMA.tick).
type ewma struct {
	alpha float64
	rate  float64
	init  bool
}

// tick applies one tick of instant rate r, then idle more idle ticks
// (rate 0), in closed form: each idle tick multiplies the rate by
// 1-alpha.
func (e *ewma) tick(r float64, idle int64) {
	if e.init {
		e.rate += e.alpha * (r - e.rate)
	} else {
		e.rate, e.init = r, true
	}
	if idle > 0 {
		e.rate *= math.Pow(1-e.alpha, float64(idle))
	}
}

// Meter is Yammer's Meter: the events marked since it was created, their
// mean rate, and the 1-, 5- and 15-minute moving averages of their rate,
// in events per second (Kafka's meters all report per SECONDS).
//
// Ticks fall every MeterTick from the meter's creation (the tick thread's
// scheduleAtFixedRate(tick, 5, 5, SECONDS)); events marked at a tick's
// very instant count after it. Invariant: every tick at or before next-
// MeterTick has been applied, and uncounted holds the events since.
type Meter struct {
	created     sim.Time
	next        sim.Time // the next tick not yet applied
	count       int64
	uncounted   int64
	m1, m5, m15 ewma
}

// NewMeter is a meter created at now.
func NewMeter(now sim.Time) *Meter {
	return &Meter{created: now, next: now.Add(MeterTick),
		m1: ewma{alpha: m1Alpha}, m5: ewma{alpha: m5Alpha}, m15: ewma{alpha: m15Alpha}}
}

// advance applies the ticks due at or before now.
func (m *Meter) advance(now sim.Time) {
	if now < m.next {
		return
	}
	ticks := int64(now.Sub(m.next)/MeterTick) + 1
	r := float64(m.uncounted) / MeterTick.Seconds()
	for _, e := range []*ewma{&m.m1, &m.m5, &m.m15} {
		e.tick(r, ticks-1)
	}
	m.uncounted = 0
	m.next = m.next.Add(time.Duration(ticks) * MeterTick)
}

// Mark records n events at now.
func (m *Meter) Mark(now sim.Time, n int64) {
	m.advance(now)
	m.count += n
	m.uncounted += n
}

// MeterReading is what JMX shows of a meter (its Count, MeanRate,
// OneMinuteRate, FiveMinuteRate and FifteenMinuteRate attributes).
type MeterReading struct {
	Count                                          int64
	MeanRate, OneMinute, FiveMinute, FifteenMinute float64
}

// Read is the meter's figures at now. MeanRate is the count over the time
// since the meter was created (0 before any event). Reading changes
// nothing: the ticks due are applied to a copy, so what a meter reads
// later depends on its marks alone, never on who looked at it when (a
// JmxTool poll, the page's plots).
func (m *Meter) Read(now sim.Time) MeterReading {
	c := *m
	c.advance(now)
	out := MeterReading{Count: c.count, OneMinute: c.m1.rate, FiveMinute: c.m5.rate, FifteenMinute: c.m15.rate}
	if elapsed := now.Sub(m.created); m.count > 0 && elapsed > 0 {
		out.MeanRate = float64(m.count) / elapsed.Seconds()
	}
	return out
}

// Pending reports whether events marked before now have not reached the
// moving averages yet: they will at the next tick, so the rates are
// bound to move though nothing else happens.
func (m *Meter) Pending(now sim.Time) bool {
	c := *m
	c.advance(now)
	return c.uncounted > 0
}
