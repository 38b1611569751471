package jdk

// StringHashSet follows a java.util.HashSet<String> (a HashMap's key set)
// through its whole history of add and remove calls, so that its iteration
// order is the JDK's even after removals: a HashMap's table only grows, so
// a set that once held many keys keeps its larger table, and the order of
// what is left depends on it. HashSetOrder covers the simpler case of a set
// filled once.
//
// The rules (java.util.HashMap, JDK 8 and later): new HashSet<>(n) makes a
// table of the power of two at least n on the first add (new HashSet<>()
// makes 16); the table doubles when an add leaves more than 3/4 of it used,
// or when an add puts a ninth key into one bucket while the table has fewer
// than 64 buckets (HashMap.treeifyBin resizes instead of making a tree).
// Iteration walks the buckets in order and each bucket in the order its
// keys were added (a resize splits a bucket keeping that order; a removal
// unlinks one key). Not modelled: a bucket turned into a tree (nine or more
// colliding keys in a table of 64 buckets or more), whose order follows
// the tree's insertion rules.
type StringHashSet struct {
	initial  int
	capacity int // 0 until the first add allocates the table
	keys     []string
	present  map[string]struct{}
}

// NewStringHashSet is new HashSet<String>(initialCapacity); use 16 for the
// no-argument constructor.
func NewStringHashSet(initialCapacity int) *StringHashSet {
	c := 1
	for c < initialCapacity {
		c *= 2
	}
	return &StringHashSet{initial: c, present: map[string]struct{}{}}
}

// Add is HashSet.add: true when the key was not there.
func (s *StringHashSet) Add(key string) bool {
	if _, ok := s.present[key]; ok {
		return false
	}
	if s.capacity == 0 {
		s.capacity = s.initial
	}
	h := StringHashCode(key)
	before := 0
	for _, k := range s.keys {
		if HashBucket(StringHashCode(k), s.capacity) == HashBucket(h, s.capacity) {
			before++
		}
	}
	s.keys = append(s.keys, key)
	s.present[key] = struct{}{}
	if before >= 8 && s.capacity < 64 {
		s.capacity *= 2
	}
	if len(s.keys) > s.capacity*3/4 {
		s.capacity *= 2
	}
	return true
}

// Remove is HashSet.remove: true when the key was there. The table keeps
// its size.
func (s *StringHashSet) Remove(key string) bool {
	if _, ok := s.present[key]; !ok {
		return false
	}
	delete(s.present, key)
	for i, k := range s.keys {
		if k == key {
			s.keys = append(s.keys[:i], s.keys[i+1:]...)
			break
		}
	}
	return true
}

// Contains is HashSet.contains.
func (s *StringHashSet) Contains(key string) bool {
	_, ok := s.present[key]
	return ok
}

// Len is HashSet.size.
func (s *StringHashSet) Len() int { return len(s.keys) }

// Capacity is the table's number of buckets (0 before the first add).
func (s *StringHashSet) Capacity() int { return s.capacity }

// Keys is the set's iteration order.
func (s *StringHashSet) Keys() []string {
	hashes := make([]int32, len(s.keys))
	for i, k := range s.keys {
		hashes[i] = StringHashCode(k)
	}
	out := make([]string, 0, len(s.keys))
	for _, i := range hashOrderIn(hashes, s.capacity) {
		out = append(out, s.keys[i])
	}
	return out
}
