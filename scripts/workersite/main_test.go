package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kafkascope/scripts/internal/pagemin"
)

// The page as written and as make dist minifies it: both references to
// the engine take its hashed name, and the short links meta goes in the
// head.
func TestRewritePageWrittenAndMinified(t *testing.T) {
	src, err := os.ReadFile("../../index.html")
	if err != nil {
		t.Fatal(err)
	}
	min, err := pagemin.Minify("index.html", src)
	if err != nil {
		t.Fatal(err)
	}
	hashed := "public/main.0123456789ab.wasm"
	for name, page := range map[string][]byte{"as written": src, "minified": min} {
		out, err := rewritePage(page, hashed)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := string(out)
		if n := strings.Count(s, `"`+hashed+`"`); n != 2 {
			t.Errorf("%s: the hashed name is referenced %d times, want 2", name, n)
		}
		if !strings.Contains(s, `<link rel="preload" href="`+hashed+`"`) {
			t.Errorf("%s: the preload link does not name the hashed engine", name)
		}
		head, _, ok := strings.Cut(s, "</head>")
		if !ok || !strings.Contains(head, shortLinksScript) {
			t.Errorf("%s: no %s in the head", name, shortLinksScript)
		}
	}
}

// A page whose references are not the ones workersite knows is refused:
// the site would load an engine that is not there.
func TestRewritePageRefusesUnknownReferences(t *testing.T) {
	const preload = `<link rel="preload" href="public/main.wasm" as="fetch">`
	const loader = `<script>var WASM_URL = "public/main.wasm";</script>`
	cases := map[string]string{
		"no preload link":     `<html><head></head><body>` + loader + `</body></html>`,
		"no loader URL":       `<html><head>` + preload + `</head><body></body></html>`,
		"a third reference":   `<html><head>` + preload + `</head><body>` + loader + `<script>fetch('public/main.wasm')</script></body></html>`,
		"two loader URLs":     `<html><head>` + preload + `</head><body>` + loader + loader + `</body></html>`,
		"no head end tag":     `<html><head>` + preload + `<body>` + loader + `</body></html>`,
		"short links already": `<html><head>` + preload + shortLinksScript + `</head><body>` + loader + `</body></html>`,
	}
	for name, page := range cases {
		if _, err := rewritePage([]byte(page), "public/main.0123456789ab.wasm"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A dist directory becomes a site: compressed copies left out, the engine
// renamed by its content, one Cache-Control rule per file, and a failed
// run leaves the previous site in place.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	dist, site := filepath.Join(dir, "dist"), filepath.Join(dir, "site")
	page := `<html><head><link rel="preload" href="public/main.wasm" as="fetch"></head><body><script>var s="public/main.wasm";</script></body></html>`
	for name, data := range map[string]string{
		"index.html":           page,
		"index.html.gz":        "gz",
		"index.html.br":        "br",
		"public/main.wasm":     "\x00asm engine",
		"public/main.wasm.gz":  "gz",
		"public/main.wasm.br":  "br",
		"public/style.css":     "body{}",
		"public/wasm_exec.js":  "go",
		"public/favicon.svg":   "<svg/>",
		"public/diagram.css":   ".kd{}",
		"public/diagram.css.b": "not a compressed copy",
	} {
		if err := writeFile(dist, name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := build(dist, site); err != nil { // a first site, replaced by the second
		t.Fatal(err)
	}
	hashed, files, err := build(dist, site)
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(site + ".tmp*"); len(left) > 0 {
		t.Errorf("a run left %q behind", left)
	}
	if hashed != hashedName([]byte("\x00asm engine")) || !strings.HasPrefix(hashed, "public/main.") || len(hashed) != len("public/main.0123456789ab.wasm") {
		t.Errorf("the engine's name is %q", hashed)
	}
	var got []string
	if err := filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(site, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{"_headers", "index.html", hashed, "public/diagram.css", "public/diagram.css.b", "public/favicon.svg", "public/style.css", "public/wasm_exec.js"}
	slices.Sort(want)
	if !slices.Equal(got, want) || files != len(want) {
		t.Errorf("the site holds %q (%d counted), want %q", got, files, want)
	}
	if data, _ := os.ReadFile(filepath.Join(site, filepath.FromSlash(hashed))); string(data) != "\x00asm engine" {
		t.Errorf("the hashed engine holds %q", data)
	}
	h, err := os.ReadFile(filepath.Join(site, "_headers"))
	if err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{
		"/" + hashed + "\n  Cache-Control: public, max-age=31536000, immutable\n",
		"/\n  Cache-Control: no-cache\n",
		"/index.html\n  Cache-Control: no-cache\n",
		"/public/style.css\n  Cache-Control: public, max-age=300\n",
	} {
		if !strings.Contains(string(h), rule) {
			t.Errorf("_headers lacks the rule %q:\n%s", rule, h)
		}
	}
	if strings.Contains(string(h), "*") || strings.Contains(string(h), ".gz") {
		t.Errorf("_headers has a wildcard or a compressed copy:\n%s", h)
	}

	// A page the rewrite refuses: an error, and the site stays.
	if err := writeFile(dist, "index.html", []byte("<html><head></head></html>")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := build(dist, site); err == nil {
		t.Fatal("a page without references to the engine built a site")
	}
	if _, err := os.Stat(filepath.Join(site, filepath.FromSlash(hashed))); err != nil {
		t.Errorf("a failed run removed the previous site: %v", err)
	}
	if left, _ := filepath.Glob(site + ".tmp*"); len(left) > 0 {
		t.Errorf("a failed run left %q behind", left)
	}
}
