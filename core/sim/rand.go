package sim

import "hash/fnv"

// Rand is a small deterministic PRNG (SplitMix64). Every consumer of
// randomness owns a stream derived from the run's seed and a stable name, so
// streams are independent: drawing more numbers from one never changes
// another. It is not safe for concurrent use; under the lockstep scheduler it
// never needs to be.
type Rand struct {
	state uint64
}

// NewRand derives the stream called name from seed.
func NewRand(seed uint64, name string) *Rand {
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	r := &Rand{state: seed ^ h.Sum64()}
	r.Uint64() // decorrelate streams whose seeds differ in few bits
	return r
}

// Uint64 returns the next 64 pseudo-random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform int in [0, n). It panics if n <= 0, like math/rand.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		panic("sim: Rand.Intn with n <= 0")
	}
	// Rejection sampling keeps the draw uniform for every n.
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % bound)
	for {
		v := r.Uint64()
		if v < limit {
			return int(v % bound)
		}
	}
}

// Int63n returns a uniform int64 in [0, n).
func (r *Rand) Int63n(n int64) int64 {
	if n <= 0 {
		panic("sim: Rand.Int63n with n <= 0")
	}
	bound := uint64(n)
	limit := ^uint64(0) - (^uint64(0) % bound)
	for {
		v := r.Uint64()
		if v < limit {
			return int64(v % bound)
		}
	}
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 {
	return float64(r.Uint64()>>11) / (1 << 53)
}

// Shuffle permutes n elements with Fisher-Yates.
func (r *Rand) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.Intn(i+1))
	}
}

// Bytes fills b with pseudo-random bytes.
func (r *Rand) Bytes(b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < len(b); j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
}
