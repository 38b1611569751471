package deflate

// clOrder is the order code length code lengths are sent in (RFC 1951
// section 3.2.7).
var clOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// dynamicHeader is a dynamic block's header: how many literal/length and
// distance lengths it sends, the code lengths' code, and the lengths
// themselves run-length coded (symbols 0..15 a length, 16 repeats the last
// 3..6 times, 17 and 18 are runs of 3..10 and 11..138 zeros).
type dynamicHeader struct {
	hlit, hdist, hclen int
	clLen              []uint8
	clCode             []uint32
	rle                []rleSymbol
	bits               int
}

type rleSymbol struct {
	sym   int
	extra uint32
}

var rleExtraBits = [19]uint{16: 2, 17: 3, 18: 7}

// dynamicCodes are Huffman codes built for the tokens' own frequencies.
func dynamicCodes(tokens []token) *codes {
	litFreq, distFreq := make([]int, 286), make([]int, 30)
	litFreq[endOfBlock] = 1
	for _, t := range tokens {
		lit, _, _, dist, _, _ := symbols(t)
		litFreq[lit]++
		if dist >= 0 {
			distFreq[dist]++
		}
	}
	c := &codes{litLen: huffmanLengths(litFreq, 15), dist: huffmanLengths(distFreq, 15)}
	c.litCode, c.distCd = canonicalCodes(c.litLen), canonicalCodes(c.dist)
	h := &dynamicHeader{hlit: lastUsed(c.litLen, 257), hdist: lastUsed(c.dist, 1)}
	lengths := append(append([]uint8{}, c.litLen[:h.hlit]...), c.dist[:h.hdist]...)
	h.rle = runLengths(lengths)
	clFreq := make([]int, 19)
	for _, r := range h.rle {
		clFreq[r.sym]++
	}
	h.clLen = huffmanLengths(clFreq, 7)
	h.clCode = canonicalCodes(h.clLen)
	h.hclen = 4
	for i, s := range clOrder {
		if h.clLen[s] > 0 {
			h.hclen = max(h.hclen, i+1)
		}
	}
	h.bits = 5 + 5 + 4 + 3*h.hclen
	for _, r := range h.rle {
		h.bits += int(h.clLen[r.sym]) + int(rleExtraBits[r.sym])
	}
	c.header = h
	return c
}

// lastUsed is one past the last non-zero length, at least least.
func lastUsed(lengths []uint8, least int) int {
	n := len(lengths)
	for n > least && lengths[n-1] == 0 {
		n--
	}
	return n
}

// runLengths codes lengths with the repeat symbols where they are shorter.
func runLengths(lengths []uint8) []rleSymbol {
	var out []rleSymbol
	for i := 0; i < len(lengths); {
		v, n := lengths[i], 1
		for i+n < len(lengths) && lengths[i+n] == v {
			n++
		}
		i += n
		if v == 0 {
			for n >= 11 {
				k := min(n, 138)
				out = append(out, rleSymbol{18, uint32(k - 11)})
				n -= k
			}
			if n >= 3 {
				out = append(out, rleSymbol{17, uint32(n - 3)})
				n = 0
			}
		} else {
			out = append(out, rleSymbol{int(v), 0})
			n--
			for n >= 3 {
				k := min(n, 6)
				out = append(out, rleSymbol{16, uint32(k - 3)})
				n -= k
			}
		}
		for ; n > 0; n-- {
			out = append(out, rleSymbol{int(v), 0})
		}
	}
	return out
}

// writeHeader writes the counts, the code lengths' code and the lengths.
func (c *codes) writeHeader(w *bitWriter) {
	h := c.header
	w.bits(uint32(h.hlit-257), 5)
	w.bits(uint32(h.hdist-1), 5)
	w.bits(uint32(h.hclen-4), 4)
	for _, s := range clOrder[:h.hclen] {
		w.bits(uint32(h.clLen[s]), 3)
	}
	for _, r := range h.rle {
		w.huffman(h.clCode[r.sym], uint(h.clLen[r.sym]))
		w.bits(r.extra, rleExtraBits[r.sym])
	}
}
