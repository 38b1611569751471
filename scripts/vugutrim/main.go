// Command vugutrim removes the imports that vugugen adds to every generated
// component only to keep them in use, where nothing else in the file uses
// them: "log" and "github.com/vugu/vjson", each with its blank variable
// (var _ log.Logger, var _ vjson.RawMessage). It then writes the static
// text nodes, static elements and event handlers of the Build methods as
// calls of the package's vgText, vgElem and vgOn (nodes.go says why).
//
// Usage (make generate runs it after vugugen):
//
//	go run ./scripts/vugutrim DIR
//
// Why: an imported package's initialization is linked even when nothing
// of it is used. log's sets up its standard logger, with its output code;
// vjson brings encoding/json's initialization. Together they took 67 KB
// of main.wasm (15 KB gzipped, 10 KB brotli). The page never logs through
// log nor encodes JSON through vjson.
//
// Only DIR/*_gen.go files are read. A file whose code uses log or vjson
// elsewhere keeps the import; the file is rewritten only if it changed, and
// otherwise left as vugugen wrote it.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// unused maps each import path vugugen adds to its blank variable's line.
var unused = map[string]string{
	"log":                   "var _ log.Logger",
	"github.com/vugu/vjson": "var _ vjson.RawMessage",
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: vugutrim DIR")
		os.Exit(2)
	}
	files, err := filepath.Glob(filepath.Join(os.Args[1], "*_gen.go"))
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no *_gen.go files in %s", os.Args[1])
	}
	for _, name := range files {
		if err != nil {
			break
		}
		err = trimFile(name)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vugutrim:", err)
		os.Exit(1)
	}
}

func trimFile(name string) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	out, err := trim(name, src)
	if err == nil {
		out, err = compact(name, out)
	}
	if err != nil || bytes.Equal(out, src) {
		return err
	}
	return os.WriteFile(name, out, 0o644)
}

// trim returns src without the import line and blank variable line of
// each package in unused that the rest of the file does not use.
func trim(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	drop := map[string]bool{} // whole lines to remove
	for _, imp := range f.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		blank, ok := unused[path]
		if !ok || imp.Name != nil {
			continue
		}
		pkg := path[strings.LastIndex(path, "/")+1:]
		if uses(f, pkg) != 1 { // the blank variable is the one use
			continue
		}
		drop[fmt.Sprintf("import %q", path)] = true
		drop[blank] = true
	}
	if len(drop) == 0 {
		return src, nil
	}
	lines := strings.SplitAfter(string(src), "\n")
	var b strings.Builder
	removed := 0
	for _, l := range lines {
		if drop[strings.TrimRight(l, "\r\n")] {
			removed++
			continue
		}
		b.WriteString(l)
	}
	if removed != len(drop) {
		return nil, fmt.Errorf("%s: expected %d lines to remove, found %d: not vugugen's layout", name, len(drop), removed)
	}
	return []byte(b.String()), nil
}

// uses counts the selector expressions pkg.X in f.
func uses(f *ast.File, pkg string) int {
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		if sel, ok := node.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == pkg {
				n++
			}
		}
		return true
	})
	return n
}
