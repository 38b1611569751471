package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMinifyFile(t *testing.T) {
	dir := t.TempDir()
	css := filepath.Join(dir, "style.css")
	if err := os.WriteFile(css, []byte("/* theme */\nbody {\n  margin: 0;\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := minifyFile(css, &out); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(css); string(got) != "body{margin:0}" {
		t.Errorf("style.css is %q", got)
	}
	if !strings.Contains(out.String(), "14 bytes minified, 34 as written") {
		t.Errorf("said %q", out.String())
	}

	// Not a page text file: refused, and left as it is.
	svg := filepath.Join(dir, "favicon.svg")
	if err := os.WriteFile(svg, []byte("<svg> </svg>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := minifyFile(svg, io.Discard); err == nil {
		t.Error("minified an .svg")
	}
	if got, _ := os.ReadFile(svg); string(got) != "<svg> </svg>" {
		t.Errorf("favicon.svg is %q", got)
	}
	if err := minifyFile(filepath.Join(dir, "missing.js"), io.Discard); err == nil {
		t.Error("no error for a missing file")
	}
}
