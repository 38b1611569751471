package console

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// offsetsRecord is DumpLogSegments' OffsetsMessageParser: a
// __consumer_offsets record's key and value as the generated JSON
// converters write them, {"type":"<key version>","data":{...}} and
// {"version":"<value version>","data":{...}}; a tombstone's payload is
// <DELETE>. A consumer group's member subscriptions and assignments are
// decoded too. hasPayload is false when the record could not be read.

// errOffsetsRecord marks bytes that are not a coordinator record.
var errOffsetsRecord = errors.New("malformed __consumer_offsets record")

func offsetsRecord(offset int64, key, value []byte) (k, payload string, hasPayload bool) {
	if key == nil {
		return fmt.Sprintf("Failed to decode message at offset %d using offset topic decoder (message had a missing key)", offset), "", false
	}
	r := protocol.NewReader(key, errOffsetsRecord)
	kv := r.Int16()
	var kdata string
	switch kv {
	case 0, 1:
		kdata = fmt.Sprintf(`{"group":%s,"topic":%s,"partition":%d}`, jstr(r.String()), jstr(r.String()), r.Int32())
	case 2:
		kdata = fmt.Sprintf(`{"group":%s}`, jstr(r.String()))
	default:
		var ok bool
		if kdata, ok = consumerGroupKeyJSON(kv, r); !ok {
			return fmt.Sprintf("Unknown record type %d at offset %d, skipping.", kv, offset), "", false
		}
	}
	if r.Err() != nil {
		return fmt.Sprintf("Error at offset %d, skipping. %s", offset, "Tried to read beyond the end of the record"), "", false
	}
	k = fmt.Sprintf(`{"type":"%d","data":%s}`, kv, kdata)
	if value == nil {
		return k, "<DELETE>", true
	}
	v := protocol.NewReader(value, errOffsetsRecord)
	vv := v.Int16()
	var vdata string
	switch {
	case kv <= 1:
		vdata = offsetCommitValueJSON(v, vv)
	case kv == 2:
		vdata = groupMetadataValueJSON(v, vv)
	default:
		vdata = consumerGroupValueJSON(kv, v)
	}
	if v.Err() != nil {
		return fmt.Sprintf("Error at offset %d, skipping. %s", offset, "Tried to read beyond the end of the record"), "", false
	}
	return k, fmt.Sprintf(`{"version":"%d","data":%s}`, vv, vdata), true
}

// offsetCommitValueJSON is OffsetCommitValueJsonConverter.write for
// versions 0-4: v4 (Kafka 4.1+) is flexible, and its tagged topicId is
// printed only when it is not the zero Uuid.
func offsetCommitValueJSON(r *protocol.Reader, v int16) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"offset":%d`, r.Int64())
	if v >= 3 {
		fmt.Fprintf(&b, `,"leaderEpoch":%d`, r.Int32())
	}
	if v >= 4 {
		f := flexJSONReader{r}
		fmt.Fprintf(&b, `,"metadata":%s,"commitTimestamp":%d`, f.nstr(), r.Int64())
		f.tagged(&b, func(tag uint64, field *protocol.Reader) {
			if tag == 0 {
				var id metadata.Uuid
				copy(id[:], field.Take(16))
				if id != (metadata.Uuid{}) {
					fmt.Fprintf(&b, `,"topicId":%s`, jstr(id.String()))
				}
			}
		})
		return b.String() + "}"
	}
	fmt.Fprintf(&b, `,"metadata":%s,"commitTimestamp":%d`, jstr(r.String()), r.Int64())
	if v == 1 {
		fmt.Fprintf(&b, `,"expireTimestamp":%d`, r.Int64())
	}
	return b.String() + "}"
}

func groupMetadataValueJSON(r *protocol.Reader, v int16) string {
	var b strings.Builder
	protocolType := r.String()
	fmt.Fprintf(&b, `{"protocolType":%s,"generation":%d,"protocol":%s,"leader":%s`, jstr(protocolType), r.Int32(), jnstr(r.NullableString()), jnstr(r.NullableString()))
	if v >= 2 {
		fmt.Fprintf(&b, `,"currentStateTimestamp":%d`, r.Int64())
	}
	n := r.Int32()
	b.WriteString(`,"members":[`)
	for i := int32(0); i < n && r.Err() == nil; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"memberId":%s`, jstr(r.String()))
		if v >= 3 {
			fmt.Fprintf(&b, `,"groupInstanceId":%s`, jnstr(r.NullableString()))
		}
		fmt.Fprintf(&b, `,"clientId":%s,"clientHost":%s`, jstr(r.String()), jstr(r.String()))
		if v >= 1 {
			fmt.Fprintf(&b, `,"rebalanceTimeout":%d`, r.Int32())
		}
		fmt.Fprintf(&b, `,"sessionTimeout":%d`, r.Int32())
		sub, asg := r.Bytes(), r.Bytes()
		fmt.Fprintf(&b, `,"subscription":%s,"assignment":%s}`, subscriptionJSON(sub, protocolType), assignmentJSON(asg, protocolType))
	}
	return b.String() + "]}"
}

// subscriptionJSON is ConsumerProtocolSubscription's JSON for a consumer
// group's member, or the bytes in Base64 when they are something else.
func subscriptionJSON(raw []byte, protocolType string) string {
	if protocolType == protocol.ConsumerProtocolType && len(raw) >= 2 {
		if s, err := protocol.DecodeConsumerProtocolSubscription(raw); err == nil {
			v := int16(binary.BigEndian.Uint16(raw))
			topics := make([]string, len(s.Topics))
			for i, t := range s.Topics {
				topics[i] = jstr(t)
			}
			out := fmt.Sprintf(`{"topics":[%s],"userData":%s`, strings.Join(topics, ","), jbytes(s.UserData))
			if v >= 1 {
				out += `,"ownedPartitions":` + topicPartitionsJSON(s.OwnedPartitions)
			}
			if v >= 2 {
				out += fmt.Sprintf(`,"generationId":%d`, s.GenerationID)
			}
			if v >= 3 {
				out += `,"rackId":` + jnstr(s.RackID)
			}
			return out + "}"
		}
	}
	return jstr(base64.StdEncoding.EncodeToString(raw))
}

func assignmentJSON(raw []byte, protocolType string) string {
	if protocolType == protocol.ConsumerProtocolType && len(raw) >= 2 {
		if a, err := protocol.DecodeConsumerProtocolAssignment(raw); err == nil {
			return fmt.Sprintf(`{"assignedPartitions":%s,"userData":%s}`, topicPartitionsJSON(a.AssignedPartitions), jbytes(a.UserData))
		}
	}
	return jstr(base64.StdEncoding.EncodeToString(raw))
}

func topicPartitionsJSON(tps []protocol.TopicPartitions) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		ps := make([]string, len(tp.Partitions))
		for j, p := range tp.Partitions {
			ps[j] = strconv.Itoa(int(p))
		}
		parts[i] = fmt.Sprintf(`{"topic":%s,"partitions":[%s]}`, jstr(tp.Topic), strings.Join(ps, ","))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// jstr is a JSON string as Jackson writes it (only ", \ and control
// characters escaped).
func jstr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func jnstr(s string) string {
	if s == "" {
		return "null"
	}
	return jstr(s)
}

func jbytes(b []byte) string {
	if b == nil {
		return "null"
	}
	return jstr(base64.StdEncoding.EncodeToString(b))
}
