// Package storage is a broker's disk and what Kafka keeps on it.
//
// Disk models a machine's storage with two layers: the page cache (what the
// process reads and writes) and the flushed layer (what survives a power
// loss). The operating system writes dirty data back on its own schedule, as
// Linux does (a writeback pass every 5 s flushes data dirty for 30 s); fsync
// makes a file durable at once. Cutting a file's size is journaled like
// ext4's metadata: durable at the next fsync of any file or 5 s later. A
// process crash keeps the page cache; a power loss reverts every file to its
// flushed content.
//
// The page cache has a size (pagecache.go): 4 KiB pages in LRU order, dirty
// from a write until writeback, evicted when clean and least recently used,
// written back early past vm.dirty_background_ratio. SendFile reads through
// it as sendfile(2) does, counting hits, misses and the bytes sent without a
// copy through the process; a power loss empties it.
//
// Files may be sparse: extending one with SetLength adds a hole of zeros
// that takes no space, as Kafka's preallocated index files are on ext4.
//
// On that disk the package keeps Kafka's log layout under log.dirs
// (/tmp/kafka-logs): one directory per partition (<topic>-<partition>) with
// segments named by their 20-digit base offset (a .log of record batch v2
// bytes, its sparse .index and its .timeindex), the leader-epoch-checkpoint
// and partition.metadata files, and the broker-wide checkpoint files and
// meta.properties. Log is one partition's log as Kafka's UnifiedLog keeps
// it: append, read through the offset index, truncate, roll (segment.bytes,
// segment.ms with jitter, a full index), the high watermark, the
// leader-epoch cache, retention (deleteOldSegments, the log start offset),
// deleted files renamed .deleted and removed later, and recovery of a log
// and its indexes from its bytes after a crash.
//
// The log cleaner (cleaner*.go, log_clean.go) compacts a log as Kafka's
// LogCleaner does: which log is dirtiest, one pass over it, and the
// cleaner-offset-checkpoint; the broker runs it on its schedule.
//
// The package decides nothing about replication (that is core/broker) and
// never reads the wall clock: time is the Disk's clock, the virtual time
// its owner gave it. It keeps no timers: later work (deleting files after
// file.delete.delay.ms) goes through the owner's Scheduler.
package storage
