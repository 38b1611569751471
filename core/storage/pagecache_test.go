package storage

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// checkCache checks the page cache's invariants: the LRU list, the files'
// page tables, the dirty counts and the dirty-file set agree, and the cache
// is within its capacity unless everything in it is dirty.
func checkCache(t *testing.T, d *Disk) {
	t.Helper()
	pc := &d.cache
	var listed int64
	for s := pc.page(lruHead).next; s != lruHead; s = pc.page(s).next {
		listed++
		if p := pc.page(s); p.f.pages[p.index] != s {
			t.Fatalf("page %d of a file is listed but not in its file's table", p.index)
		}
	}
	var tabled, dirty int64
	for _, name := range d.Walk("/") {
		f := d.files[name]
		var fd int64
		for _, s := range f.pages {
			if s == lruHead {
				continue
			}
			tabled++
			if pc.page(s).dirty() {
				fd++
			}
		}
		if fd != f.dirtyPages {
			t.Fatalf("%s: %d dirty pages, counted %d", name, fd, f.dirtyPages)
		}
		if pc.dirtyFiles.has(f) != (fd > 0) {
			t.Fatalf("%s: %d dirty pages, in the dirty set: %v", name, fd, pc.dirtyFiles.has(f))
		}
		if fd > 0 && !f.dirty {
			t.Fatalf("%s has dirty pages but is not dirty", name)
		}
		dirty += fd
	}
	if listed != pc.resident || tabled != pc.resident || dirty != pc.dirty {
		t.Fatalf("listed %d, in tables %d, resident %d; dirty %d, counted %d", listed, tabled, pc.resident, dirty, pc.dirty)
	}
	var used int64
	for _, p := range pc.slab[lruHead+1:] {
		if p.f != nil {
			used++
		}
	}
	if used != pc.resident || int64(len(pc.free)) != int64(len(pc.slab))-1-pc.resident {
		t.Fatalf("slab of %d slots: %d pages, %d free, resident %d", len(pc.slab), used, len(pc.free), pc.resident)
	}
	for i, f := range pc.dirtyFiles {
		if f.dirtyIndex != i+1 || f.dirtyPages == 0 {
			t.Fatalf("dirty set entry %d: its file says %d, with %d dirty pages", i, f.dirtyIndex, f.dirtyPages)
		}
	}
	if len(pc.dirtyFiles) > 0 && dirty == 0 {
		t.Fatal("files in the dirty set without dirty pages")
	}
	if pc.resident > pc.capacity && pc.dirty < pc.resident {
		t.Fatalf("%d pages resident, capacity %d, with clean ones to evict", pc.resident, pc.capacity)
	}
}

func page(n int) []byte { return bytes.Repeat([]byte{'x'}, n*PageSize) }

func TestPageCacheWritesAreCachedDirtyUntilWrittenBack(t *testing.T) {
	d, clock := newTestDisk()
	if err := d.Append("/f", page(2)); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/f", []byte("y")); err != nil { // one byte more: a third page
		t.Fatal(err)
	}
	st := d.PageCache()
	if st.CapacityBytes != DefaultPageCacheBytes || st.CachedBytes != 3*PageSize || st.DirtyBytes != 3*PageSize {
		t.Fatalf("after writing 2 pages and a byte: %+v", st)
	}
	checkCache(t, d)
	clock.at(DirtyExpire + DirtyWritebackInterval)
	if st := d.PageCache(); st.CachedBytes != 3*PageSize || st.DirtyBytes != 0 {
		t.Fatalf("after writeback: %+v (written back pages stay cached, clean)", st)
	}
	if err := d.WriteAt("/f", 10, []byte("z")); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.DirtyBytes != PageSize {
		t.Fatalf("an overwrite in page 0 dirties that page only: %+v", st)
	}
	if err := d.Fsync("/f"); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.DirtyBytes != 0 || st.CachedBytes != 3*PageSize {
		t.Fatalf("after fsync: %+v", st)
	}
	checkCache(t, d)
}

func TestPageCacheSendFileHitsAndMisses(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.SetPageCacheBytes(MinPageCacheBytes); err != nil { // 16 pages
		t.Fatal(err)
	}
	if err := d.Append("/old", page(8)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/old"); err != nil {
		t.Fatal(err)
	}
	// Sending what was just written is served from memory.
	if err := d.SendFile("/old", 0, 2*PageSize); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.HitPages != 2 || st.MissPages != 0 || st.SentBytes != 2*PageSize {
		t.Fatalf("reading cached pages: %+v", st)
	}
	// 16 more pages push /old out: the cache holds 16.
	if err := d.Append("/new", page(16)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/new"); err != nil {
		t.Fatal(err)
	}
	checkCache(t, d)
	if st := d.PageCache(); st.CachedBytes != 16*PageSize {
		t.Fatalf("over capacity: %+v", st)
	}
	for i := int64(0); i < 8; i++ {
		if d.PageCached("/old", i*PageSize) {
			t.Fatalf("page %d of /old survived 16 newer pages in a 16-page cache", i)
		}
	}
	// Reading it again misses, page by page, and caches what it read: a
	// second read of the same bytes hits. A range that starts and ends
	// inside pages counts every page it touches.
	if err := d.SendFile("/old", PageSize-1, 2); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.HitPages != 2 || st.MissPages != 2 || st.SentBytes != 2*PageSize+2 {
		t.Fatalf("reading evicted pages: %+v", st)
	}
	if err := d.SendFile("/old", PageSize-1, 2); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.HitPages != 4 || st.MissPages != 2 {
		t.Fatalf("reading them again: %+v", st)
	}
	checkCache(t, d)
	// The two pages read in evicted /new's two least recently used.
	if d.PageCached("/new", 0) || d.PageCached("/new", PageSize) || !d.PageCached("/new", 2*PageSize) {
		t.Fatal("the read did not evict the least recently used pages")
	}
	for _, bad := range [][2]int64{{-1, 1}, {0, 8*PageSize + 1}, {5, -1}} {
		if err := d.SendFile("/old", bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), "outside the file") {
			t.Errorf("SendFile(%d, %d): %v", bad[0], bad[1], err)
		}
	}
	if err := d.SendFile("/nope", 0, 1); err == nil {
		t.Error("SendFile of a missing file succeeded")
	}
}

func TestPageCacheKeepsRecentlyReadPages(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.SetPageCacheBytes(MinPageCacheBytes); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/a", page(8)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/a"); err != nil {
		t.Fatal(err)
	}
	if err := d.SendFile("/a", 0, PageSize); err != nil { // page 0 is now the most recent
		t.Fatal(err)
	}
	if err := d.Append("/b", page(8)); err != nil {
		t.Fatal(err)
	}
	if err := d.Fsync("/b"); err != nil {
		t.Fatal(err)
	}
	if err := d.Append("/b", page(1)); err != nil { // one over: the LRU page goes
		t.Fatal(err)
	}
	if !d.PageCached("/a", 0) || d.PageCached("/a", PageSize) || !d.PageCached("/a", 2*PageSize) {
		t.Fatal("eviction did not take the least recently used page (page 1 of /a)")
	}
	checkCache(t, d)
}

func TestPageCacheBackgroundWritebackKeepsDirtyPagesBounded(t *testing.T) {
	d, clock := newTestDisk()
	if err := d.SetPageCacheBytes(100 * PageSize); err != nil { // background writeback above 10 pages
		t.Fatal(err)
	}
	clock.at(time.Second)
	if err := d.Append("/first", page(6)); err != nil {
		t.Fatal(err)
	}
	clock.at(2 * time.Second)
	if err := d.Append("/second", page(4)); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.DirtyBytes != 10*PageSize {
		t.Fatalf("10 dirty pages are allowed: %+v", st)
	}
	// One more page: the file dirtied first is written back, long before
	// its 30 s are up, and survives a power loss.
	if err := d.Append("/second", page(1)); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.DirtyBytes != 5*PageSize || st.CachedBytes != 11*PageSize {
		t.Fatalf("after background writeback: %+v", st)
	}
	checkCache(t, d)
	d.PowerLoss()
	if sz, err := d.Size("/first"); err != nil || sz != 6*PageSize {
		t.Fatalf("/first after a power loss: %d, %v", sz, err)
	}
	if d.Exists("/second") {
		t.Fatal("/second was never written back, yet survived the power loss")
	}
	if st := d.PageCache(); st.CachedBytes != 0 || st.DirtyBytes != 0 {
		t.Fatalf("a power loss leaves the cache empty: %+v", st)
	}
	checkCache(t, d)
}

func TestPageCacheReclaimNeverDropsDirtyPages(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.SetPageCacheBytes(MinPageCacheBytes); err != nil { // 16 pages, 1 may be dirty
		t.Fatal(err)
	}
	// A single write bigger than the cache: background writeback makes it
	// clean, so reclaim can bring the cache back to 16 pages.
	if err := d.Append("/big", page(20)); err != nil {
		t.Fatal(err)
	}
	checkCache(t, d)
	if st := d.PageCache(); st.CachedBytes != 16*PageSize || st.DirtyBytes != 0 {
		t.Fatalf("after a write of 20 pages: %+v", st)
	}
	d.PowerLoss()
	if sz, _ := d.Size("/big"); sz != 20*PageSize {
		t.Fatalf("the big write was written back to make room, but a power loss left %d bytes", sz)
	}
}

func TestPageCacheFollowsTruncationRemovalAndReplacement(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.Append("/dir/f", page(4)); err != nil {
		t.Fatal(err)
	}
	if err := d.Truncate("/dir/f", PageSize+1); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.CachedBytes != 2*PageSize {
		t.Fatalf("truncated to a page and a byte: %+v", st)
	}
	checkCache(t, d)
	if err := d.Rename("/dir/f", "/dir/g"); err != nil {
		t.Fatal(err)
	}
	if !d.PageCached("/dir/g", 0) {
		t.Fatal("a renamed file lost its cached pages")
	}
	if err := d.WriteFile("/dir/g", []byte("short")); err != nil {
		t.Fatal(err)
	}
	if st := d.PageCache(); st.CachedBytes != PageSize || st.DirtyBytes != PageSize {
		t.Fatalf("replaced by 5 bytes: %+v", st)
	}
	if err := d.Append("/dir/h", page(1)); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove("/dir/g"); err != nil {
		t.Fatal(err)
	}
	checkCache(t, d)
	d.RemoveAll("/dir")
	if st := d.PageCache(); st.CachedBytes != 0 || st.DirtyBytes != 0 {
		t.Fatalf("everything removed: %+v", st)
	}
	checkCache(t, d)
	for _, bad := range []int64{MinPageCacheBytes - 1, MaxPageCacheBytes + 1, -1} {
		if err := d.SetPageCacheBytes(bad); err == nil {
			t.Errorf("SetPageCacheBytes(%d) accepted", bad)
		}
	}
}

// A consumer at the tail of a log is served from the page cache; one that
// starts from the beginning of a log that has since written more than the
// cache holds reads from disk.
func TestPageCacheTailReadsHitAndOldReadsMiss(t *testing.T) {
	d, clock := newTestDisk()
	if err := d.SetPageCacheBytes(MinPageCacheBytes); err != nil {
		t.Fatal(err)
	}
	l := mustCreate(t, d, DefaultLogConfig)
	for l.segments[len(l.segments)-1].Size < 4*MinPageCacheBytes {
		clock.now = clock.now.Add(time.Millisecond)
		mustLeaderAppend(t, l, producerBatch(50), 0)
	}
	l.UpdateHighWatermark(l.LogEndOffset())
	send := func(from int64) (hits, misses, pages int64) {
		t.Helper()
		before := d.PageCache()
		data, slice, err := l.ReadSlice(from, 1<<20, l.HighWatermark(), true)
		if err != nil || len(data) == 0 || slice.Size != int64(len(data)) {
			t.Fatalf("ReadSlice(%d): %d bytes, %+v, %v", from, len(data), slice, err)
		}
		got, _ := d.ReadFile(slice.Path)
		if !bytes.Equal(got[slice.Position:slice.Position+slice.Size], data) {
			t.Fatal("the slice does not hold the bytes read")
		}
		if err := d.SendFile(slice.Path, slice.Position, slice.Size); err != nil {
			t.Fatal(err)
		}
		after := d.PageCache()
		first, end := pageRange(slice.Position, slice.Size)
		return after.HitPages - before.HitPages, after.MissPages - before.MissPages, end - first
	}
	if hits, misses, pages := send(l.LogEndOffset() - 1); hits != pages || misses != 0 {
		t.Fatalf("the tail (%d pages): %d hits, %d misses", pages, hits, misses)
	}
	// The whole log, at least 64 pages: every page was evicted long ago.
	if hits, misses, pages := send(0); pages < 64 || hits != 0 || misses != pages {
		t.Fatalf("from the beginning (%d pages): %d hits, %d misses", pages, hits, misses)
	}
	checkCache(t, d)
}

// Evicted and removed pages give their slots back: a cache that has seen
// far more pages than it holds takes no more memory than its capacity.
func TestPageCacheReusesTheSlotsOfEvictedPages(t *testing.T) {
	d, _ := newTestDisk()
	if err := d.SetPageCacheBytes(MinPageCacheBytes); err != nil { // 16 pages
		t.Fatal(err)
	}
	for _, name := range []string{"/a", "/b"} {
		for i := 0; i < 200; i++ {
			if err := d.Append(name, page(1)); err != nil {
				t.Fatal(err)
			}
			if err := d.Fsync(name); err != nil { // clean, so reclaim may evict it
				t.Fatal(err)
			}
		}
		checkCache(t, d)
		if err := d.Remove(name); err != nil {
			t.Fatal(err)
		}
		checkCache(t, d)
	}
	// The head, the capacity, and the one page a write caches before
	// reclaim makes room.
	if capacity := d.cache.capacity; int64(len(d.cache.slab)) > capacity+2 {
		t.Fatalf("after 400 pages through a %d-page cache, its slab has %d slots", capacity, len(d.cache.slab))
	}
	if st := d.PageCache(); st.CachedBytes != 0 {
		t.Fatalf("both files removed, %d bytes still cached", st.CachedBytes)
	}
}
