package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"kafkascope/scripts/internal/pagemin"
)

// The test root's page files are already minified (TestContentTypes reads
// them back as they are; TestPageTextMinified sends commented ones).
const (
	indexBody = "<!doctype html><title>kafkascope</title>"
	cssBody   = "body{margin:0}"
	jsBody    = "globalThis.kafkascope=1"
)

// wasmBody looks like a wasm module (magic and version) and compresses well.
var wasmBody = append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Repeat([]byte("kafkascope "), 512)...)

// newTestRoot lays out a repository root: index.html, public/ with a
// stylesheet, wasm_exec.js and main.wasm, and files that must never be served.
func newTestRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "index.html"), []byte(indexBody))
	write(t, filepath.Join(dir, "go.mod"), []byte("module kafkascope\n"))
	write(t, filepath.Join(dir, "public", "style.css"), []byte(cssBody))
	write(t, filepath.Join(dir, "public", "wasm_exec.js"), []byte(jsBody))
	write(t, filepath.Join(dir, "public", "main.wasm"), wasmBody)
	write(t, filepath.Join(dir, "public", ".hidden"), []byte("secret"))
	if err := os.MkdirAll(filepath.Join(dir, "public", "icons"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeGzip writes name.gz holding data, with the given modification time.
func writeGzip(t *testing.T, name string, data []byte, modTime time.Time) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	write(t, name+".gz", buf.Bytes())
	if err := os.Chtimes(name+".gz", modTime, modTime); err != nil {
		t.Fatal(err)
	}
}

func mustHandler(t *testing.T, dir string) http.Handler {
	t.Helper()
	h, err := newHandler(dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func get(h http.Handler, method, target string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestContentTypes(t *testing.T) {
	h := mustHandler(t, newTestRoot(t))
	tests := []struct {
		target, contentType, body string
	}{
		{"/", "text/html; charset=utf-8", indexBody},
		{"/index.html", "text/html; charset=utf-8", indexBody},
		{"/public/style.css", "text/css; charset=utf-8", cssBody},
		{"/public/wasm_exec.js", "text/javascript; charset=utf-8", jsBody},
		{"/public/main.wasm", "application/wasm", string(wasmBody)},
		{"/public/../public/style.css", "text/css; charset=utf-8", cssBody},
	}
	for _, tt := range tests {
		rec := get(h, http.MethodGet, tt.target, nil)
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", tt.target, rec.Code)
			continue
		}
		if got := rec.Header().Get("Content-Type"); got != tt.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tt.target, got, tt.contentType)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", tt.target, got)
		}
		if got := rec.Header().Get("Content-Encoding"); got != "" {
			t.Errorf("GET %s: Content-Encoding %q without a .gz sibling", tt.target, got)
		}
		if got := rec.Body.String(); got != tt.body {
			t.Errorf("GET %s: body %q, want %q", tt.target, got, tt.body)
		}
	}
}

func TestNotFound(t *testing.T) {
	dir := newTestRoot(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	write(t, outside, []byte("outside"))
	if err := os.Symlink(outside, filepath.Join(dir, "public", "link.txt")); err != nil {
		t.Fatal(err)
	}
	h := mustHandler(t, dir)
	for _, target := range []string{
		"/missing.html",
		"/go.mod",                  // the repository is not served, only index.html and public/
		"/public/",                 // no directory listings
		"/public/icons",            // a directory is not a file
		"/public/missing.wasm",     // missing file
		"/public/.hidden",          // dotfiles
		"/public/link.txt",         // a symlink out of the root
		"/public/%2e%2e/go.mod",    // encoded traversal
		"/public/../../etc/passwd", // traversal
	} {
		rec := get(h, http.MethodGet, target, nil)
		if rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404 (body %q)", target, rec.Code, rec.Body.String())
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", target, got)
		}
	}
}

func TestGzipNegotiation(t *testing.T) {
	dir := newTestRoot(t)
	wasmPath := filepath.Join(dir, "public", "main.wasm")
	fi, err := os.Stat(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	writeGzip(t, wasmPath, wasmBody, fi.ModTime().Add(time.Second))
	h := mustHandler(t, dir)

	tests := []struct {
		acceptEncoding string
		wantGzip       bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.8", true},
		{"x-gzip", true},
		{"*", true},
		{"deflate, br", false},
		{"gzip;q=0", false},
		{"*, gzip;q=0", false},
		{"identity", false},
	}
	for _, tt := range tests {
		rec := get(h, http.MethodGet, "/public/main.wasm", map[string]string{"Accept-Encoding": tt.acceptEncoding})
		if rec.Code != http.StatusOK {
			t.Fatalf("Accept-Encoding %q: status %d", tt.acceptEncoding, rec.Code)
		}
		if got := rec.Header().Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, want application/wasm", tt.acceptEncoding, got)
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q, want Accept-Encoding", tt.acceptEncoding, got)
		}
		body := rec.Body.Bytes()
		if got := rec.Header().Get("Content-Encoding"); (got == "gzip") != tt.wantGzip {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want gzip=%v", tt.acceptEncoding, got, tt.wantGzip)
			continue
		}
		if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(len(body)); got != want {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %s", tt.acceptEncoding, got, want)
		}
		if tt.wantGzip {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("Accept-Encoding %q: body is not gzip: %v", tt.acceptEncoding, err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(body, wasmBody) {
			t.Errorf("Accept-Encoding %q: body differs from main.wasm", tt.acceptEncoding)
		}
	}

	// Files without a .gz sibling are never encoded and do not vary.
	rec := get(h, http.MethodGet, "/public/style.css", map[string]string{"Accept-Encoding": "gzip"})
	if got := rec.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("style.css: Content-Encoding %q, want none", got)
	}
	if got := rec.Header().Get("Vary"); got != "" {
		t.Errorf("style.css: Vary %q, want none", got)
	}
}

// With a brotli sibling too, br wins wherever the client accepts it at least
// as much as gzip; an encoded response says the decoded size.
func TestBrotliNegotiation(t *testing.T) {
	dir := newTestRoot(t)
	wasmPath := filepath.Join(dir, "public", "main.wasm")
	fi, err := os.Stat(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	newer := fi.ModTime().Add(time.Second)
	writeGzip(t, wasmPath, wasmBody, newer)
	// The server never decodes: any bytes stand for the brotli copy.
	brBody := []byte("brotli stands in here")
	write(t, wasmPath+".br", brBody)
	if err := os.Chtimes(wasmPath+".br", newer, newer); err != nil {
		t.Fatal(err)
	}
	h := mustHandler(t, dir)

	tests := []struct {
		acceptEncoding, want string
	}{
		{"", ""},
		{"gzip", "gzip"},
		{"gzip, deflate, br, zstd", "br"},
		{"br", "br"},
		{"br;q=1.0, gzip;q=0.8", "br"},
		{"br;q=0.5, gzip;q=0.8", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"*", "br"},
		{"*;q=0, gzip", "gzip"},
		{"deflate", ""},
		{"identity", ""},
	}
	for _, tt := range tests {
		rec := get(h, http.MethodGet, "/public/main.wasm", map[string]string{"Accept-Encoding": tt.acceptEncoding})
		if rec.Code != http.StatusOK {
			t.Fatalf("Accept-Encoding %q: status %d", tt.acceptEncoding, rec.Code)
		}
		if got := rec.Header().Get("Content-Encoding"); got != tt.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.acceptEncoding, got, tt.want)
			continue
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q, want Accept-Encoding", tt.acceptEncoding, got)
		}
		if got := rec.Header().Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, want application/wasm", tt.acceptEncoding, got)
		}
		body := rec.Body.Bytes()
		if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(len(body)); got != want {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %s", tt.acceptEncoding, got, want)
		}
		decoded := rec.Header().Get("X-Decoded-Content-Length")
		switch tt.want {
		case "br":
			if !bytes.Equal(body, brBody) {
				t.Errorf("Accept-Encoding %q: body is not main.wasm.br", tt.acceptEncoding)
			}
		case "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("Accept-Encoding %q: body is not gzip: %v", tt.acceptEncoding, err)
			}
			if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, wasmBody) {
				t.Errorf("Accept-Encoding %q: the gzip body is not main.wasm (%v)", tt.acceptEncoding, err)
			}
		default:
			if !bytes.Equal(body, wasmBody) {
				t.Errorf("Accept-Encoding %q: body differs from main.wasm", tt.acceptEncoding)
			}
			if decoded != "" {
				t.Errorf("Accept-Encoding %q: X-Decoded-Content-Length %q on an unencoded response", tt.acceptEncoding, decoded)
			}
			continue
		}
		if want := strconv.Itoa(len(wasmBody)); decoded != want {
			t.Errorf("Accept-Encoding %q: X-Decoded-Content-Length %q, want %s", tt.acceptEncoding, decoded, want)
		}
	}

	// A stale .br (from before the last make wasm) is passed over for the
	// fresh .gz.
	older := fi.ModTime().Add(-time.Minute)
	if err := os.Chtimes(wasmPath+".br", older, older); err != nil {
		t.Fatal(err)
	}
	rec := get(h, http.MethodGet, "/public/main.wasm", map[string]string{"Accept-Encoding": "br, gzip"})
	if got := rec.Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("with a stale .br: Content-Encoding %q, want gzip", got)
	}
}

// The page's text files have no precompressed copies: they are compressed
// on the fly (brotli or gzip, as the client prefers), and the copy is made
// again once the file changes.
func TestTextCompressedOnTheFly(t *testing.T) {
	dir := newTestRoot(t)
	css := bytes.Repeat([]byte(".kd-card { fill: var(--panel); }\n"), 100)
	cssPath := filepath.Join(dir, "public", "diagram.css")
	write(t, cssPath, css)
	h := mustHandler(t, dir)

	decode := func(coding string, body []byte) []byte {
		t.Helper()
		return decodeBody(t, coding, body)
	}
	for _, tt := range []struct{ accept, want string }{
		{"gzip, deflate, br", "br"},
		{"gzip", "gzip"},
		{"", ""},
	} {
		rec := get(h, http.MethodGet, "/public/diagram.css", map[string]string{"Accept-Encoding": tt.accept})
		if got := rec.Header().Get("Content-Encoding"); got != tt.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.accept, got, tt.want)
			continue
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q", tt.accept, got)
		}
		if got := rec.Header().Get("Content-Type"); got != "text/css; charset=utf-8" {
			t.Errorf("Accept-Encoding %q: Content-Type %q", tt.accept, got)
		}
		body := rec.Body.Bytes()
		if tt.want != "" && len(body) >= len(css)/4 {
			t.Errorf("Accept-Encoding %q: %d bytes for %d of repetitive CSS", tt.accept, len(body), len(css))
		}
		if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(len(body)); got != want {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %s", tt.accept, got, want)
		}
		if !bytes.Equal(decode(tt.want, body), minified(t, "diagram.css", css)) {
			t.Errorf("Accept-Encoding %q: the body does not decode to the minified file", tt.accept)
		}
	}

	// Revalidation with the encoded copy's ETag is a 304.
	rec := get(h, http.MethodGet, "/public/diagram.css", map[string]string{"Accept-Encoding": "br"})
	if rec = get(h, http.MethodGet, "/public/diagram.css", map[string]string{"Accept-Encoding": "br", "If-None-Match": rec.Header().Get("ETag")}); rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", rec.Code)
	}

	// A changed file is compressed again.
	css = append(css, ".kd-changed { fill: none; }\n"...)
	write(t, cssPath, css)
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(cssPath, later, later); err != nil {
		t.Fatal(err)
	}
	rec = get(h, http.MethodGet, "/public/diagram.css", map[string]string{"Accept-Encoding": "br"})
	if !bytes.Equal(decode("br", rec.Body.Bytes()), minified(t, "diagram.css", css)) {
		t.Error("after a change, the compressed copy is stale")
	}

	// Small files and binary ones are sent as they are.
	for _, target := range []string{"/public/style.css", "/public/main.wasm"} {
		rec := get(h, http.MethodGet, target, map[string]string{"Accept-Encoding": "br, gzip"})
		if got := rec.Header().Get("Content-Encoding"); got != "" {
			t.Errorf("%s: Content-Encoding %q, want none", target, got)
		}
	}
}

// A .gz older than the file it compresses is left over from an earlier build
// (`make wasm` rebuilds main.wasm only): serving it would run a stale engine.
func TestStaleGzipIgnored(t *testing.T) {
	dir := newTestRoot(t)
	wasmPath := filepath.Join(dir, "public", "main.wasm")
	fi, err := os.Stat(wasmPath)
	if err != nil {
		t.Fatal(err)
	}
	writeGzip(t, wasmPath, []byte("old engine"), fi.ModTime().Add(-time.Minute))
	h := mustHandler(t, dir)
	rec := get(h, http.MethodGet, "/public/main.wasm", map[string]string{"Accept-Encoding": "gzip"})
	if got := rec.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("Content-Encoding %q, want none for a stale .gz", got)
	}
	if !bytes.Equal(rec.Body.Bytes(), wasmBody) {
		t.Errorf("body is not the fresh main.wasm")
	}
}

func TestMethodsAndConditionalRequests(t *testing.T) {
	h := mustHandler(t, newTestRoot(t))

	rec := get(h, http.MethodPost, "/", nil)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d, want 405", rec.Code)
	}

	rec = get(h, http.MethodHead, "/public/main.wasm", nil)
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD main.wasm: status %d, body %d bytes; want 200 and no body", rec.Code, rec.Body.Len())
	}
	if got := rec.Header().Get("Content-Type"); got != "application/wasm" {
		t.Errorf("HEAD main.wasm: Content-Type %q", got)
	}

	// no-cache means the browser revalidates: an unchanged file is a 304.
	etag := rec.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	rec = get(h, http.MethodGet, "/public/main.wasm", map[string]string{"If-None-Match": etag})
	if rec.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", rec.Code)
	}
}

func TestNewHandlerNeedsIndex(t *testing.T) {
	if _, err := newHandler(t.TempDir()); err == nil {
		t.Fatal("newHandler on a directory without index.html succeeded")
	}
}

// TestRun starts the real server on a free port, reads the announced URL and
// fetches the page through it.
func TestRun(t *testing.T) {
	dir := newTestRoot(t)
	ctx, cancel := context.WithCancel(context.Background())
	stdoutR, stdoutW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"-port", "0", "-root", dir}, stdoutW, &stderr)
		stdoutW.Close()
		done <- err
	}()

	line, err := bufio.NewReader(stdoutR).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("reading the serving line: %v (stderr %q)", err, stderr.String())
	}
	const prefix = "kafkascope: serving on http://127.0.0.1:"
	if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, "/\n") {
		t.Fatalf("serving line %q, want %q PORT/", line, prefix)
	}
	url := strings.TrimPrefix(strings.TrimSuffix(line, "\n"), "kafkascope: serving on ")

	resp, err := http.Get(url + "public/main.wasm")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, wasmBody) {
		t.Errorf("GET main.wasm: status %d, Content-Type %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	dir := newTestRoot(t)
	for _, args := range [][]string{
		{"-port", "70000", "-root", dir},
		{"-root", dir, "extra"},
		{"-nope"},
		{"-root", t.TempDir()},
	} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("run %q succeeded", args)
		}
	}
}

// decodeBody decodes a response body sent with Content-Encoding coding.
func decodeBody(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	default:
		return body
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return plain
}

// minified is what pagemin makes of a file named name holding data.
func minified(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	out, err := pagemin.Minify(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The page's text files are sent minified, with or without an encoding,
// and a range is of the minified file; an encoded response says the size
// it decodes to. The files in the root stay as they are.
func TestPageTextMinified(t *testing.T) {
	dir := newTestRoot(t)
	files := map[string]string{
		"index.html":          "<!doctype html>\n<html>\n  <!-- the page -->\n  <body>\n    <p class=\"tagline\">A real Apache Kafka engine.</p>\n  </body>\n</html>\n",
		"public/style.css":    "/* the theme */\nbody {\n  margin: 0;\n  color: #1d2330;\n}\n",
		"public/wasm_exec.js": "// Go's support\n(() => {\n\tconst longName = 1;\n\tglobalThis.kafkascope = longName;\n})();\n",
	}
	for name, body := range files {
		body = strings.Repeat(body, 40) // over 1 KiB: compressed too
		write(t, filepath.Join(dir, filepath.FromSlash(name)), []byte(body))
		files[name] = body
	}
	h := mustHandler(t, dir)
	for name, body := range files {
		want := minified(t, name, []byte(body))
		if len(want) >= len(body) || bytes.Contains(want, []byte("  ")) {
			t.Fatalf("%s: pagemin made %d bytes of %d: %q", name, len(want), len(body), want)
		}
		for _, coding := range []string{"", "gzip", "br"} {
			rec := get(h, http.MethodGet, "/"+name, map[string]string{"Accept-Encoding": coding})
			if got := rec.Header().Get("Content-Encoding"); got != coding {
				t.Errorf("%s, Accept-Encoding %q: Content-Encoding %q", name, coding, got)
				continue
			}
			if got := decodeBody(t, coding, rec.Body.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("%s, Accept-Encoding %q: sent %q, want %q", name, coding, got, want)
			}
			if coding != "" {
				if got := rec.Header().Get("X-Decoded-Content-Length"); got != strconv.Itoa(len(want)) {
					t.Errorf("%s, Accept-Encoding %q: X-Decoded-Content-Length %s, want %d", name, coding, got, len(want))
				}
			}
		}
		rec := get(h, http.MethodGet, "/"+name, map[string]string{"Range": "bytes=0-9"})
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), want[:10]) {
			t.Errorf("%s, bytes 0-9: status %d, %q, want %q", name, rec.Code, rec.Body.Bytes(), want[:10])
		}
		if on, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil || string(on) != body {
			t.Errorf("%s changed on disk (%v)", name, err)
		}
	}
}
