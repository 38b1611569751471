package raft

import (
	"fmt"

	"kafkascope/core/record"
	"kafkascope/core/sim"
)

// Read-only accessors for views and tools. None of them changes the node:
// the UI calls them every animation frame, and a run must be the same
// whether or not anyone looks.

// entriesReadBytes is how much of the log Entries reads at a time.
const entriesReadBytes = 1 << 20

// Entries lists the entries of the local log in [from, to), oldest first:
// data entries with their payloads, and KRaft's own control entries
// (LeaderChangeMessage) with Control set and their ControlType. from is
// raised to the log start offset and to is capped at the log end offset;
// at most maxEntries are returned (the oldest ones of the range). to is
// normally the high watermark (committed entries only) or the log end
// offset (with what is not committed yet); both are batch boundaries, and
// a batch that reaches to is left out whole.
//
// Payloads share memory with nothing the node keeps: the caller may hold
// them.
func (n *Node) Entries(from, to int64, maxEntries int) ([]Entry, error) {
	if !n.started {
		return nil, ErrNotStarted
	}
	from = max(from, n.log.startOffset)
	to = min(to, n.log.endOffset())
	var out []Entry
	for from < to && len(out) < maxEntries {
		data, err := n.log.log.Read(from, entriesReadBytes, to, true)
		if err != nil {
			return out, fmt.Errorf("raft: node %d reading entries at %d: %w", n.cfg.NodeID, from, err)
		}
		if len(data) == 0 {
			break // the next batch reaches to
		}
		for len(data) > 0 && len(out) < maxEntries {
			b, size, err := record.Decode(data)
			if err != nil {
				return out, fmt.Errorf("raft: node %d decoding the batch at %d: %w", n.cfg.NodeID, from, err)
			}
			data = data[size:]
			for _, e := range committedBatch(b).Entries {
				if e.Offset >= from && len(out) < maxEntries {
					out = append(out, e)
				}
			}
			from = max(from, b.LastOffset()+1)
		}
	}
	return out, nil
}

// EpochOf is the epoch of the entry at offset in the local log (false when
// the log does not hold it).
func (n *Node) EpochOf(offset int64) (int32, bool) {
	if !n.started {
		return 0, false
	}
	return n.log.epochOfOffset(offset)
}

// QuorumProgress is the leader's view of the quorum, as DescribeQuorum
// reports it, without DescribeQuorum's side effect (forgetting observers
// silent for ObserverSessionTimeout; they are left out here instead).
// ErrNotLeader on any other node.
func (n *Node) QuorumProgress(now sim.Time) (QuorumInfo, error) {
	if !n.started {
		return QuorumInfo{}, ErrNotStarted
	}
	ls, ok := n.quorum.state.(*leaderState)
	if !ok {
		return QuorumInfo{}, ErrNotLeader
	}
	return ls.quorumInfo(now), nil
}
