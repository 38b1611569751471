package storage

import (
	"fmt"
	"strconv"
	"strings"
)

// EpochEntry says that leader epoch Epoch began at StartOffset.
type EpochEntry struct {
	Epoch       int32
	StartOffset int64
}

// LeaderEpochCache is Kafka's LeaderEpochFileCache: for each leader epoch the
// first offset written in it. Invariant: entries are strictly increasing in
// both Epoch and StartOffset (checked with its Log's offsets:
// log_invariants.go). Every change is written to
// leader-epoch-checkpoint (durably) by the owner.
type LeaderEpochCache struct {
	entries []EpochEntry
}

// Entries returns a copy of the entries, oldest first.
func (c *LeaderEpochCache) Entries() []EpochEntry { return append([]EpochEntry(nil), c.entries...) }

// Latest returns the latest entry and whether there is one.
func (c *LeaderEpochCache) Latest() (EpochEntry, bool) {
	if len(c.entries) == 0 {
		return EpochEntry{}, false
	}
	return c.entries[len(c.entries)-1], true
}

// LatestEpoch is the latest epoch, or -1.
func (c *LeaderEpochCache) LatestEpoch() int32 {
	if e, ok := c.Latest(); ok {
		return e.Epoch
	}
	return -1
}

// Assign records that epoch starts at start. A later, larger start for an
// epoch already known is ignored; entries that the new one supersedes (same
// or higher epoch, or same or higher start) are removed first. It reports
// whether the cache changed.
func (c *LeaderEpochCache) Assign(epoch int32, start int64) bool {
	if last, ok := c.Latest(); ok && last.Epoch == epoch && start >= last.StartOffset {
		return false
	}
	n := len(c.entries)
	for n > 0 && (c.entries[n-1].Epoch >= epoch || c.entries[n-1].StartOffset >= start) {
		n--
	}
	c.entries = append(c.entries[:n], EpochEntry{epoch, start})
	return true
}

// EndOffsetFor answers "where did epoch end?" given this log's end offset
// (Kafka's endOffsetFor): (epoch, LEO) for the latest epoch; for an older
// epoch the start of the next higher one, paired with the largest known epoch
// not above it; (-1, -1) when undefined.
func (c *LeaderEpochCache) EndOffsetFor(epoch int32, logEndOffset int64) (int32, int64) {
	if epoch == -1 || len(c.entries) == 0 {
		return -1, -1
	}
	if epoch == c.entries[len(c.entries)-1].Epoch {
		return epoch, logEndOffset
	}
	higher := -1
	for i, e := range c.entries {
		if e.Epoch > epoch {
			higher = i
			break
		}
	}
	if higher < 0 {
		return -1, -1
	}
	if higher == 0 {
		return epoch, c.entries[0].StartOffset
	}
	return c.entries[higher-1].Epoch, c.entries[higher].StartOffset
}

// EpochForOffset is the epoch the record at offset was written in, or -1.
func (c *LeaderEpochCache) EpochForOffset(offset int64) int32 {
	epoch := int32(-1)
	for _, e := range c.entries {
		if e.StartOffset > offset {
			break
		}
		epoch = e.Epoch
	}
	return epoch
}

// TruncateFromEnd removes entries that start at or after endOffset (the log
// was truncated to endOffset). It reports whether the cache changed.
func (c *LeaderEpochCache) TruncateFromEnd(endOffset int64) bool {
	n := len(c.entries)
	for n > 0 && c.entries[n-1].StartOffset >= endOffset {
		n--
	}
	changed := n != len(c.entries)
	c.entries = c.entries[:n]
	return changed
}

// TruncateFromStart drops entries wholly below startOffset (the log start
// moved): the entry covering startOffset is kept with its start raised to it.
func (c *LeaderEpochCache) TruncateFromStart(startOffset int64) bool {
	keep := -1
	for i, e := range c.entries {
		if e.StartOffset <= startOffset {
			keep = i
		}
	}
	if keep < 0 {
		return false
	}
	changed := keep > 0 || c.entries[keep].StartOffset != startOffset
	c.entries = c.entries[keep:]
	c.entries[0].StartOffset = startOffset
	return changed
}

// Clear removes every entry.
func (c *LeaderEpochCache) Clear() { c.entries = nil }

// Encode renders the leader-epoch-checkpoint file: version 0, the count, then
// "epoch startOffset" per line.
func (c *LeaderEpochCache) Encode() []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "0\n%d\n", len(c.entries))
	for _, e := range c.entries {
		fmt.Fprintf(&b, "%d %d\n", e.Epoch, e.StartOffset)
	}
	return []byte(b.String())
}

// DecodeLeaderEpochCheckpoint parses a leader-epoch-checkpoint file.
func DecodeLeaderEpochCheckpoint(data []byte) (*LeaderEpochCache, error) {
	lines, err := checkpointLines(data, 2)
	if err != nil {
		return nil, err
	}
	c := &LeaderEpochCache{}
	for _, f := range lines {
		epoch, err1 := strconv.ParseInt(f[0], 10, 32)
		start, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("malformed leader epoch entry %q", strings.Join(f, " "))
		}
		c.entries = append(c.entries, EpochEntry{int32(epoch), start})
	}
	return c, nil
}

// checkpointLines checks the version and count lines of a checkpoint file
// and returns the entry lines split on whitespace, each with want fields.
func checkpointLines(data []byte, want int) ([][]string, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("malformed checkpoint file: missing header")
	}
	if strings.TrimSpace(lines[0]) != "0" {
		return nil, fmt.Errorf("Unrecognised version:%s", strings.TrimSpace(lines[0]))
	}
	n, err := strconv.Atoi(strings.TrimSpace(lines[1]))
	if err != nil || n < 0 || n != len(lines)-2 {
		return nil, fmt.Errorf("malformed checkpoint file: expected %s entries, found %d", strings.TrimSpace(lines[1]), len(lines)-2)
	}
	out := make([][]string, 0, n)
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if len(f) != want {
			return nil, fmt.Errorf("malformed checkpoint line %q", l)
		}
		out = append(out, f)
	}
	return out, nil
}
