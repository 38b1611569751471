package main

import (
	"net/http"
	"os"
	"path/filepath"
)

// assetReader reads one of the page's static files by its name under
// public/ (the Worker's static assets; a directory natively).
type assetReader func(name string) ([]byte, error)

// newServer is the Worker's handler.
func newServer(assets assetReader) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/snapshot.svg", &snapshotHandler{assets: assets})
	return mux
}

// dirAssets reads the files of dir (natively, and in tests).
func dirAssets(dir string) assetReader {
	return func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }
}
