package pagemin

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func readRepo(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func minified(t *testing.T, name string, data []byte) string {
	t.Helper()
	out, err := Minify(name, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) >= len(data) {
		t.Errorf("%s: %d bytes minified, %d as it is", name, len(out), len(data))
	}
	return string(out)
}

func TestApplies(t *testing.T) {
	for name, want := range map[string]bool{
		"index.html": true, "public/style.css": true, "public/wasm_exec.js": true, "public/STYLE.CSS": true,
		"public/main.wasm": false, "public/favicon.svg": false, "public/main.wasm.br": false, "README": false,
	} {
		if got := Applies(name); got != want {
			t.Errorf("Applies(%q) = %v, want %v", name, got, want)
		}
	}
	data := []byte("\x00asm not text")
	if out, err := Minify("public/main.wasm", data); err != nil || string(out) != string(data) {
		t.Errorf("Minify(main.wasm) = %q, %v; want it as it is", out, err)
	}
}

// The page minified keeps every id and class the engine and the tests look
// for, the meta tag make dist fills in, and the loader's strings.
func TestPage(t *testing.T) {
	src := readRepo(t, "index.html")
	out := minified(t, "index.html", src)
	for _, want := range []string{
		`<meta name="kafkascope-wasm-bytes" content>`, `id="status"`, `data-state="loading"`, `id="app"`,
		`<script src="public/wasm_exec.js"></script>`, `"public/main.wasm"`, `"kafkascope:fetch"`,
		"X-Decoded-Content-Length", `rel="preload"`, "</body></html>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("minified index.html has no %s", want)
		}
	}
	if strings.Contains(out, "<!--") || strings.Contains(out, "    ") {
		t.Error("minified index.html still has comments or indentation")
	}
	// make dist fills the tag in before minifying; the number stays quoted.
	filled := strings.Replace(string(src), `content="">`, `content="13302480">`, 1)
	if out := minified(t, "index.html", []byte(filled)); !strings.Contains(out, `<meta name="kafkascope-wasm-bytes" content="13302480">`) {
		t.Error("make dist's filled-in meta tag did not survive")
	}
}

// Minified, the stylesheets keep every class, id and custom property.
func TestStylesheets(t *testing.T) {
	names := regexp.MustCompile(`[.#][a-zA-Z_][\w-]*|--[\w-]+`)
	comment := regexp.MustCompile(`(?s)/\*.*?\*/`)
	for _, name := range []string{"public/style.css", "public/diagram.css"} {
		src := readRepo(t, name)
		out := minified(t, name, src)
		got := names.FindAllString(out, -1)
		for _, want := range names.FindAllString(comment.ReplaceAllString(string(src), ""), -1) {
			if !slices.Contains(got, want) && !isNumber(want) {
				t.Errorf("%s minified lost %s", name, want)
			}
		}
		if strings.Contains(out, "/*") {
			t.Errorf("%s minified still has comments", name)
		}
	}
}

// isNumber reports a match like ".5" (a number, which minifying may write
// differently), not a class.
func isNumber(s string) bool { return strings.Trim(s[1:], "0123456789") == "" }

// Go's wasm_exec.js minified still defines globalThis.Go with the import
// object the loader hands to the engine.
func TestWasmExec(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	out := minified(t, "wasm_exec.js", src)
	for _, want := range []string{"globalThis.Go", "importObject", "gojs:", "runtime.wasmExit", "syscall/js.valueGet", "_resume"} {
		if !strings.Contains(out, want) {
			t.Errorf("minified wasm_exec.js has no %s", want)
		}
	}
	if len(out) > len(src)*2/3 {
		t.Errorf("wasm_exec.js minified is %d bytes of %d", len(out), len(src))
	}
}
