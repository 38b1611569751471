package jdk

// SplittableRandom is java.util.SplittableRandom. Its zero value is new
// SplittableRandom(0), the generator ProducerPerformance draws its payloads
// from: the same seed and golden gamma give the same numbers as the JDK's.
type SplittableRandom struct{ seed uint64 }

const splitMixGamma = 0x9e3779b97f4a7c15

func (r *SplittableRandom) next() uint64 {
	r.seed += splitMixGamma
	return r.seed
}

func mix32(z uint64) int32 {
	z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5
	return int32(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3) >> 32)
}

// NextInt is SplittableRandom.nextInt(bound) for bound > 0.
func (r *SplittableRandom) NextInt(bound int32) int32 {
	v := mix32(r.next())
	m := bound - 1
	if bound&m == 0 {
		return v & m
	}
	u := int32(uint32(v) >> 1)
	for {
		v = u % bound
		if u+m-v >= 0 { // Java's int overflow check: a wrapped sum rejects u
			return v
		}
		u = int32(uint32(mix32(r.next())) >> 1)
	}
}
