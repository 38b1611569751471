// Command workersite prepares the Worker's static assets: the page as make
// dist writes it, ready for Cloudflare's static assets beside the Worker
// (wasm/worker, scripts/worker/wrangler.jsonc).
//
// Usage (make worker-build runs it):
//
//	go run ./scripts/workersite DIST SITE
//
// DIST is the page's files as a static host takes them (make dist-files,
// or make dist's build/dist); SITE is written anew with:
//
//   - every file of DIST but its gzipped and brotli copies (*.gz, *.br):
//     Cloudflare compresses what it sends itself, and would serve a .gz as
//     a file of its own;
//   - public/main.wasm under a name that holds its content's hash,
//     public/main.<first 12 hex digits of its SHA-256>.wasm, and the two
//     references to it in index.html (the preload link and the loader's
//     WASM_URL, also when minified) rewritten to that name: a browser may
//     then keep the 13 MB engine for a year, and a new engine is a new
//     name. A reference that is not found, or one left over, is an error:
//     the page would load a file that is not there;
//   - in index.html's head, a script that makes "Copy link" copy a
//     short link (shortLinksScript): only the Worker answers /s;
//   - _headers (read by Cloudflare's static assets, not served): the
//     hashed engine cached for a year and immutable, index.html revalidated
//     on every visit (no-cache), every other file cached for 5 minutes.
//     The rules name one file each, so that no two rules add up to one
//     Cache-Control.
//
// SITE is written beside itself first (in a new SITE.tmp-* directory) and
// then put in place, so that a failed run leaves the previous site as it
// was, and a server reading SITE (wrangler dev) never sees half of it.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// wasmName is the engine's name in DIST, relative to it.
const wasmName = "public/main.wasm"

// shortLinksScript makes "Copy link" copy a short link: the page's
// clipboard writes go through window.kafkascopeCopy where it is defined
// (wasm/host.go). A link to this page is posted to /s (wasm/worker) and
// the short link it answers copied; any other text, or the link itself
// should the POST fail, is copied as it is. Only the Worker's copy of the
// page has it: no other host answers /s.
const shortLinksScript = `<script>window.kafkascopeCopy=function(t){var c=navigator.clipboard;` +
	`if(t.indexOf(location.origin+"/")!==0||t.indexOf("#")<0)return c.writeText(t);` +
	`return fetch("/s",{method:"POST",body:t}).then(function(r){return r.ok?r.text():t},function(){return t})` +
	`.then(function(s){return c.writeText(s.trim())})}</script>`

// Cache-Control of the site's files.
const (
	cacheImmutable = "public, max-age=31536000, immutable"
	cachePage      = "no-cache"
	cacheShort     = "public, max-age=300"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: workersite DIST SITE")
		os.Exit(2)
	}
	hashed, files, err := build(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "workersite:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d files, the engine as %s\n", os.Args[2], files, hashed)
}

// build writes site from dist, and returns the engine's new name and the
// number of files written (_headers included).
func build(dist, site string) (hashed string, files int, err error) {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(site)), 0o755); err != nil {
		return "", 0, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(site)), filepath.Base(site)+".tmp-")
	if err != nil {
		return "", 0, err
	}
	defer os.RemoveAll(tmp)

	// The files to copy, by their slash-separated names under dist.
	var names []string
	err = filepath.WalkDir(dist, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			if d.IsDir() {
				return nil
			}
			return fmt.Errorf("%s: not a regular file", p)
		}
		rel, err := filepath.Rel(dist, p)
		if err != nil {
			return err
		}
		if ext := path.Ext(rel); ext == ".gz" || ext == ".br" {
			return nil
		}
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	sort.Strings(names)

	wasm, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(wasmName)))
	if err != nil {
		return "", 0, fmt.Errorf("the engine: %w", err)
	}
	hashed = hashedName(wasm)
	page, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return "", 0, fmt.Errorf("the page: %w", err)
	}
	page, err = rewritePage(page, hashed)
	if err != nil {
		return "", 0, fmt.Errorf("index.html: %w", err)
	}

	var written []string
	for _, name := range names {
		var data []byte
		out := name
		switch name {
		case wasmName:
			data, out = wasm, hashed
		case "index.html":
			data = page
		default:
			if data, err = os.ReadFile(filepath.Join(dist, filepath.FromSlash(name))); err != nil {
				return "", 0, err
			}
		}
		if err := writeFile(tmp, out, data); err != nil {
			return "", 0, err
		}
		written = append(written, out)
	}
	if err := writeFile(tmp, "_headers", []byte(headers(written, hashed))); err != nil {
		return "", 0, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", 0, err
	}
	// The old site moves aside, the new one takes its place, and the old
	// one goes.
	old := tmp + ".old"
	if err := os.Rename(site, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", 0, err
	}
	if err := os.Rename(tmp, site); err != nil {
		return "", 0, err
	}
	if err := os.RemoveAll(old); err != nil {
		return "", 0, err
	}
	return hashed, len(written) + 1, nil
}

func writeFile(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// hashedName is the engine's name for its content.
func hashedName(wasm []byte) string {
	sum := sha256.Sum256(wasm)
	return "public/main." + hex.EncodeToString(sum[:])[:12] + ".wasm"
}

// The engine's references in index.html, as written and as minified
// (pagemin keeps attributes' order and quotes, and renames the loader's
// local variables).
var (
	preloadRef = regexp.MustCompile(`(<link rel="preload" href=)"public/main\.wasm"`)
	loaderRef  = regexp.MustCompile(`(var [A-Za-z_$][A-Za-z0-9_$]*\s*=\s*)"public/main\.wasm"`)
	anyRef     = regexp.MustCompile(`["']public/main\.wasm["']`)
)

// rewritePage points the page's two references to the engine at hashed
// and tells it that short links are served here.
func rewritePage(page []byte, hashed string) ([]byte, error) {
	s := string(page)
	for _, ref := range []struct {
		what string
		re   *regexp.Regexp
	}{
		{"the preload link (<link rel=\"preload\" href=\"public/main.wasm\")", preloadRef},
		{"the loader's URL (var WASM_URL = \"public/main.wasm\")", loaderRef},
	} {
		if n := len(ref.re.FindAllStringIndex(s, -1)); n != 1 {
			return nil, fmt.Errorf("%s: found %d times, want once", ref.what, n)
		}
		s = ref.re.ReplaceAllString(s, `${1}"`+hashed+`"`)
	}
	if left := anyRef.FindString(s); left != "" {
		return nil, fmt.Errorf("another reference to the engine (%s) is left: workersite does not know it", left)
	}
	if strings.Contains(s, "kafkascopeCopy") {
		return nil, fmt.Errorf("it already defines kafkascopeCopy")
	}
	if n := strings.Count(s, "</head>"); n != 1 {
		return nil, fmt.Errorf("</head>: found %d times, want once", n)
	}
	s = strings.Replace(s, "</head>", shortLinksScript+"</head>", 1)
	return []byte(s), nil
}

// headers is the _headers file for the site's files (slash-separated
// names), one rule each.
func headers(files []string, hashed string) string {
	var b strings.Builder
	b.WriteString("# Written by scripts/workersite: how long browsers and Cloudflare keep each file.\n")
	rule := func(route, cache string) {
		fmt.Fprintf(&b, "/%s\n  Cache-Control: %s\n", route, cache)
	}
	for _, f := range files {
		switch f {
		case hashed:
			rule(f, cacheImmutable)
		case "index.html":
			rule("", cachePage)
			rule(f, cachePage)
		default:
			rule(f, cacheShort)
		}
	}
	return b.String()
}
