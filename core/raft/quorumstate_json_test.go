package raft

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// The quorum-state file is written and read without encoding/json (to keep
// it out of the page), as encoding/json wrote and read it into these
// types before.

type refQuorumState struct {
	ClusterID     string     `json:"clusterId"`
	LeaderID      int32      `json:"leaderId"`
	LeaderEpoch   int32      `json:"leaderEpoch"`
	VotedID       int32      `json:"votedId"`
	AppliedOffset int64      `json:"appliedOffset"`
	CurrentVoters []refVoter `json:"currentVoters"`
	DataVersion   *int16     `json:"data_version"`
}

type refVoter struct {
	VoterID int32 `json:"voterId"`
}

// refDecodeQuorumState is the JSON part of decodeQuorumState as it was.
func refDecodeQuorumState(line []byte) (electionState, bool) {
	q := refQuorumState{LeaderID: NoLeader, LeaderEpoch: -1, VotedID: notVoted}
	if err := json.Unmarshal(line, &q); err != nil || q.DataVersion == nil || *q.DataVersion < 0 || *q.DataVersion > 1 {
		return electionState{}, false
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
	return e, true
}

var quorumStateSeeds = []string{
	`{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,"currentVoters":[],"data_version":0}`,
	`{"leaderId":-1,"leaderEpoch":2,"votedId":1,"votedDirectoryId":"J8aAPcfLQt2bqs1JT_rMgQ","data_version":1}`,
	`{"leaderId":9990,"leaderEpoch":3012,"votedId":-1,"appliedOffset": 0,"currentVoters":[{"voterId":9990},{"voterId":9991},{"voterId":9992}],"data_version":2}`,
	`{"LEADERID":3,"data_VERSION":0,"currentVoters":[{"voterid":1,"x":[]},null,{}],"currentVoters":[{"voterId":5}]}`,
	`{"data_version":null}`,
	`{"data_version":0,"data_version":null}`,
	`{"data_version":-1}`,
	`{"data_version":70000}`,
	`{"data_version":0,"leaderId":2147483648}`,
	`{"data_version":0,"leaderEpoch":1.0}`,
	`{"data_version":0,"clusterId":5}`,
	`{"data_version":0} x`,
	`null`,
	`[]`,
	`{"data_version":0,"currentVoters":null,"appliedOffset":null}`,
}

func checkQuorumStateJSON(t *testing.T, line []byte) {
	t.Helper()
	want, wantOK := refDecodeQuorumState(line)
	got, err := decodeQuorumState(line)
	if (err == nil) != wantOK {
		t.Fatalf("%q: error %v, encoding/json accepted it: %v", line, err, wantOK)
	}
	if wantOK && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decoded %+v, encoding/json %+v", line, got, want)
	}
}

func TestQuorumStateJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range quorumStateSeeds {
		checkQuorumStateJSON(t, []byte(s))
	}
	for _, e := range []electionState{
		{epoch: 7, leaderID: NoLeader, votedID: 3, voters: []int32{1, 2, 3}},
		{epoch: 0, leaderID: 2, votedID: notVoted},
		{epoch: 1 << 30, leaderID: 1 << 20, votedID: notVoted, voters: []int32{7}},
	} {
		v := quorumStateVersion
		q := refQuorumState{LeaderID: e.leaderID, LeaderEpoch: e.epoch, VotedID: e.votedID, CurrentVoters: []refVoter{}, DataVersion: &v}
		for _, id := range e.voters {
			q.CurrentVoters = append(q.CurrentVoters, refVoter{id})
		}
		want, _ := json.Marshal(q)
		if got := encodeQuorumState(e); string(got) != string(want) {
			t.Fatalf("encoded\n got %s\nwant %s", got, want)
		}
	}
}

func FuzzQuorumStateJSON(f *testing.F) {
	for _, s := range quorumStateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		line, _, _ := bytes.Cut(data, []byte("\n")) // the line it reads
		if len(bytes.TrimSpace(line)) == 0 {
			return // an empty file: no JSON read
		}
		checkQuorumStateJSON(t, line)
	})
}
