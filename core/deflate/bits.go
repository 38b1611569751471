package deflate

// The length and distance codes of RFC 1951 section 3.2.5, and the bit
// order of section 3.1.1.

const endOfBlock = 256

// lengthBase and lengthExtra are length codes 257..285: the first length
// each codes and the extra bits after it.
var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}

// distCode is the distance code of a distance (1..32768), with its base and
// extra bits: codes 0..3 are distances 1..4, then each pair of codes
// doubles the range, with one more extra bit.
func distCode(d int) (code, base, extra int) {
	if d <= 4 {
		return d - 1, d, 0
	}
	extra = 1
	for base = 5; ; extra++ {
		span := 1 << extra
		if d < base+span {
			return 2 + 2*extra, base, extra
		}
		if d < base+2*span {
			return 3 + 2*extra, base + span, extra
		}
		base += 2 * span
	}
}

// bitWriter packs bits least significant first, as DEFLATE does; Huffman
// codes go most significant bit first (reversed into the stream).
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// bits writes the n low bits of v, least significant first.
func (w *bitWriter) bits(v uint32, n uint) {
	w.acc |= uint64(v) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

// huffman writes an n-bit Huffman code, its most significant bit first.
func (w *bitWriter) huffman(code uint32, n uint) {
	var r uint32
	for i := uint(0); i < n; i++ {
		r = r<<1 | code>>i&1
	}
	w.bits(r, n)
}

// flush ends the stream on a byte boundary.
func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.out
}
