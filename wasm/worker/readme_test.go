package main

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's image that opens the interactive page: its picture is a
// snapshot the Worker answers, and its link opens the same moment.
func TestReadmeSnippetOpens(t *testing.T) {
	readme, err := os.ReadFile(site + "/README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\[!\[[^\]]*\]\(https://YOUR-WORKER/snapshot\.svg\?([^)]*)\)\]\(https://YOUR-WORKER/#([^)]*)\)`).FindStringSubmatch(string(readme))
	if m == nil {
		t.Fatal("the README has no image linking to the interactive page (https://YOUR-WORKER/snapshot.svg?… inside a link to https://YOUR-WORKER/#…)")
	}
	image, link := m[1], m[2]
	if rec := get(t, http.MethodGet, "/snapshot.svg?"+image); rec.Code != http.StatusOK {
		t.Errorf("the README's image: %d %s", rec.Code, rec.Body)
	}
	sorted := func(fields string) string {
		parts := strings.Split(fields, "&")
		slices.Sort(parts)
		return strings.Join(parts, "&")
	}
	if sorted(image) != sorted(link) {
		t.Errorf("the README's image shows %q, its link opens %q", image, link)
	}
}
