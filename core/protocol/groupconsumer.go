package protocol

import (
	"encoding/binary"
	"errors"
)

// ConsumerProtocolType is the protocol type consumers join groups with.
const ConsumerProtocolType = "consumer"

// ConsumerProtocolVersion is the highest ConsumerProtocolSubscription and
// ConsumerProtocolAssignment version Kafka 3.8 writes (3: rack ids).
const ConsumerProtocolVersion int16 = 3

// TopicPartitions is a topic and some of its partitions
// (ConsumerProtocol's TopicPartition).
type TopicPartitions struct {
	Topic      string
	Partitions []int32
}

// ConsumerProtocolSubscription is a consumer's JoinGroup metadata: its
// subscribed topics, assignor user data, the partitions it owns (for the
// cooperative protocol and sticky assignors), the generation those came
// from (-1 none) and its rack ("" = null).
type ConsumerProtocolSubscription struct {
	Topics          []string
	UserData        []byte // nil = null
	OwnedPartitions []TopicPartitions
	GenerationID    int32
	RackID          string
}

// ConsumerProtocolAssignment is what SyncGroup hands a consumer.
type ConsumerProtocolAssignment struct {
	AssignedPartitions []TopicPartitions
	UserData           []byte // nil = null
}

// Encode writes the subscription as Kafka does: a version prefix (int16)
// then the fields in the non-flexible encoding of that version (v3).
func (s *ConsumerProtocolSubscription) Encode() []byte {
	var w cpWriter
	w.i16(ConsumerProtocolVersion)
	w.i32(int32(len(s.Topics)))
	for _, t := range s.Topics {
		w.str(t)
	}
	w.nbytes(s.UserData)
	w.tps(s.OwnedPartitions)
	w.i32(s.GenerationID)
	if s.RackID == "" {
		w.i16(-1)
	} else {
		w.str(s.RackID)
	}
	return w.b
}

// Encode writes the assignment (version prefix, then v3 fields).
func (a *ConsumerProtocolAssignment) Encode() []byte {
	var w cpWriter
	w.i16(ConsumerProtocolVersion)
	w.tps(a.AssignedPartitions)
	w.nbytes(a.UserData)
	return w.b
}

// errConsumerProtocol is returned for bytes that are not a consumer
// protocol message.
var errConsumerProtocol = errors.New("malformed consumer protocol message")

// DecodeConsumerProtocolSubscription reads Encode's output (versions 0-3;
// newer versions are read as 3, as Kafka does).
func DecodeConsumerProtocolSubscription(b []byte) (ConsumerProtocolSubscription, error) {
	r := cpReader{b: b}
	v := r.i16()
	s := ConsumerProtocolSubscription{GenerationID: -1}
	n := r.i32()
	for i := int32(0); i < n && r.err == nil; i++ {
		s.Topics = append(s.Topics, r.str())
	}
	s.UserData = r.nbytes()
	if v >= 1 {
		s.OwnedPartitions = r.tps()
	}
	if v >= 2 {
		s.GenerationID = r.i32()
	}
	if v >= 3 {
		s.RackID = r.nstr()
	}
	return s, r.err
}

// DecodeConsumerProtocolAssignment reads an assignment (versions 0-3).
// Empty bytes are an empty assignment (Kafka's members before SyncGroup).
func DecodeConsumerProtocolAssignment(b []byte) (ConsumerProtocolAssignment, error) {
	if len(b) == 0 {
		return ConsumerProtocolAssignment{}, nil
	}
	r := cpReader{b: b}
	r.i16()
	a := ConsumerProtocolAssignment{AssignedPartitions: r.tps()}
	a.UserData = r.nbytes()
	return a, r.err
}

type cpWriter struct{ b []byte }

func (w *cpWriter) i16(v int16) { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *cpWriter) i32(v int32) { w.b = binary.BigEndian.AppendUint32(w.b, uint32(v)) }
func (w *cpWriter) str(s string) {
	w.i16(int16(len(s)))
	w.b = append(w.b, s...)
}
func (w *cpWriter) nbytes(b []byte) {
	if b == nil {
		w.i32(-1)
		return
	}
	w.i32(int32(len(b)))
	w.b = append(w.b, b...)
}
func (w *cpWriter) tps(tps []TopicPartitions) {
	w.i32(int32(len(tps)))
	for _, tp := range tps {
		w.str(tp.Topic)
		w.i32(int32(len(tp.Partitions)))
		for _, p := range tp.Partitions {
			w.i32(p)
		}
	}
}

type cpReader struct {
	b   []byte
	err error
}

func (r *cpReader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		r.err = errConsumerProtocol
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}
func (r *cpReader) i16() int16 {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return int16(binary.BigEndian.Uint16(b))
}
func (r *cpReader) i32() int32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(b))
}
func (r *cpReader) str() string { return string(r.take(int(r.i16()))) }
func (r *cpReader) nstr() string {
	n := r.i16()
	if n < 0 {
		return ""
	}
	return string(r.take(int(n)))
}
func (r *cpReader) nbytes() []byte {
	n := r.i32()
	if n < 0 {
		return nil
	}
	return append([]byte{}, r.take(int(n))...)
}
func (r *cpReader) tps() []TopicPartitions {
	n := r.i32()
	var out []TopicPartitions
	for i := int32(0); i < n && r.err == nil; i++ {
		tp := TopicPartitions{Topic: r.str()}
		m := r.i32()
		for j := int32(0); j < m && r.err == nil; j++ {
			tp.Partitions = append(tp.Partitions, r.i32())
		}
		out = append(out, tp)
	}
	return out
}
