package console

import (
	"fmt"
	"strings"

	"kafkascope/core/hashing"
	"kafkascope/core/release"
	"kafkascope/core/scalacoll"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// txnLogRecord is --transaction-log-decoder's key and payload for one
// __transaction_state record (DumpLogSegments.TransactionLogMessageParser).
// Up to 4.0 it is TransactionLog.formatRecordKeyAndValue's text:
// "transaction_metadata::transactionalId=ID" and "producerId:P,
// producerEpoch:E,state=S,partitions=[t-0,...],txnLastUpdateTimestamp=T,
// txnTimeoutMs=M" (the partitions in the order of the metadata's
// mutable.HashSet), "<DELETE>" for a tombstone, and "unknown::version=V"
// without a payload for a key of another version. From 4.1 the parser is
// the coordinators' JSON one, as --offsets-decoder's: {"type":"0","data":
// {"transactionalId":...}} and {"version":"V","data":{...}} (V the value's
// version, 0 or 1) with the TransactionLogValue schema's field names.
func txnLogRecord(rel release.Version, offset int64, key, value []byte) (k, payload string, hasPayload bool) {
	if key == nil {
		return fmt.Sprintf("Failed to decode message at offset %d using the specified decoder (message had a missing key)", offset), "", false
	}
	id, ok, err := txncoordinator.ReadKey(key)
	json := rel.AtLeast(4, 1)
	switch {
	case err != nil && json:
		return fmt.Sprintf("Error at offset %d, skipping. %s", offset, err.Error()), "", false
	case !ok && json:
		return fmt.Sprintf("Unknown record type %d at offset %d, skipping.", keyVersion(key), offset), "", false
	case !ok || err != nil:
		return fmt.Sprintf("unknown::version=%d", keyVersion(key)), "", false
	}
	if json {
		k = `{"type":"0","data":{"transactionalId":` + jstr(id) + `}}`
	} else {
		k = "transaction_metadata::transactionalId=" + id
	}
	if value == nil {
		return k, "<DELETE>", true
	}
	v, err := txncoordinator.ReadValue(value)
	if err != nil {
		if json {
			return fmt.Sprintf("Error at offset %d, skipping. %s", offset, err.Error()), "", false
		}
		return k, "", false // readTxnRecordValue throws: nothing more is printed for the record
	}
	if json {
		return k, txnLogValueJSON(v), true
	}
	var parts []string
	if v.State != txncoordinator.Empty {
		for _, tp := range partitionSetOrder(v.Partitions) {
			parts = append(parts, tp.String())
		}
	}
	return k, fmt.Sprintf("producerId:%d,producerEpoch:%d,state=%s,partitions=[%s],txnLastUpdateTimestamp=%d,txnTimeoutMs=%d",
		v.ProducerID, v.ProducerEpoch, v.State, strings.Join(parts, ","), v.LastUpdateMs, v.TimeoutMs), true
}

// keyVersion is the key's version, the first int16.
func keyVersion(key []byte) int16 {
	if len(key) < 2 {
		return 0
	}
	return int16(uint16(key[0])<<8 | uint16(key[1]))
}

// partitionSetOrder is a mutable.HashSet of TopicPartition filled in the
// value's order (readTxnRecordValue's addPartitions).
func partitionSetOrder(tps []storage.TopicPartition) []storage.TopicPartition {
	hashes := make([]int32, len(tps))
	for i, tp := range tps {
		hashes[i] = hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
	}
	out := make([]storage.TopicPartition, 0, len(tps))
	for _, i := range scalacoll.MutableOrder(hashes, 0) {
		out = append(out, tps[i])
	}
	return out
}

// txnLogValueJSON is the coordinators' JSON for a value,
// {"version":"V","data":...}, the data TransactionLogValueJsonConverter's
// write at the value's version: the schema's fields in order, a null
// partition list written as null. Version 1's tagged fields are written
// only when they differ from their default; of them the value keeps only
// ClientTransactionVersion (default 0, the schema's last field), which
// thus ends the data when it is not 0.
func txnLogValueJSON(v txncoordinator.LogValue) string {
	parts := "null"
	if v.Partitions != nil {
		var topics []string
		byTopic := map[string][]string{}
		for _, tp := range v.Partitions {
			if _, ok := byTopic[tp.Topic]; !ok {
				topics = append(topics, tp.Topic)
			}
			byTopic[tp.Topic] = append(byTopic[tp.Topic], fmt.Sprint(tp.Partition))
		}
		var groups []string
		for _, t := range topics {
			groups = append(groups, `{"topic":`+jstr(t)+`,"partitionIds":[`+strings.Join(byTopic[t], ",")+`]}`)
		}
		parts = "[" + strings.Join(groups, ",") + "]"
	}
	tagged := ""
	if v.Version >= 1 && v.ClientTransactionVersion != 0 {
		tagged = fmt.Sprintf(`,"clientTransactionVersion":%d`, v.ClientTransactionVersion)
	}
	return fmt.Sprintf(`{"version":"%d","data":{"producerId":%d,"producerEpoch":%d,"transactionTimeoutMs":%d,"transactionStatus":%d,"transactionPartitions":%s,"transactionLastUpdateTimestampMs":%d,"transactionStartTimestampMs":%d%s}}`,
		v.Version, v.ProducerID, v.ProducerEpoch, v.TimeoutMs, int8(v.State), parts, v.LastUpdateMs, v.TxnStartMs, tagged)
}
