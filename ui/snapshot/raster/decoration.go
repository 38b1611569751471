package raster

import (
	"encoding/binary"
	"strings"

	"golang.org/x/image/font/sfnt"
)

// strikeout is where a font draws a line-through, in em: its thickness
// and its height above the baseline (the OS/2 table's yStrikeoutSize and
// yStrikeoutPosition, as browsers take them).
type strikeout struct{ size, position float64 }

// strikeoutOf reads a font's OS/2 table from its bytes (package sfnt
// reads no OS/2); a font without one gets CSS's usual place, a third of
// an em up, a twentieth thick.
func strikeoutOf(ttf []byte, f *sfnt.Font) strikeout {
	def := strikeout{size: 0.05, position: 0.33}
	upem := float64(f.UnitsPerEm())
	if len(ttf) < 12 || upem <= 0 {
		return def
	}
	tables := int(binary.BigEndian.Uint16(ttf[4:]))
	for i := range tables {
		rec := 12 + 16*i
		if rec+16 > len(ttf) {
			return def
		}
		if string(ttf[rec:rec+4]) != "OS/2" {
			continue
		}
		off := int(binary.BigEndian.Uint32(ttf[rec+8:]))
		if off+30 > len(ttf) {
			return def
		}
		size := float64(int16(binary.BigEndian.Uint16(ttf[off+26:])))
		pos := float64(int16(binary.BigEndian.Uint16(ttf[off+28:])))
		if size <= 0 {
			return def
		}
		return strikeout{size: size / upem, position: pos / upem}
	}
	return def
}

// decorate adds a text's line-through (the only text-decoration the
// diagram uses; underline and overline are not drawn) across its
// advance, from x, on the baseline y: a bar filled and stroked as the
// glyphs are.
func (p *path) decorate(s *style, so strikeout, x, y, advance, size float64) {
	if !strings.Contains(s.get("text-decoration")+" "+s.get("text-decoration-line"), "line-through") {
		return
	}
	p.rect(x, y-(so.position+so.size/2)*size, advance, so.size*size, 0, 0)
}
