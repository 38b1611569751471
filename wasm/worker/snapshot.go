package main

import (
	"bytes"
	"fmt"
	"net/http"

	"kafkascope/core/player"
	"kafkascope/ui/snapshot"
)

// snapshotHandler answers /snapshot.svg: the query holds a share link's
// #part (the same fields, the same limits: player.ParseURL); the link is
// replayed to its moment, deterministically, and drawn.
type snapshotHandler struct {
	assets assetReader
}

func (h *snapshotHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpError(w, http.StatusMethodNotAllowed, "a snapshot is read with GET")
		return
	}
	if len(r.URL.RawQuery) > player.MaxHashBytes {
		httpError(w, http.StatusRequestURITooLong, fmt.Sprintf("the link is longer than %d characters", player.MaxHashBytes))
		return
	}
	st, err := player.ParseURL("", "#"+r.URL.RawQuery)
	switch {
	case err != nil:
		httpError(w, http.StatusBadRequest, err.Error())
		return
	case st.Scenario == "" && st.Session == "" && st.Sim == nil:
		httpError(w, http.StatusBadRequest, "give a share link's fields: scenario=ID&step=N, or s=SESSION (lang=en or ko)")
		return
	}
	p := player.New()
	p.Boot("", "#"+r.URL.RawQuery)
	if p.Error != "" {
		httpError(w, http.StatusBadRequest, p.Error)
		return
	}
	style, err := h.style()
	if err != nil {
		httpError(w, http.StatusInternalServerError, "the page's styles: "+err.Error())
		return
	}
	var out bytes.Buffer
	if err := snapshot.SVG(&out, p, style); err != nil {
		httpError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml; charset=utf-8")
	// The same link always draws the same picture (the engine is
	// deterministic); a new deployment may draw it differently.
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(out.Bytes())
	}
}

// style is the CSS a snapshot carries, from the page's own files.
func (h *snapshotHandler) style() (string, error) {
	page, err := h.assets("style.css")
	if err != nil {
		return "", err
	}
	diagram, err := h.assets("diagram.css")
	if err != nil {
		return "", err
	}
	return snapshot.Style(string(page), string(diagram)), nil
}

// httpError answers status with a one-line explanation.
func httpError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintf(w, "kafkascope: %s\n", msg)
}
