package raster

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/sfnt"
)

// The fonts a snapshot is drawn with (fonts/README.md): a browser would
// take the reader's system-ui and ui-monospace; a picture has to bring
// its own.
var (
	//go:embed fonts/NotoSansKR-Regular-subset.ttf
	notoRegular []byte
	//go:embed fonts/NotoSansKR-SemiBold-subset.ttf
	notoSemiBold []byte
)

// fontSet is the parsed fonts: sans (Noto Sans KR) and mono (Go Mono),
// each regular and bold.
type fontSet struct {
	sans, sansBold, mono, monoBold *sfnt.Font
	strikeouts                     map[*sfnt.Font]strikeout
}

// loadFonts parses the fonts once; they are read-only after.
var loadFonts = sync.OnceValues(func() (*fontSet, error) {
	fs := fontSet{strikeouts: map[*sfnt.Font]strikeout{}}
	for _, f := range []struct {
		to  **sfnt.Font
		ttf []byte
	}{{&fs.sans, notoRegular}, {&fs.sansBold, notoSemiBold}, {&fs.mono, gomono.TTF}, {&fs.monoBold, gomonobold.TTF}} {
		parsed, err := sfnt.Parse(f.ttf)
		if err != nil {
			return nil, err
		}
		*f.to = parsed
		fs.strikeouts[parsed] = strikeoutOf(f.ttf, parsed)
	}
	return &fs, nil
})

// faces are the fonts to try for a text, in order: the one its
// font-family and font-weight name, then the other family (Go Mono has
// no Hangul; Noto Sans KR draws what a mono label lacks).
func (fs *fontSet) faces(s *style) [2]*sfnt.Font {
	bold := weight(s.get("font-weight")) >= 550
	sans, mono := fs.sans, fs.mono
	if bold {
		sans, mono = fs.sansBold, fs.monoBold
	}
	if isMono(s.get("font-family")) {
		return [2]*sfnt.Font{mono, sans}
	}
	return [2]*sfnt.Font{sans, mono}
}

// weight reads font-weight: a number, normal or bold (bolder and
// lighter as bold and normal).
func weight(v string) int {
	switch strings.TrimSpace(v) {
	case "", "normal", "lighter":
		return 400
	case "bold", "bolder":
		return 700
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 400
	}
	return n
}

// isMono tells whether a font-family list asks for a monospaced font
// first: its first family names one.
func isMono(family string) bool {
	first, _, _ := strings.Cut(strings.ToLower(family), ",")
	first = strings.Trim(strings.TrimSpace(first), `"'`)
	for _, m := range []string{"mono", "menlo", "consolas", "courier", "sfmono"} {
		if strings.Contains(first, m) {
			return true
		}
	}
	return false
}
