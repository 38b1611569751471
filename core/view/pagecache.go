package view

import (
	"kafkascope/core/cluster"
	"kafkascope/core/storage"
)

// PageCache is one machine's page cache as its disk keeps it: capacity,
// cached and dirty memory, and what the fetch responses its broker sent
// found there (hits), had to read from disk first (misses) and sent with
// sendfile (storage.PageCacheStats, pagecache.go in core/storage).
//
// It is not part of a Snapshot: the disk panel asks for it (PageCaches)
// only while it is open.
type PageCache struct {
	Broker int32
	// State is the node's state (running, killed, power-off, stopped): a
	// killed broker's machine keeps its cache, a power loss empties it.
	State string
	storage.PageCacheStats
}

// PageCaches reads every node's page cache, in node id order (nil without
// a cluster). Reading applies writeback that is already due, as every read
// of the disk does; it changes nothing the engine would see differently.
func PageCaches(c *cluster.Cluster) []PageCache {
	if c == nil {
		return nil
	}
	ids := c.NodeIDs()
	out := make([]PageCache, 0, len(ids))
	for _, id := range ids {
		d := c.Disk(id)
		if d == nil {
			continue
		}
		out = append(out, PageCache{Broker: id, State: string(c.State(id)), PageCacheStats: d.PageCache()})
	}
	return out
}
