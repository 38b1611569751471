package groupcoordinator

import (
	"bytes"
	"kafkascope/core/metadata"
	"reflect"
	"testing"
)

// The __consumer_offsets records in Kafka's schemas, byte for byte.
func TestGroupRecordBytes(t *testing.T) {
	key := encodeOffsetKey(offsetKey{group: "g", topic: "t", partition: 2})
	wantKey := []byte{0, 1, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 2}
	if !bytes.Equal(key, wantKey) {
		t.Fatalf("OffsetCommitKey % x", key)
	}
	val := encodeOffsetValue(offsetValue{offset: 5, leaderEpoch: 0, metadata: "", commitTimestamp: 1}, offsetCommitValueVersion)
	wantVal := []byte{0, 3, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}
	if !bytes.Equal(val, wantVal) {
		t.Fatalf("OffsetCommitValue % x", val)
	}
	// Version 4 (Kafka 4.1+): a compact string, then the tagged section —
	// empty without a topic id, else tag 0 with the id's 16 bytes.
	v4 := encodeOffsetValue(offsetValue{offset: 5, leaderEpoch: 0, metadata: "", commitTimestamp: 1}, offsetCommitValueFlexible)
	wantV4 := []byte{0, 4, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0}
	if !bytes.Equal(v4, wantV4) {
		t.Fatalf("OffsetCommitValue v4 % x", v4)
	}
	withID := encodeOffsetValue(offsetValue{offset: 5, metadata: "", commitTimestamp: 1, topicID: metadata.Uuid{15: 7}}, offsetCommitValueFlexible)
	wantID := append(append([]byte{}, wantV4[:len(wantV4)-1]...), 1, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7)
	if !bytes.Equal(withID, wantID) {
		t.Fatalf("OffsetCommitValue v4 with a topic id % x", withID)
	}
	if gk := encodeGroupKey("g"); !bytes.Equal(gk, []byte{0, 2, 0, 1, 'g'}) {
		t.Fatalf("GroupMetadataKey % x", gk)
	}
	// An empty group: protocol and leader null, no members.
	empty := encodeGroupValue(groupValue{protocolType: "consumer", generation: 3, currentStateTimestamp: 7})
	wantEmpty := append([]byte{0, 3, 0, 8}, "consumer"...)
	wantEmpty = append(wantEmpty, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0)
	if !bytes.Equal(empty, wantEmpty) {
		t.Fatalf("GroupMetadataValue % x", empty)
	}
}

func TestGroupRecordsRoundTrip(t *testing.T) {
	k, isOffset, err := decodeCoordinatorKey(encodeOffsetKey(offsetKey{"grp", "orders", 7}))
	if err != nil || !isOffset || k != (offsetKey{"grp", "orders", 7}) {
		t.Fatalf("offset key %+v %v %v", k, isOffset, err)
	}
	k, isOffset, err = decodeCoordinatorKey(encodeGroupKey("grp"))
	if err != nil || isOffset || k.group != "grp" {
		t.Fatalf("group key %+v %v %v", k, isOffset, err)
	}
	v := offsetValue{offset: 42, leaderEpoch: 3, metadata: "m", commitTimestamp: 99}
	if got, err := decodeOffsetValue(encodeOffsetValue(v, offsetCommitValueVersion)); err != nil || got != v {
		t.Fatalf("offset value %+v %v", got, err)
	}
	v.topicID = metadata.Uuid{3: 9}
	if got, err := decodeOffsetValue(encodeOffsetValue(v, offsetCommitValueFlexible)); err != nil || got != v {
		t.Fatalf("offset value v4 %+v %v", got, err)
	}
	g := groupValue{protocolType: "consumer", generation: 2, protocol: "range", leader: "m1", currentStateTimestamp: 5,
		members: []memberValue{{memberID: "m1", clientID: "c", clientHost: "/h", rebalanceTimeout: 300000, sessionTimeout: 45000, subscription: []byte{1}, assignment: []byte{2}}}}
	if got, err := decodeGroupValue(encodeGroupValue(g)); err != nil || !reflect.DeepEqual(got, g) {
		t.Fatalf("group value %+v %v", got, err)
	}
	if _, _, err := decodeCoordinatorKey([]byte{0, 9}); err == nil {
		t.Fatal("unknown key version decoded")
	}
	if _, err := decodeGroupValue([]byte{0, 3, 0}); err == nil {
		t.Fatal("truncated group value decoded")
	}
}

// A member's subscription and assignment are non-nullable bytes: a null
// (length -1) is a malformed record, not an empty subscription (found by
// FuzzGroupRecords: it decoded as nil and re-encoded as empty).
func TestGroupValueRejectsNullMemberBytes(t *testing.T) {
	g := groupValue{protocolType: "consumer", generation: 1, members: []memberValue{{memberID: "m", clientID: "c", clientHost: "/h", subscription: []byte{}, assignment: []byte{}}}}
	b := encodeGroupValue(g)
	if _, err := decodeGroupValue(b); err != nil {
		t.Fatalf("empty member bytes: %v", err)
	}
	copy(b[len(b)-8:], []byte{0xff, 0xff, 0xff, 0xff}) // subscription length -1
	if _, err := decodeGroupValue(b); err == nil {
		t.Fatal("a null subscription decoded")
	}
}
