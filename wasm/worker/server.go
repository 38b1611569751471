package main

import (
	"net/http"
	"os"
	"path/filepath"
)

// assetReader reads one of the site's static files by its path under the
// site's root ("index.html", "public/style.css"): the Worker's static
// assets, or a directory natively.
type assetReader func(name string) ([]byte, error)

// server is the Worker's handler and what it keeps across requests on
// the Worker: the site's files, the short links (Workers KV) and the
// cache of answers that cost a replay (the Cache API).
type server struct {
	assets assetReader
	links  linkStore
	cache  responseCache
}

// newServer routes the Worker's paths; every other path is a static file,
// served by the platform before the Worker runs.
func newServer(assets assetReader, links linkStore, cache responseCache) http.Handler {
	s := &server{assets: assets, links: links, cache: cache}
	mux := http.NewServeMux()
	mux.Handle("/snapshot.svg", s.cached(http.HandlerFunc(s.snapshot)))
	mux.Handle("/snapshot.png", s.cached(http.HandlerFunc(s.snapshotPNG)))
	mux.Handle("/card.png", s.cached(http.HandlerFunc(s.cardPNG)))
	mux.Handle("/oembed", s.cached(http.HandlerFunc(s.oembed)))
	mux.HandleFunc("/s", s.shorten)
	mux.Handle("/s/", s.cached(http.HandlerFunc(s.sharePage)))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		httpError(w, http.StatusNotFound, "no such page: "+r.URL.Path)
	})
	return mux
}

// dirAssets reads the files of dir (natively, and in tests).
func dirAssets(dir string) assetReader {
	return func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))) }
}

// origin is the scheme and host the request came to ("https://host"):
// the links the Worker writes point back at itself. On the Worker the
// request's URL is absolute; natively it is a path, and net/http gives
// the host.
func origin(r *http.Request) string {
	if r.URL.Scheme != "" && r.URL.Host != "" {
		return r.URL.Scheme + "://" + r.URL.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// readOnly refuses every method but GET and HEAD.
func readOnly(w http.ResponseWriter, r *http.Request, what string) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	httpError(w, http.StatusMethodNotAllowed, what+" is read with GET")
	return false
}

// write answers a body (none for HEAD).
func write(w http.ResponseWriter, r *http.Request, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// httpError answers status with a one-line explanation, clipped to
// maxErrorText characters (a reason may quote the request).
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write([]byte("kafkascope: " + clip(msg, maxErrorText) + "\n"))
}

const maxErrorText = 300
