package jdk

import (
	"slices"
	"testing"
)

// Kafka's BaseHashTableTest.testExpectedSizeToCapacity, value for value.
func TestBaseHashTableCapacityAsKafkaTests(t *testing.T) {
	cases := []struct{ expected, want int }{
		{-2147483648, 2}, {-123, 2}, {0, 2}, {1, 2}, {2, 4}, {3, 4}, {4, 8},
		{12, 16}, {13, 32},
		{0x1010400, 0x2000000}, {0x2000000, 0x4000000}, {0x2000001, 0x4000000},
		{1 << 30, 1 << 30}, {1<<30 + 1, 1 << 30}, {2147483646, 1 << 30}, {2147483647, 1 << 30},
	}
	for _, c := range cases {
		if got := BaseHashTableCapacity(c.expected); got != c.want {
			t.Errorf("BaseHashTableCapacity(%d) = %d, want %d", c.expected, got, c.want)
		}
	}
}

// findSlot keeps the top bits of h * -7046029254386353131 (mod 2^64). The
// products were worked out apart from this code: for h = 1 it is
// 0x9E3779B97F4A7C15, for 2 0x3C6EF372FE94F82A, for 3 0xDAA66D2C7DDF743F,
// for 42 0xF519F86EE2385B72 and for -1 (sign-extended) 0x61C8864680B583EB.
func TestBaseHashTableSlot(t *testing.T) {
	cases := []struct {
		h    int32
		want [4]int // capacities 2, 4, 8, 16
	}{
		{1, [4]int{1, 2, 4, 9}},
		{2, [4]int{0, 0, 1, 3}},
		{3, [4]int{1, 3, 6, 13}},
		{42, [4]int{1, 3, 7, 15}},
		{-1, [4]int{0, 1, 3, 6}},
	}
	for _, c := range cases {
		for i, capacity := range []int{2, 4, 8, 16} {
			if got := BaseHashTableSlot(c.h, capacity); got != c.want[i] {
				t.Errorf("BaseHashTableSlot(%d, %d) = %d, want %d", c.h, capacity, got, c.want[i])
			}
		}
	}
}

// Slots in order; the table grows before the third put (3*0.75 > 2).
func TestBaseHashTableOrderFollowsSlotsAndGrowth(t *testing.T) {
	tab := NewBaseHashTable(0)
	tab.Put("a", 1) // slot 1 of 2
	tab.Put("b", 2) // slot 0 of 2
	if got := tab.Keys(); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("two keys: %q", got)
	}
	tab.Put("c", 3) // grows to 4: b 0, a 2, c 3
	if got, cap := tab.Keys(), tab.Capacity(); !slices.Equal(got, []string{"b", "a", "c"}) || cap != 4 {
		t.Errorf("three keys: %q capacity %d", got, cap)
	}
	tab.Put("d", -1) // slot 1 of 4; (3+1)*0.75 = 3 is not > 4
	if got := tab.Keys(); !slices.Equal(got, []string{"b", "d", "a", "c"}) {
		t.Errorf("four keys: %q", got)
	}
	tab.Remove("a")
	if got, n := tab.Keys(), tab.Len(); !slices.Equal(got, []string{"b", "d", "c"}) || n != 3 {
		t.Errorf("after remove: %q len %d", got, n)
	}
}

// Keys sharing a slot come out last-inserted first (CurrentIterator takes
// from the end of the unpacked slot), and a rehash keeps their order.
func TestBaseHashTableSameSlotIteratesInReverse(t *testing.T) {
	tab := NewBaseHashTable(0)
	tab.Put("x", 42)
	tab.Put("y", 42)
	if got := tab.Keys(); !slices.Equal(got, []string{"y", "x"}) {
		t.Errorf("same slot: %q", got)
	}
	tab.Put("z", 42) // grows to 4; all three in slot 3
	if got := tab.Keys(); !slices.Equal(got, []string{"z", "y", "x"}) {
		t.Errorf("after growth: %q", got)
	}
	tab.Remove("y")
	tab.Put("y", 42) // re-added: now last in its slot, so first out
	if got := tab.Keys(); !slices.Equal(got, []string{"y", "z", "x"}) {
		t.Errorf("re-added: %q", got)
	}
}

// The growth check runs before looking the key up, so replacing a key in
// a full table grows it (5 keys in 4 slots, then a replace: 6*0.75 > 4).
func TestBaseHashTableReplaceCanGrow(t *testing.T) {
	tab := NewBaseHashTable(0)
	for _, k := range []string{"k1", "k2", "k3", "k4", "k5"} {
		tab.PutString(k)
	}
	if tab.Capacity() != 4 || tab.Len() != 5 {
		t.Fatalf("5 keys: capacity %d len %d, want 4 and 5", tab.Capacity(), tab.Len())
	}
	tab.PutString("k1")
	if tab.Capacity() != 8 || tab.Len() != 5 {
		t.Errorf("after replacing k1: capacity %d len %d, want 8 and 5", tab.Capacity(), tab.Len())
	}
	if !tab.Contains("k3") || tab.Contains("k9") {
		t.Error("Contains")
	}
}
