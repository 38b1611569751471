package raster

import (
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
)

// draw renders a small document at scale 1.
func drawDoc(t *testing.T, body string) *image.RGBA {
	t.Helper()
	img, err := Render([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="100" height="60">`+body+`</svg>`), 1)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func near(got color.RGBA, want [4]uint8) bool {
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(got.R, want[0]) <= 2 && d(got.G, want[1]) <= 2 && d(got.B, want[2]) <= 2 && d(got.A, want[3]) <= 2
}

// Each shape covers the pixels SVG says it covers, in the colour its
// style gives, and none outside.
func TestShapesCoverTheirPixels(t *testing.T) {
	red, none := [4]uint8{255, 0, 0, 255}, [4]uint8{}
	cases := []struct {
		name, body string
		at         map[image.Point][4]uint8
	}{
		{"rect by class", `<style>.r{fill:#ff0000}</style><rect class="r" x="10" y="10" width="20" height="10"/>`,
			map[image.Point][4]uint8{{15, 15}: red, {9, 15}: none, {30, 15}: none, {15, 20}: none}},
		{"rounded corners are cut", `<rect x="10" y="10" width="40" height="40" rx="10" fill="red"/>`,
			map[image.Point][4]uint8{{11, 11}: none, {30, 11}: red, {48, 48}: none}},
		{"percent of the viewport", `<rect width="100%" height="50%" fill="red"/>`,
			map[image.Point][4]uint8{{99, 29}: red, {50, 30}: none}},
		{"a stroke straddles the edge; fill none", `<rect x="10.5" y="10.5" width="20" height="20" fill="none" stroke="red" stroke-width="1"/>`,
			map[image.Point][4]uint8{{10, 20}: red, {30, 20}: red, {20, 20}: none}},
		{"a line is stroked, never filled", `<line x1="0" y1="5.5" x2="100" y2="5.5" stroke="red"/><path d="M0 20 C 30 40 60 40 100 20" fill="none" stroke="none"/>`,
			map[image.Point][4]uint8{{50, 5}: red, {50, 4}: none, {50, 30}: none}},
		{"dashes leave gaps", `<line x1="0" y1="5" x2="100" y2="5" stroke="red" stroke-width="2" style="stroke-dasharray: 10 10"/>`,
			map[image.Point][4]uint8{{5, 5}: red, {15, 5}: none, {25, 5}: red}},
		{"translate, nested", `<g transform="translate(20,10)"><g transform="translate(5 5)"><circle r="4" fill="red"/></g></g>`,
			map[image.Point][4]uint8{{25, 15}: red, {4, 0}: none, {30, 15}: none}},
		{"a nested svg maps its viewBox and clips", `<svg x="50" y="0" width="20" height="20" viewBox="0 0 10 10"><rect x="5" y="0" width="50" height="5" fill="red"/></svg>`,
			map[image.Point][4]uint8{{65, 5}: red, {59, 5}: none, {75, 5}: none, {65, 12}: none}},
		{"opacity multiplies", `<rect width="10" height="10" fill="red" opacity="0.5"/>`,
			map[image.Point][4]uint8{{5, 5}: {128, 0, 0, 128}}},
		{"group opacity is one layer", `<g opacity="0.5"><rect width="10" height="10" fill="red"/><rect width="10" height="10" fill="red"/></g>`,
			map[image.Point][4]uint8{{5, 5}: {128, 0, 0, 128}}},
		{"display none hides the subtree", `<g style="display:none"><rect width="10" height="10" fill="red"/></g>`,
			map[image.Point][4]uint8{{5, 5}: none}},
		{"paths: relative commands and close", `<path d="m10 10 h20 v20 h-20 z" fill="red"/>`,
			map[image.Point][4]uint8{{20, 20}: red, {31, 20}: none}},
		{"currentColor", `<g style="color:#ff0000"><rect width="10" height="10" fill="currentColor"/></g>`,
			map[image.Point][4]uint8{{5, 5}: red}},
	}
	for _, c := range cases {
		img := drawDoc(t, c.body)
		for p, want := range c.at {
			if got := img.RGBAAt(p.X, p.Y); !near(got, want) {
				t.Errorf("%s: pixel %v = %v, want %v", c.name, p, got, want)
			}
		}
	}
}

// inkBox is the box of the pixels that are not transparent.
func inkBox(img *image.RGBA) image.Rectangle {
	box := image.Rectangle{}
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if img.RGBAAt(x, y).A > 64 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// Text sits on its baseline at x, y, anchored as text-anchor says, its
// size as font-size says; Korean and the symbols no font has draw too.
func TestTextIsPlacedAndSized(t *testing.T) {
	for _, c := range []struct {
		anchor string
		text   string
	}{{"start", "Hello"}, {"middle", "Hello"}, {"end", "Hello"}, {"start", "브로커"}, {"start", "▾ ✕ ▸"}, {"start", "∉"}} {
		img := drawDoc(t, fmt.Sprintf(`<text x="50" y="40" font-size="20" text-anchor="%s" fill="black">%s</text>`, c.anchor, c.text))
		box := inkBox(img)
		if box.Empty() {
			t.Fatalf("%s %q drew nothing", c.anchor, c.text)
		}
		if box.Max.Y > 41 || box.Min.Y < 40-20 || box.Dy() < 8 {
			t.Errorf("%s %q: ink %v does not stand on the baseline y=40 at 20px", c.anchor, c.text, box)
		}
		var ok bool
		switch c.anchor {
		case "start":
			ok = box.Min.X >= 50 && box.Min.X <= 53
		case "middle":
			mid := (box.Min.X + box.Max.X) / 2
			ok = mid >= 48 && mid <= 52
		case "end":
			ok = box.Max.X >= 47 && box.Max.X <= 51
		}
		if !ok {
			t.Errorf("%s %q: ink %v is not anchored at x=50", c.anchor, c.text, box)
		}
	}
	// Bold is heavier: more ink for the same word.
	ink := func(weight string) int {
		img := drawDoc(t, `<text x="5" y="40" font-size="20" font-weight="`+weight+`">Kafka</text>`)
		n := 0
		for i := 3; i < len(img.Pix); i += 4 {
			n += int(img.Pix[i])
		}
		return n
	}
	if ink("700") <= ink("400")*11/10 {
		t.Errorf("bold text has no more ink than regular")
	}
}

// paint-order: stroke draws the stroke under the fill (the diagram's
// halo around labels on links).
func TestPaintOrder(t *testing.T) {
	doc := `<rect x="10" y="10" width="20" height="20" fill="#0000ff" stroke="#ff0000" stroke-width="8" %s/>`
	over := drawDoc(t, fmt.Sprintf(doc, ""))
	under := drawDoc(t, fmt.Sprintf(doc, `style="paint-order:stroke"`))
	if got := over.RGBAAt(12, 20); !near(got, [4]uint8{255, 0, 0, 255}) {
		t.Errorf("normal order: the stroke's inner half %v is not on top", got)
	}
	if got := under.RGBAAt(12, 20); !near(got, [4]uint8{0, 0, 255, 255}) {
		t.Errorf("paint-order stroke: the fill %v is not on top", got)
	}
}

// Bad documents are errors, not panics or huge allocations.
func TestRenderRefusesBadDocuments(t *testing.T) {
	for _, doc := range []string{
		"", "not xml", "<html/>", `<svg xmlns="http://www.w3.org/2000/svg"/>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><g>`,
		`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">` + strings.Repeat("<g>", 100) + strings.Repeat("</g>", 100) + `</svg>`,
	} {
		if _, err := Render([]byte(doc), 1); err == nil {
			t.Errorf("%.40q: no error", doc)
		}
	}
	if _, err := Render([]byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`), 0); err == nil {
		t.Errorf("scale 0: no error")
	}
}

// line-through draws a bar across the text at the font's strikeout
// height (Noto Sans KR: 0.325 em up, 0.05 em thick), as wide as the
// text.
func TestLineThrough(t *testing.T) {
	plain := drawDoc(t, `<text x="10" y="40" font-size="20">broker 2</text>`)
	struck := drawDoc(t, `<text x="10" y="40" font-size="20" style="text-decoration: line-through">broker 2</text>`)
	// Between the letters "r" and " " the plain text has no ink at the
	// bar's height; the struck one does, all along.
	bar := 40 - 7 // 0.325 em of 20 px, and the bar is 1 px thick around it
	box := inkBox(plain)
	gaps := 0
	for x := box.Min.X + 1; x < box.Max.X-1; x++ {
		if plain.RGBAAt(x, bar).A < 64 {
			gaps++
			if struck.RGBAAt(x, bar).A < 200 {
				t.Fatalf("no bar at (%d,%d)", x, bar)
			}
		}
	}
	if gaps == 0 {
		t.Fatalf("the plain text has ink all along y=%d: the test sees nothing", bar)
	}
	if struck.RGBAAt(box.Min.X+2, bar-3).A > 64 && plain.RGBAAt(box.Min.X+2, bar-3).A < 64 {
		t.Errorf("the bar is thicker than 0.05 em")
	}
}
