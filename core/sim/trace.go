package sim

import (
	"fmt"
	"strings"
)

// TraceKind says what a trace entry records.
type TraceKind uint8

const (
	TraceDeliver TraceKind = iota + 1 // a message reached its destination process
	TraceDrop                         // a message was lost; Detail says why
	TraceTimer                        // a timer fired in a process
	TraceStart                        // a process started
	TraceStop                         // a process stopped (Detail: killed, power loss, exited)
	TraceNote                         // a process explained something it did
)

func (k TraceKind) String() string {
	switch k {
	case TraceDeliver:
		return "deliver"
	case TraceDrop:
		return "drop"
	case TraceTimer:
		return "timer"
	case TraceStart:
		return "start"
	case TraceStop:
		return "stop"
	case TraceNote:
		return "note"
	}
	return "?"
}

// TraceEvent is one entry of the trace.
type TraceEvent struct {
	Seq    uint64 // position in the whole run (not just the retained window)
	At     Time
	Kind   TraceKind
	Host   string    // the process it happened in (the receiver, for messages)
	Env    *Envelope // the message, for deliver and drop (nil once MessageWindow newer events came)
	Detail string    // timer name, drop reason, or a note's key
	Note   Note      // the note, for TraceNote
}

// String renders the event as one trace line.
func (e TraceEvent) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d %s", e.At, e.Seq, e.Kind)
	if e.Env != nil {
		fmt.Fprintf(&b, " %s -> %s %s", e.Env.From, e.Env.To, e.Env.Msg.Kind())
		if s, ok := e.Env.Msg.(Summarizer); ok {
			b.WriteString(" " + s.Summary())
		}
	} else {
		b.WriteString(" " + e.Host)
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	f := NoteFields(e.Note)
	for i := 0; i+1 < len(f); i += 2 {
		b.WriteString(" " + f[i] + "=" + f[i+1])
	}
	return b.String()
}

// DefaultTraceLimit is how many recent events a trace keeps.
const DefaultTraceLimit = 50000

// MessageWindow is how many of the most recent events keep the message
// they delivered or dropped (TraceEvent.Env); older events keep their
// time, kind, host and note. The event feed reads only notes, starts and
// stops, which are a small share of the events, so the ring is long; but a
// message can be large (a follower's Fetch of a 1000-partition topic and
// its answer are tens of kilobytes), and holding the last 50,000 events'
// messages was over half the live heap of a 1000-partition topic in the
// page (issue 15's heap profile: 143 of 269 MB), which the collector marks
// in whole frames.
const MessageWindow = 1024

// Trace keeps the most recent events in a ring and a running hash over every
// event of the run, so two runs can be compared exactly however long they
// were. The hash covers time, kind, hosts, message kinds and details; with
// HashContent it also covers each message's summary (offsets, errors, HWs).
type Trace struct {
	detail bool         // also hash message summaries (slower; for determinism tests)
	ring   []TraceEvent // grows up to limit, then wraps
	limit  int
	next   int
	full   bool
	count  uint64
	hash   uint64
	// window is how many of the newest events keep their message
	// (MessageWindow unless a test asks for more: SetMessageWindow).
	window int
	strs   stringHashes
}

func newTrace(limit int) *Trace {
	if limit <= 0 {
		limit = DefaultTraceLimit
	}
	// The ring grows as events come (a world that runs briefly, like a
	// benchmark's, does not pay for 50,000 entries up front: 4.4 MB).
	return &Trace{ring: make([]TraceEvent, 0, min(limit, 1024)), limit: limit, hash: fnvOffset, window: MessageWindow}
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// mixString folds s into the hash: its own hash (hashString, remembered
// in strs), so the trace's hash depends on each string's bytes and on the
// order of the strings.
func (t *Trace) mixString(s string) { t.mixUint(t.strs.of(s)) }

// mixUint folds v into the hash.
func (t *Trace) mixUint(v uint64) {
	h := (t.hash ^ v) * fnvPrime
	t.hash = h ^ h>>32
}

func (t *Trace) add(e TraceEvent) {
	t.count++
	e.Seq = t.count
	t.mixUint(uint64(e.At))
	t.mixUint(uint64(e.Kind))
	t.mixString(e.Host)
	if e.Env != nil {
		t.mixString(string(e.Env.From))
		t.mixString(string(e.Env.To))
		t.mixString(e.Env.Msg.Kind())
		if t.detail {
			if s, ok := e.Env.Msg.(Summarizer); ok {
				t.mixString(s.Summary()) // offsets, errors, HWs: content, not just shape
			}
		}
	}
	t.mixString(e.Detail)
	if e.Note != nil {
		e.Note.Fields(noteHash{t})
	}
	if len(t.ring) < t.limit {
		if len(t.ring) == cap(t.ring) {
			// Doubling, where append would grow a slice this large by a
			// quarter at a time: filling the ring then copied it about
			// five times over (22 MB for the default 50,000 entries, the
			// sixth of an idle cluster's first simulated hour of garbage).
			grown := make([]TraceEvent, len(t.ring), min(2*cap(t.ring), t.limit))
			copy(grown, t.ring)
			t.ring = grown
		}
		t.ring = append(t.ring, e)
	} else {
		t.ring[t.next] = e
	}
	t.forgetMessage(t.next - t.window)
	t.next++
	if t.next == t.limit {
		t.next = 0
		t.full = true
	}
}

// forgetMessage drops the message of the event at ring position i, the one
// recorded window events before the newest (i < 0: before the ring's
// start, which holds an event only once the ring has wrapped).
func (t *Trace) forgetMessage(i int) {
	if t.limit <= t.window {
		return // the ring is no longer than the window
	}
	if i < 0 {
		if !t.full {
			return
		}
		i += t.limit
	}
	t.ring[i].Env = nil
}

// SetMessageWindow makes the newest n events keep their messages from now
// on (at most the ring's length; events already recorded keep what they
// have): for a test that reads the messages of a longer stretch of a run.
func (t *Trace) SetMessageWindow(n int) { t.window = max(n, 1) }

// Count is how many events the run has recorded in total.
func (t *Trace) Count() uint64 { return t.count }

// Hash is the running hash over every event so far.
func (t *Trace) Hash() uint64 { return t.hash }

// Recent returns up to n of the most recent events, oldest first.
func (t *Trace) Recent(n int) []TraceEvent {
	size := t.next
	if t.full {
		size = len(t.ring)
	}
	if n <= 0 || n > size {
		n = size
	}
	out := make([]TraceEvent, 0, n)
	start := t.next - n
	for i := 0; i < n; i++ {
		j := start + i
		if j < 0 {
			j += len(t.ring)
		}
		out = append(out, t.ring[j])
	}
	return out
}

// Since returns the retained events with Seq > seq, oldest first.
func (t *Trace) Since(seq uint64) []TraceEvent {
	if seq >= t.count {
		return nil
	}
	n := t.count - seq
	return t.Recent(int(min(n, uint64(len(t.ring)))))
}

// HashContent makes the hash cover message contents (their summaries) as
// well as their shape. It costs about half the scheduler's speed, so only
// determinism tests turn it on.
func (t *Trace) HashContent(on bool) { t.detail = on }
