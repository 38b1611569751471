package sim

import "unsafe"

// hashString is a hash of s's bytes alone: eight bytes per multiply, then
// the length, so "ab"+"c" and "a"+"bc" differ when folded in turn. It only
// has to tell runs apart, not resist an adversary.
func hashString(s string) uint64 {
	h := uint64(fnvOffset)
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		h = (h ^ w) * fnvPrime
		h ^= h >> 32
	}
	var w uint64
	for j := 0; i < len(s); i, j = i+1, j+8 {
		w |= uint64(s[i]) << j
	}
	h = (h ^ w) * fnvPrime
	h ^= h >> 32
	h = (h ^ uint64(len(s))) * fnvPrime
	return h ^ h>>32
}

// stringHashes remembers the hashes of the strings the trace saw last, by
// where their bytes are. Nearly every string a trace entry hashes is one
// of a few dozen made once: host names, a client's address, a message
// kind, a timer's name; hashing their bytes again for every event was the
// largest single cost of an idle cluster (6% of its instructions).
//
// A hit needs the same bytes at the same address with the same length,
// and Go strings never change, so a remembered hash is always the
// string's own: the memo changes how fast the hash is found, never its
// value. An entry holds its string's bytes alive (a pointer), so their
// memory cannot be reused for other bytes while it is remembered. (No
// code in the engine makes a string over mutable bytes: unsafe.String
// would break this.)
type stringHashes struct {
	entries [256]stringHash
}

type stringHash struct {
	data *byte
	n    int
	h    uint64
}

// of is hashString(s), remembered.
func (m *stringHashes) of(s string) uint64 {
	if len(s) == 0 {
		return hashString(s)
	}
	p := unsafe.StringData(s)
	e := &m.entries[(uintptr(unsafe.Pointer(p))>>3^uintptr(len(s)))%uintptr(len(m.entries))]
	if e.data == p && e.n == len(s) {
		return e.h
	}
	*e = stringHash{data: p, n: len(s), h: hashString(s)}
	return e.h
}
