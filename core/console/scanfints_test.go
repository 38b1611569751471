package console

import (
	"fmt"
	"slices"
	"testing"
)

// sscanfInts is what scanfInts stands in for.
func sscanfInts(s, format string, verbs int) ([]int, bool) {
	vals := make([]int, verbs)
	ptrs := make([]any, verbs)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n, err := fmt.Sscanf(s, format, ptrs...)
	return vals, n == verbs && err == nil
}

func checkScanfInts(t *testing.T, s, format string, verbs int) {
	t.Helper()
	want, wantOK := sscanfInts(s, format, verbs)
	got, ok := scanfInts(s, format)
	if ok != wantOK || ok && !slices.Equal(got, want) {
		t.Fatalf("scanfInts(%q, %q) = %v, %v; fmt.Sscanf: %v, %v", s, format, got, ok, want, wantOK)
	}
}

// Every string of up to four characters from an alphabet of digits, signs,
// the formats' separators, spaces, newlines, underscores and multi-byte and
// invalid UTF-8 reads the same as with fmt.Sscanf.
func TestScanfIntsMatchesSscanf(t *testing.T) {
	alphabet := []string{"0", "7", "-", "+", ":", " ", "\t", "\n", "\r", "_", "x", "é", "\u3000", "\xff"}
	formats := []struct {
		format string
		verbs  int
	}{{"%2d:%2d", 2}, {"%1d-%3d", 2}, {"%d", 1}, {"%3d", 1}}
	var gen func(prefix string, left int)
	gen = func(prefix string, left int) {
		for _, f := range formats {
			checkScanfInts(t, prefix, f.format, f.verbs)
		}
		if left == 0 {
			return
		}
		for _, c := range alphabet {
			gen(prefix+c, left-1)
		}
	}
	gen("", 4)
	for _, s := range []string{"2024-01-31", "2024- 1-01", "2024-1-011", "+202-01-01", "2024-01-1_", "99999-01-01", "2024-01-01T"} {
		checkScanfInts(t, s, "%4d-%2d-%2d", 3)
	}
	for _, s := range []string{"12:30:45.678", "1 :30:45.678", " 1:30:45.6 8", "12:30:45.-78", "12:30:45.+7", "12:30:4\n.678"} {
		checkScanfInts(t, s, "%2d:%2d:%2d.%3d", 4)
	}
}

func FuzzScanfInts(f *testing.F) {
	for _, s := range []string{"2024-01-31", "2024- 1-01", "+202-\r\n1-01", "12:30:45.678", "1_:30:45.6 8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkScanfInts(t, s, "%4d-%2d-%2d", 3)
		checkScanfInts(t, s, "%2d:%2d:%2d.%3d", 4)
	})
}
