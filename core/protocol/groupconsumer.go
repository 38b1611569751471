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
	r := NewReader(b, errConsumerProtocol)
	v := r.Int16()
	s := ConsumerProtocolSubscription{GenerationID: -1}
	n := r.Int32()
	for i := int32(0); i < n && r.Err() == nil; i++ {
		s.Topics = append(s.Topics, r.String())
	}
	s.UserData = r.NullableBytes()
	if v >= 1 {
		s.OwnedPartitions = readTPs(r)
	}
	if v >= 2 {
		s.GenerationID = r.Int32()
	}
	if v >= 3 {
		s.RackID = r.NullableString()
	}
	return s, r.Err()
}

// DecodeConsumerProtocolAssignment reads an assignment (versions 0-3).
// Empty bytes are an empty assignment (Kafka's members before SyncGroup).
func DecodeConsumerProtocolAssignment(b []byte) (ConsumerProtocolAssignment, error) {
	if len(b) == 0 {
		return ConsumerProtocolAssignment{}, nil
	}
	r := NewReader(b, errConsumerProtocol)
	r.Int16()
	a := ConsumerProtocolAssignment{AssignedPartitions: readTPs(r)}
	a.UserData = r.NullableBytes()
	return a, r.Err()
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

func readTPs(r *Reader) []TopicPartitions {
	n := r.Int32()
	var out []TopicPartitions
	for i := int32(0); i < n && r.Err() == nil; i++ {
		tp := TopicPartitions{Topic: r.String()}
		m := r.Int32()
		for j := int32(0); j < m && r.Err() == nil; j++ {
			tp.Partitions = append(tp.Partitions, r.Int32())
		}
		out = append(out, tp)
	}
	return out
}
