package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/player"
	"kafkascope/core/transcript"
)

func repoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// section is the README's text under a "## " heading, up to the next one.
func section(t *testing.T, readme, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("the README has no section %q", heading)
	}
	body, _, _ := strings.Cut(rest, "\n## ")
	return body
}

// The README tells a newcomer the two commands first, and a workshop host
// exactly the files the page loads, which make dist copies: none missing,
// none extra.
func TestReadmeCommandsAndHostedFiles(t *testing.T) {
	readme := repoFile(t, "README.md")
	first := strings.Join(strings.SplitN(readme, "\n", 6)[:5], "\n")
	for _, cmd := range []string{"make serve", "make test"} {
		if !strings.Contains(first, cmd) {
			t.Errorf("the README's first lines do not give %q:\n%s", cmd, first)
		}
	}

	loads := regexp.MustCompile(`(?:src|href)="(public/[^"]+)"|"(public/[^"]+\.wasm)"`).FindAllStringSubmatch(repoFile(t, "index.html"), -1)
	page := []string{"index.html"}
	for _, m := range loads {
		page = append(page, m[1]+m[2])
	}
	// What a host sends in main.wasm's place, to browsers that accept gzip or brotli.
	page = append(page, "public/main.wasm.gz", "public/main.wasm.br")
	slices.Sort(page)
	page = slices.Compact(page) // main.wasm is named by its preload and by the loader

	host := section(t, readme, "Host it for a workshop")
	listed := regexp.MustCompile(`(?m)^    ((?:public/)?[\w.]+\.(?:html|css|svg|js|wasm|gz|br))\b`).FindAllStringSubmatch(host, -1)
	var readmeFiles []string
	for _, m := range listed {
		readmeFiles = append(readmeFiles, m[1])
	}
	slices.Sort(readmeFiles)
	if !slices.Equal(readmeFiles, page) {
		t.Errorf("the README lists %q for a static host; the page loads %q", readmeFiles, page)
	}

	mk := repoFile(t, "Makefile")
	dist := regexp.MustCompile(`(?m)^DIST_PUBLIC = (.*)$`).FindStringSubmatch(mk)
	if dist == nil {
		t.Fatal("the Makefile has no DIST_PUBLIC")
	}
	expand := strings.NewReplacer("$(WASM_EXEC)", "public/wasm_exec.js", "$(WASM_OUT).gz", "public/main.wasm.gz", "$(WASM_OUT).br", "public/main.wasm.br", "$(WASM_OUT)", "public/main.wasm")
	copied := append(strings.Fields(expand.Replace(dist[1])), "index.html")
	slices.Sort(copied)
	if !slices.Equal(copied, page) {
		t.Errorf("make dist copies %q; the page loads %q", copied, page)
	}
}

// The README's embed example is what Copy embed code gives for it.
func TestReadmeEmbedExample(t *testing.T) {
	readme := section(t, repoFile(t, "README.md"), "Embed it in a blog")
	m := regexp.MustCompile("(?s)```html\n(.*?)\n```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("no html example in the README's embed section")
	}
	example := strings.Join(strings.Fields(m[1]), " ")
	p := player.New()
	p.Boot("", "#scenario=04-isr&step=2&lang=en")
	if want := p.EmbedSnippet("https://example.org/kafkascope/", player.EmbedWidthMax, player.EmbedHeight); example != want {
		t.Errorf("the README's embed example:\n%s\nCopy embed code gives:\n%s", example, want)
	}
}

// The README's terminal example is a transcript, and the engine prints it.
func TestReadmeTerminalExample(t *testing.T) {
	readme := section(t, repoFile(t, "README.md"), "Try it in a terminal")
	m := regexp.MustCompile("(?s)```\n(.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("no example in the README's terminal section")
	}
	tr, err := transcript.Parse(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Commands()) < 5 {
		t.Fatalf("the example has %d commands", len(tr.Commands()))
	}
	_, bad, _ := console.RunTranscript(tr, nil)
	for _, mm := range bad {
		t.Errorf("$ %s prints\n%s\nthe README says\n%s", mm.Cmd.Cmd, strings.Join(mm.Actual, "\n"), strings.Join(mm.Cmd.Expected, "\n"))
	}
}
