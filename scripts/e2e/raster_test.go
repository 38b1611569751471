package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"

	"kafkascope/core/player"
	"kafkascope/core/scenario"
	"kafkascope/scripts/internal/pagemin"
	"kafkascope/ui/snapshot"
	"kafkascope/ui/snapshot/raster"
)

// rasterMoments are the moments drawn both ways: between them they show
// the kinds of shape the diagram draws at rest (dashed links, pills and
// outlines, group opacity, translucent fills), in both layouts.
var rasterMoments = []struct {
	scenario string
	step     int
	lang     string
	width    float64 // the panel's, 0 for the default layout
}{
	{"04-isr", 3, "ko", 0},                          // a highlighted partition row, a cut link, a replica out of the ISR; Korean
	{"08-leader-election-on-crash", 4, "en", 0},     // a new leader after a crash
	{"15-log-compaction", 3, "en", 0},               // compacted logs: cells with gaps
	{"22-rebalance", 4, "en", 390},                  // a phone's layout, the coordinator badge
	{"09-controlled-shutdown-vs-crash", 3, "en", 0}, // a killed broker (dashed card), ten leaderless partitions
	{"10-unclean-election", 4, "en", 0},             // uncommitted cells, a lost record's outline
	{"12-leader-balance", 1, "en", 0},               // a stopped broker
	{"20-consumer-groups", 0, "en", 390},            // replicas not created yet (dashed tracks), messages in flight
}

// How two pictures differ, pixel by pixel (a pixel's difference is its
// channels' largest, of 255): the fractions of pixels that differ
// strongly (more than 48: anti-aliasing at an edge differs less), faintly
// (more than 8: the strong count misses a wrong pale fill, the lanes'
// #f3f5f9 against the tracks' #e4e8ef differ by 15), and that are
// displaced (differ strongly from every pixel within 1 px of theirs in
// the other picture: a glyph's edge drawn a pixel apart is not, a glyph
// out of place is).
const strongDiff, faintDiff = 48, 8

// pictureDiff holds those fractions; bounds of them are pictureDiffs too.
type pictureDiff struct{ strong, faint, displaced float64 }

func (d pictureDiff) within(b pictureDiff) bool {
	return d.strong <= b.strong && d.faint <= b.faint && d.displaced <= b.displaced
}

func (d pictureDiff) String() string {
	return fmt.Sprintf("strong %.4f%%, faint %.4f%%, displaced %.4f%%", 100*d.strong, 100*d.faint, 100*d.displaced)
}

// The bounds, per variant. Measured with Chromium 156 on Debian 12 over
// the 8 moments (DejaVu and Liberation fonts, none with Hangul):
//
//   - shapes (text hidden): strong 0.0001%–0.0144%, faint 0.05%–0.51%.
//     The most strong: 04-isr's dashed cut link, whose dashes run about
//     half a px further along the curve than Chromium's; the faint ones
//     are anti-aliasing on curves and round corners; flat fills match to
//     within 2 levels. The perturbations (negative controls) measure
//     strong 0.065% (12-leader-balance's dashes drawn solid; 09's links
//     not stroked, 0.066%) to 22% (no card backgrounds), or faint
//     15.9%–37% for the pale fills (the lanes' colour, a row's
//     highlight). Bounds: strong 0.04%, near 3x the most measured and
//     under two thirds of the least perturbation; faint 1.5%, 3x.
//   - page fonts (text in the fonts each side has: Chromium the
//     system's): strong 1.9%–3.5%. Fonts differ: a loose bound, 6%.
//   - same fonts (Chromium given the raster's fonts): displaced
//     0.086%–0.164% (strong 0.27%–0.60%: glyph edges, hinting and
//     gamma). Perturbed: displaced 0.69%–1.9% with centred and
//     right-aligned labels anchored at their start, 2.1%–4.0% with no
//     text. Bound: 0.35%, twice the most measured, half the least
//     perturbation.
var (
	shapesBound    = pictureDiff{strong: 0.0004, faint: 0.015, displaced: 1}
	pageFontsBound = pictureDiff{strong: 0.06, faint: 1, displaced: 1}
	sameFontsBound = pictureDiff{strong: 1, faint: 1, displaced: 0.0035}
)

// renderScale is the pixels per CSS px on both sides (the Worker's PNGs'
// pngScale).
const renderScale = 2

// settleFrames bounds the frames a replay runs, as the Worker's does
// (wasm/worker's maxSettleFrames).
const settleFrames = 100000

// TestRasterMatchesChromium draws snapshots (ui/snapshot) with package
// ui/snapshot/raster and with headless Chromium, and compares the pixels:
// the raster is a second implementation of the SVG and CSS a snapshot
// uses, and Chromium is the reference it must agree with. Shapes are
// compared with text hidden; text apart, with the fonts each side has
// (loosely: the raster brings its own) and with the raster's fonts on
// both sides. Negative controls check that the bounds fail a raster that
// draws a mistake.
func TestRasterMatchesChromium(t *testing.T) {
	requireChromium(t)
	began := time.Now()
	root := repoRoot(t)
	style := deployedStyle(t, root)

	// Each moment in three variants. Animations are stopped in all: the
	// raster draws the diagram at rest, Chromium would catch a frame.
	type variant struct {
		name  string
		doc   []byte
		bound pictureDiff
	}
	type moment struct {
		name     string
		size     snapshot.Size
		variants []variant
	}
	served := rasterFonts(t, root)
	var moments []moment
	for _, m := range rasterMoments {
		name := fmt.Sprintf("%s-step%d-%s-w%g", m.scenario, m.step, m.lang, m.width)
		svg, size := momentSVG(t, m.scenario, m.step, m.lang, m.width, style)
		mo := moment{name: name, size: size, variants: []variant{
			{"shapes", withCSS(svg, atRest+hideText), shapesBound},
			{"page-fonts", withCSS(svg, atRest), pageFontsBound},
			{"same-fonts", withCSS(svg, atRest+sameFonts), sameFontsBound},
		}}
		for _, v := range mo.variants {
			served["/"+name+"-"+v.name+".svg"] = v.doc
		}
		moments = append(moments, mo)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := served[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if filepath.Ext(r.URL.Path) == ".svg" {
			w.Header().Set("Content-Type", "image/svg+xml")
		} else {
			w.Header().Set("Content-Type", "font/ttf")
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)

	tab := startBrowser(t).root
	shots := filepath.Join(root, "build", "screenshots") // where the e2e tests leave their failure screenshots
	for _, mo := range moments {
		for _, v := range mo.variants {
			got, err := raster.Render(v.doc, renderScale)
			if err != nil {
				t.Fatalf("%s %s: %v", mo.name, v.name, err)
			}
			want := chromiumPicture(t, tab, srv.URL+"/"+mo.name+"-"+v.name+".svg", mo.size)
			if got.Bounds() != want.Bounds() {
				t.Errorf("%s %s: the raster's picture is %v, Chromium's %v", mo.name, v.name, got.Bounds(), want.Bounds())
				continue
			}
			d := comparePictures(got, want)
			t.Logf("%s %s: %v", mo.name, v.name, d)
			if !d.within(v.bound) {
				t.Errorf("%s %s: %v, beyond the bounds (%v)", mo.name, v.name, d, v.bound)
				saveComparison(t, shots, "raster-"+mo.name+"-"+v.name, got, want)
			}
			negativeControls(t, mo.name, v.name, v.doc, want, v.bound, shots)
		}
	}
	t.Logf("%d moments in %v", len(moments), time.Since(began).Round(time.Millisecond))
}

// perturbations are the mistakes the comparison must see. Each changes a
// variant's document; the raster draws the change, and its picture is
// compared with Chromium's of the document unchanged. Without text: a
// missing fill, a wrong pale fill, a lost highlight, missing dashes,
// missing strokes, shapes 2 px off; with text in the same fonts: labels
// anchored wrong, text missing.
var perturbations = []struct {
	variant, name string
	change        func([]byte) []byte
}{
	{"shapes", "no card backgrounds", func(d []byte) []byte { return bytes.ReplaceAll(d, []byte(` class="kd-card-bg"`), nil) }},
	{"shapes", "lanes in the tracks' colour", func(d []byte) []byte { return withCSS(d, ".kd-lane{fill:var(--kd-track)}") }},
	{"shapes", "no highlights", func(d []byte) []byte { return bytes.ReplaceAll(d, []byte(" kd-changed"), nil) }},
	{"shapes", "no dashes", func(d []byte) []byte { return withCSS(d, "*{stroke-dasharray:none!important}") }},
	{"shapes", "no links", func(d []byte) []byte { return withCSS(d, ".kd-link{stroke:none}") }},
	{"shapes", "cards 2 px right", shiftCards},
	{"same-fonts", "text anchored at its start", func(d []byte) []byte { return withCSS(d, "text{text-anchor:start!important}") }},
	{"same-fonts", "no text", func(d []byte) []byte { return withCSS(d, hideText) }},
}

// negativeControls checks that each perturbation of doc (a variant of a
// moment) falls outside bound against Chromium's picture of doc: that the
// bound is tight enough to fail a raster that draws the mistake. A
// perturbation that changes nothing in a moment (no highlight to lose,
// say) is skipped there.
func negativeControls(t *testing.T, moment, variant string, doc []byte, chromium *image.RGBA, bound pictureDiff, shots string) {
	t.Helper()
	what := moment + " " + variant
	for _, p := range perturbations {
		if p.variant != variant {
			continue
		}
		changed := p.change(doc)
		if bytes.Equal(changed, doc) {
			continue
		}
		got, err := raster.Render(changed, renderScale)
		if err != nil {
			t.Fatalf("%s, perturbed (%s): %v", what, p.name, err)
		}
		d := comparePictures(got, chromium)
		t.Logf("%s, perturbed (%s): %v", what, p.name, d)
		if d.within(bound) {
			t.Errorf("%s, perturbed (%s): %v, within the bounds (%v): the comparison does not see this mistake", what, p.name, d, bound)
			saveComparison(t, shots, "raster-"+moment+"-"+variant+"-perturbed", got, chromium)
		}
	}
}

// cardTransform finds a broker card's group and its x offset.
var cardTransform = regexp.MustCompile(`(<g [^>]*class="kd-card [^"]*"[^>]*transform="translate\()([0-9.]+)`)

// shiftCards moves every broker card 2 px right.
func shiftCards(doc []byte) []byte {
	return cardTransform.ReplaceAllFunc(doc, func(m []byte) []byte {
		sub := cardTransform.FindSubmatch(m)
		x, err := strconv.ParseFloat(string(sub[2]), 64)
		if err != nil {
			return m
		}
		return append(append([]byte(nil), sub[1]...), strconv.FormatFloat(x+2, 'f', -1, 64)...)
	})
}

// CSS added to a snapshot's stylesheet (after it: it wins among equals).
const (
	atRest   = "*{animation:none!important;transition:none!important}"
	hideText = "text{display:none}"
	// sameFonts has Chromium draw text with the fonts the raster embeds
	// (ui/snapshot/raster/fonts.go: Noto Sans KR 400 and 600, Go Mono and
	// Go Mono Bold), each family falling back to the other as the
	// raster's do. The raster skips the @font-face rules and reads the
	// same families: a first family with "mono" in its name is its
	// monospaced one.
	sameFonts = `@font-face{font-family:RasterSans;font-weight:400;src:url(/fonts/sans.ttf)}` +
		`@font-face{font-family:RasterSans;font-weight:600;src:url(/fonts/sans-bold.ttf)}` +
		`@font-face{font-family:RasterMono;font-weight:400;src:url(/fonts/mono.ttf)}` +
		`@font-face{font-family:RasterMono;font-weight:700;src:url(/fonts/mono-bold.ttf)}` +
		`svg.kd{--sans:RasterSans,RasterMono;--mono:RasterMono,RasterSans}`
)

// withCSS adds css at the end of a snapshot's stylesheet.
func withCSS(doc []byte, css string) []byte {
	return bytes.Replace(doc, []byte("]]></style>"), []byte(css+"]]></style>"), 1)
}

// rasterFonts are the raster's fonts, by the paths sameFonts names.
func rasterFonts(t *testing.T, root string) map[string][]byte {
	t.Helper()
	fonts := map[string][]byte{"/fonts/mono.ttf": gomono.TTF, "/fonts/mono-bold.ttf": gomonobold.TTF}
	for path, file := range map[string]string{
		"/fonts/sans.ttf":      "NotoSansKR-Regular-subset.ttf",
		"/fonts/sans-bold.ttf": "NotoSansKR-SemiBold-subset.ttf",
	} {
		ttf, err := os.ReadFile(filepath.Join(root, "ui", "snapshot", "raster", "fonts", file))
		if err != nil {
			t.Fatalf("the raster's fonts: %v", err)
		}
		fonts[path] = ttf
	}
	return fonts
}

// deployedStyle is the stylesheet a snapshot carries, built from the
// page's files minified as the site serves them: the Worker reads the
// deployed files (wasm/worker's style).
func deployedStyle(t *testing.T, root string) string {
	t.Helper()
	var css [2]string
	for i, name := range []string{"public/style.css", "public/diagram.css"} {
		raw, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		min, err := pagemin.Minify(name, raw)
		if err != nil {
			t.Fatal(err)
		}
		css[i] = string(min)
	}
	return snapshot.Style(css[0], css[1])
}

// momentSVG replays a scenario step as the Worker does (wasm/worker's
// replay) and draws it. The step must exist: a link past the last step
// opens the last one, and would test a moment twice.
func momentSVG(t *testing.T, id string, step int, lang string, width float64, style string) ([]byte, snapshot.Size) {
	t.Helper()
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	steps := -1
	for _, s := range all {
		if s.ID == id {
			steps = len(s.Transcript.Steps)
		}
	}
	if step < 0 || step >= steps {
		t.Fatalf("scenario %s has no step %d (it has %d)", id, step, max(steps, 0))
	}
	p := player.New()
	p.Boot("", fmt.Sprintf("#scenario=%s&step=%d&lang=%s", id, step, lang))
	if p.Error == "" {
		p.Settle(settleFrames)
	}
	if p.Error != "" {
		t.Fatalf("%s step %d: %s", id, step, p.Error)
	}
	var out bytes.Buffer
	size, err := snapshot.SVG(&out, p, style, width, snapshot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), size
}

// chromiumPicture opens the SVG at url as a document of its own, in a
// viewport of its size at renderScale, and takes a screenshot: a
// standalone SVG's root is drawn at the origin, at its width and height,
// with no margin and no scrollbar. The picture is cut to the raster's
// size (width and height × renderScale, rounded up), which the viewport,
// in whole px, covers.
func chromiumPicture(t *testing.T, tab context.Context, url string, size snapshot.Size) *image.RGBA {
	t.Helper()
	if err := chromedp.Do(tab,
		chromedp.EmulateViewport(int64(math.Ceil(size.Width)), int64(math.Ceil(size.Height)), chromedp.EmulateScale(renderScale)),
		chromedp.Navigate(url),
	); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	// Web fonts (sameFonts) may load after the document: wait for them,
	// and make sure none failed (Chromium would fall back silently).
	fonts, err := chromedp.Run(tab, chromedp.Evaluate[string](
		`document.fonts.ready.then(() => JSON.stringify([...document.fonts].map(f => f.status)))`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("waiting for the fonts of %s: %v", url, err)
	}
	var statuses []string
	if err := json.Unmarshal([]byte(fonts), &statuses); err != nil {
		t.Fatal(err)
	}
	for _, s := range statuses {
		if s == "error" {
			t.Fatalf("%s: a web font failed to load (%s)", url, fonts)
		}
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot of %s: %v", url, err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot of %s: %v", url, err)
	}
	w, h := int(math.Ceil(size.Width*renderScale)), int(math.Ceil(size.Height*renderScale))
	if img.Bounds().Dx() < w || img.Bounds().Dy() < h {
		t.Fatalf("screenshot of %s: %v, smaller than the picture's %dx%d", url, img.Bounds(), w, h)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

// comparePictures compares two opaque pictures of the same size.
func comparePictures(a, b *image.RGBA) pictureDiff {
	w, h := a.Bounds().Dx(), a.Bounds().Dy()
	strong, faint, displaced := 0, 0, 0
	for y := range h {
		for x := range w {
			i := a.PixOffset(x, y)
			d := channelDiff(a.Pix[i:i+3], b.Pix[i:i+3])
			if d > faintDiff {
				faint++
			}
			if d > strongDiff {
				strong++
				if !matchNearby(a, b, x, y) || !matchNearby(b, a, x, y) {
					displaced++
				}
			}
		}
	}
	n := float64(w * h)
	return pictureDiff{float64(strong) / n, float64(faint) / n, float64(displaced) / n}
}

// matchNearby tells whether a pixel of q within 1 px of (x, y) matches
// p's pixel there to within strongDiff.
func matchNearby(p, q *image.RGBA, x, y int) bool {
	i := p.PixOffset(x, y)
	for ny := max(y-1, 0); ny <= min(y+1, q.Bounds().Dy()-1); ny++ {
		for nx := max(x-1, 0); nx <= min(x+1, q.Bounds().Dx()-1); nx++ {
			j := q.PixOffset(nx, ny)
			if channelDiff(p.Pix[i:i+3], q.Pix[j:j+3]) <= strongDiff {
				return true
			}
		}
	}
	return false
}

// channelDiff is the largest difference of two pixels' channels.
func channelDiff(p, q []uint8) int {
	d := 0
	for c := range p {
		d = max(d, int(p[c])-int(q[c]), int(q[c])-int(p[c]))
	}
	return d
}

// saveComparison writes both pictures and their difference (Chromium's
// picture faded, strong differences red, faint ones orange) into dir,
// for a failure to be looked at.
func saveComparison(t *testing.T, dir, name string, got, want *image.RGBA) {
	t.Helper()
	diff := image.NewRGBA(want.Bounds())
	for i := 0; i+3 < len(want.Pix); i += 4 {
		px := color.RGBA{255, 0, 0, 255}
		switch d := channelDiff(got.Pix[i:i+3], want.Pix[i:i+3]); {
		case d > strongDiff:
		case d > faintDiff:
			px = color.RGBA{255, 160, 0, 255}
		default:
			g := uint8(255 - (255-int(want.Pix[i+1]))/4)
			px = color.RGBA{g, g, g, 255}
		}
		copy(diff.Pix[i:i+4], []uint8{px.R, px.G, px.B, px.A})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("saving the pictures: %v", err)
		return
	}
	for _, p := range []struct {
		suffix string
		img    image.Image
	}{{"raster", got}, {"chromium", want}, {"diff", diff}} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, p.img); err != nil {
			t.Logf("saving the pictures: %v", err)
			return
		}
		file := filepath.Join(dir, name+"-"+p.suffix+".png")
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Logf("saving the pictures: %v", err)
			return
		}
		t.Logf("wrote %s", file)
	}
}
