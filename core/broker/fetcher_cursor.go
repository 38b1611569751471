package broker

import "kafkascope/core/storage"

// stateCursor finds a Fetch response's partitions among the fetcher's
// sorted states (fetcher.sortedParts) by walking both: the response
// names them in the order of the request, which is that order. Looking
// each up in fetcher.parts hashed its key, for every partition of every
// answer (a sixth of sending to a 1000-partition topic). A partition out
// of that order, or not in the states it walks, is looked up in parts, which
// stays the truth: the walk only saves the lookups it can.
type stateCursor struct {
	sorted []*fetchState // the fetcher's sorted states when the walk began
	k      int           // sorted[:k] are before the partition sought
}

// seekTopic moves the cursor to topic's first state (or where it would be).
func (c *stateCursor) seekTopic(topic string) {
	for c.k < len(c.sorted) && c.sorted[c.k].p.tp.Topic < topic {
		c.k++
	}
}

// find is key's fetch state in f, or nil if f no longer fetches it. key
// is in the topic of the last seekTopic.
func (c *stateCursor) find(f *fetcher, key storage.TopicPartition) *fetchState {
	if !c.current(f) {
		return f.parts[key]
	}
	for c.k < len(c.sorted) && c.sorted[c.k].p.tp.Topic == key.Topic && c.sorted[c.k].p.tp.Partition < key.Partition {
		c.k++
	}
	if c.k < len(c.sorted) && c.sorted[c.k].p.tp == key {
		return c.sorted[c.k]
	}
	return f.parts[key]
}

// current says whether f's states are still the ones the walk began with
// (handling a partition may stop fetching others: the sorted list is then
// dropped, and parts answers the rest).
func (c *stateCursor) current(f *fetcher) bool {
	s := f.sorted
	return len(s) == len(c.sorted) && (len(s) == 0 || &s[0] == &c.sorted[0])
}
