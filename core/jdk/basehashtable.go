package jdk

import "math"

// The iteration order of Kafka's org.apache.kafka.timeline.TimelineHashMap
// (and TimelineHashSet), which keeps its current entries in a
// BaseHashTable (server-common, Kafka 4.3: BaseHashTable.java,
// SnapshottableHashTable.java). The group coordinator keeps a group's
// members, its server-assignor counts and its targets in such maps, and the
// assignors see the members in the map's order, so the simulator replays
// the table rather than sorting.
//
// The table is not java.util.HashMap's:
//   - a key's slot is the top log2(capacity) bits of the 64-bit product
//     hashCode * -7046029254386353131 (Fibonacci hashing; findSlot), not
//     the low bits of a spread hash;
//   - the capacity (a power of two, at least 2) doubles before an add or
//     replace when (size+1)*0.75 > capacity (baseAddOrReplace), so a put
//     that only replaces an existing key can still grow the table; it never
//     shrinks;
//   - colliding keys share a slot in insertion order (a rehash keeps that
//     order, since a slot's keys can only move to the two slots it splits
//     into), but the current-state iterator (CurrentIterator.next) takes
//     each slot's keys from the last one: iteration walks the slots in
//     order and each slot in reverse insertion order.
//
// Not modelled: iteration at an older snapshot epoch (HistoricalIterator),
// which also merges the snapshot tiers, and reverting to a snapshot.

// BaseHashTable replays a TimelineHashMap's puts and removes, keyed by
// string with the key's hashCode supplied, and reports the order its
// current-state iterator gives. The zero value is not usable; call
// NewBaseHashTable.
type BaseHashTable struct {
	slots [][]string
	size  int
	index map[string]int32 // key -> hashCode, for Contains and Remove
}

// BaseHashTable.MIN_CAPACITY and MAX_CAPACITY.
const (
	BaseHashTableMinCapacity = 2
	BaseHashTableMaxCapacity = 1 << 30
)

// NewBaseHashTable is new TimelineHashMap<>(registry, expectedSize): the
// table starts with the power of two at least ceil(expectedSize/0.75), and
// at least 2 slots (expectedSizeToCapacity). Kafka's group coordinator
// passes 0.
func NewBaseHashTable(expectedSize int) *BaseHashTable {
	return &BaseHashTable{
		slots: make([][]string, BaseHashTableCapacity(expectedSize)),
		index: map[string]int32{},
	}
}

// BaseHashTableCapacity is BaseHashTable.expectedSizeToCapacity: the
// power of two at least ceil(expectedSize / 0.75), at least 2 and at most
// 2^30.
func BaseHashTableCapacity(expectedSize int) int {
	// Java divides the int, rounded to a float, by the double 0.75.
	minCapacity := int64(math.Ceil(float64(float32(expectedSize)) / 0.75))
	capacity := int64(1)
	for capacity < minCapacity && capacity < BaseHashTableMaxCapacity {
		capacity *= 2
	}
	return int(max(BaseHashTableMinCapacity, capacity))
}

// BaseHashTableSlot is BaseHashTable.findSlot: the slot of a key whose
// hashCode is h in a table of capacity slots (a power of two, at least 2).
// Java multiplies the int, widened to a long, by -7046029254386353131
// (wrapping), and keeps the top log2(capacity) bits of the product.
func BaseHashTableSlot(h int32, capacity int) int {
	bits := 0
	for 1<<bits < capacity {
		bits++
	}
	const fib = -7046029254386353131
	product := uint64(int64(h) * fib)
	return int(product >> (64 - bits))
}

// Capacity is the table's current number of slots.
func (t *BaseHashTable) Capacity() int { return len(t.slots) }

// Len is the number of keys in the table.
func (t *BaseHashTable) Len() int { return t.size }

// Contains reports whether key is in the table.
func (t *BaseHashTable) Contains(key string) bool {
	_, ok := t.index[key]
	return ok
}

// Put is TimelineHashMap.put (baseAddOrReplace) of a key whose hashCode is
// h. The growth check runs first, on size+1, whether or not key is new; a
// replaced key keeps its place in its slot.
func (t *BaseHashTable) Put(key string, h int32) {
	if float64(t.size+1)*0.75 > float64(len(t.slots)) && len(t.slots) < BaseHashTableMaxCapacity {
		t.rehash(len(t.slots) * 2)
	}
	if _, ok := t.index[key]; ok {
		return
	}
	slot := BaseHashTableSlot(h, len(t.slots))
	t.slots[slot] = append(t.slots[slot], key)
	t.index[key] = h
	t.size++
}

// PutString is Put with h = String.hashCode(key), as for TimelineHashMap<String, V>.
func (t *BaseHashTable) PutString(key string) { t.Put(key, StringHashCode(key)) }

// Remove is TimelineHashMap.remove (baseRemove): the key leaves its slot,
// the others in the slot keep their order, and the capacity stays.
func (t *BaseHashTable) Remove(key string) {
	h, ok := t.index[key]
	if !ok {
		return
	}
	slot := BaseHashTableSlot(h, len(t.slots))
	keys := t.slots[slot]
	for i, k := range keys {
		if k == key {
			t.slots[slot] = append(keys[:i:i], keys[i+1:]...)
			break
		}
	}
	delete(t.index, key)
	t.size--
}

// rehash is BaseHashTable.rehash: the old slots are unpacked in order and
// each key appended to its new slot.
func (t *BaseHashTable) rehash(capacity int) {
	old := t.slots
	t.slots = make([][]string, capacity)
	for _, keys := range old {
		for _, k := range keys {
			slot := BaseHashTableSlot(t.index[k], capacity)
			t.slots[slot] = append(t.slots[slot], k)
		}
	}
}

// Keys is the order in which the map's current-state iterator (keySet,
// values, entrySet, forEach) returns the keys: slot by slot, and within a
// slot from the last inserted key to the first.
func (t *BaseHashTable) Keys() []string {
	out := make([]string, 0, t.size)
	for _, keys := range t.slots {
		for i := len(keys) - 1; i >= 0; i-- {
			out = append(out, keys[i])
		}
	}
	return out
}
