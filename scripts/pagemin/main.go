// Command pagemin minifies the page's text files in place (index.html, the
// stylesheets, wasm_exec.js: scripts/internal/pagemin says how and why).
// make dist runs it on its copies; the repository's own files stay as they
// are, and scripts/serve minifies those as it sends them.
//
// Usage:
//
//	go run ./scripts/pagemin FILE...
//
// A file pagemin does not apply to (by its extension) is an error, and so
// is one that does not parse: nothing is then left half written (each file
// is replaced whole, through a temporary name).
package main

import (
	"fmt"
	"io"
	"os"

	"kafkascope/scripts/internal/atomicfile"
	"kafkascope/scripts/internal/pagemin"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: pagemin FILE...")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := minifyFile(name, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "pagemin:", err)
			os.Exit(1)
		}
	}
}

// minifyFile replaces name with its minified copy and says by how much.
func minifyFile(name string, out io.Writer) error {
	if !pagemin.Applies(name) {
		return fmt.Errorf("%s: not a page text file (.html, .css or .js)", name)
	}
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	small, err := pagemin.Minify(name, raw)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(name, small); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d bytes minified, %d as written\n", name, len(small), len(raw))
	return nil
}
