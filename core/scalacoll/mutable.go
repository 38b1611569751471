package scalacoll

import "kafkascope/core/jdk"

// The iteration order of a Scala 2.13 collection.mutable.HashMap (and
// mutable.HashSet, which has the same table), which Kafka builds for the
// broker, topic and feature znodes and for the ISR-change set. From
// scala/collection/mutable/HashMap.scala and HashSet.scala at v2.13.5:
//   - an element's hash is improveHash(key.##) = h ^ (h >>> 16), and its
//     bucket is hash & (table.length - 1);
//   - each bucket is a list kept sorted by that hash as a signed Int
//     (put0/addElem walk past nodes with n.hash <= hash), so equal hashes
//     keep insertion order;
//   - iteration walks the buckets in index order;
//   - before each insertion of a new key the table doubles if
//     size + 1 >= (length * 0.75).toInt (growTable keeps buckets sorted);
//   - HashMap.from (what a mutable.Map(k -> v, ...) literal calls) sizes the
//     table for its knownSize n as tableSizeFor(((n + 1) / 0.75).toInt),
//     where tableSizeFor(c) = highestOneBit(max(c - 1, 4)) * 2; an empty
//     map or a builder (Set.map) starts at 16.

// MutableOrder is the iteration order of a mutable.HashMap
// (or HashSet) whose keys, of the given key.## values, were added in this
// order: indices into hashes. literalSize is the number of leading keys
// given to the map's constructor (mutable.Map(k1 -> v1, ...)), 0 for a map
// created empty; the rest were added with +=. Repeated keys must already
// be removed (a put that replaces keeps the key's place).
func MutableOrder(hashes []int32, literalSize int) []int {
	length := MutableInitialLength(literalSize)
	// The order depends only on the final table length and, within a
	// bucket, on the hash and then the insertion order, so replay only
	// the growth.
	for size := 0; size < len(hashes); size++ {
		if size+1 >= length*3/4 {
			length *= 2
		}
	}
	type entry struct {
		hash int32
		at   int
	}
	buckets := make([][]entry, length)
	for i, h := range hashes {
		improved := h ^ int32(uint32(h)>>16)
		b := int(uint32(improved) & uint32(length-1))
		bucket := buckets[b]
		pos := len(bucket)
		for pos > 0 && bucket[pos-1].hash > improved {
			pos--
		}
		bucket = append(bucket, entry{})
		copy(bucket[pos+1:], bucket[pos:])
		bucket[pos] = entry{improved, i}
		buckets[b] = bucket
	}
	out := make([]int, 0, len(hashes))
	for _, bucket := range buckets {
		for _, e := range bucket {
			out = append(out, e.at)
		}
	}
	return out
}

// MutableInitialLength is the table length of a new mutable.HashMap:
// HashMap.from's for a literal of n entries, 16 for an empty map.
func MutableInitialLength(n int) int {
	if n <= 0 {
		return 16 // defaultInitialCapacity
	}
	c := int(float64(n+1) / 0.75)
	v := max(c-1, 4)
	hob := 1
	for hob*2 <= v {
		hob *= 2
	}
	return min(hob*2, 1<<30)
}

// MutableStringOrder is MutableOrder for String keys
// (whose ## is String.hashCode): the keys in iteration order.
func MutableStringOrder(keys []string, literalSize int) []string {
	return pickStrings(keys, MutableOrder(StringHashes(keys), literalSize))
}

// StringHashes is String.hashCode of each key.
func StringHashes(keys []string) []int32 {
	hashes := make([]int32, len(keys))
	for i, k := range keys {
		hashes[i] = jdk.StringHashCode(k)
	}
	return hashes
}

// pickStrings is keys reordered by order (indices into keys).
func pickStrings(keys []string, order []int) []string {
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = keys[j]
	}
	return out
}
