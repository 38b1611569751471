// Package pagemin minifies the page's text files, index.html, the
// stylesheets and wasm_exec.js, for sending: scripts/serve minifies them
// as it serves them (make serve), and make dist writes minified copies.
// The sources stay as they are, readable and commented.
//
// Why: after the engine, these files are most of what a first visit
// downloads. Minified they are about a third smaller in brotli (22.4 KB
// against 15.2 KB for the four files of Kafka 3.8's page): comments and
// indentation go, and wasm_exec.js's local names are shortened.
//
// The minifier is github.com/tdewolff/minify/v2, set to change nothing a
// script or a selector could see: the HTML keeps its document and end
// tags and its attributes' quotes (make dist's index.html carries a meta
// tag that the loader reads back), and its inline script is minified as
// JavaScript. Minified, every file means what it meant: the browser
// tests load the page from minified files (scripts/e2e).
package pagemin

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/tdewolff/minify/v2"
	"github.com/tdewolff/minify/v2/css"
	"github.com/tdewolff/minify/v2/html"
	"github.com/tdewolff/minify/v2/js"
)

// mediaTypes are the minifiable files' types, by extension.
var mediaTypes = map[string]string{
	".html": "text/html",
	".css":  "text/css",
	".js":   "text/javascript",
}

// minifier is shared: a minify.M is safe for concurrent use once set up.
var minifier = func() *minify.M {
	m := minify.New()
	m.Add("text/html", &html.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepQuotes: true})
	m.AddFunc("text/css", css.Minify)
	// Inline <script> blocks come with their own type, or none (JavaScript).
	m.AddFuncRegexp(regexp.MustCompile(`^(application|text)/(x-)?(java|ecma)script$`), js.Minify)
	return m
}()

// Applies reports whether Minify changes files named name (by extension:
// .html, .css and .js).
func Applies(name string) bool {
	_, ok := mediaTypes[strings.ToLower(path.Ext(name))]
	return ok
}

// Minify returns data, the contents of the file named name, minified; a
// file Applies does not cover is returned as it is. An error means data
// does not parse as what its name says (the file is then best sent as it
// is).
func Minify(name string, data []byte) ([]byte, error) {
	mediaType, ok := mediaTypes[strings.ToLower(path.Ext(name))]
	if !ok {
		return data, nil
	}
	var out bytes.Buffer
	out.Grow(len(data))
	if err := minifier.Minify(mediaType, &out, bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("minifying %s: %w", name, err)
	}
	return out.Bytes(), nil
}
