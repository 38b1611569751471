package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"runtime/debug"
	"strings"
)

// stored is an answer kept in the cache: always a 200, its headers and
// body.
type stored struct {
	header http.Header
	body   []byte
}

// responseCache keeps the answers that cost a replay, by their URL: the
// Cache API on the Worker (per data center; entries expire with their
// Cache-Control), memory natively. A miss or a failed write only costs
// the replay again.
type responseCache interface {
	Get(key string) (*stored, bool)
	Put(key string, s *stored)
}

// cacheHeader tells a cached answer from a fresh one (hit or miss), for
// the tests and for whoever measures.
const cacheHeader = "X-Kafkascope-Cache"

// cached answers GET and HEAD from the cache when it can, and keeps h's
// 200s there: the same URL always draws the same picture in one build
// (the engine is deterministic, and a short link's id is its content's
// hash); the key names the build (cacheKey).
func (s *server) cached(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		key := cacheKey(origin(r) + r.URL.RequestURI())
		if hit, ok := s.cache.Get(key); ok {
			for k, v := range hit.header {
				w.Header()[k] = v
			}
			w.Header().Set(cacheHeader, "hit")
			w.WriteHeader(http.StatusOK)
			if r.Method == http.MethodGet {
				_, _ = w.Write(hit.body)
			}
			return
		}
		// HEAD is answered as GET is, so its body can be kept.
		get := r.Clone(r.Context())
		get.Method = http.MethodGet
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, get)
		if rec.status == http.StatusOK {
			s.cache.Put(key, &stored{header: rec.header.Clone(), body: rec.body.Bytes()})
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.Header().Set(cacheHeader, "miss")
		w.WriteHeader(rec.status)
		if r.Method == http.MethodGet {
			_, _ = w.Write(rec.body.Bytes())
		}
	})
}

// buildVersion names this build of the Worker: its module's VCS revision
// (and whether the tree had changes) and its dependencies, as the Go
// toolchain stamps them. A new deployment draws with new keys: the Cache
// API keeps entries across deployments.
var buildVersion = func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	sum := sha256.Sum256([]byte(info.String()))
	return hex.EncodeToString(sum[:6])
}()

// cacheKey is the cache's key for an answer to url in this build.
func cacheKey(url string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "kafkascope-build=" + buildVersion
}

// recorder keeps an answer to copy it to the cache and to the client.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}
