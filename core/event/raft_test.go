package event

import (
	"strings"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// TestRaftNotesRenderAsBefore: the KRaft notes render as the text notes
// they replace did, so the feed's sentences and the transcripts keep
// their words.
func TestRaftNotesRenderAsBefore(t *testing.T) {
	snap := SnapshotID{EndOffset: 120, Epoch: 3}
	for _, c := range []struct {
		n    sim.Note
		want string
	}{
		{RaftStarted{Node: 1, Role: "Follower", Epoch: 4, LEO: 57, Observer: false},
			"raft.start node=1 role=Follower epoch=4 leo=57 observer=false"},
		{VoteAnswered{Node: 2, Candidate: 3, Epoch: 5, Granted: true},
			"raft.vote node=2 candidate=3 epoch=5 granted=true"},
		{ElectionBackoff{Node: 3, Epoch: 6, Backoff: 1500 * time.Millisecond, Why: "election timed out"},
			"raft.election.backoff node=3 epoch=6 backoff=" + sim.FormatDuration(1500*time.Millisecond) + " why=election timed out"},
		{RaftLeaderResigned{Node: 1, Leader: 2, Epoch: 7, ElectionIn: 0},
			"raft.leader.resigned node=1 leader=2 epoch=7 election_in=" + sim.FormatDuration(0)},
		{RaftTruncated{Node: 2, From: 9, To: 3, DivergingEpoch: 1, DivergingEndOffset: 3},
			"raft.truncate node=2 from=9 to=3 diverging_epoch=1 diverging_end_offset=3"},
		{RaftAppendFailed{Node: 2, Error: "disk full"}, "raft.append.error node=2 error=disk full"},
		{RaftResponseFailed{Node: 2, Error: protocol.NOT_LEADER_OR_FOLLOWER},
			"raft.response.error node=2 error=" + protocol.NOT_LEADER_OR_FOLLOWER.String()},
		{SnapshotCreated{Node: 1, Snapshot: snap, Bytes: 4096, File: "00000000000000000120-0000000003.checkpoint"},
			"raft.snapshot.created node=1 snapshot=(120,3) bytes=4096 file=00000000000000000120-0000000003.checkpoint"},
		{SnapshotLoaded{Node: 1, Snapshot: snap}, "raft.snapshot.load node=1 snapshot=(120,3)"},
		{SnapshotFetchStarted{Node: 4, Snapshot: snap, LEO: -1}, "raft.snapshot.fetch node=4 snapshot=(120,3) leo=-1"},
		{SnapshotInstalled{Node: 4, Snapshot: snap}, "raft.snapshot.installed node=4 snapshot=(120,3)"},
		{RaftLogStartAdvanced{Node: 1, LogStartOffset: 120}, "raft.log.start node=1 log_start_offset=120"},
		{RaftSegmentsDeleted{Node: 1, Segments: 2, Bytes: 1200, LogStartOffset: 120},
			"raft.log.segments.deleted node=1 segments=2 bytes=1200 log_start_offset=120"},
	} {
		f := sim.NoteFields(c.n)
		var b strings.Builder
		b.WriteString(c.n.Key())
		for i := 0; i < len(f); i += 2 {
			b.WriteString(" " + f[i] + "=" + f[i+1])
		}
		if got := b.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}
