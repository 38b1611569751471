package storage

import (
	"path"
	"testing"
)

// isClean agrees with path.Clean on paths with and without the patterns
// its fast path looks for.
func TestIsCleanAgreesWithPathClean(t *testing.T) {
	for _, p := range []string{
		"/", "/a", "/a/b", "/var/lib/kafka/data/orders-0/00000000000000000000.log",
		"/a/.lock", "/a/.kafka_cleanshutdown", "/a/..b", "/a/b.", "/.a/b",
		"/a/./b", "/a/../b", "/a/.", "/a/..", "/.", "/..", "//a", "/a//b", "/a/",
		"a", "", "a/b", "./a", "/a/b/",
	} {
		want := p != "" && p[0] == '/' && path.Clean(p) == p
		if got := isClean(p); got != want {
			t.Errorf("isClean(%q) = %v, want %v", p, got, want)
		}
	}
}
