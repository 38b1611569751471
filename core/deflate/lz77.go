package deflate

// LZ77 as DEFLATE bounds it: matches of minMatch to maxMatch bytes, at most
// windowSize bytes back.
const (
	minMatch   = 3
	maxMatch   = 258
	windowSize = 1 << 15
	hashBits   = 15
	// maxChain bounds the earlier positions tried for a match: sessions
	// are small, and a long chain finds the longest repeats of their
	// commands.
	maxChain = 256
)

// matcher finds earlier occurrences of the bytes at a position. head holds,
// for each hash of three bytes, the last position inserted with it (plus
// one; 0 is none); prev links each position to the one before it with
// the same hash (plus one).
type matcher struct {
	src  []byte
	head []int32
	prev []int32
	done int // positions below done are inserted
}

func newMatcher(src []byte) *matcher {
	return &matcher{src: src, head: make([]int32, 1<<hashBits), prev: make([]int32, len(src))}
}

func (m *matcher) hash(i int) uint32 {
	s := m.src
	v := uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2])
	return (v * 0x9E3779B1) >> (32 - hashBits)
}

// insert records position i (each position once, in order).
func (m *matcher) insert(i int) {
	if i < m.done {
		return
	}
	m.done = i + 1
	if i+minMatch > len(m.src) {
		return
	}
	h := m.hash(i)
	m.prev[i] = m.head[h]
	m.head[h] = int32(i + 1)
}

// longest is the longest match for the bytes at i among the positions
// inserted, nearest first on ties: its length (0 if under minMatch) and
// distance.
func (m *matcher) longest(i int) (length, dist int) {
	s := m.src
	if i+minMatch > len(s) {
		return 0, 0
	}
	limit := min(maxMatch, len(s)-i)
	for p, n := int(m.head[m.hash(i)])-1, 0; p >= 0 && i-p <= windowSize && n < maxChain; p, n = int(m.prev[p])-1, n+1 {
		if p >= i || s[p+length] != s[i+length] {
			continue
		}
		k := 0
		for k < limit && s[p+k] == s[i+k] {
			k++
		}
		if k > length {
			length, dist = k, i-p
			if k == limit {
				break
			}
		}
	}
	if length < minMatch {
		return 0, 0
	}
	return length, dist
}
