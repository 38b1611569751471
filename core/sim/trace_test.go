package sim

import (
	"fmt"
	"testing"
)

// The ring keeps the newest events in order before and after it fills and
// wraps, and Since picks up where a reader left off.
func TestTraceRingKeepsTheNewestInOrder(t *testing.T) {
	tr := newTrace(5)
	seqs := func(es []TraceEvent) string {
		var out []uint64
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return fmt.Sprint(out)
	}
	for i := 1; i <= 12; i++ {
		tr.add(TraceEvent{Kind: TraceNote, Host: "h", Detail: fmt.Sprint(i)})
		want := []uint64{}
		for s := max(1, i-4); s <= i; s++ {
			want = append(want, uint64(s))
		}
		if got := seqs(tr.Recent(0)); got != fmt.Sprint(want) {
			t.Fatalf("after %d events Recent(0) = %s, want %v", i, got, want)
		}
	}
	if got := seqs(tr.Recent(2)); got != "[11 12]" {
		t.Fatalf("Recent(2) = %s", got)
	}
	if got := seqs(tr.Since(9)); got != "[10 11 12]" {
		t.Fatalf("Since(9) = %s", got)
	}
	if got := seqs(tr.Since(2)); got != "[8 9 10 11 12]" {
		t.Fatalf("Since(2) = %s (only the retained ones)", got)
	}
	if tr.Since(12) != nil || tr.Count() != 12 {
		t.Fatalf("Since(12) = %v, Count %d", tr.Since(12), tr.Count())
	}
}

// Only the newest MessageWindow events keep their message, before and
// after the ring wraps; every event keeps its kind and host.
func TestTraceKeepsMessagesOfTheNewestWindowOnly(t *testing.T) {
	limit := 3*MessageWindow + 7
	tr := newTrace(limit)
	env := &Envelope{From: "a:1", To: "b:1", Msg: &Closed{}}
	for i := 1; i <= 2*limit+5; i++ {
		tr.add(TraceEvent{Kind: TraceDeliver, Host: "b", Env: env})
		events := tr.Recent(0)
		for j, e := range events {
			fromNewest := len(events) - 1 - j
			if keeps := fromNewest < MessageWindow; (e.Env != nil) != keeps || e.Host != "b" {
				t.Fatalf("after %d events, the event %d from the newest has message %v, host %q", i, fromNewest, e.Env != nil, e.Host)
			}
		}
		if i == MessageWindow+2 {
			i = limit - 3 // skip ahead to just before the ring wraps
			for k := MessageWindow + 3; k <= i; k++ {
				tr.add(TraceEvent{Kind: TraceDeliver, Host: "b", Env: env})
			}
		}
	}
}
