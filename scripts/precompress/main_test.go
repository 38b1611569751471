package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

func TestPrecompress(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "main.wasm")
	raw := bytes.Repeat([]byte("\x00asm kafkascope engine "), 4000)
	if err := os.WriteFile(name, raw, 0o644); err != nil {
		t.Fatal(err)
	}

	var out bytes.Buffer
	if err := precompress(name, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "main.wasm.br: ") || strings.Contains(out.String(), "up to date") {
		t.Errorf("first run said %q, want the size written", out.String())
	}
	f, err := os.Open(name + ".br")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(brotli.NewReader(f))
	f.Close()
	if err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("main.wasm.br does not decode to main.wasm (%v)", err)
	}

	// Unchanged input: the copy is kept but touched, so it is not older
	// than a main.wasm that was rewritten with the same bytes.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(name+".br", old, old); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := precompress(name, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "up to date") {
		t.Errorf("second run said %q, want up to date", out.String())
	}
	if fi, err := os.Stat(name + ".br"); err != nil || fi.ModTime().Before(time.Now().Add(-time.Minute)) {
		t.Errorf("an up-to-date .br was not touched (%v)", err)
	}

	// Changed input: a new copy.
	raw = append(raw, "changed"...)
	if err := os.WriteFile(name, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := precompress(name, &out); err != nil {
		t.Fatal(err)
	}
	if same, err := decodesTo(name+".br", raw); err != nil || !same {
		t.Errorf("after a change, main.wasm.br does not decode to the new main.wasm (%v)", err)
	}
	if _, err := os.Stat(name + ".br.tmp"); !os.IsNotExist(err) {
		t.Errorf("a temporary file was left behind (%v)", err)
	}
}

func TestPrecompressMissingFile(t *testing.T) {
	if err := precompress(filepath.Join(t.TempDir(), "missing.wasm"), io.Discard); err == nil {
		t.Error("precompress of a missing file succeeded")
	}
}
