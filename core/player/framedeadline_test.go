package player

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// always is a host deadline that has always passed: every frame does the
// least it may (one chunk, or one command started).
func always() bool { return true }

func lineTexts(p *Player) []string {
	var out []string
	for _, l := range p.Lines() {
		out = append(out, l.Text)
	}
	return out
}

// A heavy step (scenario 23's perf test sends 4 MB in one burst) runs at
// most a chunk of events per frame once the deadline has passed, and ends
// exactly where the step played in one go ends: same moment, same output.
func TestFrameDeadlineSplitsAStepNotItsResult(t *testing.T) {
	const id = "23-why-kafka-is-fast"
	whole, framed := New(), New()
	for _, p := range []*Player{whole, framed} {
		if err := p.OpenScenario(id, 0); err != nil {
			t.Fatal(err)
		}
	}
	framed.SetFrameDeadline(always)
	for whole.Scenario().Step+1 < whole.Scenario().Steps() {
		if err := whole.Scenario().Next(); err != nil {
			t.Fatal(err)
		}
		if err := framed.Scenario().StartNext(); err != nil {
			t.Fatal(err)
		}
		for frames := 0; framed.Scenario().Running(); frames++ {
			framed.Tick(16 * time.Millisecond)
			if got := framed.LastFrameEvents(); got > frameChunk {
				t.Fatalf("step %d: a frame past its deadline ran %d events (a chunk is %d)", whole.Scenario().Step, got, frameChunk)
			}
			if frames > 1_000_000 {
				t.Fatal("the step never ends")
			}
		}
		if framed.Error != "" {
			t.Fatal(framed.Error)
		}
		if framed.Now() != whole.Now() || framed.Scenario().Step != whole.Scenario().Step {
			t.Fatalf("step %d: chunked frames ended at %s, one run at %s", whole.Scenario().Step, framed.Now(), whole.Now())
		}
		if a, b := lineTexts(framed), lineTexts(whole); !slices.Equal(a, b) {
			t.Fatalf("step %d: the terminals differ:\nchunked %q\none run %q", whole.Scenario().Step, a, b)
		}
	}
}

// seekPlayer is a paused player whose session has a topic, a time
// advance of 3 minutes and then 2 minutes played with no command running,
// so that seeking back to seekAt replays thousands of events and lands
// where the terminal is idle.
func seekPlayer(t *testing.T) *Player { return seekPlayerOf(t, "3m") }

// seekPlayerOf is seekPlayer with a time advance of advance.
func seekPlayerOf(t *testing.T, advance string) *Player {
	t.Helper()
	p := New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	p.Run("time advance "+advance, nil)
	for i := 0; p.tl().Busy(); i++ {
		p.Tick(16 * time.Millisecond)
		if i > 100_000 {
			t.Fatal("the time advance never ends")
		}
	}
	if _, err := p.tl().Play(2*time.Minute, 0); err != nil {
		t.Fatal(err)
	}
	p.Paused = true
	return p
}

// seekAt is where the tests seek back to: after the time advance.
const seekAt = sim.Time(4 * time.Minute)

// A seek's frames run until the host's deadline passes, in chunks of
// frameChunk events, whatever the frame's event count (which would stop a
// frame at half as much again as MinFrameEvents); the seek still arrives
// exactly where a seek in one go does.
func TestSeekFramesRunToTheirDeadline(t *testing.T) {
	whole, framed := seekPlayer(t), seekPlayer(t)
	whole.Seek(seekAt)

	framed.SetFrameEvents(MinFrameEvents)
	const looks = 12 // the deadline passes at the frame's 12th look
	n := 0
	framed.SetQuietDeadline(func() bool { n++; return n >= looks })
	framed.StartSeek(seekAt)
	frames := 0
	for {
		_, seeking := framed.Seeking()
		if !seeking {
			break
		}
		n = 0
		before := framed.tl().SeekEvents()
		framed.Tick(16 * time.Millisecond)
		if _, still := framed.Seeking(); still {
			ran := framed.tl().SeekEvents() - before
			if ran < (looks-1)*frameChunk || ran > looks*frameChunk {
				t.Fatalf("a seek frame whose deadline passed at its %dth look ran %d events, want %d to %d chunks of %d",
					looks, ran, looks-1, looks, frameChunk)
			}
		}
		if frames++; frames > 100_000 {
			t.Fatal("the seek never arrives")
		}
	}
	if framed.Error != "" {
		t.Fatal(framed.Error)
	}
	if frames < 3 {
		t.Fatalf("the seek took %d frames; the test needs a longer one", frames)
	}
	if framed.Now() != whole.Now() || framed.cluster().Digest() != whole.cluster().Digest() {
		t.Fatalf("a seek in frames arrived at %s, one in one go at %s, in another state", framed.Now(), whole.Now())
	}
	if a, b := lineTexts(framed), lineTexts(whole); !slices.Equal(a, b) {
		t.Fatalf("the terminals differ:\nin frames %q\nin one go %q", a, b)
	}
}

// A seek's frames are the viewer's doing: a seek that took more than
// standbyQuiet frames does not let a standby start (creating a cluster, a
// long frame in the page) in the frames right after it arrives.
func TestNoStandbyStartsRightAfterALongSeek(t *testing.T) {
	// A chunk a frame, and far back: the seek takes many frames (an idle
	// cluster's minutes leap, a chunk's worth at a time).
	p := seekPlayerOf(t, "12m")
	p.SetQuietDeadline(always)
	p.StartSeek(sim.Time(13 * time.Minute))
	frames := 0
	for ; ; frames++ {
		if _, seeking := p.Seeking(); !seeking {
			break
		}
		p.Tick(16 * time.Millisecond)
	}
	if frames <= standbyQuiet {
		t.Fatalf("the seek took %d frames; the test needs more than %d", frames, standbyQuiet)
	}
	for range standbyQuiet - 2 {
		p.Tick(16 * time.Millisecond)
		if !p.tl().BackgroundStarts() {
			t.Fatal("a standby started right after a long seek arrived")
		}
	}
}

// A paused frame with nothing to do spends its idle time on the standby
// replays until the quiet deadline passes, in chunks of frameChunk
// events, whatever the frame's event count; starting a standby (creating
// a cluster) takes a frame of its own. A seek that resumes a standby
// built this way arrives where one in a player without standbys does.
func TestIdleFramesRunToTheQuietDeadline(t *testing.T) {
	p, ref := seekPlayer(t), seekPlayer(t)
	ref.SetStandbyLimit(0)
	p.SetFrameEvents(MinFrameEvents)
	const looks = 12
	n := 0
	p.SetQuietDeadline(func() bool { n++; return n >= looks })
	building := 0
	for frames := 0; len(p.tl().Standbys()) < 2; frames++ {
		n = 0
		starts := p.tl().BackgroundStarts()
		before := p.tl().BackgroundEvents()
		p.Tick(16 * time.Millisecond)
		ran := p.tl().BackgroundEvents() - before
		switch {
		case starts && !p.tl().BackgroundStarts():
			if ran != 0 {
				t.Fatalf("the frame that started a standby also ran %d of its events", ran)
			}
		case !starts && !p.tl().BackgroundStarts():
			building++
			if ran < (looks-1)*frameChunk || ran > looks*frameChunk {
				t.Fatalf("an idle frame whose deadline passed at its %dth look ran %d events, want %d to %d chunks of %d",
					looks, ran, looks-1, looks, frameChunk)
			}
		}
		if frames > 100_000 {
			t.Fatal("idle frames never build two standbys")
		}
	}
	if building < 3 {
		t.Fatalf("%d idle frames built the standbys; the test needs more", building)
	}
	if p.Error != "" {
		t.Fatal(p.Error)
	}
	at := p.tl().Standbys()[0] + sim.Time(10*time.Second)
	p.Seek(at)
	ref.Seek(at)
	if p.Now() != ref.Now() || p.cluster().Digest() != ref.cluster().Digest() {
		t.Fatalf("a seek from a standby built in idle frames arrived at %s, one from the start at %s, in another state", p.Now(), ref.Now())
	}
	if a, b := lineTexts(p), lineTexts(ref); !slices.Equal(a, b) {
		t.Fatalf("the terminals differ:\nfrom a standby %q\nfrom the start %q", a, b)
	}
}

// spent and unspent are a fast-forward clock whose time is always
// spent, and one that never is.
func spent() float64   { return 0 }
func unspent() float64 { return 1 }

// A "time advance" fast-forwarded under a deadline runs its count of
// events a frame once the deadline has passed, and ends where one run by
// event counts ends: same moment, same terminal. With time to spare, a
// frame runs on past its count to the advance's end and stops there: the
// rest of the frame does not play on at the chosen speed.
func TestFastForwardDeadlineSplitsAnAdvanceNotItsResult(t *testing.T) {
	counted, chunked, spare := New(), New(), New()
	for _, p := range []*Player{counted, chunked, spare} {
		p.Boot("", "")
		p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
		for i := 0; p.tl().Busy(); i++ {
			p.Tick(16 * time.Millisecond)
			if i > 100_000 {
				t.Fatal("creating the topic never ends")
			}
		}
	}
	for _, p := range []*Player{counted, chunked, spare} {
		p.SetFastForwardEvents(500)
	}
	chunked.SetFastForwardDeadline(spent)
	spare.SetFastForwardDeadline(unspent)
	for _, p := range []*Player{counted, chunked, spare} {
		p.Run("time advance 2m", nil)
	}
	end := counted.Now().Add(2 * time.Minute)
	frames := 0
	for ; counted.tl().Busy(); frames++ {
		counted.Tick(16 * time.Millisecond)
		if frames > 1_000_000 {
			t.Fatal("the counted advance never ends")
		}
	}
	if frames < 2 {
		t.Fatalf("the advance took %d frame of its count: the test needs more", frames)
	}
	for frames := 0; chunked.tl().Busy(); frames++ {
		chunked.Tick(16 * time.Millisecond)
		if got := chunked.LastFrameEvents(); chunked.FastForwarding() && got > 500 {
			t.Fatalf("a fast-forwarding frame past its deadline ran %d events, over its count of 500", got)
		}
		if frames > 1_000_000 {
			t.Fatal("the chunked advance never ends")
		}
	}
	spare.Tick(16 * time.Millisecond)
	if spare.tl().Busy() {
		t.Fatalf("a frame with time to spare ran %d events and left the advance at %s, before its end %s", spare.LastFrameEvents(), spare.Now(), end)
	}
	for _, p := range []*Player{counted, chunked, spare} {
		if p.Error != "" {
			t.Fatal(p.Error)
		}
		if p.Now() != end {
			t.Fatalf("the advance ended at %s, want %s", p.Now(), end)
		}
	}
	if a, b := lineTexts(chunked), lineTexts(counted); !slices.Equal(a, b) {
		t.Fatalf("the terminals differ:\nchunked %q\ncounted %q", a, b)
	}
}

// Playing at a speed leaves the session on a whole millisecond, with time
// moving at that speed, so a seek to the moment the scrubber names (it
// speaks whole milliseconds) where the session stands runs nothing: a
// session left a fraction of a millisecond past its last one replayed
// from the previous standby (or the cluster's creation) when the thumb
// was dragged back to the bar's end.
func TestPlayingStandsOnWholeMilliseconds(t *testing.T) {
	p := seekPlayer(t)
	p.Paused = false
	start := p.Now()
	const frames = 60
	for range frames {
		p.Tick(16666667 * time.Nanosecond)
	}
	want := time.Duration(frames * 16666667)
	if got := p.Now().Sub(start); got > want || got < want-time.Millisecond {
		t.Fatalf("%d frames of %v at speed 1 moved time %v", frames, 16666667*time.Nanosecond, got)
	}
	p.Paused = true
	end := p.tl().End()
	bar := sim.Time(time.Duration(end.Millis()) * time.Millisecond)
	p.StartSeek(bar)
	p.FinishSeek()
	if _, events, _ := p.tl().LastSeek(); events != 0 || p.Now() != end {
		t.Fatalf("seeking to the bar's end (%s, the session's end at %d ns) ran %d events and arrived at %d ns", bar, int64(end), events, int64(p.Now()))
	}
}
