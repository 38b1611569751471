package urlquery

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

var seeds = []string{
	"", "embed=1", "lang=ko&scenario=01-replication-basics&step=3", "s=eJyrVspWslIqSi0uzUlRMlQqS8wpTVWqBQBZ2gbg",
	"a=1&a=2&b", "&&=x&", "a;b=1&c=2", "k=%zz&v=ok", "k=%4", "%41%2b+%20=%e3%81%82", "sim=7&config=log.retention.ms%3D1000&faults=3",
	"a=b=c", "+=+", "%", "x=%2", strings.Repeat("&", 10000), strings.Repeat("&", 9999),
}

// Parse reads what url.ParseQuery reads, and fails where it fails.
func check(t *testing.T, q string) {
	t.Helper()
	want, wantErr := url.ParseQuery(q)
	got, err := Parse(q)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, net/url's %v", q, err, wantErr)
	}
	if err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%q: error %q, net/url's %q", q, err, wantErr)
	}
	if !reflect.DeepEqual(map[string][]string(got), map[string][]string(want)) {
		t.Fatalf("%q: read %v, net/url %v", q, got, want)
	}
	if e, w := got.Encode(), want.Encode(); e != w {
		t.Fatalf("%q: encoded %q, net/url %q", q, e, w)
	}
	for k := range want {
		if got.Get(k) != want.Get(k) || !got.Has(k) {
			t.Fatalf("%q: Get(%q) = %q, net/url %q", q, k, got.Get(k), want.Get(k))
		}
	}
}

func TestMatchesNetURL(t *testing.T) {
	for _, q := range seeds {
		check(t, q)
	}
	var all strings.Builder
	for c := 0; c < 256; c++ {
		all.WriteByte(byte(c))
	}
	if got, want := QueryEscape(all.String()), url.QueryEscape(all.String()); got != want {
		t.Fatalf("QueryEscape of every byte:\n %s\nnet/url\n %s", got, want)
	}
	v := Values{}
	v.Set("s", all.String())
	v.Set("lang", "ko")
	w := url.Values{"s": {all.String()}, "lang": {"ko"}}
	if v.Encode() != w.Encode() {
		t.Fatalf("Encode %q, net/url %q", v.Encode(), w.Encode())
	}
}

func FuzzParse(f *testing.F) {
	for _, q := range seeds {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		check(t, q)
		if got, want := QueryEscape(q), url.QueryEscape(q); got != want {
			t.Fatalf("QueryEscape(%q) = %q, net/url %q", q, got, want)
		}
	})
}
