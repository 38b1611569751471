package deflate

// huffmanLengths is the code length of each symbol for a Huffman code of
// the frequencies, no length over maxBits (RFC 1951 limits them to 15, and
// to 7 for the code lengths' own code). Unused symbols get 0. At least two
// symbols get a code, so the code is complete, as decoders require: a
// lone symbol is paired with the first unused one.
func huffmanLengths(freq []int, maxBits int) []uint8 {
	f := make([]int, len(freq))
	copy(f, freq)
	used := 0
	for _, v := range f {
		if v > 0 {
			used++
		}
	}
	for i := 0; used < 2 && i < len(f); i++ {
		if f[i] == 0 {
			f[i] = 1
			used++
		}
	}
	for {
		lengths := treeDepths(f)
		deepest := 0
		for _, l := range lengths {
			deepest = max(deepest, int(l))
		}
		if deepest <= maxBits {
			return lengths
		}
		// Flatten the frequencies and try again: the rare symbols get
		// shorter codes, the common ones no longer.
		for i, v := range f {
			if v > 0 {
				f[i] = v/2 + 1
			}
		}
	}
}

// treeDepths builds a Huffman tree over the non-zero frequencies
// (repeatedly joining the two lightest nodes without a parent, the lower
// index first on ties, so the tree is deterministic) and returns each
// symbol's depth in it. Nodes 0..len(f)-1 are the symbols, the others the
// joins.
func treeDepths(f []int) []uint8 {
	weight := append([]int{}, f...)
	parent := make([]int, len(f), 2*len(f))
	for i := range parent {
		parent[i] = -1
	}
	for {
		a, b := -1, -1 // the two lightest live nodes, a the lighter
		for n, w := range weight {
			switch {
			case w == 0 || parent[n] >= 0:
			case a < 0 || w < weight[a]:
				a, b = n, a
			case b < 0 || w < weight[b]:
				b = n
			}
		}
		if b < 0 {
			break
		}
		parent[a], parent[b] = len(weight), len(weight)
		weight = append(weight, weight[a]+weight[b])
		parent = append(parent, -1)
	}
	depths := make([]uint8, len(f))
	for s := range f {
		for n := s; f[s] > 0 && parent[n] >= 0; n = parent[n] {
			depths[s]++
		}
	}
	return depths
}

// canonicalCodes are the codes RFC 1951 section 3.2.2 assigns to the
// lengths: shorter codes first, and within a length in symbol order.
func canonicalCodes(lengths []uint8) []uint32 {
	var count [16]uint32
	for _, l := range lengths {
		count[l]++
	}
	count[0] = 0
	var next [16]uint32
	code := uint32(0)
	for bits := 1; bits < 16; bits++ {
		code = (code + count[bits-1]) << 1
		next[bits] = code
	}
	codes := make([]uint32, len(lengths))
	for s, l := range lengths {
		if l > 0 {
			codes[s] = next[l]
			next[l]++
		}
	}
	return codes
}
