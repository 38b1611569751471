package deflate

// codes are a block's Huffman codes: for literal/length symbols 0..285
// and distance symbols 0..29, each symbol's code and its length in bits
// (0: not used). A dynamic block also carries the code lengths' own code
// (header).
type codes struct {
	litLen  []uint8
	litCode []uint32
	dist    []uint8
	distCd  []uint32
	header  *dynamicHeader
}

// fixedCodes are the fixed codes of RFC 1951 section 3.2.6: literals 0..143
// in 8 bits, 144..255 in 9, symbols 256..279 in 7, 280..287 in 8; every
// distance in 5.
func fixedCodes() *codes {
	lit := make([]uint8, 288)
	for s := range lit {
		switch {
		case s < 144:
			lit[s] = 8
		case s < 256:
			lit[s] = 9
		case s < 280:
			lit[s] = 7
		default:
			lit[s] = 8
		}
	}
	dist := make([]uint8, 30)
	for s := range dist {
		dist[s] = 5
	}
	return &codes{litLen: lit, litCode: canonicalCodes(lit), dist: dist, distCd: canonicalCodes(dist)}
}

// symbols are a token's literal/length symbol and, for a copy, its
// distance symbol and extra bits.
func symbols(t token) (lit int, lenExtra uint32, lenBits uint, dist int, distExtra uint32, distBits uint) {
	if t.length == 0 {
		return int(t.lit), 0, 0, -1, 0, 0
	}
	k := len(lengthBase) - 1
	for int(lengthBase[k]) > int(t.length) {
		k--
	}
	code, base, extra := distCode(int(t.dist))
	return 257 + k, uint32(int(t.length) - int(lengthBase[k])), uint(lengthExtra[k]), code, uint32(int(t.dist) - base), uint(extra)
}

// cost is the block's size in bits with these codes, header included.
func (c *codes) cost(tokens []token) int {
	bits := int(c.litLen[endOfBlock])
	if c.header != nil {
		bits += c.header.bits
	}
	for _, t := range tokens {
		lit, _, lb, dist, _, db := symbols(t)
		bits += int(c.litLen[lit]) + int(lb)
		if dist >= 0 {
			bits += int(c.dist[dist]) + int(db)
		}
	}
	return bits
}

// write writes the tokens and the end of the block.
func (c *codes) write(w *bitWriter, tokens []token) {
	for _, t := range tokens {
		lit, le, lb, dist, de, db := symbols(t)
		w.huffman(c.litCode[lit], uint(c.litLen[lit]))
		if dist >= 0 {
			w.bits(le, lb)
			w.huffman(c.distCd[dist], uint(c.dist[dist]))
			w.bits(de, db)
		}
	}
	w.huffman(c.litCode[endOfBlock], uint(c.litLen[endOfBlock]))
}
