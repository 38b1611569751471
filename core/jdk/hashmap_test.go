package jdk

import (
	"slices"
	"testing"
)

// A HashSet<String> of these ids iterates in this order (measured on JDK 17
// for the tools research).
func TestHashSetOrderMeasured(t *testing.T) {
	names := []string{"g1", "g2", "group", "my-group", "test-group", "console-consumer-12345"}
	want := []string{"my-group", "console-consumer-12345", "test-group", "g1", "g2", "group"}
	if got := HashSetOrder(names); !slices.Equal(got, want) {
		t.Errorf("HashSetOrder = %q, want %q", got, want)
	}
}

// The rules of HashMap's table, worked by hand from its documented
// constants (DEFAULT_INITIAL_CAPACITY 16, DEFAULT_LOAD_FACTOR 0.75) and
// HashMap.hash (h ^ h>>>16) masked by the table size.
func TestHashSetOrderFollowsTheTable(t *testing.T) {
	cases := []struct {
		name       string
		keys, want []string
	}{
		// hashCodes 97, 98, 99: buckets 1, 2, 3 whatever the insertion order.
		{"by bucket", []string{"c", "a", "b"}, []string{"a", "b", "c"}},
		// "Aa" and "BB" share hashCode 2112 (bucket 0): insertion order.
		{"collision keeps insertion order", []string{"BB", "Aa", "a"}, []string{"BB", "Aa", "a"}},
		{"collision keeps insertion order, reversed", []string{"Aa", "BB"}, []string{"Aa", "BB"}},
		// 'a' = 97 and 'q' = 113 share bucket 1 of 16 (113 & 15 = 1) but not
		// of 32 (97 & 31 = 1, 113 & 31 = 17): a thirteenth key grows the
		// table to 32 buckets, and "q" moves after "b".."l".
		{"twelve keys, 16 buckets", []string{"q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"},
			[]string{"q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"}},
		{"thirteen keys, 32 buckets", []string{"q", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"},
			[]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "q"}},
		{"empty", nil, []string{}},
	}
	for _, c := range cases {
		if got := HashSetOrder(c.keys); !slices.Equal(got, c.want) {
			t.Errorf("%s: HashSetOrder(%q) = %q, want %q", c.name, c.keys, got, c.want)
		}
	}
}

// The table doubles when a put leaves more than 3/4 of it used.
func TestHashCapacity(t *testing.T) {
	for n, want := range map[int]int{0: 16, 1: 16, 12: 16, 13: 32, 24: 32, 25: 64, 48: 64, 49: 128, 100: 256} {
		if got := HashCapacity(n); got != want {
			t.Errorf("HashCapacity(%d) = %d, want %d", n, got, want)
		}
	}
}

// The high half of the hash is folded into the low one before masking.
func TestHashBucketSpreadsTheHighBits(t *testing.T) {
	cases := []struct {
		h          int32
		capacity   int
		wantBucket int
	}{
		{97, 16, 1},
		{97, 32, 1},
		{113, 16, 1},
		{113, 32, 17},
		{0x10000, 16, 1},   // 0x10000 ^ 1
		{-1, 16, 0},        // 0xFFFFFFFF ^ 0x0000FFFF = 0xFFFF0000
		{-1 << 16, 16, 15}, // 0xFFFF0000 ^ 0x0000FFFF
	}
	for _, c := range cases {
		if got := HashBucket(c.h, c.capacity); got != c.wantBucket {
			t.Errorf("HashBucket(%d, %d) = %d, want %d", c.h, c.capacity, got, c.wantBucket)
		}
	}
}

// HashOrder gives indices, in bucket order and insertion order within one.
func TestHashOrderIndices(t *testing.T) {
	if got := HashOrder([]int32{3, 1, 17, 1, 0}); !slices.Equal(got, []int{4, 1, 2, 3, 0}) {
		t.Errorf("HashOrder = %v", got)
	}
}

// A ConcurrentHashMap doubles its 16 buckets at the 12th key, a HashMap
// at the 13th: keys 1 and 17 share bucket 1 of 16 and are apart in 32.
func TestConcurrentHashOrder(t *testing.T) {
	hashes := []int32{17, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if got := ConcurrentHashOrder(hashes, 0); got[0] != 0 || got[1] != 1 {
		t.Fatalf("11 keys in 16 buckets: 17 then 1 (bucket 1, insertion order), got %v", got)
	}
	if got := ConcurrentHashOrder(append(hashes, 11), 0); got[0] != 1 || got[len(got)-1] != 0 {
		t.Fatalf("12 keys in 32 buckets: 1 first, 17 last, got %v", got)
	}
	if got := HashOrder(append(hashes, 11)); got[0] != 0 {
		t.Fatalf("a HashMap keeps 16 buckets for 12 keys, got %v", got)
	}
	if got := ConcurrentHashOrder(hashes[:2], 12); got[0] != 1 {
		t.Fatalf("the table never shrinks: got %v", got)
	}
}
