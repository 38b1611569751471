package player

import (
	"testing"
	"time"
)

// Slow frames shrink the budget toward what fits FrameTarget, never below
// MinFrameEvents; fast frames grow it back, never above the default; a
// frame with almost no events says nothing about the rate.
func TestFrameBudgetAdapts(t *testing.T) {
	var b FrameBudget
	n := 0
	for range 10 { // 8000 events take 300 ms: ~430 fit in 16 ms
		n = b.Observe(8000, 300*time.Millisecond)
	}
	if n != MinFrameEvents {
		t.Fatalf("after slow frames the budget is %d, want the floor %d", n, MinFrameEvents)
	}
	for range 10 { // 1000 events in 4 ms: 4000 fit
		n = b.Observe(1000, 4*time.Millisecond)
	}
	if n < 3500 || n > 4000 {
		t.Fatalf("after 4 ms frames of 1000 events the budget is %d, want about 4000", n)
	}
	if got := b.Observe(10, time.Second); got != n {
		t.Fatalf("a frame of 10 events moved the budget from %d to %d", n, got)
	}
	for range 20 {
		n = b.Observe(4000, time.Millisecond) // 64000 would fit
	}
	if n != stepsPerFrame {
		t.Fatalf("fast frames left the budget at %d, want the default %d", n, stepsPerFrame)
	}
}

// A capped player runs at most the cap per frame and still moves on.
func TestFrameEventsCapAFrame(t *testing.T) {
	p := New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 6 --replication-factor 3", nil)
	p.SetFrameEvents(MinFrameEvents)
	var most, total uint64
	for range 400 {
		p.Tick(250 * time.Millisecond)
		most = max(most, p.LastFrameEvents())
		total += p.LastFrameEvents()
	}
	if most > MinFrameEvents {
		t.Fatalf("a frame ran %d events over the cap %d", most, MinFrameEvents)
	}
	if total == 0 || p.Now() == 0 {
		t.Fatalf("the capped player ran %d events to %s", total, p.Now())
	}
}
