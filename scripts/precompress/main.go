// Command precompress writes a brotli copy of a file next to it (FILE.br),
// for servers that send it to browsers accepting br: scripts/serve (make
// serve) and any static host that serves precompressed siblings.
//
// Usage (make assets runs it on public/main.wasm):
//
//	go run ./scripts/precompress FILE...
//
// Brotli at its highest quality and window (quality 11, a 16 MiB window) is
// about a fifth smaller than gzip -9 on the engine, and slow to write (tens
// of seconds for main.wasm), so an existing FILE.br that already decodes to
// FILE's bytes is kept, only touched so that it counts as fresh (servers
// ignore a sibling older than its file). A new copy is written to a
// temporary name first, so that an interrupted run never leaves a truncated
// .br behind.
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/andybalholm/brotli"
)

// options are brotli's strongest settings: quality 11 and a 2^24-byte
// window, so that repeats anywhere in a multi-megabyte wasm are found.
var options = brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := precompress(name, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "precompress:", err)
			os.Exit(1)
		}
	}
}

// precompress brings name.br up to date with name, and says what it did.
func precompress(name string, out io.Writer) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	target := name + ".br"
	if same, err := decodesTo(target, raw); err != nil {
		return err
	} else if same {
		now := time.Now()
		if err := os.Chtimes(target, now, now); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: up to date\n", target)
		return nil
	}
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, options)
	if _, err := w.Write(raw); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	tmp := target + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return err
	}
	fmt.Fprintf(out, "%s: %d bytes (%.1f%% of %d)\n", target, buf.Len(), 100*float64(buf.Len())/float64(max(len(raw), 1)), len(raw))
	return nil
}

// decodesTo reports whether the brotli file target exists and decodes to
// want. A missing or undecodable file is simply not the same.
func decodesTo(target string, want []byte) (bool, error) {
	f, err := os.Open(target)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	got, err := io.ReadAll(io.LimitReader(brotli.NewReader(f), int64(len(want))+1))
	if err != nil {
		return false, nil
	}
	return bytes.Equal(got, want), nil
}
