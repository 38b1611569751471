package storage

import "fmt"

// The page cache's residency: which pages of which files are in memory.
//
// The Disk's two layers (file.data, what the process sees, and
// file.durable, what survives a power loss) say nothing about memory: a
// file's content stays readable whatever is cached. What this file adds is
// the bookkeeping Linux keeps beside it, so that reads can be hits or
// misses and the view can show how much of the cache is used and dirty:
//
//   - Memory is cut into pages of PageSize bytes. A page of a file is
//     resident (cached) or not; the cache holds at most its capacity in
//     pages (SetPageCacheBytes; DefaultPageCacheBytes).
//   - Every write goes through the cache, as write(2) and Kafka's mmapped
//     indexes do: the pages it touches become resident and dirty.
//   - A page is dirty until its file is written back (the 30 s writeback,
//     an fsync, or background writeback, below); then it is clean.
//   - SendFile reads through the cache: a resident page is a hit, a missing
//     one is a miss, read from disk and then cached.
//   - Pages are kept in least-recently-used order (a write or a read makes
//     a page the most recent). When the cache is over capacity, the least
//     recently used clean page is evicted. A dirty page cannot be dropped
//     before it is written back: reclaim moves it to the front (a second
//     chance) and goes on.
//   - Background writeback: once dirty pages exceed DirtyBackgroundRatio
//     percent of the capacity (Linux's vm.dirty_background_ratio, 10, a
//     share of the memory available for caching), the files dirtied first
//     are written back until the dirty pages are below it again, so dirty
//     pages never crowd out the clean ones.
//   - A process crash keeps the cache (the kernel is still up); a power loss
//     empties it: the machine restarts with a cold cache.
//
// Simplified from Linux (on purpose, to stay small and deterministic): one
// plain LRU list where Linux keeps active and inactive lists (or MGLRU's
// generations); no readahead (a sequential reader misses every page, where
// Linux reads ahead in bigger chunks: the pages it brings in are still
// reads from disk); background writeback happens at once, in whole files
// (Linux's flusher threads write asynchronously at the device's speed, and
// a writer is throttled past vm.dirty_ratio, 20 %, which an instant flush
// never reaches); the capacity is fixed (Linux's cache grows and shrinks
// with what processes allocate, and the JVM heap is not part of it). Only
// SendFile reads are counted: reads through ReadFile (index lookups, batch
// header scans, log recovery, the cleaner, the tools and the views) neither
// hit nor miss and leave the order alone.

// PageSize is the unit of the page cache: x86-64 Linux's 4 KiB page.
const PageSize = 4096

// Page cache capacity: the default per machine, and the smallest and largest
// a cluster may set (the largest is the disk limit: a bigger cache would
// never fill).
const (
	DefaultPageCacheBytes = 64 << 20
	MinPageCacheBytes     = 16 * PageSize
	MaxPageCacheBytes     = MaxDiskBytes
)

// DirtyBackgroundRatio is Linux's vm.dirty_background_ratio default: the
// percentage of the cache that may be dirty before background writeback
// starts.
const DirtyBackgroundRatio = 10

// cachePage is one resident page of a file: page index of f (its bytes are
// [index*PageSize, (index+1)*PageSize) of the file), linked into the
// cache's LRU list by its neighbours' slots.
type cachePage struct {
	f          *file
	index      int64
	prev, next pageSlot
	// writtenGen is f.flushGen+1 when the page was last written: the page
	// is dirty while writtenGen > f.flushGen (a flush bumps flushGen,
	// cleaning every page of the file at once).
	writtenGen uint64
}

func (p *cachePage) dirty() bool { return p.writtenGen > p.f.flushGen }

// pageSlot is a page's place in pageCache.slab. Slot 0 is the LRU list's
// head, never a page, so a file's page table reads 0 for a page that is
// not resident.
type pageSlot int32

// lruHead is the slot of the LRU list's head: its next is the most
// recently used page, its prev the least.
const lruHead pageSlot = 0

// pageCache is a Disk's page cache.
//
// The pages live in one slab, linked by slot, rather than one object each
// linked by pointer: a cache holds up to capacity pages (16,384 at the
// default 64 MiB, and an idle week's metadata log keeps each machine's
// cache full), and in WebAssembly the collector marks every object on the
// page's only thread, inside a frame. The slab is a single object, and
// the files' page tables hold slots, which it never scans.
//
// Invariants: slab[lruHead] is the list's head; every other slot is either
// a resident page (f != nil, f.pages[index] == its slot, in the list) or
// free (f == nil, in free). resident is the length of the LRU list and the
// number of non-zero entries of every file's pages; dirty is the number of
// resident pages that are dirty, and the sum of f.dirtyPages; dirtyFiles
// holds exactly the files with f.dirtyPages > 0, each f at
// dirtyFiles[f.dirtyIndex-1] (f.dirtyIndex is 0 for the others). Between two Disk calls,
// resident <= capacity unless every resident page is dirty (possible only
// with a tiny cache and one write larger than its dirty share).
type pageCache struct {
	capacity   int64 // pages
	slab       []cachePage
	free       []pageSlot
	resident   int64
	dirty      int64
	dirtyFiles dirtySet
	hits       int64
	misses     int64
	sentBytes  int64
}

func (pc *pageCache) init(capacityBytes int64) {
	pc.capacity = capacityBytes / PageSize
	clear(pc.slab) // let go of the files a power loss emptied
	pc.slab = append(pc.slab[:0], cachePage{})
	pc.free = pc.free[:0]
	pc.resident, pc.dirty = 0, 0
	pc.dirtyFiles.clear()
}

// dirtySet is the files with dirty pages, in no particular order (every
// use of it is independent of the order). A slice with each file's place
// in it, not a map: a file enters and leaves it on every append and
// fsync, and a map's delete was a twentieth of a leaped idle week.
type dirtySet []*file

func (s *dirtySet) add(f *file) {
	if f.dirtyIndex == 0 {
		*s = append(*s, f)
		f.dirtyIndex = len(*s)
	}
}

func (s *dirtySet) remove(f *file) {
	if i := f.dirtyIndex - 1; i >= 0 {
		last := (*s)[len(*s)-1]
		(*s)[i], last.dirtyIndex = last, i+1
		(*s)[len(*s)-1] = nil
		*s = (*s)[:len(*s)-1]
		f.dirtyIndex = 0
	}
}

func (s *dirtySet) has(f *file) bool { return f.dirtyIndex > 0 }

func (s *dirtySet) clear() {
	for _, f := range *s {
		f.dirtyIndex = 0
	}
	clear(*s)
	*s = (*s)[:0]
}

// settleDirty settles each file in the set; settling may write a file back
// and remove it: going from the end, a removal moves only a file already
// settled.
func (d *Disk) settleDirty() {
	s := &d.cache.dirtyFiles
	for i := len(*s) - 1; i >= 0; i-- {
		if i < len(*s) {
			d.settle((*s)[i])
		}
	}
}

// page is the page in slot s.
func (pc *pageCache) page(s pageSlot) *cachePage { return &pc.slab[s] }

func (pc *pageCache) unlink(s pageSlot) {
	p := pc.page(s)
	pc.slab[p.prev].next, pc.slab[p.next].prev = p.next, p.prev
	p.prev, p.next = lruHead, lruHead
}

func (pc *pageCache) pushFront(s pageSlot) {
	head := pc.page(lruHead)
	p := pc.page(s)
	p.prev, p.next = lruHead, head.next
	pc.slab[head.next].prev = s
	head.next = s
}

// newPage takes a free slot (or a new one) for page index of f.
func (pc *pageCache) newPage(f *file, index int64) pageSlot {
	var s pageSlot
	if n := len(pc.free); n > 0 {
		s = pc.free[n-1]
		pc.free = pc.free[:n-1]
	} else {
		s = pageSlot(len(pc.slab))
		pc.slab = append(pc.slab, cachePage{})
	}
	pc.slab[s] = cachePage{f: f, index: index}
	return s
}

// access makes page index of f the most recently used, caching it if it
// is not; write marks it dirty. It reports whether the page was resident.
func (pc *pageCache) access(f *file, index int64, write bool) bool {
	var s pageSlot
	hit := index < int64(len(f.pages)) && f.pages[index] != lruHead
	if hit {
		s = f.pages[index]
		pc.unlink(s)
	} else {
		for int64(len(f.pages)) <= index {
			f.pages = append(f.pages, lruHead)
		}
		s = pc.newPage(f, index)
		f.pages[index] = s
		pc.resident++
	}
	pc.pushFront(s)
	if p := pc.page(s); write && !p.dirty() {
		p.writtenGen = f.flushGen + 1
		f.dirtyPages++
		pc.dirty++
		pc.dirtyFiles.add(f)
	}
	return hit
}

// drop removes the page in slot s from the cache, freeing its slot.
func (pc *pageCache) drop(s pageSlot) {
	p := pc.page(s)
	f := p.f
	if p.dirty() {
		f.dirtyPages--
		pc.dirty--
		if f.dirtyPages == 0 {
			pc.dirtyFiles.remove(f)
		}
	}
	pc.unlink(s)
	f.pages[p.index] = lruHead
	*p = cachePage{}
	pc.free = append(pc.free, s)
	pc.resident--
}

// pageRange is the pages holding bytes [off, off+n) (none when n <= 0).
func pageRange(off, n int64) (first, end int64) {
	if n <= 0 {
		return 0, 0
	}
	return off / PageSize, (off+n-1)/PageSize + 1
}

// cacheWrite puts the pages of f's bytes [off, off+n) in the cache, dirty,
// then lets background writeback and reclaim run.
func (d *Disk) cacheWrite(f *file, off, n int64) {
	first, end := pageRange(off, n)
	for i := first; i < end; i++ {
		if !d.cache.access(f, i, true) {
			// A new page takes memory: make room page by page, as the
			// kernel does when it allocates one.
			d.backgroundWriteback()
			d.reclaim()
		}
	}
	d.backgroundWriteback()
}

// cacheFlushed cleans every page of f: its content was just made durable.
func (d *Disk) cacheFlushed(f *file) {
	f.flushGen++
	if f.dirtyPages > 0 { // dirtyFiles holds exactly these files
		d.cache.dirty -= f.dirtyPages
		f.dirtyPages = 0
		d.cache.dirtyFiles.remove(f)
	}
}

// cacheDropFrom removes f's pages from page index from on (a truncation,
// a replaced or removed file).
func (d *Disk) cacheDropFrom(f *file, from int64) {
	for i := from; i < int64(len(f.pages)); i++ {
		if s := f.pages[i]; s != lruHead {
			d.cache.drop(s)
		}
	}
	if from < int64(len(f.pages)) {
		clear(f.pages[from:])
		f.pages = f.pages[:from]
	}
}

// cacheDropAll empties the cache (a power loss). The counters stay: they
// count since the disk was made.
func (d *Disk) cacheDropAll() {
	for _, f := range d.files {
		f.pages, f.dirtyPages = nil, 0
	}
	d.cache.init(d.cache.capacity * PageSize)
}

// backgroundWriteback writes back the files dirtied first while dirty
// pages are over DirtyBackgroundRatio percent of the capacity. The dirty
// count may include files whose periodic writeback is due but not yet
// settled, so those are settled first: the decision is made on the exact
// count, whenever anyone looks.
func (d *Disk) backgroundWriteback() {
	pc := &d.cache
	limit := pc.capacity * DirtyBackgroundRatio / 100
	if pc.dirty <= limit {
		return
	}
	d.settleDirty()
	// Each pass writes one file back and removes it from dirtyFiles, so
	// the loop ends.
	for pc.dirty > limit {
		var oldest *file
		for _, f := range pc.dirtyFiles {
			if oldest == nil || f.dirtySince < oldest.dirtySince || f.dirtySince == oldest.dirtySince && f.id < oldest.id {
				oldest = f
			}
		}
		if oldest == nil {
			return // unreachable: dirty > 0 means some file has dirty pages
		}
		d.writeBack(oldest)
	}
}

// reclaim evicts least recently used clean pages until the cache is
// within its capacity. A dirty page at the tail goes to the front instead;
// each page is looked at most once a call, so the loop is bounded.
func (d *Disk) reclaim() {
	pc := &d.cache
	for budget := pc.resident; pc.resident > pc.capacity && budget > 0; budget-- {
		s := pc.page(lruHead).prev
		d.settle(pc.page(s).f) // a writeback that is due cleans it
		if pc.page(s).dirty() {
			pc.unlink(s)
			pc.pushFront(s)
			continue
		}
		pc.drop(s)
	}
}

// SetPageCacheBytes sets how much memory the machine has for caching
// files: capacity/PageSize pages (MinPageCacheBytes to MaxPageCacheBytes).
// Pages beyond a smaller capacity are reclaimed at once.
func (d *Disk) SetPageCacheBytes(capacity int64) error {
	if capacity < MinPageCacheBytes || capacity > MaxPageCacheBytes {
		return fmt.Errorf("the page cache must be between %d and %d bytes, not %d", MinPageCacheBytes, MaxPageCacheBytes, capacity)
	}
	d.cache.capacity = capacity / PageSize
	d.backgroundWriteback()
	d.reclaim()
	return nil
}

// SendFile sends n bytes of file p from off to a socket as sendfile(2)
// does (Kafka's FileRecords.writeTo, through FileChannel.transferTo, for
// every fetch response it serves from a log): the kernel copies them from
// the page cache, reading the pages that are not cached from disk first,
// and the bytes never pass through the process. Each page of the range is
// a hit or a miss; the bytes count as sent without copying.
func (d *Disk) SendFile(p string, off, n int64) error {
	f, err := d.get(p)
	if err != nil {
		return err
	}
	if off < 0 || n < 0 || off+n > f.size() {
		return fmt.Errorf("%s: sendfile of bytes [%d, %d) outside the file (%d bytes)", clean(p), off, off+n, f.size())
	}
	first, end := pageRange(off, n)
	for i := first; i < end; i++ {
		if d.cache.access(f, i, false) {
			d.cache.hits++
		} else {
			d.cache.misses++
			d.reclaim()
		}
	}
	d.cache.sentBytes += n
	return nil
}

// PageCacheStats is a machine's page cache now, and what it served.
type PageCacheStats struct {
	CapacityBytes int64
	// CachedBytes is the memory the resident pages take; DirtyBytes the
	// part not yet written back (<= CapacityBytes*DirtyBackgroundRatio/100
	// plus at most one write).
	CachedBytes int64
	DirtyBytes  int64
	// HitPages and MissPages count the pages SendFile found in the cache
	// and the pages it had to read from disk first.
	HitPages  int64
	MissPages int64
	// SentBytes is what SendFile sent: bytes that went from the page cache
	// to the network without being copied through the process.
	SentBytes int64
}

// PageCache reports the page cache (writeback that is due is applied
// first, as every Disk read does).
func (d *Disk) PageCache() PageCacheStats {
	pc := &d.cache
	d.settleDirty()
	return PageCacheStats{
		CapacityBytes: pc.capacity * PageSize,
		CachedBytes:   pc.resident * PageSize,
		DirtyBytes:    pc.dirty * PageSize,
		HitPages:      pc.hits,
		MissPages:     pc.misses,
		SentBytes:     pc.sentBytes,
	}
}

// PageCached reports whether the page holding byte off of p is resident
// (for tests and views; it changes nothing).
func (d *Disk) PageCached(p string, off int64) bool {
	f, ok := d.files[clean(p)]
	i := off / PageSize
	return ok && off >= 0 && i < int64(len(f.pages)) && f.pages[i] != lruHead
}
