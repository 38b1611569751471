package raft

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"

	"kafkascope/core/storage"
)

// electionState is what a node remembers across restarts about the current
// epoch: Kafka's ElectionState. At most one of leaderID and votedID is set.
type electionState struct {
	epoch    int32
	leaderID int32   // NoLeader when unknown
	votedID  int32   // notVoted when this node has not voted in epoch
	voters   []int32 // ascending; written for quorum-state version 0
}

const notVoted int32 = -1

func (e electionState) hasLeader() bool { return e.leaderID >= 0 }
func (e electionState) hasVoted() bool  { return e.votedID >= 0 }

// quorumStateJSON is the quorum-state file, version 0: the JSON form of
// QuorumStateData (raft/src/main/resources/common/message/QuorumStateData.json)
// plus the "data_version" field FileQuorumStateStore adds
// (FileQuorumStateStore.java:42-68, 188). Field order is the schema's,
// which is the order Kafka's generated converter writes. ClusterId and
// AppliedOffset exist only in version 0 and Kafka always leaves them at
// their defaults ("" and 0; ElectionState.toQuorumStateData never sets
// them). Kafka 3.8 writes version 0 while kraft.version is 0, i.e. with a
// static controller.quorum.voters.
type quorumStateJSON struct {
	ClusterID     string      `json:"clusterId"`
	LeaderID      int32       `json:"leaderId"`
	LeaderEpoch   int32       `json:"leaderEpoch"`
	VotedID       int32       `json:"votedId"`
	AppliedOffset int64       `json:"appliedOffset"`
	CurrentVoters []voterJSON `json:"currentVoters"`
	DataVersion   *int16      `json:"data_version"`
}

type voterJSON struct {
	VoterID int32 `json:"voterId"`
}

// quorumStateVersion is the only version written (kraft.version 0).
const quorumStateVersion int16 = 0

// encodeQuorumState renders the file as Jackson's ObjectNode.toString does:
// compact JSON on one line, no trailing newline. Voters are ascending, which
// is the order Kafka's HashSet<Integer> yields for ids below its capacity.
func encodeQuorumState(e electionState) []byte {
	v := quorumStateVersion
	q := quorumStateJSON{
		LeaderID:      e.leaderID,
		LeaderEpoch:   e.epoch,
		VotedID:       e.votedID,
		CurrentVoters: make([]voterJSON, 0, len(e.voters)),
		DataVersion:   &v,
	}
	for _, id := range e.voters {
		q.CurrentVoters = append(q.CurrentVoters, voterJSON{VoterID: id})
	}
	b, err := json.Marshal(q)
	if err != nil {
		panic(fmt.Sprintf("raft: encoding quorum-state: %v", err)) // plain data: cannot fail
	}
	return b
}

// decodeQuorumState reads the first line of the file, as
// FileQuorumStateStore.readStateFromFile does, and accepts versions 0 and
// 1 (LOWEST/HIGHEST_SUPPORTED_VERSION); version 1's votedDirectoryId is
// ignored because this simulator has no directory ids.
func decodeQuorumState(data []byte) (electionState, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if len(bytes.TrimSpace(line)) == 0 {
		return electionState{}, fmt.Errorf("quorum-state: file ended prematurely")
	}
	q := quorumStateJSON{LeaderID: NoLeader, LeaderEpoch: -1, VotedID: notVoted}
	if err := json.Unmarshal(line, &q); err != nil {
		return electionState{}, fmt.Errorf("quorum-state: %v", err)
	}
	if q.DataVersion == nil {
		return electionState{}, fmt.Errorf("quorum-state: no data_version field")
	}
	if *q.DataVersion < 0 || *q.DataVersion > 1 {
		return electionState{}, fmt.Errorf("quorum-state: data_version (%d) is not within the min (0) and max (1) supported version", *q.DataVersion)
	}
	e := electionState{epoch: q.LeaderEpoch, leaderID: q.LeaderID, votedID: q.VotedID}
	for _, v := range q.CurrentVoters {
		e.voters = append(e.voters, v.VoterID)
	}
	if e.leaderID < 0 {
		e.leaderID = NoLeader
	}
	if e.votedID < 0 {
		e.votedID = notVoted
	}
	return e, nil
}

// quorumStateStore is FileQuorumStateStore on the simulated disk.
type quorumStateStore struct {
	disk *storage.Disk
	path string
}

func newQuorumStateStore(d *storage.Disk, partitionDir string) *quorumStateStore {
	return &quorumStateStore{disk: d, path: path.Join(partitionDir, QuorumStateFile)}
}

// read returns the stored election state and whether the file exists.
func (s *quorumStateStore) read() (electionState, bool, error) {
	if !s.disk.Exists(s.path) {
		return electionState{}, false, nil
	}
	data, err := s.disk.ReadFile(s.path)
	if err != nil {
		return electionState{}, false, err
	}
	e, err := decodeQuorumState(data)
	return e, err == nil, err
}

// write replaces the file durably. Kafka writes quorum-state.tmp, fsyncs it
// and renames it over the old file (FileQuorumStateStore.java:166-194);
// WriteFileDurable is exactly that on the simulated disk.
func (s *quorumStateStore) write(e electionState) error {
	return s.disk.WriteFileDurable(s.path, encodeQuorumState(e))
}
