package raft

import (
	"bytes"
	"encoding/binary"
	"path"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kafkascope/core/metadata"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// franz-go's kmsg is an independent implementation of Kafka's message
// schemas; these tests check the control records against it byte for byte,
// and against the schemas by hand where kmsg has no type.

func TestLeaderChangeMessageMatchesKmsg(t *testing.T) {
	m := LeaderChangeMessage{Version: 0, LeaderID: 2, Voters: []int32{1, 2, 3}, GrantingVoters: []int32{2, 3}}
	k := kmsg.NewLeaderChangeMessage()
	k.Version, k.LeaderID = 0, 2
	for _, v := range m.Voters {
		k.Voters = append(k.Voters, kmsg.LeaderChangeMessageVoter{VoterID: v})
	}
	for _, v := range m.GrantingVoters {
		k.GrantingVoters = append(k.GrantingVoters, kmsg.LeaderChangeMessageVoter{VoterID: v})
	}
	got, want := m.Encode(), k.AppendTo(nil)
	if !bytes.Equal(got, want) {
		t.Fatalf("LeaderChangeMessage\n got % x\nwant % x", got, want)
	}
	// version 0, leader 2, compact array of 3 voters each + empty tags, ...
	exact := []byte{0, 0, 0, 0, 0, 2, 4, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0}
	if !bytes.Equal(got, exact) {
		t.Fatalf("LeaderChangeMessage bytes % x", got)
	}
	back, err := DecodeLeaderChangeMessage(got)
	if err != nil || !reflect.DeepEqual(back, m) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	if _, err := DecodeLeaderChangeMessage(got[:len(got)-1]); err == nil {
		t.Fatal("a truncated message decoded")
	}
}

func TestControlKeyMatchesKmsg(t *testing.T) {
	for _, ct := range []ControlType{ControlLeaderChange, ControlSnapshotHeader, ControlSnapshotFooter} {
		k := kmsg.NewControlRecordKey()
		k.Type = kmsg.ControlRecordKeyType(ct)
		if got, want := record.ControlKey(ct), k.AppendTo(nil); !bytes.Equal(got, want) {
			t.Fatalf("%s key % x, kmsg % x", ct, got, want)
		}
		if back, err := record.ParseControlKey(record.ControlKey(ct)); err != nil || back != ct {
			t.Fatalf("parse %s: %v %v", ct, back, err)
		}
	}
}

// SnapshotHeaderRecord / SnapshotFooterRecord, version 0, flexible: the
// fields then an empty tagged-field section.
func TestSnapshotHeaderFooterBytes(t *testing.T) {
	h := SnapshotHeaderRecord{Version: 0, LastContainedLogTimestamp: 1704067200123}
	want := binary.BigEndian.AppendUint64([]byte{0, 0}, 1704067200123)
	want = append(want, 0)
	if got := h.Encode(); !bytes.Equal(got, want) {
		t.Fatalf("header % x, want % x", got, want)
	}
	if back, err := DecodeSnapshotHeaderRecord(h.Encode()); err != nil || back != h {
		t.Fatalf("header round trip %+v %v", back, err)
	}
	if got := (SnapshotFooterRecord{}).Encode(); !bytes.Equal(got, []byte{0, 0, 0}) {
		t.Fatalf("footer % x", got)
	}
}

// TestLeaderChangeBatchInTheLog: a new leader's first entry is a control
// batch (attributes bit 0x20, no producer) with one record whose key is
// (version 0, type 2) and whose value is the LeaderChangeMessage, stamped
// with the epoch as partition leader epoch; the epoch cache and
// leader-epoch-checkpoint record where the epoch starts.
func TestLeaderChangeBatchInTheLog(t *testing.T) {
	c := newCluster(t, 12, clusterOpts{voters: 3})
	c.startAll()
	l := c.waitLeader(5 * time.Second)
	c.runFor(time.Second)
	data, err := c.node(l).Log().Read(0, 1<<20, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	var kb kmsg.RecordBatch
	if err := kb.ReadFrom(data); err != nil {
		t.Fatal(err)
	}
	if kb.FirstOffset != 0 || kb.PartitionLeaderEpoch != 1 || kb.Attributes != 0x20 || kb.ProducerID != -1 ||
		kb.ProducerEpoch != -1 || kb.FirstSequence != -1 || kb.NumRecords != 1 || kb.Magic != 2 {
		t.Fatalf("control batch header %+v", kb)
	}
	var kr kmsg.Record
	if err := kr.ReadFrom(kb.Records); err != nil {
		t.Fatal(err)
	}
	var key kmsg.ControlRecordKey
	if err := key.ReadFrom(kr.Key); err != nil || key.Type != kmsg.ControlRecordKeyType(ControlLeaderChange) || key.Version != 0 {
		t.Fatalf("control key %+v %v", key, err)
	}
	var lc kmsg.LeaderChangeMessage
	if err := lc.ReadFrom(kr.Value); err != nil {
		t.Fatal(err)
	}
	if lc.LeaderID != l || len(lc.Voters) != 3 || len(lc.GrantingVoters) < 2 {
		t.Fatalf("LeaderChangeMessage %+v", lc)
	}
	for _, id := range c.ids {
		b, err := c.hosts[id].disk.ReadFile(path.Join(testLogDir, "__cluster_metadata-0", storage.LeaderEpochCheckpointFile))
		if err != nil || string(b) != "0\n1\n1 0\n" {
			t.Fatalf("node %d leader-epoch-checkpoint %q %v", id, b, err)
		}
		pm, _ := c.hosts[id].disk.ReadFile(path.Join(testLogDir, "__cluster_metadata-0", storage.PartitionMetadataFile))
		if string(pm) != "version: 0\ntopic_id: "+metadata.MetadataTopicID.String() {
			t.Fatalf("partition.metadata %q", pm)
		}
	}
	// Appended payloads are one data batch: null keys, values as given,
	// timestamp delta 0, no control bit.
	appended, err := c.appendOn(l, 3)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := c.node(l).Log().Batches(1, c.node(l).LogEndOffset())
	if err != nil || len(bs) != 1 {
		t.Fatalf("batches %v %v", bs, err)
	}
	b := bs[0]
	if b.IsControl() || b.Attributes != 0 || len(b.Records) != 3 || b.BaseOffset != 1 || b.PartitionLeaderEpoch != 1 {
		t.Fatalf("data batch %+v", b)
	}
	for i, r := range b.Records {
		if r.Key != nil || r.Timestamp != b.BaseTimestamp || string(r.Value) != appended[i] {
			t.Fatalf("record %d: %+v", i, r)
		}
	}
}

func TestMetadataTopicID(t *testing.T) {
	if MetadataTopicID != metadata.MetadataTopicID.String() {
		t.Fatalf("%s != %s", MetadataTopicID, metadata.MetadataTopicID)
	}
}

// TestQuorumStateFormat reads the examples of FileQuorumStateStore's
// javadoc and its tests, and writes version 0 exactly.
func TestQuorumStateFormat(t *testing.T) {
	v0 := `{"clusterId":"","leaderId":1,"leaderEpoch":2,"votedId":-1,"appliedOffset":0,"currentVoters":[],"data_version":0}`
	e, err := decodeQuorumState([]byte(v0))
	if err != nil || e.epoch != 2 || e.leaderID != 1 || e.votedID != notVoted {
		t.Fatalf("v0: %+v %v", e, err)
	}
	v1 := `{"leaderId":-1,"leaderEpoch":2,"votedId":1,"votedDirectoryId":"J8aAPcfLQt2bqs1JT_rMgQ","data_version":1}`
	e, err = decodeQuorumState([]byte(v1))
	if err != nil || e.epoch != 2 || e.leaderID != NoLeader || e.votedID != 1 {
		t.Fatalf("v1: %+v %v", e, err)
	}
	bad := `{"leaderId":9990,"leaderEpoch":3012,"votedId":-1,"appliedOffset": 0,"currentVoters":[{"voterId":9990},{"voterId":9991},{"voterId":9992}],"data_version":2}`
	if _, err := decodeQuorumState([]byte(bad)); err == nil {
		t.Fatal("data_version 2 accepted")
	}
	if _, err := decodeQuorumState([]byte(`{"leaderId":1}`)); err == nil {
		t.Fatal("missing data_version accepted")
	}
	got := string(encodeQuorumState(electionState{epoch: 7, leaderID: NoLeader, votedID: 3, voters: []int32{1, 2, 3}}))
	want := `{"clusterId":"","leaderId":-1,"leaderEpoch":7,"votedId":3,"appliedOffset":0,"currentVoters":[{"voterId":1},{"voterId":2},{"voterId":3}],"data_version":0}`
	if got != want {
		t.Fatalf("encoded\n got %s\nwant %s", got, want)
	}
}

func TestSnapshotFileNames(t *testing.T) {
	id := SnapshotID{EndOffset: 57, Epoch: 2}
	if got := SnapshotFileName(id); got != "00000000000000000057-0000000002.checkpoint" {
		t.Fatalf("name %s", got)
	}
	for name, want := range map[string][3]bool{
		"00000000000000000057-0000000002.checkpoint":                          {true, false, false},
		"00000000000000000057-0000000002-123.checkpoint.part":                 {true, true, false},
		"00000000000000000057-0000000002.checkpoint.deleted":                  {true, false, true},
		"00000000000000000057.log":                                            {false, false, false},
		"leader-epoch-checkpoint":                                             {false, false, false},
		"0000000000000000005x-0000000002.checkpoint":                          {false, false, false},
		"00000000000000000057-0000000002-7725519473521931281.checkpoint.part": {true, true, false},
	} {
		got, partial, deleted, ok := parseSnapshotFileName(name)
		if ok != want[0] || partial != want[1] || deleted != want[2] || (ok && got != id) {
			t.Errorf("%s: %v %v %v %v", name, got, ok, partial, deleted)
		}
	}
}

// TestSnapshotLayout: header control batch at offset 0, payload batches
// from offset 1, footer control batch last, all in the snapshot's epoch.
func TestSnapshotLayout(t *testing.T) {
	id := SnapshotID{EndOffset: 100, Epoch: 4}
	payloads := [][]byte{[]byte("a"), []byte("bb"), {}}
	data := encodeSnapshot(id, 5000, 4000, payloads)
	var bs []record.Batch
	for rest := data; len(rest) > 0; {
		b, n, err := record.Decode(rest)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
		rest = rest[n:]
	}
	if len(bs) != 3 {
		t.Fatalf("%d batches", len(bs))
	}
	if !bs[0].IsControl() || bs[0].BaseOffset != 0 || bs[1].IsControl() || bs[1].BaseOffset != 1 || !bs[2].IsControl() || bs[2].BaseOffset != 4 {
		t.Fatalf("layout %+v", bs)
	}
	for _, b := range bs {
		if b.PartitionLeaderEpoch != id.Epoch {
			t.Fatalf("batch epoch %d", b.PartitionLeaderEpoch)
		}
	}
	s, err := decodeSnapshot(data)
	if err != nil || s.header.LastContainedLogTimestamp != 4000 || len(s.payloads) != 3 || !slices.EqualFunc(s.payloads, payloads, bytes.Equal) {
		t.Fatalf("decoded %+v %v", s, err)
	}
	if _, err := decodeSnapshot(data[:len(data)-3]); err == nil {
		t.Fatal("a truncated snapshot decoded")
	}
}
