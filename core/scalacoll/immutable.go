package scalacoll

// The iteration order of a Scala 2.13 immutable Map (and Set), which Kafka
// builds with Map(k -> v, ...) literals and .toMap / .toSet. From
// scala/collection/immutable/Map.scala, Set.scala and HashMap.scala at
// v2.13.5:
//   - up to four entries it is a Map1..Map4 (Set1..Set4), which iterates
//     in insertion order (the builder keeps the small maps until a fifth
//     key arrives);
//   - from five entries it is a CHAMP HashMap: each key's hash is
//     Hashing.improve(key.##), a trie node branches on 5 bits of it from
//     the lowest up, and a node lists its own entries (keys alone in their
//     branch) in branch order before its sub-nodes in branch order;
//     iteration is depth first. Keys whose 32-bit hashes are all equal end
//     in a collision node, which keeps insertion order.

// ImmutableOrder is the iteration order of an immutable Map (or
// Set) whose distinct keys, of the given key.## values, were added in
// this order: indices into hashes.
func ImmutableOrder(hashes []int32) []int {
	idx := make([]int, len(hashes))
	for i := range idx {
		idx[i] = i
	}
	if len(hashes) <= 4 {
		return idx
	}
	improved := make([]uint32, len(hashes))
	for i, h := range hashes {
		improved[i] = uint32(scalaImprove(h))
	}
	return champOrder(idx, improved, 0)
}

// HashTrieOrder is the iteration order of a CHAMP HashMap of any size,
// as groupBy builds it (IterableOps.groupBy adds each key to an
// immutable.HashMap, never a Map1..Map4): indices into hashes.
func HashTrieOrder(hashes []int32) []int {
	idx := make([]int, len(hashes))
	improved := make([]uint32, len(hashes))
	for i, h := range hashes {
		idx[i] = i
		improved[i] = uint32(scalaImprove(h))
	}
	return champOrder(idx, improved, 0)
}

// champOrder orders the keys idx that share the branch down to shift: the
// node's own entries first, then each sub-node, both by branch.
func champOrder(idx []int, improved []uint32, shift uint) []int {
	if shift >= 32 {
		return idx // a collision node: insertion order
	}
	var branches [32][]int
	for _, i := range idx {
		b := (improved[i] >> shift) & 31
		branches[b] = append(branches[b], i)
	}
	var out []int
	for _, keys := range branches {
		if len(keys) == 1 {
			out = append(out, keys[0])
		}
	}
	for _, keys := range branches {
		if len(keys) > 1 {
			out = append(out, champOrder(keys, improved, shift+5)...)
		}
	}
	return out
}

// scalaImprove is scala.collection.Hashing.improve, which CHAMP applies
// to key.##.
func scalaImprove(hcode int32) int32 {
	h := hcode + ^(hcode << 9)
	h ^= int32(uint32(h) >> 14)
	h += h << 4
	return h ^ int32(uint32(h)>>10)
}

// ImmutableStringOrder is ImmutableOrder for String keys:
// the keys in iteration order.
func ImmutableStringOrder(keys []string) []string {
	return pickStrings(keys, ImmutableOrder(StringHashes(keys)))
}
