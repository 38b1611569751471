package event

import (
	"strconv"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// RaftTransition: a KRaft node changed its role in the controller quorum
// (QuorumState's transitions), now in quorum epoch Epoch with Leader as
// the leader it knows (-1: none); Why says what made it move.
type RaftTransition struct {
	Node   int32
	Role   string // Unattached, Voted, Candidate, Leader, Follower, Resigned or Prospective
	Epoch  int32
	Leader int32
	Why    string
	// PreVoteLost: a Kafka 4.x prospective whose pre-vote failed goes
	// back, in the same epoch, to following its leader or to waiting.
	PreVoteLost bool
}

func (RaftTransition) Key() string { return "raft.transition" }
func (e RaftTransition) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("role", e.Role)
	w.Int("epoch", int64(e.Epoch))
	w.Int("leader", int64(e.Leader))
	w.Str("why", e.Why)
	if e.PreVoteLost {
		w.Bool("prevote_lost", true)
	}
}

// SnapshotID names a KRaft snapshot by the end offset and epoch of the
// last log entry it covers (Kafka's OffsetAndEpoch as a snapshot id); it
// has core/raft's SnapshotID's fields, so either converts to the other.
type SnapshotID struct {
	EndOffset int64
	Epoch     int32
}

// String renders the id as (endOffset,epoch), as the notes and the
// feed print it.
func (id SnapshotID) String() string {
	return "(" + strconv.FormatInt(id.EndOffset, 10) + "," + strconv.FormatInt(int64(id.Epoch), 10) + ")"
}

// RaftStarted: a KRaft node's client started (KafkaRaftClient.initialize,
// QuorumState.initialize): it read its quorum state and recovered its
// metadata log, and begins in Role in quorum epoch Epoch with its log
// ending at LEO. Observer: the node is not a voter.
type RaftStarted struct {
	Node     int32
	Role     string // as RaftTransition's Role
	Epoch    int32
	LEO      int64
	Observer bool
}

func (RaftStarted) Key() string { return "raft.start" }
func (e RaftStarted) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("role", e.Role)
	w.Int("epoch", int64(e.Epoch))
	w.Int("leo", e.LEO)
	w.Bool("observer", e.Observer)
}

// VoteAnswered: a KRaft node answered Candidate's Vote request for epoch
// Epoch (KafkaRaftClient.handleVoteRequest), granting its vote or not.
// PreVote marks a Kafka 4.x pre-vote (KIP-996): a prospective asking, in
// its current epoch, whether it would win; the answer records nothing.
type VoteAnswered struct {
	Node      int32
	Candidate int32
	Epoch     int32
	Granted   bool
	PreVote   bool
}

func (VoteAnswered) Key() string { return "raft.vote" }
func (e VoteAnswered) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("candidate", int64(e.Candidate))
	w.Int("epoch", int64(e.Epoch))
	w.Bool("granted", e.Granted)
	if e.PreVote {
		w.Bool("prevote", true)
	}
}

// ElectionBackoff: a KRaft candidate lost its election for epoch Epoch
// (its election timed out, or a majority rejected it) and waits a random
// Backoff before it stands again (CandidateState.startBackingOff, with
// KafkaRaftClient.binaryExponentialElectionBackoffMs).
type ElectionBackoff struct {
	Node    int32
	Epoch   int32
	Backoff time.Duration
	Why     string
}

func (ElectionBackoff) Key() string { return "raft.election.backoff" }
func (e ElectionBackoff) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("epoch", int64(e.Epoch))
	w.Dur("backoff", e.Backoff)
	w.Str("why", e.Why)
}

// RaftLeaderResigned: Leader, the quorum leader of epoch Epoch, resigned
// (its EndQuorumEpoch request reached this node, which follows it), so
// this node stands for election after ElectionIn, sooner the higher it
// is in the leader's preferred successors
// (KafkaRaftClient.handleEndQuorumEpochRequest,
// FollowerState.overrideFetchTimeout).
type RaftLeaderResigned struct {
	Node       int32
	Leader     int32
	Epoch      int32
	ElectionIn time.Duration
}

func (RaftLeaderResigned) Key() string { return "raft.leader.resigned" }
func (e RaftLeaderResigned) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("leader", int64(e.Leader))
	w.Int("epoch", int64(e.Epoch))
	w.Dur("election_in", e.ElectionIn)
}

// RaftTruncated: a KRaft follower's metadata log diverged from the
// leader's (a Fetch response named a diverging epoch), so it truncated its
// log end from offset From to To (KafkaRaftClient.handleFetchResponse,
// ReplicatedLog.truncateToEndOffset).
type RaftTruncated struct {
	Node               int32
	From, To           int64
	DivergingEpoch     int32
	DivergingEndOffset int64
}

func (RaftTruncated) Key() string { return "raft.truncate" }
func (e RaftTruncated) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("from", e.From)
	w.Int("to", e.To)
	w.Int("diverging_epoch", int64(e.DivergingEpoch))
	w.Int("diverging_end_offset", e.DivergingEndOffset)
}

// RaftAppendFailed: a KRaft follower could not append the records a
// Fetch response carried (KafkaRaftClient.appendAsFollower threw); Error
// is the error's message. It fetches again.
type RaftAppendFailed struct {
	Node  int32
	Error string
}

func (RaftAppendFailed) Key() string { return "raft.append.error" }
func (e RaftAppendFailed) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("error", e.Error)
}

// RaftResponseFailed: a response to a KRaft node's request carried a
// top-level error other than a broken connection
// (KafkaRaftClient.handleTopLevelError), so it looks for the leader again.
type RaftResponseFailed struct {
	Node  int32
	Error protocol.ErrorCode
}

func (RaftResponseFailed) Key() string { return "raft.response.error" }
func (e RaftResponseFailed) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("error", e.Error.String())
}

// SnapshotCreated: a KRaft node wrote and froze a snapshot of its
// metadata up to Snapshot, Bytes long, in the file File
// (KafkaRaftClient.createSnapshot, KafkaMetadataLog.createNewSnapshot and
// FileRawSnapshotWriter.freeze).
type SnapshotCreated struct {
	Node     int32
	Snapshot SnapshotID
	Bytes    int64
	File     string // the file's name, without its directory
}

func (SnapshotCreated) Key() string { return "raft.snapshot.created" }
func (e SnapshotCreated) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("snapshot", e.Snapshot.String())
	w.Int("bytes", e.Bytes)
	w.Str("file", e.File)
}

// SnapshotLoaded: a KRaft node handed snapshot Snapshot to its listener
// to load, instead of replaying the log up to it
// (KafkaRaftClient's ListenerContext firing RaftClient.Listener.handleLoadSnapshot).
type SnapshotLoaded struct {
	Node     int32
	Snapshot SnapshotID
}

func (SnapshotLoaded) Key() string { return "raft.snapshot.load" }
func (e SnapshotLoaded) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("snapshot", e.Snapshot.String())
}

// SnapshotFetchStarted: a KRaft follower, its log ending at LEO, was told
// by the leader to fetch snapshot Snapshot instead of the log, and starts
// downloading it (KafkaRaftClient.handleFetchResponse,
// FollowerState.setFetchingSnapshot).
type SnapshotFetchStarted struct {
	Node     int32
	Snapshot SnapshotID
	LEO      int64
}

func (SnapshotFetchStarted) Key() string { return "raft.snapshot.fetch" }
func (e SnapshotFetchStarted) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("snapshot", e.Snapshot.String())
	w.Int("leo", e.LEO)
}

// SnapshotInstalled: a KRaft follower has snapshot Snapshot whole and
// restarts its log at its end offset
// (KafkaRaftClient.handleFetchSnapshotResponse,
// KafkaMetadataLog.truncateToLatestSnapshot).
type SnapshotInstalled struct {
	Node     int32
	Snapshot SnapshotID
}

func (SnapshotInstalled) Key() string { return "raft.snapshot.installed" }
func (e SnapshotInstalled) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Str("snapshot", e.Snapshot.String())
}

// RaftLogStartAdvanced: a KRaft node moved its metadata log's start
// offset up to LogStartOffset, the end of a snapshot, so older entries are
// read from the snapshot (KafkaMetadataLog.deleteBeforeSnapshot).
type RaftLogStartAdvanced struct {
	Node           int32
	LogStartOffset int64
}

func (RaftLogStartAdvanced) Key() string { return "raft.log.start" }
func (e RaftLogStartAdvanced) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("log_start_offset", e.LogStartOffset)
}

// RaftSegmentsDeleted: a KRaft node deleted Segments metadata log
// segments, Bytes in all, that lay wholly before its log start offset
// LogStartOffset (KafkaMetadataLog.deleteBeforeSnapshot, then
// UnifiedLog.deleteOldSegments).
type RaftSegmentsDeleted struct {
	Node           int32
	Segments       int
	Bytes          int64
	LogStartOffset int64
}

func (RaftSegmentsDeleted) Key() string { return "raft.log.segments.deleted" }
func (e RaftSegmentsDeleted) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("segments", int64(e.Segments))
	w.Int("bytes", e.Bytes)
	w.Int("log_start_offset", e.LogStartOffset)
}
