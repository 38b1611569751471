package storage

// OffsetMap is the cleaner's key → latest offset map over a log's dirty
// section (Kafka's OffsetMap).
//
// Kafka's SkimpyOffsetMap keeps an MD5 hash of each key in a fixed buffer,
// so two keys whose hashes collide would share an entry (a record could be
// removed because another key was written later). This map keeps the keys
// themselves, so it never confuses two keys; it keeps Kafka's bound on how
// many distinct keys a pass may map (OffsetMapCapacity), which is what
// decides how far one pass gets.
//
// Invariant: Size() <= capacity; LatestOffset() is the offset of the last
// put, or the last offset a pass moved it to with UpdateLatestOffset.
type OffsetMap struct {
	capacity int
	offsets  map[string]int64
	latest   int64
}

// NewOffsetMap makes an empty map that holds at most capacity keys (at
// least 1, as Kafka requires of a cleaner's map).
func NewOffsetMap(capacity int) *OffsetMap {
	return &OffsetMap{capacity: max(capacity, 1), offsets: map[string]int64{}, latest: -1}
}

// Capacity is the most keys a pass may map.
func (m *OffsetMap) Capacity() int { return m.capacity }

// Clear empties the map for a new pass.
func (m *OffsetMap) Clear() {
	clear(m.offsets)
	m.latest = -1
}

// Full reports whether a pass must stop mapping. Like Kafka's
// buildOffsetMapForSegment it is asked before every keyed record, even one
// whose key is already mapped.
func (m *OffsetMap) Full() bool { return len(m.offsets) >= m.capacity }

// Put records offset as key's latest offset.
func (m *OffsetMap) Put(key []byte, offset int64) {
	m.offsets[string(key)] = offset
	m.latest = offset
}

// Get is key's latest offset, or -1 if the dirty section never wrote it.
func (m *OffsetMap) Get(key []byte) int64 {
	if o, ok := m.offsets[string(key)]; ok {
		return o
	}
	return -1
}

// UpdateLatestOffset moves the map's end: a pass has read up to offset.
func (m *OffsetMap) UpdateLatestOffset(offset int64) { m.latest = offset }

// LatestOffset is the last offset the map covers (-1 when empty).
func (m *OffsetMap) LatestOffset() int64 { return m.latest }

// Size is the number of distinct keys mapped.
func (m *OffsetMap) Size() int { return len(m.offsets) }
