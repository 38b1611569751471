package console

import "strconv"

// cmdPagecache prints each broker machine's page cache as the engine keeps
// it (storage.PageCacheStats): its capacity, the memory its cached pages
// take and how much of that is dirty (written, not yet on disk), how many
// pages the fetches it answered found in the cache (hits) or had to read
// from disk first (misses), and the bytes those fetches sent with sendfile,
// from the page cache to the socket without a copy through the broker. On
// a real machine cachestat (bcc) counts hits and misses of every read; here
// only fetch responses count. It takes no simulated time.
func (s *Session) cmdPagecache(args []string) {
	if len(args) != 0 {
		s.print("usage: pagecache")
		return
	}
	if !s.needCluster("pagecache") {
		return
	}
	rows := [][]string{{"BROKER", "CAPACITY", "CACHED", "DIRTY", "HIT-PAGES", "MISS-PAGES", "SENDFILE-BYTES"}}
	for _, id := range s.cluster.NodeIDs() {
		st := s.cluster.Disk(id).PageCache()
		rows = append(rows, []string{strconv.Itoa(int(id)), kib(st.CapacityBytes), kib(st.CachedBytes), kib(st.DirtyBytes),
			strconv.FormatInt(st.HitPages, 10), strconv.FormatInt(st.MissPages, 10), strconv.FormatInt(st.SentBytes, 10)})
	}
	for _, l := range columns(rows) {
		s.print(l)
	}
}

// kib prints a size in KiB: exact for the page cache's sizes, which are
// whole pages of storage.PageSize (4 KiB).
func kib(n int64) string { return strconv.FormatInt(n/1024, 10) + " KiB" }
