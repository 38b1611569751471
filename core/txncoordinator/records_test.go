package txncoordinator

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
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

// A version 1 PrepareCommit value, laid out by hand after the
// TransactionLogValue schema's flexible encoding: the topics in groupBy's
// order (a, then b), b's partitions in the set's order (1, 0), an empty
// tagged-field section after each PartitionsSchema entry, and at the end
// ClientTransactionVersion as tagged field 2.
var prepareCommitV1 = []byte{
	0x00, 0x01, // version 1
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xe8, // ProducerId 1000
	0x00, 0x03, // ProducerEpoch 3
	0x00, 0x00, 0xea, 0x60, // TransactionTimeoutMs 60000
	0x02,      // TransactionStatus PrepareCommit
	0x03,      // TransactionPartitions: compact array, 2 entries (2+1)
	0x02, 'a', // Topic: compact string, 1 byte (1+1)
	0x02,                   // PartitionIds: compact array, 1 entry
	0x00, 0x00, 0x00, 0x00, // partition 0
	0x00,      // the entry's tagged fields: none
	0x02, 'b', // Topic "b"
	0x03,                   // PartitionIds: 2 entries
	0x00, 0x00, 0x00, 0x01, // partition 1
	0x00, 0x00, 0x00, 0x00, // partition 0
	0x00,                                           // the entry's tagged fields: none
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, // TransactionLastUpdateTimestampMs 7
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, // TransactionStartTimestampMs 5
	0x01,       // tagged fields: 1
	0x02,       // tag 2, ClientTransactionVersion
	0x02,       // size 2
	0x00, 0x02, // ClientTransactionVersion 2
}

func prepareCommitValue() LogValue {
	return LogValue{Version: 1, ProducerID: 1000, ProducerEpoch: 3, TimeoutMs: 60000, State: PrepareCommit,
		Partitions:   []storage.TopicPartition{{Topic: "b", Partition: 1}, {Topic: "a", Partition: 0}, {Topic: "b", Partition: 0}},
		LastUpdateMs: 7, TxnStartMs: 5, ClientTransactionVersion: 2}
}

func TestTransactionLogValueV1Bytes(t *testing.T) {
	got, err := prepareCommitValue().ValueBytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, prepareCommitV1) {
		t.Fatalf("PrepareCommit v1\n got % x\nwant % x", got, prepareCommitV1)
	}
	back, err := ReadValue(prepareCommitV1)
	if err != nil {
		t.Fatal(err)
	}
	want := prepareCommitValue()
	want.Partitions = []storage.TopicPartition{{Topic: "a", Partition: 0}, {Topic: "b", Partition: 1}, {Topic: "b", Partition: 0}}
	if !reflect.DeepEqual(back, want) {
		t.Fatalf("read back %+v\nwant %+v", back, want)
	}

	// Without ClientTransactionVersion the value ends in an empty
	// tagged-field section; an Empty one has a null (0) partition array.
	empty := LogValue{Version: 1, ProducerID: 1000, ProducerEpoch: 2, TimeoutMs: 60000, State: Empty, LastUpdateMs: 5, TxnStartMs: -1}
	got, err = empty.ValueBytes()
	if err != nil {
		t.Fatal(err)
	}
	wantEmpty := []byte{
		0x00, 0x01, // version 1
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xe8, // ProducerId 1000
		0x00, 0x02, // ProducerEpoch 2
		0x00, 0x00, 0xea, 0x60, // TransactionTimeoutMs 60000
		0x00,                                           // TransactionStatus Empty
		0x00,                                           // TransactionPartitions: null
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, // TransactionLastUpdateTimestampMs 5
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // TransactionStartTimestampMs -1
		0x00, // tagged fields: none
	}
	if !bytes.Equal(got, wantEmpty) {
		t.Fatalf("Empty v1\n got % x\nwant % x", got, wantEmpty)
	}
	back, err = ReadValue(got)
	if err != nil || !reflect.DeepEqual(back, empty) || back.Partitions != nil {
		t.Fatalf("Empty v1 read back %+v, %v", back, err)
	}
}

// Values of both versions read back as written (partitions given in
// the order valueToBytes writes them; a CompleteCommit's empty list reads
// back as an empty list, not null); version 0's bytes are those of a value without
// Version, and version 1 adds the compact lengths and the tagged-field
// sections, with a two-byte varint for a topic of 200 bytes.
func TestTransactionLogValueRoundTrip(t *testing.T) {
	long := strings.Repeat("t", 200)
	values := []LogValue{
		{ProducerID: 7, ProducerEpoch: 1, TimeoutMs: 100, State: Ongoing, LastUpdateMs: 9, TxnStartMs: 8,
			Partitions: []storage.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}},
		{Version: 1, ProducerID: 7, ProducerEpoch: 1, TimeoutMs: 100, State: Ongoing, LastUpdateMs: 9, TxnStartMs: 8,
			Partitions: []storage.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}},
		{Version: 1, ProducerID: 7, ProducerEpoch: 1, TimeoutMs: 100, State: Ongoing, LastUpdateMs: 9, TxnStartMs: 8,
			Partitions: []storage.TopicPartition{{Topic: long, Partition: 3}}, ClientTransactionVersion: 1},
		{Version: 1, ProducerID: 7, ProducerEpoch: 4, State: CompleteCommit, LastUpdateMs: 9, TxnStartMs: 8, ClientTransactionVersion: 2, Partitions: []storage.TopicPartition{}},
		{ProducerID: 7, ProducerEpoch: 4, State: CompleteAbort, LastUpdateMs: 9, TxnStartMs: 8, Partitions: []storage.TopicPartition{}},
		{Version: 1, ProducerID: 7, ProducerEpoch: 4, State: Empty, LastUpdateMs: 9, TxnStartMs: -1, ClientTransactionVersion: 2},
	}
	for _, v := range values {
		data, err := v.ValueBytes()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadValue(data)
		if err != nil {
			t.Fatalf("%+v: %v", v, err)
		}
		if !reflect.DeepEqual(back, v) {
			t.Errorf("read back %+v\n      want %+v", back, v)
		}
		if v.Version == 1 && len(v.Partitions) > 0 && v.Partitions[0].Topic == long {
			// 2+8+2+4+1, 1 entry, 2-byte length + 200, 1 partition + 4, entry tags,
			// 8+8, tags 1+1+1+2
			if len(data) != 17+1+202+5+1+16+5 {
				t.Errorf("long topic: %d bytes", len(data))
			}
		}
	}
	// A CompleteCommit writes an empty (not null) list: count 0+1.
	data, _ := values[3].ValueBytes()
	if data[17] != 0x01 {
		t.Errorf("CompleteCommit partitions % x, want an empty compact array", data[17:18])
	}
	// Version 0 stays as it was.
	v0, _ := values[0].ValueBytes()
	if v0[0] != 0 || v0[1] != 0 || len(v0) != 57 {
		t.Errorf("version 0 value % x", v0)
	}
}

func TestTransactionLogValueVersionErrors(t *testing.T) {
	if _, err := (LogValue{State: Ongoing, ClientTransactionVersion: 2}).ValueBytes(); err == nil {
		t.Error("version 0 written with a ClientTransactionVersion")
	}
	if _, err := (LogValue{Version: 2, State: Ongoing}).ValueBytes(); err == nil {
		t.Error("version 2 written")
	}
	if _, err := (LogValue{Version: -1, State: Ongoing}).ValueBytes(); err == nil {
		t.Error("version -1 written")
	}
	if _, err := (LogValue{Version: 1, State: Empty, Partitions: []storage.TopicPartition{{Topic: "a"}}}).ValueBytes(); err == nil {
		t.Error("an Empty v1 transaction with partitions encoded")
	}
}

// Tagged fields other than ClientTransactionVersion are skipped by their
// size, in the value's section and in a PartitionsSchema entry's.
func TestTransactionLogValueSkipsTags(t *testing.T) {
	b := []byte{
		0x00, 0x01, // version 1
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, // ProducerId 9
		0x00, 0x00, // ProducerEpoch 0
		0x00, 0x00, 0x03, 0xe8, // TransactionTimeoutMs 1000
		0x01,      // Ongoing
		0x02,      // 1 entry
		0x02, 'x', // Topic "x"
		0x02, 0x00, 0x00, 0x00, 0x04, // PartitionIds [4]
		0x01,                // the entry's tagged fields: 1
		0x05, 0x03, 1, 2, 3, // tag 5, 3 bytes
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, // last update 2
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, // start 1
		0x03,                                                       // tagged fields: 3
		0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, // tag 0, PreviousProducerId 6
		0x02, 0x02, 0x00, 0x02, // tag 2, ClientTransactionVersion 2
		0x81, 0x01, 0x82, 0x01, // tag 129, 130 bytes follow
	}
	b = append(b, make([]byte, 130)...)
	v, err := ReadValue(b)
	want := LogValue{Version: 1, ProducerID: 9, TimeoutMs: 1000, State: Ongoing, Partitions: []storage.TopicPartition{{Topic: "x", Partition: 4}},
		LastUpdateMs: 2, TxnStartMs: 1, ClientTransactionVersion: 2}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Fatalf("read %+v, %v\nwant %+v", v, err, want)
	}
	// A ClientTransactionVersion of the wrong size is an error.
	bad := slices.Clone(prepareCommitV1)
	bad[len(bad)-3] = 1
	if _, err := ReadValue(bad[:len(bad)-1]); err == nil {
		t.Error("a one-byte ClientTransactionVersion read")
	}
}

// Every truncation of a value is an error, never a panic; so are a null
// topic, a tag whose size runs past the end, and a varint of six bytes.
func TestTransactionLogValueTruncated(t *testing.T) {
	v0, _ := LogValue{ProducerID: 7, State: Ongoing, Partitions: []storage.TopicPartition{{Topic: "a", Partition: 0}}}.ValueBytes()
	for _, full := range [][]byte{prepareCommitV1, v0} {
		for n := 0; n < len(full); n++ {
			if v, err := ReadValue(full[:n]); err == nil {
				t.Errorf("%d of %d bytes read as %+v", n, len(full), v)
			}
		}
	}
	nullTopic := slices.Clone(prepareCommitV1)
	nullTopic[18] = 0x00
	if _, err := ReadValue(nullTopic); err == nil {
		t.Error("a null topic read")
	}
	overlong := slices.Clone(prepareCommitV1)
	overlong[len(overlong)-3] = 0xff // size 255 | continuation...
	overlong[len(overlong)-2] = 0x7f // ...= 16383 bytes
	if _, err := ReadValue(overlong); err == nil {
		t.Error("a tag past the end read")
	}
	head := prepareCommitV1[:17]
	if _, err := ReadValue(append(slices.Clone(head), 0xff, 0xff, 0xff, 0xff, 0xff, 0x01)); err == nil {
		t.Error("a six-byte varint read")
	}
}
