package record

import "testing"

// A transaction marker batch as a partition leader writes it: one control
// record (key 4 bytes, value 6 bytes: 17 bytes with its framing) in a
// transactional control batch with no sequence, 61 + 17 = 78 bytes.
func TestEndTxnMarkerBatch(t *testing.T) {
	data := BuildEndTxnMarker(42, 3, 1000, 5, 1700000000000, EndTxnMarker{Type: ControlCommit, CoordinatorEpoch: 7})
	if len(data) != 78 {
		t.Fatalf("marker batch of %d bytes, want 78", len(data))
	}
	if err := Validate(data); err != nil {
		t.Fatal(err)
	}
	h, err := ParseHeader(data)
	if err != nil {
		t.Fatal(err)
	}
	if !h.IsControl() || !h.IsTransactional() || h.ProducerID != 1000 || h.ProducerEpoch != 5 || h.BaseSequence != NoSequence || h.BaseOffset != 42 || h.RecordCount != 1 {
		t.Fatalf("header %+v", h)
	}
	b, _, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseEndTxnMarker(b.Records[0].Key, b.Records[0].Value)
	if err != nil || m != (EndTxnMarker{Type: ControlCommit, CoordinatorEpoch: 7}) {
		t.Fatalf("marker %+v, %v", m, err)
	}
	if _, err := ParseEndTxnMarker(ControlKey(ControlLeaderChange), m.Value()); err == nil {
		t.Error("a LEADER_CHANGE record read as a transaction marker")
	}
	if _, err := ParseEndTxnMarker(ControlKey(ControlAbort), []byte{0, 0, 0}); err == nil {
		t.Error("a 3-byte marker value read")
	}
}
