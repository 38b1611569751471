package storage

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Digest describes the disk's whole state as it stands, without applying
// writeback that is due (reading the cache would): every file's contents
// (as checksums), its flushed layer, its dirty and pending-truncation
// state, and the page cache's pages in LRU order with their dirt. Two runs
// whose disks have the same digest behave the same from here on: the
// leap's tests compare them.
func (d *Disk) Digest() string {
	var s strings.Builder
	for _, p := range slices.Sorted(maps.Keys(d.files)) {
		f := d.files[p]
		fmt.Fprintf(&s, "%s data=%d+%d/%08x durable=%d+%d/%08x same=%d onDisk=%v created=%d dirty=%v@%d trunc=%v:%d@%d flushGen=%d dirtyPages=%d id=%d rewrites=%d\n",
			p, f.data.length(), f.hole, f.data.checksum(), f.durable.length(), f.durableHole, f.durable.checksum(),
			f.same, f.onDisk, f.createdAt, f.dirty, f.dirtySince, f.truncPending, f.truncSize, f.truncAt, f.flushGen, f.dirtyPages, f.id, f.rewrites)
	}
	pc := &d.cache
	fmt.Fprintf(&s, "cache %d pages, %d dirty, hits %d misses %d sent %d:", pc.resident, pc.dirty, pc.hits, pc.misses, pc.sentBytes)
	names := map[*file]string{}
	for p, f := range d.files {
		names[f] = p
	}
	for slot := pc.slab[lruHead].next; slot != lruHead; slot = pc.slab[slot].next {
		pg := &pc.slab[slot]
		mark := ""
		if pg.dirty() {
			mark = "*"
		}
		fmt.Fprintf(&s, " %s#%d%s", names[pg.f], pg.index, mark)
	}
	s.WriteString("\n")
	return s.String()
}
