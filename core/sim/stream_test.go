package sim

import (
	"slices"
	"testing"
	"time"
)

// A Stream over a cut link: what the cut takes, on sending or in flight,
// arrives once the link heals, exactly once and in order, as a TCP
// connection delivers it; nothing sent after a lost message overtakes it.
func TestStreamRetransmitsAcrossACut(t *testing.T) {
	w := NewWorld(1)
	var got []int
	w.Spawn("b", &funcProc{recv: func(env *Env, e *Envelope) { got = append(got, e.Msg.(*ping).N) }})
	var s *Stream
	w.Spawn("a", &funcProc{start: func(env *Env) { s = NewStream("a:1", "b:1") }})
	send := func(n int) {
		if err := w.Call("a", "send", func(env *Env) { s.Send(env, &ping{N: n}) }); err != nil {
			t.Fatal(err)
		}
	}
	w.Net().SetDelay("b", 50*time.Millisecond)
	send(1)
	w.RunFor(100 * time.Millisecond)
	send(2) // dropped in flight; 3 and 4 wait behind it
	w.RunFor(10 * time.Millisecond)
	w.Net().Cut("a", "b")
	w.RunFor(100 * time.Millisecond)
	send(3)
	send(4)
	w.RunFor(time.Second)
	if !slices.Equal(got, []int{1}) || s.Held() != 3 {
		t.Fatalf("while cut: got %v, %d held", got, s.Held())
	}
	w.Net().Heal("a", "b")
	send(5)
	w.RunFor(5 * time.Second)
	if !slices.Equal(got, []int{1, 2, 3, 4, 5}) || s.Held() != 0 {
		t.Fatalf("after the heal: got %v, %d held", got, s.Held())
	}
	// Healed while a message is in flight behind a lost one: the late one
	// is held back, not delivered before the retransmission.
	send(6)
	w.RunFor(5 * time.Millisecond)
	send(7)
	w.RunFor(5 * time.Millisecond)
	w.Net().Cut("a", "b") // 6 arrives cut (51 ms after it left), 7 after the heal
	w.RunFor(43 * time.Millisecond)
	w.Net().Heal("a", "b")
	n := len(got)
	w.RunFor(10 * time.Millisecond)
	if len(got) != n {
		t.Fatalf("7 overtook the lost 6: got %v", got)
	}
	w.RunFor(5 * time.Second)
	if !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("a message behind a lost one: got %v", got)
	}
	// Closed: nothing more is sent, what was held is gone.
	w.Net().Cut("a", "b")
	send(8)
	w.RunFor(time.Second)
	if err := w.Call("a", "close", func(*Env) { s.Close() }); err != nil {
		t.Fatal(err)
	}
	w.RunFor(time.Millisecond)
	w.Net().Heal("a", "b")
	send(9)
	w.RunFor(5 * time.Second)
	if len(got) != 7 {
		t.Fatalf("after Close: got %v", got)
	}
}
