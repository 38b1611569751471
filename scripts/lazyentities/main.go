// Command lazyentities adds to the page's go build overlay a copy of the
// standard library's html/entity.go whose entity table is built on first
// use instead of being made ready by the package's initialization.
//
// Usage (make wasm runs it after scripts/pagescenarios, which writes the
// overlay, and before go build -overlay=DIR/overlay.json; GOROOT is the
// building Go's, from go env GOROOT):
//
//	go run ./scripts/lazyentities DIR GOROOT
//
// Why: html (imported by Vugu and the page for EscapeString) declares its
// table of 2,231 character references as
//
//	var entityMaps = sync.OnceValues(func() (entity map[string]rune, entity2 map[string][2]rune) { ... })
//
// The package's initialization stores the function in entityMaps, so the
// linker keeps it, and the table it builds, in every program that imports
// html, even one that never calls UnescapeString, the only user. The page
// never does: the table made main.wasm 19 KB larger in brotli. The copy
// turns the function into buildEntityMaps and entityMaps into a function
// that calls it once (sync.Once), so that both go with UnescapeString when
// nothing calls it. html works exactly as before: UnescapeString builds
// the same maps once, on its first call.
//
// The copy is made from the Go installation that builds, so it follows
// its version. If html/entity.go no longer reads as above, the command
// fails and says so: this command must then be updated, or dropped from
// make wasm.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"kafkascope/scripts/internal/atomicfile"
)

// The declaration that is rewritten and what it becomes; the closing
// "})" of the function literal becomes the function's "}".
const (
	onceDecl  = "var entityMaps = sync.OnceValues(func() (entity map[string]rune, entity2 map[string][2]rune) {\n"
	buildDecl = "func buildEntityMaps() (entity map[string]rune, entity2 map[string][2]rune) {\n"
	onceEnd   = "\n})\n"
	buildEnd  = "\n}\n"
)

// lazyOnce is appended to the copy: entityMaps as a function, as the
// original's callers (UnescapeString) call it.
const lazyOnce = `
// entityMapsOnce holds what buildEntityMaps returned (kafkascope's
// scripts/lazyentities: the standard library makes entityMaps with
// sync.OnceValues during the package's initialization, which keeps the
// table in programs that never unescape).
var entityMapsOnce struct {
	sync.Once
	entity  map[string]rune
	entity2 map[string][2]rune
}

func entityMaps() (map[string]rune, map[string][2]rune) {
	entityMapsOnce.Do(func() { entityMapsOnce.entity, entityMapsOnce.entity2 = buildEntityMaps() })
	return entityMapsOnce.entity, entityMapsOnce.entity2
}
`

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: lazyentities DIR GOROOT")
		os.Exit(2)
	}
	if err := write(filepath.Join(os.Args[2], "src", "html", "entity.go"), os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "lazyentities:", err)
		os.Exit(1)
	}
}

// write puts the lazy copy of src in dir as html_entity.go and adds it to
// dir/overlay.json in place of src.
func write(src, dir string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	lazy, err := lazyCopy(string(data))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	ovName := filepath.Join(dir, "overlay.json")
	ovData, err := os.ReadFile(ovName)
	if err != nil {
		return fmt.Errorf("%w (run scripts/pagescenarios first)", err)
	}
	var ov map[string]map[string]string
	if err := json.Unmarshal(ovData, &ov); err != nil {
		return fmt.Errorf("%s: %w", ovName, err)
	}
	if ov["Replace"] == nil {
		return fmt.Errorf("%s has no Replace", ovName)
	}
	to := filepath.Join(dir, "html_entity.go")
	if err := atomicfile.Write(to, []byte(lazy)); err != nil {
		return err
	}
	ov["Replace"][src] = to
	js, err := json.MarshalIndent(ov, "", "\t")
	if err != nil {
		return err
	}
	return atomicfile.Write(ovName, append(js, '\n'))
}

// lazyCopy is text (html/entity.go) with entityMaps built on first use.
func lazyCopy(text string) (string, error) {
	if strings.Count(text, onceDecl) != 1 {
		return "", fmt.Errorf("no longer declares entityMaps as %q: update scripts/lazyentities", strings.TrimSpace(onceDecl))
	}
	head, body, _ := strings.Cut(text, onceDecl)
	if !strings.HasSuffix(body, onceEnd) || strings.Contains(body, "\nvar ") || strings.Contains(body, "\nfunc ") {
		return "", fmt.Errorf("entityMaps is no longer the file's last declaration: update scripts/lazyentities")
	}
	body = strings.TrimSuffix(body, onceEnd) + buildEnd
	return head + buildDecl + body + lazyOnce, nil
}
