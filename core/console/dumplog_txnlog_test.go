package console

import (
	"testing"

	"kafkascope/core/release"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// The transaction log decoder prints TransactionLog's text up to 4.0 and
// the coordinators' JSON from 4.1; a key of an unknown version is named,
// without a payload. The value holds topic a's partition, then b's 1 and
// 0 (valueToBytes groups by topic); the text lists the mutable.HashSet:
// TopicPartition hashes 1058 (a-0), 1090 (b-1), 1059 (b-0) in 16
// buckets, so buckets 2 (1058, 1090 by hash) then 3.
func TestTxnLogRecordFormats(t *testing.T) {
	v := txncoordinator.LogValue{ProducerID: 1000, ProducerEpoch: 2, TimeoutMs: 60000, State: txncoordinator.Ongoing,
		Partitions: []storage.TopicPartition{{Topic: "b", Partition: 1}, {Topic: "a", Partition: 0}, {Topic: "b", Partition: 0}}, LastUpdateMs: 7, TxnStartMs: 5}
	value, err := v.ValueBytes()
	if err != nil {
		t.Fatal(err)
	}
	key := txncoordinator.KeyBytes("copier")
	k, p, ok := txnLogRecord(release.Version{Major: 3, Minor: 8}, 0, key, value)
	if !ok || k != "transaction_metadata::transactionalId=copier" ||
		p != "producerId:1000,producerEpoch:2,state=Ongoing,partitions=[a-0,b-1,b-0],txnLastUpdateTimestamp=7,txnTimeoutMs=60000" {
		t.Errorf("3.8: %q %q", k, p)
	}
	k, p, ok = txnLogRecord(release.Version{Major: 4, Minor: 1}, 0, key, value)
	if !ok || k != `{"type":"0","data":{"transactionalId":"copier"}}` ||
		p != `{"version":"0","data":{"producerId":1000,"producerEpoch":2,"transactionTimeoutMs":60000,"transactionStatus":1,"transactionPartitions":[{"topic":"a","partitionIds":[0]},{"topic":"b","partitionIds":[1,0]}],"transactionLastUpdateTimestampMs":7,"transactionStartTimestampMs":5}}` {
		t.Errorf("4.1: %q %q", k, p)
	}
	if k, _, ok := txnLogRecord(release.Version{Major: 3, Minor: 8}, 0, key, nil); !ok || k != "transaction_metadata::transactionalId=copier" {
		t.Errorf("tombstone: %q", k)
	}
	if k, _, ok := txnLogRecord(release.Version{Major: 3, Minor: 8}, 0, []byte{0, 5, 0, 0}, value); ok || k != "unknown::version=5" {
		t.Errorf("unknown key version: %q %v", k, ok)
	}
}

// A version 1 value prints "version":"1", and its ClientTransactionVersion
// as the data's last field only when it is not the default 0; the text
// format of 3.8 (which reads version 1 since KIP-915) is the same as for
// version 0.
func TestTxnLogRecordVersion1(t *testing.T) {
	key := txncoordinator.KeyBytes("copier")
	v := txncoordinator.LogValue{Version: 1, ProducerID: 1000, ProducerEpoch: 3, TimeoutMs: 60000, State: txncoordinator.PrepareCommit,
		Partitions:   []storage.TopicPartition{{Topic: "b", Partition: 1}, {Topic: "a", Partition: 0}, {Topic: "b", Partition: 0}},
		LastUpdateMs: 7, TxnStartMs: 5, ClientTransactionVersion: 2}
	value, err := v.ValueBytes()
	if err != nil {
		t.Fatal(err)
	}
	_, p, ok := txnLogRecord(release.Version{Major: 4, Minor: 1}, 0, key, value)
	if want := `{"version":"1","data":{"producerId":1000,"producerEpoch":3,"transactionTimeoutMs":60000,"transactionStatus":2,"transactionPartitions":[{"topic":"a","partitionIds":[0]},{"topic":"b","partitionIds":[1,0]}],"transactionLastUpdateTimestampMs":7,"transactionStartTimestampMs":5,"clientTransactionVersion":2}}`; !ok || p != want {
		t.Errorf("4.1 v1:\n got %q\nwant %q", p, want)
	}
	_, p, ok = txnLogRecord(release.Version{Major: 3, Minor: 8}, 0, key, value)
	if !ok || p != "producerId:1000,producerEpoch:3,state=PrepareCommit,partitions=[a-0,b-1,b-0],txnLastUpdateTimestamp=7,txnTimeoutMs=60000" {
		t.Errorf("3.8 v1: %q", p)
	}

	empty := txncoordinator.LogValue{Version: 1, ProducerID: 1000, ProducerEpoch: 4, TimeoutMs: 60000, State: txncoordinator.Empty, LastUpdateMs: 9, TxnStartMs: -1}
	if value, err = empty.ValueBytes(); err != nil {
		t.Fatal(err)
	}
	_, p, ok = txnLogRecord(release.Version{Major: 4, Minor: 1}, 0, key, value)
	if want := `{"version":"1","data":{"producerId":1000,"producerEpoch":4,"transactionTimeoutMs":60000,"transactionStatus":0,"transactionPartitions":null,"transactionLastUpdateTimestampMs":9,"transactionStartTimestampMs":-1}}`; !ok || p != want {
		t.Errorf("4.1 v1 Empty:\n got %q\nwant %q", p, want)
	}
}
