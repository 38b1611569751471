package groupcoordinator

import (
	"reflect"
	"testing"

	"kafkascope/core/metadata"
)

// The coordinator reads __consumer_offsets back when it loads a group
// partition: whatever the log holds, decoding returns a record or an
// error, never a panic; what decodes at the versions we write re-encodes
// to the same record.
func FuzzGroupRecords(f *testing.F) {
	f.Add(encodeOffsetKey(offsetKey{"grp", "orders", 7}), encodeOffsetValue(offsetValue{offset: 42, leaderEpoch: 3, metadata: "m", commitTimestamp: 99}, offsetCommitValueVersion))
	f.Add(encodeOffsetKey(offsetKey{"grp", "orders", 7}), encodeOffsetValue(offsetValue{offset: 42, leaderEpoch: 3, metadata: "m", commitTimestamp: 99, topicID: metadata.Uuid{0: 1, 15: 2}}, offsetCommitValueFlexible))
	g := groupValue{protocolType: "consumer", generation: 2, protocol: "range", leader: "m1", currentStateTimestamp: 5,
		members: []memberValue{{memberID: "m1", clientID: "c", clientHost: "/h", rebalanceTimeout: 300000, sessionTimeout: 45000, subscription: []byte{0, 3}, assignment: []byte{2}}}}
	f.Add(encodeGroupKey("grp"), encodeGroupValue(g))
	f.Add([]byte{0, 0, 0, 1, 'g', 0, 1, 't', 0, 0, 0, 2}, []byte{0, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2})
	f.Add([]byte{0, 2, 0, 1, 'g'}, []byte{0, 0, 0, 8, 'c', 'o', 'n', 's', 'u', 'm', 'e', 'r', 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, key, value []byte) {
		k, isOffset, err := decodeCoordinatorKey(key)
		if err != nil {
			return
		}
		if isOffset {
			if key[1] == byte(offsetCommitKeyVersion) {
				if back, _, err := decodeCoordinatorKey(encodeOffsetKey(k)); err != nil || back != k {
					t.Fatalf("offset key does not round-trip: %+v vs %+v", back, k)
				}
			}
			v, err := decodeOffsetValue(value)
			if err == nil && len(value) >= 2 && value[0] == 0 && (value[1] == byte(offsetCommitValueVersion) || value[1] == byte(offsetCommitValueFlexible)) {
				if back, err := decodeOffsetValue(encodeOffsetValue(v, int16(value[1]))); err != nil || back != v {
					t.Fatalf("offset value does not round-trip: %+v vs %+v", back, v)
				}
			}
			return
		}
		v, err := decodeGroupValue(value)
		if err == nil && len(value) >= 2 && value[0] == 0 && value[1] == byte(groupMetadataValueVersion) {
			back, err := decodeGroupValue(encodeGroupValue(v))
			if err != nil || !reflect.DeepEqual(back, v) {
				t.Fatalf("group value does not round-trip: %+v vs %+v", back, v)
			}
		}
	})
}
