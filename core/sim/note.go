package sim

import (
	"strconv"
	"strings"
	"time"
)

// A Note is a fact a process reports about what it just did, as a Go value
// (the types are in core/event): a leader starting an epoch with its log end
// offset, an ISR shrinking, a group rebalancing. The trace records it and
// hashes it, the feed explains it in words, and the checkers and the
// availability record read its fields as values. Nothing formats a note to
// parse it back.
type Note interface {
	// Key names the kind of fact, e.g. "leader.started": stable, and the
	// key of the feed's sentence for it.
	Key() string
	// Fields writes the note's fields to w, always in the same order (the
	// trace's hash and its printed line depend on the order).
	Fields(w FieldWriter)
}

// FieldWriter receives a note's fields, each a name and a typed value.
type FieldWriter interface {
	Int(name string, v int64)
	Str(name, v string)
	// IDs is a list of broker or node ids (a replica set, an ISR).
	IDs(name string, v []int32)
	Bool(name string, v bool)
	Dur(name string, d time.Duration)
}

// NoteFields renders a note's fields as name, value pairs in text: the
// words the feed fills its sentences with and the trace prints. Ids are
// listed as Kafka's tools print a replica list (1,2,3), durations by
// FormatDuration.
func NoteFields(n Note) []string {
	if n == nil {
		return nil
	}
	var t noteText
	n.Fields(&t)
	return t.fields
}

// noteText is the FieldWriter behind NoteFields.
type noteText struct{ fields []string }

func (t *noteText) Int(name string, v int64) {
	t.fields = append(t.fields, name, strconv.FormatInt(v, 10))
}
func (t *noteText) Str(name, v string) { t.fields = append(t.fields, name, v) }
func (t *noteText) IDs(name string, v []int32) {
	t.fields = append(t.fields, name, FormatIDs(v))
}
func (t *noteText) Bool(name string, v bool) {
	t.fields = append(t.fields, name, strconv.FormatBool(v))
}
func (t *noteText) Dur(name string, d time.Duration) {
	t.fields = append(t.fields, name, FormatDuration(d))
}

// FormatIDs renders ids as Kafka's tools print a replica list: 1,2,3.
func FormatIDs(ids []int32) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(id)))
	}
	return b.String()
}

// noteHash is the FieldWriter that folds a note into the trace's hash:
// each field's name, then its value (a number as a number, a string by its
// bytes), so the hash is a function of the notes' keys and values.
type noteHash struct{ t *Trace }

func (h noteHash) Int(name string, v int64) {
	h.t.mixString(name)
	h.t.mixUint(uint64(v))
}
func (h noteHash) Str(name, v string) {
	h.t.mixString(name)
	h.t.mixString(v)
}
func (h noteHash) IDs(name string, v []int32) {
	h.t.mixString(name)
	h.t.mixUint(uint64(len(v)))
	for _, id := range v {
		h.t.mixUint(uint64(uint32(id)))
	}
}
func (h noteHash) Bool(name string, v bool) {
	h.t.mixString(name)
	if v {
		h.t.mixUint(1)
	} else {
		h.t.mixUint(0)
	}
}
func (h noteHash) Dur(name string, d time.Duration) {
	h.t.mixString(name)
	h.t.mixUint(uint64(d))
}
