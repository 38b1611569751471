package console

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// The consumer rebalance protocol's records in __consumer_offsets (KIP-848,
// record types 3 to 8; group-coordinator/src/main/resources/common/message
// ConsumerGroup*Key.json and *Value.json, Kafka 4.3) as the generated JSON
// converters print them: keys {"type":"T","data":{...}} with the group
// (and member) id, values {"version":"0","data":{...}} in schema order,
// a tagged field only when it is not its default, a uuid in Kafka's base64
// form, bytes in base64.

// consumerGroupKeyJSON reads a key of types 3-8 after its type.
func consumerGroupKeyJSON(kv int16, r *protocol.Reader) (string, bool) {
	switch kv {
	case 3, 4, 6:
		return fmt.Sprintf(`{"groupId":%s}`, jstr(r.String())), true
	case 5, 7, 8:
		return fmt.Sprintf(`{"groupId":%s,"memberId":%s}`, jstr(r.String()), jstr(r.String())), true
	}
	return "", false
}

// consumerGroupValueJSON reads a value of types 3, 5, 6, 7 and 8 (version
// 0, flexible) after its version.
func consumerGroupValueJSON(kv int16, r *protocol.Reader) string {
	f := flexJSONReader{r}
	var b strings.Builder
	switch kv {
	case 3:
		fmt.Fprintf(&b, `{"epoch":%d`, r.Int32())
		f.taggedInt64(&b, "metadataHash")
	case 5:
		fmt.Fprintf(&b, `{"instanceId":%s,"rackId":%s,"clientId":%s,"clientHost":%s,"subscribedTopicNames":%s,"subscribedTopicRegex":%s,"rebalanceTimeoutMs":%d,"serverAssignor":%s`,
			f.nstr(), f.nstr(), f.nstr(), f.nstr(), f.strings(), f.nstr(), r.Int32(), f.nstr())
		f.tagged(&b, func(tag uint64, field *protocol.Reader) {
			if tag == 0 {
				b.WriteString(`,"classicMemberMetadata":` + classicMemberMetadataJSON(field))
			}
		})
	case 6:
		fmt.Fprintf(&b, `{"assignmentEpoch":%d`, r.Int32())
		f.taggedInt64(&b, "assignmentTimestamp")
	case 7:
		b.WriteString(`{"topicPartitions":` + f.topicPartitions(false))
		f.tagged(&b, nil)
	case 8:
		epoch, previous := r.Int32(), r.Int32()
		var state int8
		if s := r.Take(1); s != nil { // a short record is reported, not a panic
			state = int8(s[0])
		}
		fmt.Fprintf(&b, `{"memberEpoch":%d,"previousMemberEpoch":%d,"state":%d`, epoch, previous, state)
		b.WriteString(`,"assignedPartitions":` + f.topicPartitions(true))
		b.WriteString(`,"partitionsPendingRevocation":` + f.topicPartitions(true))
		f.tagged(&b, nil)
	default:
		r.Fail()
	}
	return b.String() + "}"
}

// classicMemberMetadataJSON is the tagged ClassicMemberMetadata struct:
// a presence byte, SessionTimeoutMs and SupportedProtocols.
func classicMemberMetadataJSON(r *protocol.Reader) string {
	f := flexJSONReader{r}
	if f.uvarint() == 0 {
		return "null"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"sessionTimeoutMs":%d,"supportedProtocols":[`, r.Int32())
	n := f.count()
	for i := 0; i < n && r.Err() == nil; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		name := f.nstr()
		data := r.Take(int(f.uvarint()) - 1)
		fmt.Fprintf(&b, `{"name":%s,"metadata":%s}`, name, jstr(base64.StdEncoding.EncodeToString(data)))
		f.tagged(&b, nil)
	}
	b.WriteString("]")
	f.tagged(&b, nil)
	return b.String() + "}"
}

// flexJSONReader reads the flexible encoding's parts for the JSON above.
type flexJSONReader struct{ r *protocol.Reader }

func (f flexJSONReader) uvarint() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		b := f.r.Take(1)
		if b == nil {
			return 0
		}
		v |= uint64(b[0]&0x7f) << shift
		if b[0] < 0x80 {
			return v
		}
	}
	f.r.Fail()
	return 0
}

// count is a compact array's length (-1 for null).
func (f flexJSONReader) count() int { return int(f.uvarint()) - 1 }

// nstr is a compact nullable string as JSON.
func (f flexJSONReader) nstr() string {
	n := int(f.uvarint()) - 1
	if n < 0 {
		return "null"
	}
	return jstr(string(f.r.Take(n)))
}

func (f flexJSONReader) strings() string {
	n := f.count()
	if n < 0 {
		return "null"
	}
	var parts []string // not sized by n: a length read from the record is untrusted
	for i := 0; i < n && f.r.Err() == nil; i++ {
		parts = append(parts, f.nstr())
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func (f flexJSONReader) int32s() string {
	n := f.count()
	if n < 0 {
		return "null"
	}
	var parts []string // not sized by n: a length read from the record is untrusted
	for i := 0; i < n && f.r.Err() == nil; i++ {
		parts = append(parts, strconv.Itoa(int(f.r.Int32())))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// topicPartitions is a TopicPartition array; withEpochs reads 4.3's
// tagged AssignmentEpochs (tag 0) of each.
func (f flexJSONReader) topicPartitions(withEpochs bool) string {
	n := f.count()
	if n < 0 {
		return "null"
	}
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < n && f.r.Err() == nil; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		var id metadata.Uuid
		copy(id[:], f.r.Take(16))
		fmt.Fprintf(&b, `{"topicId":%s,"partitions":%s`, jstr(id.String()), f.int32s())
		f.tagged(&b, func(tag uint64, field *protocol.Reader) {
			if tag == 0 && withEpochs {
				b.WriteString(`,"assignmentEpochs":` + flexJSONReader{field}.int32s())
			}
		})
		b.WriteString("}")
	}
	return b.String() + "]"
}

// tagged reads a tagged-field section, handing each field's bytes to
// each (unknown tags are skipped, as Kafka's readers do).
func (f flexJSONReader) tagged(b *strings.Builder, each func(tag uint64, field *protocol.Reader)) {
	n := int(f.uvarint())
	for i := 0; i < n && f.r.Err() == nil; i++ {
		tag := f.uvarint()
		data := f.r.Take(int(f.uvarint()))
		if each != nil && data != nil {
			each(tag, protocol.NewReader(data, errOffsetsRecord))
		}
	}
}

// taggedInt64 reads a tagged section whose tag 0 is an int64 printed as
// name when present (it is left out when it has its default, 0).
func (f flexJSONReader) taggedInt64(b *strings.Builder, name string) {
	f.tagged(b, func(tag uint64, field *protocol.Reader) {
		if tag == 0 {
			fmt.Fprintf(b, `,"%s":%d`, name, field.Int64())
		}
	})
}
