package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goroot is the Go installation that runs the tests, as make wasm finds it.
func goroot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// overlayDir is a directory holding an overlay that, like
// scripts/pagescenarios's, already replaces a file, with the lazy copy
// added.
func overlayDir(t *testing.T) (dir, src string) {
	t.Helper()
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "overlay.json"), []byte(`{"Replace": {"a.txt": "b.txt"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	src = filepath.Join(goroot(t), "src", "html", "entity.go")
	if err := write(src, dir); err != nil {
		t.Fatal(err)
	}
	return dir, src
}

// run builds and runs a program of one main.go with go build's -ldflags
// flags and, unless overlay is empty, -overlay; it returns what it printed
// and what the linker printed.
func run(t *testing.T, mainGo, overlay, ldflags string) (out, link string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module lazytest\n\ngo 1.26\n", "main.go": mainGo} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"build", "-o", filepath.Join(dir, "prog"), "-ldflags=" + ldflags}
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	build := exec.Command("go", append(args, ".")...)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	linked, err := build.CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, linked)
	}
	printed, err := exec.Command(filepath.Join(dir, "prog")).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(printed), string(linked)
}

// The overlay keeps the entry it found and adds the copy in place of the
// standard file.
func TestWriteAddsTheCopyToTheOverlay(t *testing.T) {
	dir, src := overlayDir(t)
	data, err := os.ReadFile(filepath.Join(dir, "overlay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		t.Fatal(err)
	}
	if len(ov.Replace) != 2 || ov.Replace["a.txt"] != "b.txt" || ov.Replace[src] != filepath.Join(dir, "html_entity.go") {
		t.Errorf("overlay replaces %v", ov.Replace)
	}
}

// A file that does not declare entityMaps as expected is refused.
func TestLazyCopyRefusesAnotherShape(t *testing.T) {
	for _, text := range []string{
		"package html\n\nvar entityMaps = map[string]rune{}\n",
		"package html\n\n" + onceDecl + "\treturn nil, nil\n})\n\nfunc other() {}\n",
	} {
		if _, err := lazyCopy(text); err == nil {
			t.Errorf("lazyCopy accepted %q", text)
		}
	}
}

// Every character reference unescapes as the standard html does, from
// the copy.
func TestUnescapeIsUnchanged(t *testing.T) {
	dir, src := overlayDir(t)
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`(?m)^\t\t"([A-Za-z0-9]+;?)":`).FindAllStringSubmatch(string(data), -1)
	if len(names) < 2000 {
		t.Fatalf("found %d entity names in %s", len(names), src)
	}
	var all strings.Builder
	for _, n := range names {
		all.WriteString("&" + n[1] + " ")
	}
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"html\"\n)\n\nfunc main() {\n\tfmt.Print(html.UnescapeString(" +
		"`" + all.String() + "`" + "), html.EscapeString(`<a href=\"x\">'&'</a>`))\n}\n"
	want, _ := run(t, prog, "", "")
	got, _ := run(t, prog, filepath.Join(dir, "overlay.json"), "")
	if got != want {
		t.Errorf("with the copy, html unescapes differently")
	}
	if !strings.Contains(want, " é ") || !strings.Contains(want, " ≂̸ ") || !strings.HasSuffix(want, "&lt;a href=&#34;x&#34;&gt;&#39;&amp;&#39;&lt;/a&gt;") {
		t.Errorf("the test program printed %.200q...", want)
	}
}

// A program that only escapes leaves the table out with the copy, and
// keeps it without.
func TestEscapeOnlyLeavesTheTableOut(t *testing.T) {
	dir, _ := overlayDir(t)
	prog := "package main\n\nimport (\n\t\"fmt\"\n\t\"html\"\n)\n\nfunc main() {\n\tfmt.Print(html.EscapeString(\"<&>\"))\n}\n"
	_, lazy := run(t, prog, filepath.Join(dir, "overlay.json"), "-dumpdep")
	if strings.Contains(lazy, "html.buildEntityMaps") || strings.Contains(lazy, "html.entityMaps") {
		t.Error("the table is linked in a program that never unescapes")
	}
	_, eager := run(t, prog, "", "-dumpdep")
	if !strings.Contains(eager, "html.entityMaps") {
		t.Error("without the copy, the linker no longer keeps entityMaps: scripts/lazyentities may have no use any more")
	}
}
