package raft

import (
	"bytes"
	"fmt"
	"path"
	"strconv"

	"kafkascope/core/jsonvalue"
	"kafkascope/core/storage"
)

// electionState is what a node remembers across restarts about the current
// epoch: Kafka's ElectionState. Under 3.8's rules at most one of leaderID
// and votedID is set; from 4.x on a node that voted and then learned the
// epoch's leader keeps both (ElectionState.withElectedLeader with a voted
// key), so it can never vote twice in the epoch.
type electionState struct {
	epoch    int32
	leaderID int32   // NoLeader when unknown
	votedID  int32   // notVoted when this node has not voted in epoch
	voters   []int32 // ascending; written for quorum-state version 0
}

const notVoted int32 = -1

func (e electionState) hasLeader() bool { return e.leaderID >= 0 }
func (e electionState) hasVoted() bool  { return e.votedID >= 0 }

// The quorum-state file, version 0, is the JSON form of QuorumStateData
// (raft/src/main/resources/common/message/QuorumStateData.json) plus the
// "data_version" field FileQuorumStateStore adds (FileQuorumStateStore.java:
// 42-68, 188):
//
//	{"clusterId":"","leaderId":-1,"leaderEpoch":7,"votedId":3,"appliedOffset":0,"currentVoters":[{"voterId":1}],"data_version":0}
//
// Field order is the schema's, which is the order Kafka's generated
// converter writes. ClusterId and AppliedOffset exist only in version 0
// and Kafka always leaves them at their defaults ("" and 0;
// ElectionState.toQuorumStateData never sets them). Kafka 3.8 writes
// version 0 while kraft.version is 0, i.e. with a static
// controller.quorum.voters.

// quorumStateVersion is the only version written (kraft.version 0).
const quorumStateVersion int16 = 0

// encodeQuorumState renders the file as Jackson's ObjectNode.toString does:
// compact JSON on one line, no trailing newline. Voters are ascending, which
// is the order Kafka's HashSet<Integer> yields for ids below its capacity.
func encodeQuorumState(e electionState) []byte {
	b := append([]byte(`{"clusterId":"","leaderId":`), strconv.Itoa(int(e.leaderID))...)
	b = append(b, `,"leaderEpoch":`...)
	b = strconv.AppendInt(b, int64(e.epoch), 10)
	b = append(b, `,"votedId":`...)
	b = strconv.AppendInt(b, int64(e.votedID), 10)
	b = append(b, `,"appliedOffset":0,"currentVoters":[`...)
	for i, id := range e.voters {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"voterId":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, '}')
	}
	b = append(b, `],"data_version":`...)
	b = strconv.AppendInt(b, int64(quorumStateVersion), 10)
	return append(b, '}')
}

// decodeQuorumState reads the first line of the file, as
// FileQuorumStateStore.readStateFromFile does, and accepts versions 0 and
// 1 (LOWEST/HIGHEST_SUPPORTED_VERSION); version 1's votedDirectoryId is
// ignored because this simulator has no directory ids. Fields are read as
// encoding/json read them into the schema's types (jsonvalue's Decode
// functions): names match ignoring case, other fields are skipped.
func decodeQuorumState(data []byte) (electionState, error) {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if len(bytes.TrimSpace(line)) == 0 {
		return electionState{}, fmt.Errorf("quorum-state: file ended prematurely")
	}
	v, err := jsonvalue.Parse(string(line))
	if err != nil {
		return electionState{}, fmt.Errorf("quorum-state: %v", err)
	}
	e := electionState{epoch: -1, leaderID: NoLeader, votedID: notVoted}
	var (
		clusterID string
		applied   int64
		voters    []int32 // currentVoters' voterId fields
		version   *int16  // data_version
	)
	err = jsonvalue.DecodeObject(v, func(key string, f *jsonvalue.Value) error {
		switch {
		case jsonvalue.KeyIs(key, "clusterId"):
			return jsonvalue.DecodeString(f, &clusterID)
		case jsonvalue.KeyIs(key, "leaderId"):
			return jsonvalue.DecodeInt(f, &e.leaderID)
		case jsonvalue.KeyIs(key, "leaderEpoch"):
			return jsonvalue.DecodeInt(f, &e.epoch)
		case jsonvalue.KeyIs(key, "votedId"):
			return jsonvalue.DecodeInt(f, &e.votedID)
		case jsonvalue.KeyIs(key, "appliedOffset"):
			return jsonvalue.DecodeInt(f, &applied)
		case jsonvalue.KeyIs(key, "currentVoters"):
			return jsonvalue.DecodeList(f, &voters, decodeVoter)
		case jsonvalue.KeyIs(key, "data_version"):
			if f.Kind == jsonvalue.Null {
				version = nil
				return nil
			}
			if version == nil {
				version = new(int16)
			}
			return jsonvalue.DecodeInt(f, version)
		}
		return nil // another version's field, such as votedDirectoryId
	})
	if err != nil {
		return electionState{}, fmt.Errorf("quorum-state: %v", err)
	}
	if version == nil {
		return electionState{}, fmt.Errorf("quorum-state: no data_version field")
	}
	if *version < 0 || *version > 1 {
		return electionState{}, fmt.Errorf("quorum-state: data_version (%d) is not within the min (0) and max (1) supported version", *version)
	}
	e.voters = append(e.voters, voters...)
	if e.leaderID < 0 {
		e.leaderID = NoLeader
	}
	if e.votedID < 0 {
		e.votedID = notVoted
	}
	return e, nil
}

// decodeVoter reads a currentVoters element, {"voterId":1}, into its id.
func decodeVoter(v *jsonvalue.Value, id *int32) error {
	return jsonvalue.DecodeObject(v, func(key string, f *jsonvalue.Value) error {
		if jsonvalue.KeyIs(key, "voterId") {
			return jsonvalue.DecodeInt(f, id)
		}
		return nil
	})
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
