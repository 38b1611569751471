package client

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

type idleProcess struct{}

func (idleProcess) Start(*sim.Env)                  {}
func (idleProcess) Receive(*sim.Env, *sim.Envelope) {}

// inProcess runs fn inside a process of a fresh world and returns the
// notes it made.
func inProcess(t *testing.T, fn func(env *sim.Env)) []sim.Note {
	t.Helper()
	w := sim.NewWorld(1)
	if err := w.Spawn("client", idleProcess{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Call("client", "test", fn); err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var out []sim.Note
	for _, e := range w.Trace().Since(0) {
		if e.Kind == sim.TraceNote {
			out = append(out, e.Note)
		}
	}
	return out
}

func ner(broker, isr string) *protocol.Cause {
	return &protocol.Cause{Kind: protocol.CauseNotEnoughReplicas, Fields: []string{"broker", broker, "tp", "t-0", "isr", isr, "min", "2"}}
}

// An episode notes each distinct cause once, whoever answered and however
// often; a changed cause is noted; after the scope worked, the same cause
// starts a new episode. Nil causes note nothing.
func TestStuckReporterNotesOncePerEpisodeAndCause(t *testing.T) {
	got := inProcess(t, func(env *sim.Env) {
		s := newStuckReporter(false, "p", "")
		for range 10 {
			s.stuck(env, "produce", ner("1", "1"))
			s.stuck(env, "produce", ner("2", "1")) // another broker, same obstacle
			s.stuck(env, "produce", nil)
		}
		s.stuck(env, "produce", ner("1", "1,3")) // the ISR changed
		s.stuck(env, "produce", ner("1", "1"))   // back to a cause told in this episode
		if !s.cleared("produce") || s.cleared("produce") {
			t.Error("cleared reports whether an episode was open, once")
		}
		s.stuck(env, "produce", ner("1", "1")) // a new episode
		s.stuck(env, "other", ner("1", "1"))   // another scope
	})
	stuck := func(isr string) sim.Note {
		return event.ProducerStuck{Client: "p", Cause: protocol.CauseNotEnoughReplicas, CauseFields: ner("1", isr).Fields}
	}
	want := []sim.Note{stuck("1"), stuck("1,3"), stuck("1"), stuck("1")}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("notes:\n%+v\nwant\n%+v", got, want)
	}
}

// What a client remembers is bounded: scopes, and causes per episode.
func TestStuckReporterIsBounded(t *testing.T) {
	got := inProcess(t, func(env *sim.Env) {
		s := newStuckReporter(true, "c", "g")
		for i := range 2 * maxStuckScopes {
			s.stuck(env, fmt.Sprint("scope", i), ner("1", "1"))
		}
		for i := range 2 * maxStuckCauses {
			s.stuck(env, "scope0", ner("1", fmt.Sprint(i+10)))
		}
		if len(s.episodes) != maxStuckScopes || len(s.episodes["scope0"]) != maxStuckCauses {
			t.Errorf("%d scopes, %d causes in one", len(s.episodes), len(s.episodes["scope0"]))
		}
	})
	if len(got) != maxStuckScopes+maxStuckCauses-1 {
		t.Fatalf("%d notes, want %d", len(got), maxStuckScopes+maxStuckCauses-1)
	}
	for _, n := range got {
		if cs, ok := n.(event.ConsumerStuck); !ok || cs.Client != "c" || cs.Group != "g" {
			t.Fatalf("note %+v, want a ConsumerStuck of client c, group g", n)
		}
	}
}
