package storage

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"kafkascope/core/sim"
)

// Linux's writeback defaults: the flusher wakes every
// vm.dirty_writeback_centisecs (5 s) and writes data that has been dirty for
// vm.dirty_expire_centisecs (30 s).
const (
	DirtyWritebackInterval = 5 * time.Second
	DirtyExpire            = 30 * time.Second
)

// JournalCommitInterval is ext4's commit=5: the filesystem journal commits
// metadata changes (a file's size cut by ftruncate) at most this long after
// they are made, and every fsync commits the journal at once.
const JournalCommitInterval = 5 * time.Second

// Limits on what a simulated disk may hold.
const (
	MaxFiles     = 1 << 16
	MaxDiskBytes = 1 << 30
)

type file struct {
	data    content // the page cache: what reads see
	durable content // the flushed content
	// hole and durableHole are zero bytes after data and durable that take
	// no space: a file extended by SetLength (Kafka preallocating an index
	// with RandomAccessFile.setLength) is sparse, as on ext4. The file's
	// length is len(data)+hole; reads see zeros there.
	hole        int64
	durableHole int64
	// same is how many leading bytes of data are known to equal durable's:
	// appends keep it, overwrites and truncations lower it. A flush copies
	// only what lies past it, so fsyncing a log that only grows costs its
	// new bytes rather than its whole length.
	same int
	// onDisk: the file exists in the flushed layer; until then its
	// creation waits in the journal (Disk.creating), and a power loss
	// takes the file away. createdAt is when it was made.
	onDisk     bool
	dirty      bool
	dirtySince sim.Time
	// A truncation the journal has not committed yet: the flushed layer
	// will be cut to truncSize (the smallest size cut to since the last
	// commit) when it is.
	truncPending bool
	truncSize    int64
	truncAt      sim.Time
	createdAt    sim.Time

	// The page cache's bookkeeping (pagecache.go): the resident pages'
	// slots by page index (lruHead, 0: not cached), how many of them are dirty, the count of
	// flushes that cleaned them, and an id that orders files dirtied at
	// the same instant.
	pages      []pageSlot
	dirtyPages int64
	dirtyIndex int // in the cache's dirtyFiles, plus one (0: not there)
	flushGen   uint64
	id         uint64
	// shared: data's first shared bytes are also the flushed layer's, or
	// a reader holds a view of them (readShared); every such view is
	// capped at its length. Appends write past every shared byte (a
	// truncation caps data's capacity, so the next append moves it), and
	// an overwrite of a shared byte copies the chunks holding shared bytes
	// from its own on first (content.writeAt): bytes once shared never
	// change. An overwrite past them (an index entry written into
	// the hole after the last flush) writes in place: copying the whole
	// file there was an eighth of a leaped idle week.
	shared int
	// rewrites counts the changes to bytes the file already had (a
	// truncation, an overwrite, a replacement, a power loss reverting it);
	// appends do not count. What a reader learned about the file's first
	// bytes holds while it stays the same (segmentScan).
	rewrites uint64
}

// Disk is one machine's storage. Paths are absolute and slash-separated.
// Directories are created implicitly by writes and explicitly by MkdirAll.
// Directories, renames and removals are durable at once (Kafka fsyncs the
// parent directory after a rename, Utils.atomicMoveWithFallback; a removal
// a power loss undid would leave a file Kafka deletes again at startup).
//
// A file's content becomes durable by writeback or fsync (Linux's page
// cache). Creating a file and cutting its size are metadata changes,
// journaled as ext4 (data=ordered, commit=5) does them: durable at the
// next journal commit, i.e. at the next fsync of any file on the disk or
// JournalCommitInterval after the change, whichever comes first. So a
// power loss takes away a file created since the last commit, and leaves
// one created before it, with whatever of its content was flushed (none:
// an empty file, as a segment Kafka rolled to and wrote nothing durable
// into; Kafka 3.8 fsyncs the log directory in the flush that follows a
// roll, LocalLog.flush → Utils.flushDirIfExists, which commits the
// journal); a power loss can undo a truncation only if nothing was
// fsynced since (Kafka fsyncs a checkpoint right after most truncations),
// and never resurrects bytes cut before a file that was fsynced later.
type Disk struct {
	clock func() sim.Time
	files map[string]*file
	dirs  map[string]bool
	bytes int64
	// truncating holds the files with a truncation the journal has not
	// committed (a set: committing one does not depend on the others).
	truncating map[*file]bool
	// creating holds the files whose creation the journal has not
	// committed.
	creating   map[*file]bool
	cache      pageCache
	nextFileID uint64
	recent     recentFiles
	// names counts the changes to which file a path names (a removal or
	// a rename): a fileRef taken before the last one is stale.
	names uint64
	// onSegmentFlush hears each log segment's flush (OnSegmentFlush).
	onSegmentFlush func(at sim.Time, n int)
}

// OnSegmentFlush sets what hears the log segments' flushes on this disk:
// n segments flushed at at (Kafka times each LogSegment.flush with the
// node's LogFlushRateAndTimeMs timer). The node's process sets it when it
// starts; a process that dies leaves it to the next.
func (d *Disk) OnSegmentFlush(fn func(at sim.Time, n int)) { d.onSegmentFlush = fn }

// segmentsFlushed reports n segment flushes at at.
func (d *Disk) segmentsFlushed(at sim.Time, n int) {
	if n > 0 && d.onSegmentFlush != nil {
		d.onSegmentFlush(at, n)
	}
}

// fileRef is a file its holder found by path, kept to skip the lookup
// while no path changed (Disk.names): a segment's .log is appended to
// and fsynced at every append, and finding it by its path each time was
// a tenth of a KRaft voter's work per NoOp.
type fileRef struct {
	f     *file
	names uint64
}

// resolve is the file p names: r's if it is current, else looked up (and
// kept in r). Like get, it settles the file's due writeback.
func (d *Disk) resolve(p string, r *fileRef) (*file, error) {
	if r.f != nil && r.names == d.names {
		d.settle(r.f)
		return r.f, nil
	}
	f, err := d.get(p)
	if err == nil {
		r.f, r.names = f, d.names
	}
	return f, err
}

// recentFiles are the files last looked up by path: a segment's .log,
// .index and .timeindex take turns, and a hit compares a string where a
// map lookup hashes one (WebAssembly has no hardware hash: hashing paths
// was a twentieth of a leaped idle week in the page). Invariant: every
// entry is a live file under its current name; a removal or a rename
// empties the list (forget).
type recentFiles struct {
	path [4]string
	f    [4]*file
	next int
}

// lookup is the file named p exactly (no cleaning). Not inlined: a copy
// in each caller cost more of main.wasm than the call costs time.
//
//go:noinline
func (d *Disk) lookup(p string) (*file, bool) {
	r := &d.recent
	for i := range r.f {
		if r.f[i] != nil && r.path[i] == p {
			return r.f[i], true
		}
	}
	f, ok := d.files[p]
	if ok {
		r.path[r.next], r.f[r.next] = p, f
		r.next = (r.next + 1) % len(r.f)
	}
	return f, ok
}

// forget empties the recent files: a file was removed or renamed.
func (d *Disk) forget() {
	d.recent = recentFiles{}
	d.names++
}

// NewDisk makes an empty disk whose writeback follows clock, with a page
// cache of DefaultPageCacheBytes.
func NewDisk(clock func() sim.Time) *Disk {
	d := &Disk{clock: clock, files: map[string]*file{}, dirs: map[string]bool{"/": true}, truncating: map[*file]bool{}, creating: map[*file]bool{}}
	d.cache.init(DefaultPageCacheBytes)
	return d
}

// clean is p as an absolute, clean path (path.Clean of "/"+p). Paths the
// engine builds are clean already, and are returned as they are: cleaning
// allocated on every file access, a fifth of an idle cluster's garbage.
func clean(p string) string {
	if isClean(p) {
		return p
	}
	return path.Clean("/" + p)
}

// isClean reports whether p is absolute and path.Clean would return it
// unchanged: no empty, "." or ".." element and no trailing slash ("/"
// alone is clean).
func isClean(p string) bool {
	if p == "/" {
		return true
	}
	if len(p) < 2 || p[0] != '/' || p[len(p)-1] == '/' {
		return false
	}
	// An empty element needs "//", a "." or ".." one "/.": without either
	// (the engine's paths), p is clean. Searching for them is vectorized;
	// the walk below, for the rest, was 3% of an idle cluster's time (a
	// few file accesses per event, each path some 60 bytes).
	if !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return true
	}
	// Every element starts after a slash; check each one.
	for i := 1; i < len(p); {
		j := i
		for j < len(p) && p[j] != '/' {
			j++
		}
		switch p[i:j] {
		case "", ".", "..":
			return false
		}
		i = j + 1
	}
	return true
}

// settle applies the OS writeback that has happened by now: a dirty file is
// written back by the first writeback pass at least DirtyExpire after it was
// dirtied. Because content only changes through Disk methods, settling before
// each change is exact.
func (d *Disk) settle(f *file) {
	if !f.onDisk && f.createdAt.Add(JournalCommitInterval) <= d.clock() {
		d.commitCreation(f)
	}
	if f.truncPending && f.truncAt.Add(JournalCommitInterval) <= d.clock() {
		d.commitTruncation(f)
	}
	if !f.dirty {
		return
	}
	due := f.dirtySince.Add(DirtyExpire)
	tick := sim.Time(DirtyWritebackInterval)
	if rem := due % tick; rem != 0 {
		due += tick - rem
	}
	if due <= d.clock() {
		d.writeBack(f)
	}
}

// writeBack is the OS writing f's dirty data back: its flushed layer
// becomes its content (a pending truncation with it) and its cached pages
// are clean.
func (d *Disk) writeBack(f *file) {
	flushLayer(f)
	d.commitCreation(f) // ext4 commits the inode with the data it orders

	f.dirty = false
	d.dropTruncation(f)
	d.cacheFlushed(f)
}

// flushLayer makes the page cache f's flushed layer. The flushed layer
// shares the page cache's bytes instead of copying them: the bytes a file
// has are never changed in place while shared (see file.shared), so a
// flush costs nothing and a flushed file is held in memory once.
func flushLayer(f *file) {
	f.durable = f.data.share()
	f.durableHole = f.hole
	n := f.data.length()
	f.same, f.shared = n, n
}

// commitTruncation applies f's pending truncation to its flushed layer.
func (d *Disk) commitTruncation(f *file) {
	if n := int64(f.durable.length()); f.truncSize < n {
		f.durable.cut(int(f.truncSize))
		f.durableHole = 0
	} else {
		f.durableHole = min(f.durableHole, f.truncSize-n)
	}
	d.dropTruncation(f)
}

func (d *Disk) dropTruncation(f *file) {
	if f.truncPending { // truncating holds exactly these files
		f.truncPending = false
		delete(d.truncating, f)
	}
}

// commitCreation makes f's creation durable: f exists in the flushed
// layer, with whatever content that layer holds.
func (d *Disk) commitCreation(f *file) {
	d.dropCreation(f)
	f.onDisk = true
}

// dropCreation forgets f's pending creation (creating holds exactly the
// files not on disk).
func (d *Disk) dropCreation(f *file) {
	if !f.onDisk {
		delete(d.creating, f)
	}
}

// commitJournal makes every pending creation and truncation durable (an
// fsync commits the whole journal, not just the file's own changes).
func (d *Disk) commitJournal() {
	// Ranging over an empty map still costs, and every fsync asks.
	if len(d.creating) > 0 {
		for f := range d.creating {
			d.commitCreation(f)
		}
	}
	if len(d.truncating) > 0 {
		for f := range d.truncating {
			d.commitTruncation(f)
		}
	}
}

func (d *Disk) touch(f *file) {
	if !f.dirty {
		f.dirty = true
		f.dirtySince = d.clock()
	}
}

// mkdirs creates dir and its parents; it fails if any of them is a file.
func (d *Disk) mkdirs(dir string) error {
	for p := dir; p != "/"; p = path.Dir(p) {
		if _, isFile := d.files[p]; isFile {
			return fmt.Errorf("%s: Not a directory", p)
		}
	}
	for dir != "/" && !d.dirs[dir] {
		d.dirs[dir] = true
		dir = path.Dir(dir)
	}
	return nil
}

func (d *Disk) get(p string) (*file, error) {
	// Every key is a clean path, so a hit on p as given needs no cleaning
	// (the engine's paths are clean; cleaning each was 6% of a leaped
	// idle week).
	f, ok := d.lookup(p)
	if !ok {
		f, ok = d.files[clean(p)]
	}
	if !ok {
		return nil, fmt.Errorf("%s: No such file or directory", clean(p))
	}
	d.settle(f)
	return f, nil
}

func (d *Disk) create(p string) (*file, error) {
	if f, ok := d.lookup(p); ok { // p is clean: see get
		d.settle(f)
		return f, nil
	}
	p = clean(p)
	if f, ok := d.files[p]; ok {
		d.settle(f)
		return f, nil
	}
	if d.dirs[p] {
		return nil, fmt.Errorf("%s: Is a directory", p)
	}
	if len(d.files) >= MaxFiles {
		return nil, fmt.Errorf("%s: disk file limit reached (%d files)", p, MaxFiles)
	}
	if err := d.mkdirs(path.Dir(p)); err != nil {
		return nil, err
	}
	d.nextFileID++
	f := &file{id: d.nextFileID, createdAt: d.clock()}
	d.creating[f] = true
	d.files[p] = f
	d.touch(f)
	return f, nil
}

func (d *Disk) grow(n int) error {
	if d.bytes+int64(n) > MaxDiskBytes {
		return fmt.Errorf("No space left on device (simulated disk limit %d bytes)", MaxDiskBytes)
	}
	d.bytes += int64(n)
	return nil
}

// Exists reports whether p is a file or directory.
func (d *Disk) Exists(p string) bool {
	p = clean(p)
	_, ok := d.files[p]
	return ok || d.dirs[p]
}

// IsDir reports whether p is a directory.
func (d *Disk) IsDir(p string) bool { return d.dirs[clean(p)] }

// MkdirAll creates a directory and its parents.
func (d *Disk) MkdirAll(dir string) error { return d.mkdirs(clean(dir)) }

// ReadFile returns the content of a file as the process sees it. The slice
// is the disk's own (callers must not modify it), except for a sparse file,
// whose zeros are filled into a new slice.
func (d *Disk) ReadFile(p string) ([]byte, error) {
	f, err := d.get(p)
	if err != nil {
		return nil, err
	}
	return f.read(), nil
}

// ReadAt returns n bytes of p from off, fewer at its end (none if off is
// past it), a sparse file's zeros included. Like ReadFile's, the slice
// may be the disk's own: callers must not modify it. A range of a large
// file is read without the rest (ReadFile copies a file of several
// chunks whole).
func (d *Disk) ReadAt(p string, off, n int64) ([]byte, error) {
	f, err := d.get(p)
	if err != nil {
		return nil, err
	}
	off = min(max(off, 0), f.size())
	n = min(max(n, 0), f.size()-off)
	if w := f.written(); off+n > w {
		out := make([]byte, n)
		if off < w {
			copy(out, f.readAt(off, w-off))
		}
		return out, nil
	}
	return f.readAt(off, n), nil
}

// read is the file's content (a hole's zeros included): the file's own
// memory when it is one chunk without a hole, else a copy.
func (f *file) read() []byte {
	if f.hole > 0 {
		return append(slices.Clone(f.data.bytes()), make([]byte, f.hole)...)
	}
	return f.data.bytes()
}

// readAt is bytes [off, off+n) of the file, which must lie within its
// written bytes (not its hole): a view of them when they lie in one chunk,
// else a copy. The caller must not change it, and must not keep it past a
// change to the file (readShared keeps).
func (f *file) readAt(off, n int64) []byte { return f.data.view(int(off), int(n)) }

// readShared is readAt for a reader that keeps the bytes (a fetch
// answered from the log): a view the file never changes (see
// file.shared).
func (f *file) readShared(off, n int64) []byte {
	f.shared = max(f.shared, int(off+n))
	return f.readAt(off, n)
}

// written is how many bytes the file holds before its hole.
func (f *file) written() int64 { return int64(f.data.length()) }

// Size is a file's length (a sparse file's zeros included).
func (d *Disk) Size(p string) (int64, error) {
	f, err := d.get(p)
	if err != nil {
		return 0, err
	}
	return f.size(), nil
}

// Append adds b to the end of p, creating it if needed.
func (d *Disk) Append(p string, b []byte) error {
	f, err := d.create(p)
	if err != nil {
		return err
	}
	return d.appendFile(f, b)
}

// appendFile is Append to the file f.
func (d *Disk) appendFile(f *file, b []byte) error {
	if err := d.fillHole(f, f.size()); err != nil {
		return err
	}
	if err := d.grow(len(b)); err != nil {
		return err
	}
	f.data.append(b)
	d.touch(f)
	d.cacheWrite(f, int64(f.data.length()-len(b)), int64(len(b)))
	return nil
}

// appendRun adds batch i of run to f as appendFile adds its bytes, the
// content holding it in closed form (content.appendRun).
func (d *Disk) appendRun(f *file, run BatchRun, i int) error {
	if err := d.fillHole(f, f.size()); err != nil {
		return err
	}
	n := run.BatchSize()
	if err := d.grow(n); err != nil {
		return err
	}
	f.data.appendRun(run, i)
	d.touch(f)
	d.cacheWrite(f, int64(f.data.length()-n), int64(n))
	return nil
}

// WriteAt overwrites bytes at off (within the file's current length, which
// may end in a sparse hole: writing there allocates it up to the write's
// end, as a write through Kafka's mmap of a preallocated index does).
func (d *Disk) WriteAt(p string, off int64, b []byte) error {
	f, err := d.get(p)
	if err != nil {
		return err
	}
	f.rewrites++
	if off < 0 || off+int64(len(b)) > f.size() {
		return fmt.Errorf("%s: write outside the file", clean(p))
	}
	if err := d.fillHole(f, off+int64(len(b))); err != nil {
		return err
	}
	f.data.writeAt(int(off), b, &f.shared)
	f.same = min(f.same, int(off))
	d.touch(f)
	d.cacheWrite(f, off, int64(len(b)))
	return nil
}

// Truncate cuts p to size bytes.
func (d *Disk) Truncate(p string, size int64) error {
	f, err := d.get(p)
	if err != nil {
		return err
	}
	if size < 0 || size > f.size() {
		return fmt.Errorf("%s: invalid truncation to %d", clean(p), size)
	}
	f.rewrites++
	if size >= f.written() {
		f.hole = size - f.written() // the cut is inside the hole
	} else {
		d.bytes -= f.written() - size
		f.data.cut(int(size))
		f.hole = 0
	}
	f.same = min(f.same, int(size))
	d.touch(f)
	d.cacheDropFrom(f, (size+PageSize-1)/PageSize)
	if !f.truncPending {
		f.truncPending, f.truncSize, f.truncAt = true, size, d.clock()
		d.truncating[f] = true
	}
	f.truncSize = min(f.truncSize, size)
	return nil
}

// WriteFile replaces p's content (creating it), without fsync.
func (d *Disk) WriteFile(p string, b []byte) error {
	f, err := d.create(p)
	if err != nil {
		return err
	}
	if err := d.grow(len(b) - f.data.length()); err != nil {
		return err
	}
	f.data = contentOf(b) // a checkpoint's few bytes, exactly
	f.shared = 0          // new memory: nobody else holds it
	f.hole = 0
	f.same = 0
	f.rewrites++
	d.touch(f)
	d.cacheDropFrom(f, 0) // the old content's pages
	d.cacheWrite(f, 0, int64(len(b)))
	return nil
}

// WriteFileDurable replaces p's content and makes it durable at once, the way
// Kafka writes checkpoint files: write a temporary file, fsync it, rename it
// over the old one.
func (d *Disk) WriteFileDurable(p string, b []byte) error {
	if err := d.WriteFile(p, b); err != nil {
		return err
	}
	return d.Fsync(p)
}

// Fsync makes p's current content durable, and commits the journal: every
// truncation made so far on this disk is durable too.
func (d *Disk) Fsync(p string) error {
	f, err := d.get(p)
	if err != nil {
		return err
	}
	d.fsyncFile(f)
	return nil
}

// fsyncFile is Fsync of the file f.
func (d *Disk) fsyncFile(f *file) {
	d.commitJournal() // f's own creation with it
	flushLayer(f)
	f.dirty = false
	d.cacheFlushed(f)
}

// Remove deletes a file or an empty directory.
func (d *Disk) Remove(p string) error {
	p = clean(p)
	if f, ok := d.files[p]; ok {
		d.bytes -= f.written()
		d.forget()
		delete(d.files, p)
		d.dropTruncation(f)
		d.dropCreation(f)
		d.cacheDropFrom(f, 0)
		return nil
	}
	if d.dirs[p] {
		if len(d.List(p)) > 0 {
			return fmt.Errorf("%s: Directory not empty", p)
		}
		delete(d.dirs, p)
		return nil
	}
	return fmt.Errorf("%s: No such file or directory", p)
}

// RemoveAll deletes p and everything below it.
func (d *Disk) RemoveAll(p string) {
	p = clean(p)
	prefix := p + "/"
	for name, f := range d.files {
		if name == p || strings.HasPrefix(name, prefix) {
			d.bytes -= f.written()
			d.forget()
			delete(d.files, name)
			d.dropTruncation(f)
			d.dropCreation(f)
			d.cacheDropFrom(f, 0)
		}
	}
	for name := range d.dirs {
		if name == p || strings.HasPrefix(name, prefix) {
			delete(d.dirs, name)
		}
	}
}

// Rename moves a file or a directory tree (durably, as after an fsync of the
// parent directory).
func (d *Disk) Rename(from, to string) error {
	from, to = clean(from), clean(to)
	if d.Exists(to) {
		return fmt.Errorf("%s: File exists", to)
	}
	if f, ok := d.files[from]; ok {
		if err := d.mkdirs(path.Dir(to)); err != nil {
			return err
		}
		d.forget()
		delete(d.files, from)
		d.files[to] = f
		return nil
	}
	if !d.dirs[from] {
		return fmt.Errorf("%s: No such file or directory", from)
	}
	prefix := from + "/"
	if strings.HasPrefix(to, prefix) {
		return fmt.Errorf("%s: Invalid argument", to) // EINVAL: a directory cannot move into itself
	}
	// Collect first, then move: inserting into a map while ranging over it
	// may or may not visit the new keys.
	var files, dirs []string
	for name := range d.files {
		if strings.HasPrefix(name, prefix) {
			files = append(files, name)
		}
	}
	for name := range d.dirs {
		if name == from || strings.HasPrefix(name, prefix) {
			dirs = append(dirs, name)
		}
	}
	for _, name := range files {
		f := d.files[name]
		d.forget()
		delete(d.files, name)
		d.files[to+"/"+name[len(prefix):]] = f
	}
	for _, name := range dirs {
		delete(d.dirs, name)
		d.dirs[to+name[len(from):]] = true
	}
	return d.mkdirs(path.Dir(to))
}

// DirEntry is one entry of a directory listing.
type DirEntry struct {
	Name  string
	IsDir bool
	Size  int64
	// Unflushed is how many bytes of the file would be lost in a power loss
	// right now (0 for directories and clean files).
	Unflushed int64
}

// List returns a directory's entries sorted by name (nil if it is not a
// directory).
func (d *Disk) List(dir string) []DirEntry {
	dir = clean(dir)
	if !d.dirs[dir] {
		return nil
	}
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	seen := map[string]bool{}
	var out []DirEntry
	for name := range d.dirs {
		if strings.HasPrefix(name, prefix) && name != dir && !strings.Contains(name[len(prefix):], "/") {
			out = append(out, DirEntry{Name: name[len(prefix):], IsDir: true})
			seen[name] = true
		}
	}
	for name, f := range d.files {
		if strings.HasPrefix(name, prefix) && !strings.Contains(name[len(prefix):], "/") {
			d.settle(f)
			e := DirEntry{Name: name[len(prefix):], Size: f.size()}
			if f.dirty {
				e.Unflushed = unflushed(f)
			}
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// PowerLoss reverts the disk to its flushed layer, as a machine losing power
// does: unflushed writes vanish and files whose creation the journal had
// not committed disappear.
func (d *Disk) PowerLoss() {
	for name, f := range d.files {
		d.settle(f)
		d.dropTruncation(f) // not committed: undone
		if !f.onDisk {
			d.dropCreation(f)
			d.bytes -= f.written()
			d.forget()
			delete(d.files, name)
			continue
		}
		d.bytes += int64(f.durable.length()) - f.written()
		f.data, f.hole = f.durable.share(), f.durableHole
		f.shared = f.data.length()
		f.same = f.data.length()
		f.rewrites++
		f.dirty = false
	}
	d.cacheDropAll() // the machine restarts with nothing cached
}

// Walk lists every file path under dir, sorted.
func (d *Disk) Walk(dir string) []string {
	dir = clean(dir)
	var out []string
	for name := range d.files {
		if strings.HasPrefix(name, dir+"/") || dir == "/" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// Bytes is the total size of all files (the space they take: a sparse
// file's hole takes none).
func (d *Disk) Bytes() int64 { return d.bytes }

// Now is the disk's clock: the virtual time its owner gave it. Storage reads
// time only through it (a segment's creation time, the time a roll or a
// retention check compares against), never from the wall clock.
func (d *Disk) Now() sim.Time { return d.clock() }
