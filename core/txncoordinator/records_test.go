package txncoordinator

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"kafkascope/core/storage"
)

// The key is version 0 and the id; an Empty value is 37 bytes with a null
// (-1) partition array; an Ongoing one lists its partitions by topic, and
// reads back the same.
func TestTransactionLogRecordBytes(t *testing.T) {
	if k := KeyBytes("tx-1"); !bytes.Equal(k, []byte{0, 0, 0, 4, 't', 'x', '-', '1'}) {
		t.Fatalf("key %v", k)
	}
	if id, ok, err := ReadKey(KeyBytes("tx-1")); id != "tx-1" || !ok || err != nil {
		t.Fatalf("key read %q %v %v", id, ok, err)
	}
	empty, err := LogValue{ProducerID: 1000, ProducerEpoch: 2, TimeoutMs: 60000, State: Empty, LastUpdateMs: 5, TxnStartMs: -1}.ValueBytes()
	if err != nil || len(empty) != 37 {
		t.Fatalf("Empty value of %d bytes (%v), want 37", len(empty), err)
	}
	want := []byte{0, 0}                                           // version 0
	want = binary.BigEndian.AppendUint64(want, 1000)               // producer id
	want = append(want, 0, 2)                                      // epoch
	want = binary.BigEndian.AppendUint32(want, 60000)              // timeout
	want = append(want, 0)                                         // Empty
	want = append(want, 0xff, 0xff, 0xff, 0xff)                    // null partitions
	want = binary.BigEndian.AppendUint64(want, 5)                  // last update
	want = binary.BigEndian.AppendUint64(want, 0xffffffffffffffff) // start: -1
	if !bytes.Equal(empty, want) {
		t.Fatalf("Empty value\n got %v\nwant %v", empty, want)
	}
	if _, err := (LogValue{State: Empty, Partitions: []storage.TopicPartition{{Topic: "a"}}}).ValueBytes(); err == nil {
		t.Error("an Empty transaction with partitions encoded")
	}
	ongoing := LogValue{ProducerID: 7, ProducerEpoch: 0, TimeoutMs: 60000, State: Ongoing, LastUpdateMs: 9, TxnStartMs: 8,
		Partitions: []storage.TopicPartition{{Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 0}}}
	data, err := ongoing.ValueBytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadValue(data)
	if err != nil || back.State != Ongoing || back.ProducerID != 7 || back.TxnStartMs != 8 || len(back.Partitions) != 2 {
		t.Fatalf("read back %+v, %v", back, err)
	}
	// 2 + 8 + 2 + 4 + 1 + 4 (one topic) + 2+6 + 4 + 2*4 + 8 + 8
	if len(data) != 57 {
		t.Fatalf("Ongoing value of %d bytes, want 57", len(data))
	}
	if _, err := ReadValue([]byte{0, 2}); err == nil {
		t.Error("version 2 read")
	}
}

// valueToBytes' order: groupBy gives topics in hash-trie order, whatever
// the order they came in; each topic's partitions keep the set's order up
// to four.
func TestPartitionsInLogOrder(t *testing.T) {
	a := partitionsInLogOrder([]storage.TopicPartition{{Topic: "foo", Partition: 0}, {Topic: "bar", Partition: 0}, {Topic: "baz", Partition: 0}})
	b := partitionsInLogOrder([]storage.TopicPartition{{Topic: "baz", Partition: 0}, {Topic: "foo", Partition: 0}, {Topic: "bar", Partition: 0}})
	var ta, tb []string
	for i := range a {
		ta, tb = append(ta, a[i].topic), append(tb, b[i].topic)
	}
	if !slices.Equal(ta, []string{"bar", "baz", "foo"}) || !slices.Equal(ta, tb) {
		t.Fatalf("topics %v and %v, want bar baz foo (groupBy's hash trie) both times", ta, tb)
	}
}
