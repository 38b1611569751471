package main

import (
	"strings"
	"testing"
)

// gen is the shape of vugugen's output: the imports it adds to every file
// and the blank variables at the bottom that keep them in use.
const gen = `package ui

import "fmt"
import "reflect"
import "github.com/vugu/vjson"
import "github.com/vugu/vugu"
import js "github.com/vugu/vugu/js"
import "log"

func (c *C) Build(vgin *vugu.BuildIn) (vgout *vugu.BuildOut) {
	vgn.SetInnerHTML(c.t("metalog.tip"))
	BODY
	return vgout
}

// 'fix' unused imports
var _ fmt.Stringer
var _ reflect.Type
var _ vjson.RawMessage
var _ js.Value
var _ log.Logger
`

func TestTrimDropsUnusedImports(t *testing.T) {
	out, err := trim("c_gen.go", []byte(strings.Replace(gen, "BODY", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("import \"github.com/vugu/vjson\"\n", "", "import \"log\"\n", "",
		"var _ vjson.RawMessage\n", "", "var _ log.Logger\n", "", "BODY", "").Replace(gen)
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestTrimKeepsUsedImports(t *testing.T) {
	src := []byte(strings.Replace(gen, "BODY", `log.Println(vjson.RawMessage("x"))`, 1))
	out, err := trim("c_gen.go", src)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(src) {
		t.Fatalf("changed a file that uses log and vjson:\n%s", out)
	}
}

func TestTrimRefusesAnotherLayout(t *testing.T) {
	src := strings.Replace(strings.Replace(gen, "BODY", "", 1), "import \"log\"\n", "import (\n\t\"log\"\n)\n", 1)
	if _, err := trim("c_gen.go", []byte(src)); err == nil {
		t.Fatal("no error for an import line not in vugugen's form")
	}
}
