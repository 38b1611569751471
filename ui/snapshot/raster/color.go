package raster

import (
	"image/color"
	"strconv"
	"strings"
)

// paint reads a fill or stroke: ok is false for none (and for a value
// this package cannot read, which a browser would also leave unpainted).
// currentColor is the element's color property.
func paint(v string, s *style) (color.NRGBA, bool) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "currentColor") {
		v = strings.TrimSpace(s.get("color"))
		if v == "" {
			v = "black"
		}
	}
	return parseColor(v)
}

// named are the colour keywords a snapshot's stylesheet uses and the
// basic ones around them.
var named = map[string]color.NRGBA{
	"black":       {0, 0, 0, 255},
	"white":       {255, 255, 255, 255},
	"red":         {255, 0, 0, 255},
	"green":       {0, 128, 0, 255},
	"blue":        {0, 0, 255, 255},
	"gray":        {128, 128, 128, 255},
	"grey":        {128, 128, 128, 255},
	"transparent": {},
}

// parseColor reads #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba() (comma
// or space separated, numbers or percentages) and the named colours.
func parseColor(v string) (color.NRGBA, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if c, ok := named[v]; ok {
		return c, true
	}
	if hex, ok := strings.CutPrefix(v, "#"); ok {
		return parseHex(hex)
	}
	for _, fn := range []string{"rgba(", "rgb("} {
		if args, ok := strings.CutPrefix(v, fn); ok && strings.HasSuffix(args, ")") {
			return parseRGB(strings.TrimSuffix(args, ")"))
		}
	}
	return color.NRGBA{}, false
}

func parseHex(hex string) (color.NRGBA, bool) {
	n, err := strconv.ParseUint(hex, 16, 32)
	if err != nil {
		return color.NRGBA{}, false
	}
	nibble := func(shift int) uint8 { return uint8(n>>shift&0xf) * 17 }
	byteAt := func(shift int) uint8 { return uint8(n >> shift) }
	switch len(hex) {
	case 3:
		return color.NRGBA{nibble(8), nibble(4), nibble(0), 255}, true
	case 4:
		return color.NRGBA{nibble(12), nibble(8), nibble(4), nibble(0)}, true
	case 6:
		return color.NRGBA{byteAt(16), byteAt(8), byteAt(0), 255}, true
	case 8:
		return color.NRGBA{byteAt(24), byteAt(16), byteAt(8), byteAt(0)}, true
	}
	return color.NRGBA{}, false
}

func parseRGB(args string) (color.NRGBA, bool) {
	args = strings.NewReplacer(",", " ", "/", " ").Replace(args)
	parts := strings.Fields(args)
	if len(parts) != 3 && len(parts) != 4 {
		return color.NRGBA{}, false
	}
	var c [4]float64
	c[3] = 1
	for i, p := range parts {
		pct := strings.HasSuffix(p, "%")
		n, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		if err != nil {
			return color.NRGBA{}, false
		}
		switch {
		case i < 3 && pct:
			n = n * 255 / 100
		case i == 3 && pct:
			n /= 100
		}
		c[i] = n
	}
	clamp := func(x, hi float64) uint8 { return uint8(max(0, min(hi, x))*255/hi + 0.5) }
	return color.NRGBA{clamp(c[0], 255), clamp(c[1], 255), clamp(c[2], 255), clamp(c[3], 1)}, true
}

// number reads a plain number such as an opacity ("0.5", "50%"); def
// when v is empty or not a number.
func number(v string, def float64) float64 {
	v = strings.TrimSpace(v)
	pct := strings.HasSuffix(v, "%")
	n, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
	if err != nil {
		return def
	}
	if pct {
		n /= 100
	}
	return n
}
