package deflate

// token is a literal byte (length 0) or a copy of length bytes from dist
// back.
type token struct {
	length uint16
	dist   uint16
	lit    byte
}

// Encode returns src as a raw DEFLATE stream (no zlib or gzip framing):
// one final block, with the fixed Huffman codes or codes of its own,
// whichever is shorter.
func Encode(src []byte) []byte {
	tokens := parse(src)
	var w bitWriter
	w.bits(1, 1) // BFINAL
	fixed := fixedCodes()
	if d := dynamicCodes(tokens); d.cost(tokens) < fixed.cost(tokens) {
		w.bits(2, 2) // BTYPE 10: codes of its own
		d.writeHeader(&w)
		d.write(&w, tokens)
	} else {
		w.bits(1, 2) // BTYPE 01: fixed codes
		fixed.write(&w, tokens)
	}
	return w.flush()
}

// parse cuts src into literals and copies (LZ77), with one step of lazy
// matching: a longer match at the next byte is worth a literal here.
func parse(src []byte) []token {
	var out []token
	m := newMatcher(src)
	for i := 0; i < len(src); {
		length, dist := m.longest(i)
		if length >= minMatch && i+1 < len(src) {
			m.insert(i)
			if next, nd := m.longest(i + 1); next > length {
				out = append(out, token{lit: src[i]})
				i++
				length, dist = next, nd
			}
		}
		if length < minMatch {
			out = append(out, token{lit: src[i]})
			m.insert(i)
			i++
			continue
		}
		out = append(out, token{length: uint16(length), dist: uint16(dist)})
		for end := i + length; i < end; i++ {
			m.insert(i)
		}
	}
	return out
}
