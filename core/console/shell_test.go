package console

import (
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	cases := map[string]string{
		`a b  c`:                          "a|b|c",
		`--property key.separator=" => "`: `--property|key.separator= => `,
		`'single quoted' x`:               "single quoted|x",
		`a\ b`:                            "a b",
		`"esc \" q"`:                      `esc " q`,
	}
	for in, want := range cases {
		got, err := splitWords(in)
		if err != nil || strings.Join(got, "|") != want {
			t.Errorf("splitWords(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := splitWords(`"open`); err == nil {
		t.Error("unterminated quote accepted")
	}
}
