package player

import (
	"testing"
	"time"
)

// Slow frames shrink the budget toward what fits the engine's share of
// FrameWork, never below MinFrameEvents; fast frames grow it back, never
// above the default; a frame with almost no events says nothing about
// the rate.
func TestFrameBudgetAdapts(t *testing.T) {
	var b FrameBudget
	n := 0
	onTime := 16 * time.Millisecond
	for range 10 { // 8000 events take 300 ms: ~270 fit in 10 ms
		n = b.Observe(FrameCost{Events: 8000, Tick: 300 * time.Millisecond, Interval: onTime})
	}
	if n != MinFrameEvents {
		t.Fatalf("after slow frames the budget is %d, want the floor %d", n, MinFrameEvents)
	}
	for range 10 { // 1000 events in 4 ms: 2500 fit in 10 ms
		n = b.Observe(FrameCost{Events: 1000, Tick: 4 * time.Millisecond, Interval: onTime})
	}
	if n < 2200 || n > 2500 {
		t.Fatalf("after 4 ms frames of 1000 events the budget is %d, want about 2500", n)
	}
	if got := b.Observe(FrameCost{Events: 10, Tick: time.Second, Interval: onTime}); got != n {
		t.Fatalf("a frame of 10 events moved the budget from %d to %d", n, got)
	}
	for range 20 {
		n = b.Observe(FrameCost{Events: 4000, Tick: time.Millisecond, Interval: onTime}) // 40000 would fit
	}
	if n != stepsPerFrame {
		t.Fatalf("fast frames left the budget at %d, want the default %d", n, stepsPerFrame)
	}
}

// The render's cost comes out of the engine's share: with renders of
// 6 ms, 1000 events a millisecond leave room for 4000, not 10000.
func TestFrameBudgetLeavesRoomForTheRender(t *testing.T) {
	var b FrameBudget
	n := 0
	for range 30 {
		n = b.Observe(FrameCost{Events: 2000, Tick: 2 * time.Millisecond, Render: 6 * time.Millisecond, Interval: 16 * time.Millisecond})
	}
	if n < 3600 || n > 4400 {
		t.Fatalf("with 6 ms renders the budget is %d, want about 4000", n)
	}
	for range 30 { // a render costlier than FrameWork: the engine keeps its minimum
		n = b.Observe(FrameCost{Events: 2000, Tick: 2 * time.Millisecond, Render: 30 * time.Millisecond, Interval: 40 * time.Millisecond})
	}
	if want := int(2000 * minEngine / (2 * time.Millisecond)); n > want {
		t.Fatalf("with 30 ms renders the budget is %d, want at most %d", n, want)
	}
}

// Frames that come late while the engine used its whole budget cut it
// (the browser needed more of the frame than was left); frames on time
// let it grow back.
func TestFrameBudgetShrinksWhileFramesAreLate(t *testing.T) {
	var b FrameBudget
	n := 0
	for range 10 { // 10000 events in 2 ms: the work target allows 30000
		n = b.Observe(FrameCost{Events: uint64(max(n, 10000)), Tick: 2 * time.Millisecond, Interval: 16 * time.Millisecond})
	}
	full := n
	for range 5 {
		n = b.Observe(FrameCost{Events: uint64(n), Tick: 2 * time.Millisecond, Interval: 33 * time.Millisecond})
	}
	if n > full/3 {
		t.Fatalf("after 5 late frames the budget is %d of %d", n, full)
	}
	low := n
	for range 40 {
		n = b.Observe(FrameCost{Events: uint64(n), Tick: time.Duration(n) * 200 * time.Nanosecond, Interval: 16 * time.Millisecond})
	}
	if n <= low*2 {
		t.Fatalf("on-time frames left the budget at %d (from %d)", n, low)
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

// Idle time starts a standby replay (which creates a cluster in one step,
// a long frame in the page) only once the player has been paused and left
// alone for standbyQuiet frames: never among the frames of a playing
// cluster or of steps being clicked through.
func TestStandbysStartWhenLeftAlone(t *testing.T) {
	p := New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	p.Run("time advance 3m", nil)
	for i := 0; p.tl().Busy() && i < 10000; i++ {
		p.Tick(16 * time.Millisecond)
	}
	p.Paused = false
	for range 400 { // playing: frames with few events
		p.Tick(16 * time.Millisecond)
	}
	if !p.tl().BackgroundStarts() || len(p.tl().Standbys()) != 0 {
		t.Fatalf("a playing cluster started standbys: %v", p.tl().Standbys())
	}
	p.TogglePause()
	for range standbyQuiet - 1 {
		p.Tick(16 * time.Millisecond)
	}
	if !p.tl().BackgroundStarts() {
		t.Fatal("a standby started before the player was left alone for standbyQuiet frames")
	}
	for range 2000 {
		p.Tick(16 * time.Millisecond)
	}
	if len(p.tl().Standbys()) == 0 {
		t.Fatal("no standby after 2000 quiet paused frames")
	}
}

// A frame that fast-forwards a time advance gets FastForwardWork instead
// of FrameWork, at the rate the frames measured: with 2 ms renders the
// engine's 8 ms become 10 ms, and 15 ms in a frame that draws nothing.
func TestFastForwardGetsMoreOfTheFrame(t *testing.T) {
	var b FrameBudget
	n := 0
	for range 30 {
		n = b.Observe(FrameCost{Events: 2000, Tick: 2 * time.Millisecond, Render: 2 * time.Millisecond, Interval: 16 * time.Millisecond})
	}
	ff := b.FastForwardEvents(n, false)
	if want := n * 10 / 8; ff < want*95/100 || ff > want*105/100 {
		t.Fatalf("a fast-forwarding frame gets %d events, want about %d (%d for any frame)", ff, want, n)
	}
	// A frame that draws nothing (the page draws a fast-forward ten times
	// a second) gives its engine 15 ms, not what the render leaves.
	if quiet, want := b.FastForwardEvents(n, true), n*15/8; quiet < want*95/100 || quiet > want*105/100 {
		t.Fatalf("a quiet fast-forwarding frame gets %d events, want about %d", quiet, want)
	}
	if got := b.FastForwardEvents(stepsPerFrame, false); got != stepsPerFrame {
		t.Fatalf("the fast-forward budget %d passes the frame's limit %d", got, stepsPerFrame)
	}
}
