package console

import (
	"fmt"

	"kafkascope/core/storage"
)

// dumpTxnIndex prints a segment's transaction index as
// DumpLogSegments.dumpTxnIndex does (the same line from 2.8 to 4.x): one
// line per aborted transaction, in file order. A missing file prints
// nothing (TransactionIndex reads it only if it exists).
func (d *dumpLog) dumpTxnIndex(arg string) int {
	entries, err := storage.ReadTxnIndex(d.disk, resolvePath(arg))
	if err != nil {
		return d.uncaught("org.apache.kafka.common.KafkaException", err.Error())
	}
	for _, a := range entries {
		d.t.println(fmt.Sprintf("version: 0 producerId: %d firstOffset: %d lastOffset: %d lastStableOffset: %d",
			a.ProducerID, a.FirstOffset, a.LastOffset, a.LastStableOffset))
	}
	return 0
}
