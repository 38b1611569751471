package group

import (
	"math"
	"sort"

	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
)

// The server assignors build java.util.HashMap<Uuid, Set<Integer>> per
// member, copying, trimming and growing them, and walk them in their
// iteration order (which partitions a member keeps when it is over quota;
// which topic's partitions go first). javaHashSet models one such table:
// the iteration order is by bucket (jdk.HashBucket of the key's hashCode
// at the table's capacity) and then by insertion, the capacity is fixed
// by the constructor at the first put and doubles whenever a put leaves
// more than 3/4 of it used, and it never shrinks (so it depends on the
// largest size the table ever had, not on the current one). The JDK is
// 21's (apache/kafka's image runs eclipse-temurin:21): there
// HashSet(Collection) and HashMap.newHashMap(n) size the table for
// max(n, 12) keys, and HashMap(Map) for ceil(n/0.75).

// javaTableSizeFor is HashMap.tableSizeFor: the power of two at least c
// (1 for c <= 1).
func javaTableSizeFor(c int) int {
	n := 1
	for n < c && n < 1<<30 {
		n *= 2
	}
	return n
}

type javaHashSet[K comparable] struct {
	hash     func(K) int32
	initial  int // the table size the first put allocates
	capacity int // 0 until the first put
	seq      int
	keys     map[K]int // insertion sequence, for the order within a bucket
}

// newJavaHashSet is new HashSet<>() / new HashMap<>(): 16 buckets.
func newJavaHashSet[K comparable](hash func(K) int32) *javaHashSet[K] {
	return &javaHashSet[K]{hash: hash, initial: 16, keys: map[K]int{}}
}

// newJavaHashSetSized is new HashSet<>(initialCapacity) / new
// HashMap<>(initialCapacity): tableSizeFor(initialCapacity) buckets.
func newJavaHashSetSized[K comparable](hash func(K) int32, initialCapacity int) *javaHashSet[K] {
	return &javaHashSet[K]{hash: hash, initial: javaTableSizeFor(initialCapacity), keys: map[K]int{}}
}

// newJavaHashSetFor is JDK 21's new HashSet<>(collection of n) and
// HashMap.newHashMap(max(n, 12)): sized for max(n, 12) keys, which is the
// capacity a default table filled with n keys ends with.
func newJavaHashSetFor[K comparable](hash func(K) int32, n int) *javaHashSet[K] {
	return newJavaHashSetSized(hash, int(math.Ceil(float64(max(n, 12))/0.75)))
}

// newJavaHashMapCopy is JDK 21's new HashMap<>(map of n): an empty source
// leaves the default table, otherwise the table is sized for
// ceil(n/0.75) (HashMap.putMapEntries).
func newJavaHashMapCopy[K comparable](hash func(K) int32, n int) *javaHashSet[K] {
	if n == 0 {
		return newJavaHashSet(hash)
	}
	return newJavaHashSetSized(hash, int(math.Ceil(float64(n)/0.75)))
}

func (s *javaHashSet[K]) add(k K) bool {
	if _, ok := s.keys[k]; ok {
		return false
	}
	s.seq++
	s.keys[k] = s.seq
	if s.capacity == 0 {
		s.capacity = s.initial
	}
	// HashMap.putVal: ++size > threshold (= capacity*3/4, rounded down)
	// doubles the table once.
	if len(s.keys) > s.capacity*3/4 {
		s.capacity *= 2
	}
	return true
}

func (s *javaHashSet[K]) remove(k K) { delete(s.keys, k) }

func (s *javaHashSet[K]) contains(k K) bool {
	_, ok := s.keys[k]
	return ok
}

func (s *javaHashSet[K]) len() int { return len(s.keys) }

// ordered lists the keys in the table's iteration order.
func (s *javaHashSet[K]) ordered() []K {
	out := make([]K, 0, len(s.keys))
	for k := range s.keys {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		bi, bj := jdk.HashBucket(s.hash(out[i]), s.capacity), jdk.HashBucket(s.hash(out[j]), s.capacity)
		if bi != bj {
			return bi < bj
		}
		return s.keys[out[i]] < s.keys[out[j]]
	})
	return out
}

// UuidHashCode is Kafka's Uuid.hashCode: the two halves of
// mostSignificantBits ^ leastSignificantBits xored together.
func UuidHashCode(u metadata.Uuid) int32 {
	var msb, lsb uint64
	for i := 0; i < 8; i++ {
		msb = msb<<8 | uint64(u[i])
		lsb = lsb<<8 | uint64(u[8+i])
	}
	x := msb ^ lsb
	return int32(uint32(x>>32) ^ uint32(x))
}

// integerHashCode is Integer.hashCode: the value.
func integerHashCode(p int32) int32 { return p }

// javaAssignment is a mutable Map<Uuid, Set<Integer>> an assignor built.
type javaAssignment struct {
	topics     *javaHashSet[metadata.Uuid]
	partitions map[metadata.Uuid]*javaHashSet[int32]
}

// deepCopyAssignment is AssignorHelpers.deepCopyAssignment: new
// HashMap<>(size), each topic's set copied with new HashSet<>(set), in the
// source's order.
func deepCopyAssignment(a MemberAssignment) *javaAssignment {
	out := &javaAssignment{
		topics:     newJavaHashSetSized(UuidHashCode, len(a)),
		partitions: map[metadata.Uuid]*javaHashSet[int32]{},
	}
	out.addAll(a)
	return out
}

// addAll puts each topic of src, in src's order, with its partitions in a
// new HashSet<>(list) (sized for the list, filled in list order).
func (a *javaAssignment) addAll(src MemberAssignment) {
	for _, tp := range src {
		set := newJavaHashSetFor(integerHashCode, len(tp.Partitions))
		for _, p := range tp.Partitions {
			set.add(p)
		}
		a.topics.add(tp.TopicID)
		a.partitions[tp.TopicID] = set
	}
}

// removePartition drops one partition, and the topic with its last one.
func (a *javaAssignment) removePartition(topic metadata.Uuid, p int32) {
	set := a.partitions[topic]
	if set == nil {
		return
	}
	set.remove(p)
	if set.len() == 0 {
		a.removeTopic(topic)
	}
}

func (a *javaAssignment) removeTopic(topic metadata.Uuid) {
	a.topics.remove(topic)
	delete(a.partitions, topic)
}

// addPartition is computeIfAbsent(topic, newSet).add(p).
func (a *javaAssignment) addPartition(topic metadata.Uuid, p int32, newSet func() *javaHashSet[int32]) {
	set := a.partitions[topic]
	if set == nil {
		set = newSet()
		a.topics.add(topic)
		a.partitions[topic] = set
	}
	set.add(p)
}

// list is the map in its iteration order.
func (a *javaAssignment) list() MemberAssignment {
	out := MemberAssignment{}
	for _, topic := range a.topics.ordered() {
		out = append(out, TopicPartitions{TopicID: topic, Partitions: a.partitions[topic].ordered()})
	}
	return out
}

// AssignmentFromRecord is Assignment.fromRecord: the target a coordinator
// holds after replaying a ConsumerGroupTargetAssignmentMember record whose
// topics and partitions are in the given order. Topics go into a default
// HashMap (Collectors.toMap) and each topic's partitions into new
// HashSet<>(list), in record order; the result is in those tables'
// iteration order.
func AssignmentFromRecord(record MemberAssignment) MemberAssignment {
	a := &javaAssignment{topics: newJavaHashSet(UuidHashCode), partitions: map[metadata.Uuid]*javaHashSet[int32]{}}
	a.addAll(record)
	return a.list()
}
