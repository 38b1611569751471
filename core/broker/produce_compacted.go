package broker

import (
	"fmt"
	"strings"

	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// keylessRecordErrors is Kafka's LogValidator.validateKey for a topic whose
// cleanup.policy includes compact: every record needs a key, since
// compaction keeps the last record per key. Kafka validates batch by batch
// and fails the whole append at the first batch with errors, listing that
// batch's records by index. ok is false if a batch does not decode: the
// append's own checks report that corruption first, as Kafka's do.
func keylessRecordErrors(data []byte, tp storage.TopicPartition) (errs []protocol.RecordError, ok bool) {
	for len(data) > 0 {
		b, n, err := record.Decode(data)
		if err != nil {
			return nil, false
		}
		for i := range b.Records {
			if b.Records[i].Key == nil {
				errs = append(errs, protocol.RecordError{BatchIndex: int32(i),
					Message: "Compacted topic cannot accept message without key in topic partition " + tp.String()})
			}
		}
		if len(errs) > 0 {
			return errs, true
		}
		data = data[n:]
	}
	return nil, true
}

// recordErrorsMessage is the InvalidRecordException message of Kafka's
// LogValidator.processRecordErrors, which the broker sends as the
// partition's error message.
func recordErrorsMessage(errs []protocol.RecordError) string {
	shown := make([]string, 0, 3)
	for _, e := range errs[:min(len(errs), 3)] {
		shown = append(shown, e.String())
	}
	return fmt.Sprintf("One or more records have been rejected due to %d record errors in total, and only showing the first three errors at most: [%s]",
		len(errs), strings.Join(shown, ", "))
}
