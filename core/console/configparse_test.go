package console

import (
	"fmt"
	"testing"

	"kafkascope/core/release"
)

// The cases are ConfigCommand's measured behaviour (Java regex on JDK 17).
func TestParseAddConfigLikeConfigCommand(t *testing.T) {
	ok := map[string]string{
		"k1=v1,k2=[a,b],k3=v3": "k1=v1|k2=a,b|k3=v3",
		"a = b , c=d":          "a=b|c=d",
		"a=":                   "a=",
		"k=[a=b]":              "k=a=b",
		"k=x[y]z":              "k=xyz",
		"k=[a, b], j=c":        "k=a, b|j=c",
		"a=b,":                 "a=b",
		"a=b,=c":               "a=b|=c",
		"a=1,a=2":              "a=2",
	}
	for in, want := range ok {
		keys, vals, err := parseAddConfig(in, release.Version{Major: 3, Minor: 8})
		if err != "" {
			t.Errorf("%q: unexpected error %s", in, err)
			continue
		}
		got := ""
		for i, k := range keys {
			if i > 0 {
				got += "|"
			}
			got += fmt.Sprintf("%s=%s", k, vals[k])
		}
		if got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
	for _, in := range []string{"a=b=c", "a", "", "a=b,,c=d", "a,=b", ",a=b", "k=[a,b", "k=a,b]", "k=[a,[b,c]]"} {
		if _, _, err := parseAddConfig(in, release.Version{Major: 3, Minor: 8}); err != addConfigFormatError {
			t.Errorf("%q: error %q, want the format error", in, err)
		}
	}
	if _, _, err := parseAddConfig("a;c=b", release.Version{Major: 3, Minor: 8}); err != "Invalid character found for config key: a;c" {
		t.Errorf("bad key: %q", err)
	}
}
