package e2e

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
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

var rasterMoments = []struct {
	fields string
	width  float64
}{
	{"scenario=04-isr&step=3&lang=ko", 0},
	{"scenario=08-leader-election-on-crash&step=4&lang=en", 0},
	{"scenario=15-log-compaction&step=5&lang=en", 0},
	{"scenario=22-rebalance&step=4&lang=en", 390},
	{"scenario=09-controlled-shutdown-vs-crash&step=3&lang=en", 0},
	{"scenario=10-unclean-election&step=2&lang=en", 0},
	{"scenario=10-unclean-election&step=3&lang=ko", 0},
	{"scenario=07-leader-epoch-divergence&step=2&lang=en", 0},
	{"scenario=01-replication-basics&step=2&lang=en", 0},
	{"scenario=05-acks-min-isr&step=3&lang=en", 390},
}

func TestRasterMatchesChromium(t *testing.T) {
	requireChromium(t)
	began := time.Now()
	root := repoRoot(t)
	style := rasterStyle(t, root)
	all, err := scenario.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		t.Logf("%s: %d steps", s.ID, len(s.Transcript.Steps))
	}
	docs := map[string][]byte{}
	var names []string
	for i, m := range rasterMoments {
		p := player.New()
		p.Boot("", "#"+m.fields)
		if p.Error == "" {
			p.Settle(100000)
		}
		if p.Error != "" {
			t.Fatalf("%s: %s", m.fields, p.Error)
		}
		var out bytes.Buffer
		size, err := snapshot.SVG(&out, p, style, m.width)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("m%d", i)
		docs["/"+name+".svg"] = out.Bytes()
		docs["/"+name+"-shapes.svg"] = shapesOnly(out.Bytes())
		docs["/"+name+"-fonts.svg"] = addCSS(sameFonts)(out.Bytes())
		names = append(names, name)
		os.MkdirAll("/tmp/rastercmp", 0o755)
		os.WriteFile("/tmp/rastercmp/"+name+".svg", out.Bytes(), 0o644)
		t.Logf("%s %s: %gx%g changed=%d", name, m.fields, size.Width, size.Height, bytes.Count(out.Bytes(), []byte("kd-changed")))
	}
	fontFiles := map[string][]byte{"/font/mono.ttf": gomono.TTF, "/font/monobold.ttf": gomonobold.TTF}
	for path, file := range map[string]string{"/font/sans.ttf": "NotoSansKR-Regular-subset.ttf", "/font/sansbold.ttf": "NotoSansKR-SemiBold-subset.ttf"} {
		b, err := os.ReadFile(filepath.Join(root, "ui/snapshot/raster/fonts", file))
		if err != nil {
			t.Fatal(err)
		}
		fontFiles[path] = b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if f, ok := fontFiles[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "font/ttf")
			w.Write(f)
			return
		}
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(doc)
	}))
	t.Cleanup(srv.Close)
	b := startBrowser(t)
	tab := b.root
	dir := "/tmp/rastercmp"
	os.MkdirAll(dir, 0o755)
	for _, name := range names {
		for _, v := range []string{"-shapes", "", "-fonts"} {
			doc := docs["/"+name+v+".svg"]
			got, err := raster.Render(doc, 2)
			if err != nil {
				t.Fatal(err)
			}
			want := chromiumPicture(t, tab, srv.URL+"/"+name+v+".svg", (got.Bounds().Dx()+1)/2, (got.Bounds().Dy()+1)/2)
			frac, diff := compareImages(got, want, 48)
			f8, diff8 := compareImages(got, want, 8)
			f2, _ := compareImages(got, want, 2)
			t.Logf("%s%s: %v vs %v: %.4f%% >8 %.4f%% >2 %.4f%%", name, v, got.Bounds(), want.Bounds(), 100*frac, 100*f8, 100*f2)
			writePNG(filepath.Join(dir, name+v+"-diff8.png"), diff8)
			ff := fuzzyCompare(got, want, 8)
			t.Logf("   fuzzy8 %.4f%%", 100*ff)
			if v == "-shapes" {
				for _, pt := range perturbations {
					bad, err := raster.Render(pt.f(doc), 2)
					if err != nil {
						t.Fatal(err)
					}
					f48, _ := compareImages(bad, want, 48)
					f8, _ := compareImages(bad, want, 8)
					fz := fuzzyCompare(bad, want, 8)
					t.Logf("   perturbed %-14s: >48 %.4f%% >8 %.4f%% fuzzy8 %.4f%%", pt.name, 100*f48, 100*f8, 100*fz)
				}
			}
			writePNG(filepath.Join(dir, name+v+"-raster.png"), got)
			writePNG(filepath.Join(dir, name+v+"-chromium.png"), want)
			writePNG(filepath.Join(dir, name+v+"-diff.png"), diff)
		}
	}
	t.Logf("in %v", time.Since(began))
}

func rasterStyle(t *testing.T, root string) string {
	var css [2]string
	for i, name := range []string{"public/style.css", "public/diagram.css"} {
		raw, err := os.ReadFile(filepath.Join(root, name))
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

const sameFonts = `@font-face{font-family:KSSans;font-weight:400;src:url(/font/sans.ttf)}@font-face{font-family:KSSans;font-weight:600;src:url(/font/sansbold.ttf)}@font-face{font-family:KSMono;font-weight:400;src:url(/font/mono.ttf)}@font-face{font-family:KSMono;font-weight:700;src:url(/font/monobold.ttf)}svg.kd{--sans:KSSans,KSMono;--mono:KSMono,KSSans}*{animation:none!important;transition:none!important}`

func shapesOnly(doc []byte) []byte {
	return bytes.Replace(doc, []byte("]]></style>"), []byte("text{display:none}*{animation:none!important;transition:none!important}]]></style>"), 1)
}

func chromiumPicture(t *testing.T, tab context.Context, url string, w, h int) *image.RGBA {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(2))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

func compareImages(a, b *image.RGBA, limit int) (float64, *image.RGBA) {
	if a.Bounds() != b.Bounds() {
		return 1, image.NewRGBA(a.Bounds())
	}
	diff := image.NewRGBA(a.Bounds())
	n := 0
	for y := 0; y < a.Bounds().Dy(); y++ {
		for x := 0; x < a.Bounds().Dx(); x++ {
			i := a.PixOffset(x, y)
			d := 0
			for c := 0; c < 4; c++ {
				d = max(d, absInt(int(a.Pix[i+c])-int(b.Pix[i+c])))
			}
			g := uint8(255 - (255-a.Pix[i+1])/4)
			diff.Set(x, y, color.RGBA{g, g, g, 255})
			if d > limit {
				n++
				diff.Set(x, y, color.RGBA{255, 0, 0, 255})
			}
		}
	}
	return float64(n) / float64(a.Bounds().Dx()*a.Bounds().Dy()), diff
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func writePNG(path string, img image.Image) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	png.Encode(f, img)
}

var _ = strings.Index
var _ = chromedp.Run[bool]

func addCSS(css string) func([]byte) []byte {
	return func(doc []byte) []byte {
		return bytes.Replace(doc, []byte("]]></style>"), []byte(css+"]]></style>"), 1)
	}
}

var cardShift = regexp.MustCompile(`(class="kd-card [^"]*"[^>]*transform="translate\()([0-9.]+)`)

var perturbations = []struct {
	name string
	f    func([]byte) []byte
}{
	{"nocardbg", func(d []byte) []byte { return bytes.ReplaceAll(d, []byte(`class="kd-card-bg"`), nil) }},
	{"lanefill", addCSS(".kd-lane{fill:#e4e8ef}")},
	{"lanefill2", addCSS(".kd-lane{fill:#eef1f6}")},
	{"nochanged", func(d []byte) []byte { return bytes.ReplaceAll(d, []byte(` kd-changed`), nil) }},
	{"nodash", addCSS("*{stroke-dasharray:none!important}")},
	{"nocutdash", addCSS(".kd-link-cut{stroke-dasharray:none}")},
	{"nokilleddash", addCSS(".kd-card.kd-st-killed .kd-card-bg{stroke-dasharray:none}")},
	{"nolinkstroke", addCSS(".kd-link{stroke:none}")},
	{"noglow", addCSS(".kd-glow{stroke:none}")},
	{"cardshift2", func(d []byte) []byte {
		return cardShift.ReplaceAllFunc(d, func(m []byte) []byte {
			sm := cardShift.FindSubmatch(m)
			x, _ := strconv.ParseFloat(string(sm[2]), 64)
			return append(append([]byte{}, sm[1]...), strconv.FormatFloat(x+2, 'f', -1, 64)...)
		})
	}},
	{"cardshift1", func(d []byte) []byte {
		return cardShift.ReplaceAllFunc(d, func(m []byte) []byte {
			sm := cardShift.FindSubmatch(m)
			x, _ := strconv.ParseFloat(string(sm[2]), 64)
			return append(append([]byte{}, sm[1]...), strconv.FormatFloat(x+1, 'f', -1, 64)...)
		})
	}},
	{"opacity", addCSS(".kd-rep-down{opacity:1}")},
}

// fuzzyCompare: a pixel differs if no pixel within 1 px in the other image is within limit (both ways).
func fuzzyCompare(a, b *image.RGBA, limit int) float64 {
	if a.Bounds() != b.Bounds() {
		return 1
	}
	W, H := a.Bounds().Dx(), a.Bounds().Dy()
	near := func(p, q *image.RGBA, x, y int) bool {
		i := p.PixOffset(x, y)
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				xx, yy := x+dx, y+dy
				if xx < 0 || yy < 0 || xx >= W || yy >= H {
					continue
				}
				j := q.PixOffset(xx, yy)
				d := 0
				for c := 0; c < 3; c++ {
					d = max(d, absInt(int(p.Pix[i+c])-int(q.Pix[j+c])))
				}
				if d <= limit {
					return true
				}
			}
		}
		return false
	}
	n := 0
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			if !near(a, b, x, y) || !near(b, a, x, y) {
				n++
			}
		}
	}
	return float64(n) / float64(W*H)
}

func TestRasterExploreCoverage(t *testing.T) {
	all, _ := scenario.All()
	root := repoRoot(t)
	style := rasterStyle(t, root)
	re := regexp.MustCompile(`class="([^"]*)"`)
	for _, s := range all {
		for step := range s.Transcript.Steps {
			for _, w := range []float64{0} {
				p := player.New()
				p.Boot("", fmt.Sprintf("#scenario=%s&step=%d&lang=en", s.ID, step))
				p.Settle(100000)
				var out bytes.Buffer
				if _, err := snapshot.SVG(&out, p, style, w); err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				for _, m := range re.FindAllSubmatch(out.Bytes(), -1) {
					for _, c := range strings.Fields(string(m[1])) {
						seen[c] = true
					}
				}
				var rare []string
				for _, c := range []string{"kd-st-power-off", "kd-st-fenced", "kd-st-isolated", "kd-st-stopping", "kd-st-starting", "kd-st-stopped", "kd-unc", "kd-lost", "kd-elected", "kd-rep-absent", "kd-cat-data", "kd-cat-admin", "kd-cat-heartbeat", "kd-cat-metadata", "kd-cat-quorum", "kd-meta-lag", "kd-cut", "kd-link-cut", "kd-chip-out", "kd-glow", "kd-changed", "kd-coord", "kd-lane-down", "kd-noleader", "kd-off-unc"} {
					if seen[c] {
						rare = append(rare, c)
					}
				}
				t.Logf("%s step=%d: %d bytes %v", s.ID, step, out.Len(), rare)
			}
		}
	}
}
