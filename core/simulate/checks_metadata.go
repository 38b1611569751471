package simulate

import (
	"bytes"
	"fmt"

	"kafkascope/core/cluster"
	"kafkascope/core/raft"
)

// checkMetadata (metadata-committed-lost), at every sample: the KRaft
// quorum never loses a committed entry of __cluster_metadata-0, even when
// voters lose power (faults_voters.go). Each running voter's high
// watermark names entries it knows to be committed; the first time an
// offset is seen committed its leader epoch is recorded, and from then on
// every voter whose HW covers that offset must hold an entry of the same
// epoch there. By Raft's log matching (same offset and epoch, same log up
// to there) comparing the last committed entry of each voter is enough at
// a sample; metadataFinal compares them all.
func (run *Run) checkMetadata() {
	for _, id := range run.C.NodeIDs() {
		n := run.voterRaft(id)
		if n == nil {
			continue
		}
		hw := n.HighWatermark()
		if hw <= 0 {
			continue
		}
		for off := int64(len(run.x.metaCommitted)); off < hw; off++ {
			e, ok := n.EpochOf(off)
			if !ok {
				e = -1 // in a snapshot only
			}
			run.x.metaCommitted = append(run.x.metaCommitted, e)
		}
		run.checkMetadataEntry(id, n, hw-1)
	}
}

// voterRaft is node id's raft node when it is a running, started voter.
func (run *Run) voterRaft(id int32) *raft.Node {
	if !run.C.IsVoter(id) || run.C.State(id) != cluster.NodeRunning {
		return nil
	}
	n := run.C.Node(id).Raft
	if n == nil || !n.Started() {
		return nil
	}
	return n
}

// checkMetadataEntry compares voter id's entry at a committed offset with
// the epoch recorded for it; false when it differs.
func (run *Run) checkMetadataEntry(id int32, n *raft.Node, off int64) bool {
	if off < 0 || off >= int64(len(run.x.metaCommitted)) || off < n.LogStartOffset() {
		return true
	}
	want := run.x.metaCommitted[off]
	if want < 0 {
		return true
	}
	got, ok := n.EpochOf(off)
	if !ok || got != want {
		detail := "does not have it"
		if ok {
			detail = fmt.Sprintf("has an entry of epoch %d there", got)
		}
		run.violate("metadata-committed-lost", "__cluster_metadata-0 offset %d was committed in epoch %d; voter %d (high watermark %d, log end %d) %s", off, want, id, n.HighWatermark(), n.LogEndOffset(), detail)
		return false
	}
	return true
}

// metadataFinal (after the liveness phase, every voter running):
//   - metadata-committed-lost: every voter's log holds every entry ever
//     seen committed, with the epoch it was committed in;
//   - metadata-identical: every voter's log is byte-identical to the
//     quorum leader's below both their high watermarks.
func (run *Run) metadataFinal() {
	run.checkMetadata()
	var leader *raft.Node
	var leaderID int32
	for _, id := range run.C.NodeIDs() {
		n := run.voterRaft(id)
		if n == nil {
			continue
		}
		if n.Role() == raft.RoleLeader {
			leader, leaderID = n, id
		}
		if end := int64(len(run.x.metaCommitted)); n.LogEndOffset() < end {
			run.violate("metadata-committed-lost", "voter %d's __cluster_metadata-0 ends at %d, but entries up to %d were committed", id, n.LogEndOffset(), end)
			continue
		}
		for off := n.LogStartOffset(); off < int64(len(run.x.metaCommitted)); off++ {
			if !run.checkMetadataEntry(id, n, off) {
				break
			}
		}
	}
	if leader == nil {
		return // liveness reports a missing controller
	}
	start := leader.LogStartOffset()
	for _, id := range run.C.NodeIDs() {
		n := run.voterRaft(id)
		if n == nil || id == leaderID || n.LogStartOffset() != start {
			continue
		}
		// Below both high watermarks: a follower fetches continually (the
		// leader appends a NoOpRecord every metadata.max.idle.interval.ms),
		// so its log may end a little behind the leader's.
		hw := min(leader.HighWatermark(), n.HighWatermark())
		want, err1 := leader.Log().Read(start, 1<<30, hw, true)
		got, err2 := n.Log().Read(start, 1<<30, hw, true)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			run.violate("metadata-identical", "voter %d's __cluster_metadata-0 differs from the leader %d's below offset %d (%d bytes vs %d; %v %v)", id, leaderID, hw, len(got), len(want), err1, err2)
		}
	}
}
