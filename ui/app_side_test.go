package ui

import (
	"os"
	"strings"
	"testing"
)

// The side column says when it holds the story (side-story), and the
// stylesheet keys the story's compact feed on that class, not on
// .side:has(.story): a :has() over the side column made the browser
// restyle every line of the feed whenever a render inserted nodes.
func TestSideColumnMarksTheStory(t *testing.T) {
	for _, c := range []struct {
		hash  string
		story bool
	}{
		{"#scenario=01-replication-basics", true},
		{"", false},
	} {
		at := newAppTest(t, "", c.hash)
		doc := at.render(nil)
		sides := doc.byClass("side")
		if len(sides) != 1 {
			t.Fatalf("%q: %d side columns", c.hash, len(sides))
		}
		if got := len(doc.byClass("side-story")) == 1; got != c.story {
			t.Errorf("%q: side-story %v, want %v (a story shown: %d)", c.hash, got, c.story, len(doc.byClass("story")))
		}
	}
	css, err := os.ReadFile("../public/style.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{".side:has(.story) .feed-list", ".side:has(.story) .feed-text"} {
		if strings.Contains(string(css), sel) {
			t.Errorf("public/style.css still selects %q", sel)
		}
	}
}
