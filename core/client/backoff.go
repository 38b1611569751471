package client

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// exponentialBackoff is Kafka's ExponentialBackoff: initial * 2^attempts,
// capped at max, each value scaled by a random factor in
// [1-jitter, 1+jitter). The clients use it for retry.backoff.ms (up to
// retry.backoff.max.ms) and reconnect.backoff.ms (up to
// reconnect.backoff.max.ms), both with jitter 0.2. The random factor comes
// from a seeded stream (Kafka uses ThreadLocalRandom), so runs repeat; with
// no stream there is no jitter.
type exponentialBackoff struct {
	initial, max time.Duration
	jitter       float64
	expMax       float64
	rnd          *sim.Rand
}

func newExponentialBackoff(initial, maxWait time.Duration, jitter float64, rnd *sim.Rand) *exponentialBackoff {
	b := &exponentialBackoff{initial: initial, max: maxWait, jitter: jitter, rnd: rnd}
	if maxWait > initial {
		b.expMax = math.Log(float64(maxWait.Milliseconds())/float64(max(initial.Milliseconds(), 1))) / math.Log(2)
	}
	return b
}

// backoff is the wait after attempts failures (the first retry is
// backoff(0)), in whole milliseconds as Kafka computes it.
func (b *exponentialBackoff) backoff(attempts int) time.Duration {
	initial := b.initial.Milliseconds()
	if b.expMax == 0 {
		return time.Duration(initial) * time.Millisecond
	}
	exp := math.Min(float64(attempts), b.expMax)
	term := float64(initial) * math.Pow(2, exp)
	factor := 1.0
	if b.jitter > 0 && b.rnd != nil {
		factor = 1 - b.jitter + 2*b.jitter*b.rnd.Float64()
	}
	v := int64(factor * term)
	if m := b.max.Milliseconds(); v > m {
		v = m
	}
	return time.Duration(v) * time.Millisecond
}
