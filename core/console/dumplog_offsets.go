package console

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/protocol"
)

// offsetsRecord is DumpLogSegments' OffsetsMessageParser: a
// __consumer_offsets record's key and value as the generated JSON
// converters write them, {"type":"<key version>","data":{...}} and
// {"version":"<value version>","data":{...}}; a tombstone's payload is
// <DELETE>. A consumer group's member subscriptions and assignments are
// decoded too. hasPayload is false when the record could not be read.
func offsetsRecord(offset int64, key, value []byte) (k, payload string, hasPayload bool) {
	if key == nil {
		return fmt.Sprintf("Failed to decode message at offset %d using offset topic decoder (message had a missing key)", offset), "", false
	}
	r := &bin{b: key}
	kv := r.i16()
	var kdata string
	switch kv {
	case 0, 1:
		kdata = fmt.Sprintf(`{"group":%s,"topic":%s,"partition":%d}`, jstr(r.str()), jstr(r.str()), r.i32())
	case 2:
		kdata = fmt.Sprintf(`{"group":%s}`, jstr(r.str()))
	default:
		return fmt.Sprintf("Unknown record type %d at offset %d, skipping.", kv, offset), "", false
	}
	if r.err {
		return fmt.Sprintf("Error at offset %d, skipping. %s", offset, "Tried to read beyond the end of the record"), "", false
	}
	k = fmt.Sprintf(`{"type":"%d","data":%s}`, kv, kdata)
	if value == nil {
		return k, "<DELETE>", true
	}
	v := &bin{b: value}
	vv := v.i16()
	var vdata string
	if kv <= 1 {
		vdata = offsetCommitValueJSON(v, vv)
	} else {
		vdata = groupMetadataValueJSON(v, vv)
	}
	if v.err {
		return fmt.Sprintf("Error at offset %d, skipping. %s", offset, "Tried to read beyond the end of the record"), "", false
	}
	return k, fmt.Sprintf(`{"version":"%d","data":%s}`, vv, vdata), true
}

func offsetCommitValueJSON(r *bin, v int16) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"offset":%d`, r.i64())
	if v >= 3 {
		fmt.Fprintf(&b, `,"leaderEpoch":%d`, r.i32())
	}
	fmt.Fprintf(&b, `,"metadata":%s,"commitTimestamp":%d`, jstr(r.str()), r.i64())
	if v == 1 {
		fmt.Fprintf(&b, `,"expireTimestamp":%d`, r.i64())
	}
	return b.String() + "}"
}

func groupMetadataValueJSON(r *bin, v int16) string {
	var b strings.Builder
	protocolType := r.str()
	fmt.Fprintf(&b, `{"protocolType":%s,"generation":%d,"protocol":%s,"leader":%s`, jstr(protocolType), r.i32(), jnstr(r.nstr()), jnstr(r.nstr()))
	if v >= 2 {
		fmt.Fprintf(&b, `,"currentStateTimestamp":%d`, r.i64())
	}
	n := r.i32()
	b.WriteString(`,"members":[`)
	for i := int32(0); i < n && !r.err; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"memberId":%s`, jstr(r.str()))
		if v >= 3 {
			fmt.Fprintf(&b, `,"groupInstanceId":%s`, jnstr(r.nstr()))
		}
		fmt.Fprintf(&b, `,"clientId":%s,"clientHost":%s`, jstr(r.str()), jstr(r.str()))
		if v >= 1 {
			fmt.Fprintf(&b, `,"rebalanceTimeout":%d`, r.i32())
		}
		fmt.Fprintf(&b, `,"sessionTimeout":%d`, r.i32())
		sub, asg := r.bytes(), r.bytes()
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

// bin reads the coordinator records' non-flexible encoding.
type bin struct {
	b   []byte
	err bool
}

func (r *bin) take(n int) []byte {
	if r.err || n < 0 || n > len(r.b) {
		r.err = true
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}
func (r *bin) i16() int16 {
	if b := r.take(2); b != nil {
		return int16(binary.BigEndian.Uint16(b))
	}
	return 0
}
func (r *bin) i32() int32 {
	if b := r.take(4); b != nil {
		return int32(binary.BigEndian.Uint32(b))
	}
	return 0
}
func (r *bin) i64() int64 {
	if b := r.take(8); b != nil {
		return int64(binary.BigEndian.Uint64(b))
	}
	return 0
}
func (r *bin) str() string { return string(r.take(int(r.i16()))) }
func (r *bin) nstr() string {
	n := r.i16()
	if n < 0 {
		return ""
	}
	return string(r.take(int(n)))
}

// bytes reads a non-nullable bytes field (a member's subscription and
// assignment): a negative length makes the record unreadable.
func (r *bin) bytes() []byte { return r.take(int(r.i32())) }
