// Command serve is kafkascope's development web server. It serves the
// repository's index.html and public/ (the page, its CSS and the wasm build)
// on 127.0.0.1 and nothing else: no directory listings, no other files of the
// repository.
//
// Usage (from the repository root; `make serve` builds the wasm first):
//
//	go run ./scripts/serve [-port 8080] [-root .] [-open]
//
// Once listening it prints exactly one line on stdout:
//
//	kafkascope: serving on http://127.0.0.1:PORT/
//
// `-port 0` picks a free port, which scripts and tests read from that line.
//
// Responses carry Cache-Control: no-cache and an ETag that changes on every
// rebuild, so the browser always revalidates and never runs a stale engine.
// A file with precompressed siblings (public/main.wasm.br and
// public/main.wasm.gz next to public/main.wasm, written by `make assets`) is
// sent brotli-encoded to clients that accept br, else gzip-encoded to those
// that accept gzip, but only while the sibling is at least as new as the
// file it compresses: after a plain `make wasm` a stale sibling is ignored.
// The page's other text files (index.html, the CSS, wasm_exec.js) are
// sent minified (scripts/internal/pagemin; the sources stay readable) and
// compressed on the fly, as static hosts do, and kept so in memory while
// unchanged. An encoded response carries X-Decoded-Content-Length, the size
// of what it decodes to, against which the page counts the progress of its
// download.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/andybalholm/brotli"

	"kafkascope/scripts/internal/pagemin"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "kafkascope serve:", err)
		os.Exit(1)
	}
}

// run parses args, listens, prints the serving line to stdout and serves until
// ctx is done. Errors that stop the server are returned; nothing panics.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	port := flags.Int("port", 8080, "TCP port on 127.0.0.1 (0 picks a free one)")
	rootDir := flags.String("root", ".", "directory holding index.html and public/ (the repository root)")
	open := flags.Bool("open", false, "try to open the page in a browser (xdg-open or open); never fails")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", flags.Args())
	}
	if *port < 0 || *port > 65535 {
		return fmt.Errorf("-port %d: must be between 0 and 65535", *port)
	}

	handler, err := newHandler(*rootDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*rootDir, "public", "main.wasm")); err != nil {
		fmt.Fprintln(stderr, "kafkascope serve: warning: public/main.wasm is missing; run `make wasm` (or `make serve`)")
	}

	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(*port)))
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/"
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
	}

	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "kafkascope: serving on %s\n", url)
	if *open {
		openBrowser(url, stderr)
	}

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// openBrowser starts the platform's URL opener if there is one. It never
// waits for it and never fails: a headless machine simply gets a note.
func openBrowser(url string, stderr io.Writer) {
	candidates := []string{"xdg-open", "open"}
	if runtime.GOOS == "darwin" {
		candidates = []string{"open"}
	}
	for _, name := range candidates {
		bin, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		cmd := exec.Command(bin, url)
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "kafkascope serve: could not start %s: %v\n", name, err)
			return
		}
		go func() { _ = cmd.Wait() }() // reap it; its exit status does not matter
		return
	}
	fmt.Fprintf(stderr, "kafkascope serve: no xdg-open or open found; open %s yourself\n", url)
}

// handler serves "/" and "/index.html" from index.html and "/public/..." from
// the public directory, all read through an os.Root so that no request (not
// even through a symlink) reaches outside the served directory.
type handler struct {
	root *os.Root

	mu       sync.Mutex
	prepared map[string]*preparedFile // by name and coding ("" for none)
}

// preparedFile is a text file as it is sent, minified and compressed on the
// fly, kept while the file is unchanged.
type preparedFile struct {
	modTime time.Time
	size    int64
	data    []byte
}

// newHandler returns the handler for the repository at dir. It fails if dir
// has no index.html, which almost always means the server was started from
// the wrong directory.
func newHandler(dir string) (http.Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	if fi, err := root.Stat("index.html"); err != nil || !fi.Mode().IsRegular() {
		abs, _ := filepath.Abs(dir)
		return nil, fmt.Errorf("%s has no index.html: run from the repository root or pass -root", abs)
	}
	return &handler{root: root, prepared: map[string]*preparedFile{}}, nil
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, ok := fileFor(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.serveFile(w, r, name)
}

// fileFor maps a URL path to a slash-separated file name under the root, or
// reports false for paths this server does not serve.
func fileFor(urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	if p == "/" || p == "/index.html" {
		return "index.html", true
	}
	if !strings.HasPrefix(p, "/public/") {
		return "", false
	}
	name := strings.TrimPrefix(p, "/")
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") { // no dotfiles
			return "", false
		}
	}
	return name, true
}

// encodings are the precompressed siblings serveFile looks for, the
// smallest first: main.wasm.br (brotli, make assets writes it) and
// main.wasm.gz.
var encodings = []struct{ coding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// serveFile sends name, or a precompressed sibling of it when that is fresh
// and the client accepts its encoding (the smaller brotli copy first, unless
// the client prefers gzip by its q-values). Conditional and range requests
// are handled by http.ServeContent.
func (h *handler) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	f, fi, err := h.openRegular(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	if f != nil {
		defer f.Close()
	}

	accept := r.Header.Values("Accept-Encoding")
	var enc *os.File
	var encInfo fs.FileInfo
	var coding string
	bestQ := 0.0
	varies := false
	for _, e := range encodings {
		if strings.HasSuffix(name, e.suffix) {
			continue // a compressed file is sent as it is
		}
		sib, sibInfo, _ := h.openRegular(name + e.suffix)
		if sib == nil {
			continue
		}
		defer sib.Close()
		if fi != nil && sibInfo.ModTime().Before(fi.ModTime()) {
			continue // stale: built before the file it compresses
		}
		varies = true
		if q := acceptQ(accept, e.coding); q > bestQ {
			enc, encInfo, coding, bestQ = sib, sibInfo, e.coding, q
		}
	}
	// The page's own text files (index.html, the CSS, wasm_exec.js) have no
	// precompressed copies: they are minified and compressed here.
	var onTheFly []byte
	var decodedSize int64
	if enc == nil && f != nil && (compressible(name, fi) || pagemin.Applies(name)) {
		if compressible(name, fi) {
			varies = true
			for _, e := range encodings {
				if q := acceptQ(accept, e.coding); q > bestQ {
					coding, bestQ = e.coding, q
				}
			}
		}
		if coding != "" && r.Header.Get("Range") != "" {
			coding = "" // a range of the file as it is, not of an encoding
		}
		if coding != "" || pagemin.Applies(name) {
			if onTheFly, decodedSize, err = h.prepare(name, fi, f, coding); err != nil {
				http.Error(w, "500 internal server error", http.StatusInternalServerError)
				return
			}
		}
	}
	if varies {
		w.Header().Add("Vary", "Accept-Encoding")
	}

	w.Header().Set("Content-Type", contentType(name))
	switch {
	case onTheFly != nil && coding != "":
		w.Header().Set("Content-Encoding", coding)
		w.Header().Set("ETag", etag(fi, "-"+coding))
		w.Header().Set("X-Decoded-Content-Length", strconv.FormatInt(decodedSize, 10))
		w.Header().Set("Content-Length", strconv.Itoa(len(onTheFly)))
		http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(onTheFly))
	case onTheFly != nil:
		w.Header().Set("ETag", etag(fi, "-min"))
		http.ServeContent(w, r, name, fi.ModTime(), bytes.NewReader(onTheFly))
	case enc != nil:
		w.Header().Set("Content-Encoding", coding)
		w.Header().Set("ETag", etag(encInfo, "-"+coding))
		if fi != nil {
			// The page counts the decoded bytes of its download against
			// this (index.html): Content-Length is the encoded size.
			w.Header().Set("X-Decoded-Content-Length", strconv.FormatInt(fi.Size(), 10))
		}
		if r.Header.Get("Range") == "" {
			// ServeContent leaves Content-Length out when Content-Encoding
			// is set (it cannot know the encoded size); here the encoded
			// bytes are the file, and the length lets browsers show progress.
			w.Header().Set("Content-Length", strconv.FormatInt(encInfo.Size(), 10))
		}
		http.ServeContent(w, r, name, encInfo.ModTime(), enc)
	case f != nil:
		w.Header().Set("ETag", etag(fi, ""))
		http.ServeContent(w, r, name, fi.ModTime(), f)
	default:
		w.Header().Del("Content-Type")
		http.NotFound(w, r)
	}
}

// compressible reports whether a file is text worth compressing on the fly:
// at least 1 KiB (below that the encoding's overhead eats the gain) and at
// most 4 MiB (larger files come with precompressed copies).
func compressible(name string, fi fs.FileInfo) bool {
	if fi.Size() < 1<<10 || fi.Size() > 4<<20 {
		return false
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt":
		return true
	}
	return false
}

// prepare returns f's bytes as they are sent: minified if pagemin applies
// to name, then encoded with coding ("br", "gzip", or "" for none); and the
// size they decode to. It answers from memory while the file is unchanged
// (same size and modification time). A file that does not minify (a syntax
// error being edited) is sent as it is.
func (h *handler) prepare(name string, fi fs.FileInfo, f *os.File, coding string) (data []byte, decodedSize int64, err error) {
	plain, err := h.cached(name, fi, "", func() ([]byte, error) {
		raw, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		if small, err := pagemin.Minify(name, raw); err == nil {
			return small, nil
		}
		return raw, nil
	})
	if err != nil || coding == "" {
		return plain, int64(len(plain)), err
	}
	data, err = h.cached(name, fi, coding, func() ([]byte, error) {
		var buf bytes.Buffer
		var zw io.WriteCloser
		if coding == "br" {
			zw = brotli.NewWriterLevel(&buf, brotli.BestCompression)
		} else {
			zw, _ = gzip.NewWriterLevel(&buf, gzip.BestCompression)
		}
		if _, err := zw.Write(plain); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	})
	return data, int64(len(plain)), err
}

// cached returns the kept copy of name under coding while the file is
// unchanged, else makes and keeps a new one.
func (h *handler) cached(name string, fi fs.FileInfo, coding string, build func() ([]byte, error)) ([]byte, error) {
	key := name + "\x00" + coding
	h.mu.Lock()
	c := h.prepared[key]
	h.mu.Unlock()
	if c != nil && c.size == fi.Size() && c.modTime.Equal(fi.ModTime()) {
		return c.data, nil
	}
	data, err := build()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.prepared[key] = &preparedFile{modTime: fi.ModTime(), size: fi.Size(), data: data}
	h.mu.Unlock()
	return data, nil
}

// openRegular opens name under the root if it is a regular file (a directory
// counts as not found).
func (h *handler) openRegular(name string) (*os.File, fs.FileInfo, error) {
	f, err := h.root.Open(filepath.FromSlash(name))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isOutsideRoot(err) {
			return nil, nil, fs.ErrNotExist
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fs.ErrNotExist
	}
	return f, fi, nil
}

// isOutsideRoot reports errors os.Root returns for names that escape it
// (through "..", an absolute symlink, ...): to a client those do not exist.
func isOutsideRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes from parent")
}

// etag changes whenever the file is rewritten, even within the same second
// (Last-Modified alone has one-second resolution).
func etag(fi fs.FileInfo, suffix string) string {
	return fmt.Sprintf(`"%x-%x%s"`, fi.Size(), fi.ModTime().UnixNano(), suffix)
}

// contentTypes pins the types the page depends on instead of trusting the
// machine's mime.types. Browsers require application/wasm for
// WebAssembly.instantiateStreaming.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".json": "application/json",
	".wasm": "application/wasm",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".gz":   "application/gzip",
}

func contentType(name string) string {
	if ct, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return ct
	}
	return "application/octet-stream"
}

// acceptQ is the quality Accept-Encoding values give a coding ("gzip" or
// "br"): its own q, else that of "*", else 0 (not acceptable). "x-gzip"
// counts as gzip; an unparsable q counts as 0.
func acceptQ(values []string, coding string) float64 {
	ownQ, starQ := -1.0, -1.0
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(item), ";")
			q := 1.0
			for _, param := range strings.Split(params, ";") {
				key, value, ok := strings.Cut(strings.TrimSpace(param), "=")
				if ok && strings.EqualFold(strings.TrimSpace(key), "q") {
					parsed, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
					if err != nil {
						parsed = 0
					}
					q = parsed
				}
			}
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "x-gzip" {
				name = "gzip"
			}
			switch name {
			case coding:
				ownQ = max(ownQ, q)
			case "*":
				starQ = max(starQ, q)
			}
		}
	}
	if ownQ >= 0 {
		return ownQ
	}
	return max(starQ, 0)
}
