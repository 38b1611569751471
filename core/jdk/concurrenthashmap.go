package jdk

// The iteration order of a java.util.concurrent.ConcurrentHashMap, which
// Kafka's Pool wraps (the transaction coordinator keeps each partition's
// transactional ids in one). Its buckets are HashMap's (the spread hash
// masked by the table size, the sign bit cleared, which a mask below 2^31
// ignores) and a bucket lists its keys in insertion order, but the table
// starts at 16 and doubles once the count reaches 3/4 of it (addCount:
// s >= sizeCtl), one key earlier than a HashMap. Not modelled: the order a
// resize gives a bucket that held several keys (transfer moves the tail
// run whole and prepends the others one by one, reversing them), nor
// treeified bins; both need colliding keys.

// ConcurrentHashCapacity is the table size of a default
// ConcurrentHashMap after n distinct keys were put into it.
func ConcurrentHashCapacity(n int) int {
	capacity := 16
	for n >= capacity*3/4 {
		capacity *= 2
	}
	return capacity
}

// ConcurrentHashOrder is the order in which a default ConcurrentHashMap
// holding distinct keys of the given hashCodes, put in that order (and
// at most maxSize of them at once, which fixes the table size: it never
// shrinks), iterates them: indices into hashes.
func ConcurrentHashOrder(hashes []int32, maxSize int) []int {
	return hashOrderIn(hashes, ConcurrentHashCapacity(max(maxSize, len(hashes))))
}
