package feed

import (
	"strconv"
	"strings"

	"kafkascope/core/event"
	"kafkascope/core/i18n"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// Entry is one event of the feed.
type Entry struct {
	Seq      uint64
	At       sim.Time
	Key      string
	Category string
	// Fields are the note's fields in text (sim.NoteFields), the words
	// the sentence is filled with.
	Fields map[string]string
	// Note is the engine's note itself (nil for a process starting or
	// stopping), for readers that need its values.
	Note sim.Note
}

// Marks reports whether the entry marks the timeline.
func (e Entry) Marks() bool {
	switch n := e.Note.(type) {
	case event.LeaderElected, event.ISRChanged:
		return true
	case event.RaftTransition:
		return n.Role == "Leader"
	}
	return e.Category == CatCrash
}

// retrying are the entries a node writes again at every attempt of a
// loop that can last as long as a fault does: a lone voter asking for
// votes (or, on 4.x, pre-votes) no majority can give. The feed keeps the newest of each (Replaces).
var retrying = map[string]bool{"raft.transition.candidate": true, "raft.election.backoff": true,
	"raft.transition.prospective": true, "raft.transition.prevote-lost": true,
	"raft.prevote.granted": true, "raft.prevote.rejected": true}

// Replaces reports whether e is the next round of old, the same attempt
// of the same node again (only its epoch and wait differ): the feed shows
// the newest in its place, so the loop does not push everything else (why
// a client is stuck, for one) out of sight.
func (e Entry) Replaces(old Entry) bool {
	return retrying[e.Key] && e.Key == old.Key && e.Fields["node"] == old.Fields["node"] &&
		e.Fields["candidate"] == old.Fields["candidate"]
}

// Text renders the entry in lang.
func (e Entry) Text(lang i18n.Lang) string {
	t, ok := catalog[e.Key]
	if !ok {
		return e.Key
	}
	s := t.en
	if lang == i18n.Korean {
		s = t.ko
	}
	text := fill(s, func(name string) (string, bool) {
		v, ok := e.Fields[name]
		if ok && name == "reason" {
			if r, known := reasons[v]; known {
				v = r[0]
				if lang == i18n.Korean {
					v = r[1]
				}
			}
		}
		return v, ok
	})
	if lang == i18n.Korean {
		text = FixKoreanParticles(text)
	}
	return text
}

// fill replaces each {name} of the template with its value, in one pass:
// a value is never scanned again, so a value that itself looks like
// {other} (a config value is free text) stays as it is, and the result
// does not depend on the order of the fields.
func fill(tpl string, value func(name string) (string, bool)) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			break
		}
		b.WriteString(tpl[:i])
		if v, ok := value(tpl[i+1 : i+j]); ok {
			b.WriteString(v)
		} else {
			b.WriteString(tpl[i : i+j+1])
		}
		tpl = tpl[i+j+1:]
	}
	b.WriteString(tpl)
	return b.String()
}

// unexplained are the notes the feed leaves out on purpose: bookkeeping
// that the checkers read, too frequent to narrate.
var unexplained = map[string]bool{"hw.updated": true, "follower.started": true}

// FromTrace turns a trace event into a feed entry, if it is one the feed
// explains: process notes, and brokers and ZooKeeper servers starting and
// stopping.
func FromTrace(ev sim.TraceEvent) (Entry, bool) {
	e := Entry{Seq: ev.Seq, At: ev.At, Fields: map[string]string{}}
	switch ev.Kind {
	case sim.TraceNote:
		e.Note = ev.Note
		f := sim.NoteFields(ev.Note)
		for i := 0; i+1 < len(f); i += 2 {
			e.Fields[f[i]] = f[i+1]
		}
		e.Key = sentenceKey(ev.Note)
	case sim.TraceStart, sim.TraceStop:
		prefix := "process"
		if _, ok := zookeeper.HostNumber(ev.Host); ok {
			prefix = "zookeeper"
			e.Fields["server"] = ev.Host
		} else {
			id, ok := strings.CutPrefix(ev.Host, "kafka-")
			if _, err := strconv.Atoi(id); !ok || err != nil {
				return e, false // client processes (kafka-console-consumer-4, ...) are not explained
			}
			e.Fields["broker"] = id
		}
		switch {
		case ev.Kind == sim.TraceStart:
			e.Key = prefix + ".started"
		case ev.Detail == "power loss":
			e.Key = prefix + ".power-loss"
		case ev.Detail == "killed":
			e.Key = prefix + ".killed"
		default:
			e.Key = prefix + ".exited"
		}
	default:
		return e, false
	}
	t, ok := catalog[e.Key]
	if !ok {
		return e, false
	}
	e.Category = t.cat
	return e, true
}

// Recent returns the feed entries among the trace's retained events with
// Seq > after, oldest first, at most limit of them (the newest).
func Recent(tr *sim.Trace, after uint64, limit int) []Entry {
	var out []Entry
	for _, ev := range tr.Since(after) {
		if e, ok := FromTrace(ev); ok {
			out = append(out, e)
		}
	}
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// sentenceKey is the catalog key of a note's sentence: its own key, or a
// more specific one when the catalog has it: an election by whether it
// found a leader and how, a KRaft role change by its new role, a vote by
// its answer, a stuck client by its cause, a transaction's step by the
// coordinator's new state or the marker's kind.
func sentenceKey(n sim.Note) string {
	key := n.Key()
	var k string
	switch n := n.(type) {
	case event.LeaderElected:
		switch {
		case n.Leader == event.NoLeader:
			return key + ".none"
		case n.Unclean:
			return key + ".unclean"
		}
		return key
	case event.RaftTransition:
		k = key + "." + strings.ToLower(n.Role)
		if n.PreVoteLost {
			k = key + ".prevote-lost"
		}
	case event.VoteAnswered:
		if n.PreVote {
			key = "raft.prevote"
		}
		k = key + ".rejected"
		if n.Granted {
			k = key + ".granted"
		}
	case event.ELRChanged:
		if len(n.ELR) == 0 {
			return key + ".empty"
		}
		return key
	case event.ConsumerStuck:
		k = key + "." + n.Cause
	case event.ProducerStuck:
		k = key + "." + n.Cause
	case event.TxnStateChanged:
		k = key + "." + n.State
		if n.Bumped {
			k += ".v2"
		}
	case event.TxnMarkerWritten:
		k = key + ".abort"
		if n.Commit {
			k = key + ".commit"
		}
	default:
		return key
	}
	if _, ok := catalog[k]; ok {
		return k
	}
	return key
}
