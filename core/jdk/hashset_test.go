package jdk

import (
	"reflect"
	"testing"
)

// A set filled once iterates as HashSetOrder says (default capacity 16).
func TestStringHashSetMatchesHashSetOrder(t *testing.T) {
	keys := []string{"zookeeper", "brokers", "admin", "config", "controller", "controller_epoch", "isr_change_notification", "latest_producer_id_block", "log_dir_event_notification", "cluster", "consumers", "feature", "topics"}
	s := NewStringHashSet(16)
	for _, k := range keys {
		s.Add(k)
	}
	if got, want := s.Keys(), HashSetOrder(keys); !reflect.DeepEqual(got, want) {
		t.Fatalf("Keys() = %v, HashSetOrder = %v", got, want)
	}
}

// new HashSet<>(8) starts with 8 buckets and doubles on the seventh key;
// removals never shrink the table.
func TestStringHashSetGrowsAndKeepsCapacity(t *testing.T) {
	s := NewStringHashSet(8)
	if s.Capacity() != 0 {
		t.Fatalf("capacity before first add = %d", s.Capacity())
	}
	for i, k := range []string{"a", "b", "c", "d", "e", "f"} {
		s.Add(k)
		if s.Capacity() != 8 {
			t.Fatalf("after %d keys capacity = %d, want 8", i+1, s.Capacity())
		}
	}
	s.Add("g")
	if s.Capacity() != 16 {
		t.Fatalf("after 7 keys capacity = %d, want 16", s.Capacity())
	}
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		s.Remove(k)
	}
	if s.Capacity() != 16 || s.Len() != 1 || !s.Contains("g") {
		t.Fatalf("after removals: capacity %d len %d", s.Capacity(), s.Len())
	}
	if s.Add("g") || !s.Remove("g") || s.Remove("g") {
		t.Fatal("Add/Remove return values")
	}
}

// Order is by bucket of the current table: "a" (97) and "q" (113) share
// bucket 1 of 16 and keep their insertion order; with 8 buckets "i" (105)
// also lands in bucket 1.
func TestStringHashSetOrderAfterRemoval(t *testing.T) {
	s := NewStringHashSet(8)
	for _, k := range []string{"q", "i", "a", "b"} {
		s.Add(k)
	}
	if got, want := s.Keys(), []string{"q", "i", "a", "b"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Keys() = %v, want %v", got, want)
	}
	s.Remove("q")
	s.Add("q")
	if got, want := s.Keys(), []string{"i", "a", "q", "b"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Keys() = %v, want %v", got, want)
	}
}

func TestDateToString(t *testing.T) {
	if got, want := DateToString(0), "Thu Jan 01 00:00:00 UTC 1970"; got != want {
		t.Fatalf("DateToString(0) = %q, want %q", got, want)
	}
	if got, want := DateToString(1700000000123), "Tue Nov 14 22:13:20 UTC 2023"; got != want {
		t.Fatalf("DateToString = %q, want %q", got, want)
	}
}
