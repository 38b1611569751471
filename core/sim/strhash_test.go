package sim

import (
	"strconv"
	"strings"
	"testing"
)

// The memo gives every string its own hash, whatever shares its bytes'
// address: substrings (same start, other lengths), strings made and
// dropped, and more strings than it has entries.
func TestStringHashesAreTheStringsOwn(t *testing.T) {
	var m stringHashes
	long := strings.Repeat("kafka-1:9092 Fetch ", 20)
	var all []string
	for n := 0; n <= len(long); n++ {
		all = append(all, long[:n]) // one address, every length
	}
	for i := range 2000 {
		all = append(all, "broker-"+strconv.Itoa(i), long[i%len(long):])
	}
	for round := range 3 {
		for _, s := range all {
			if got, want := m.of(s), hashString(s); got != want {
				t.Fatalf("round %d: %q hashed %x, its bytes hash %x", round, s, got, want)
			}
		}
	}
	if hashString("ab") == hashString("abc") || hashString("") == hashString("\x00") {
		t.Fatal("a string's hash ignores its length")
	}
}
