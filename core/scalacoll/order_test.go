package scalacoll

import (
	"strconv"
	"strings"
	"testing"
)

// The table length HashMap.from gives a literal: tableSizeFor(((n+1)/0.75).toInt).
func TestScalaMutableInitialLength(t *testing.T) {
	for n, want := range map[int]int{0: 16, 1: 8, 3: 8, 4: 8, 5: 8, 6: 16, 11: 16, 12: 32} {
		if got := MutableInitialLength(n); got != want {
			t.Errorf("n=%d: %d, want %d", n, got, want)
		}
	}
}

// Keys with equal hashes stay in insertion order, in both kinds of map
// ("Aa" and "BB" share String.hashCode 2112).
func TestEqualHashesKeepInsertionOrder(t *testing.T) {
	keys := []string{"BB", "Aa", "AaBB", "BBAa", "AaAa", "BBBB"} // the last four share one hash too
	for _, order := range [][]string{MutableStringOrder(keys, 0), ImmutableStringOrder(keys)} {
		pos := map[string]int{}
		for i, k := range order {
			pos[k] = i
		}
		if pos["BB"] > pos["Aa"] || pos["AaBB"] > pos["BBAa"] || pos["BBAa"] > pos["AaAa"] || pos["AaAa"] > pos["BBBB"] {
			t.Fatalf("order %v", order)
		}
	}
}

// A CHAMP trie lists a node's own keys before its sub-nodes, both by the
// 5-bit branch of the improved hash: small Ints come out of order once a
// Map or Set has five of them, and always out of a groupBy.
func TestHashTrieOrderOfInts(t *testing.T) {
	for _, c := range []struct {
		n    int
		from int
		want string
		trie bool // HashTrieOrder (groupBy) rather than ImmutableOrder
	}{
		{4, 1, "1 2 3 4", false},
		{5, 1, "5 1 2 3 4", false},
		{6, 1, "5 1 6 2 3 4", false},
		{10, 0, "0 5 1 6 9 2 7 3 8 4", false},
		{2, 1, "1 2", true},
	} {
		hashes := make([]int32, c.n)
		for i := range hashes {
			hashes[i] = int32(c.from + i)
		}
		order := ImmutableOrder(hashes)
		if c.trie {
			order = HashTrieOrder(hashes)
		}
		got := make([]string, len(order))
		for i, j := range order {
			got[i] = strconv.Itoa(int(hashes[j]))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("%d ints from %d: %s, want %s", c.n, c.from, g, c.want)
		}
	}
	if got := strings.Join(pickStrings([]string{"foo", "bar", "baz"}, HashTrieOrder(StringHashes([]string{"foo", "bar", "baz"}))), " "); got != "bar baz foo" {
		t.Errorf("groupBy of foo, bar, baz: %s", got)
	}
}
