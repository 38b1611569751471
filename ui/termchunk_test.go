package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vugu/vugu"

	"kafkascope/core/player"

	"kafkascope/ui/internal/htmltest"
)

// chunkOuts maps each terminal chunk drawn in a build to its output.
func chunkOuts(br *vugu.BuildResults, term *Terminal) map[string]*vugu.BuildOut {
	out := map[string]*vugu.BuildOut{}
	for _, c := range br.ResultFor(term).Components {
		if tc, ok := c.(*TermChunk); ok {
			out[tc.Chunk.Key] = br.ResultFor(tc)
		}
	}
	return out
}

// The scrollback is drawn in chunks cut at fixed line numbers: while a
// consumer prints, a build changes only the newest chunk and hands back
// the very outputs of the others (so that the renderer skips them), the
// scrollback still reads exactly as the session's lines; lines that
// scroll out at the top (termShownMax) change only the first chunks.
func TestTerminalChunksChangeAtTheirEnds(t *testing.T) {
	at := newAppTest(t, "", "")
	term := at.a.Term
	var in []string
	for i := range 300 {
		in = append(in, fmt.Sprintf("record-%03d", i))
	}
	at.p.Run("kafka-console-producer.sh --topic t", in)
	at.idle()
	at.p.Run("kafka-console-consumer.sh --topic t --from-beginning --max-messages 250", nil)
	at.idle()
	br := at.env.RunBuild(at.a)
	before := chunkOuts(br, term)
	if len(before) < 300/termChunkLines {
		t.Fatalf("%d chunks for more than 550 lines", len(before))
	}
	want := at.a.T("terminal.welcome") + "\n" + terminalText(at.p.Lines())
	if got := at.render(nil).text("terminal"); got != want {
		t.Fatalf("the scrollback is not the session:\n--- got\n%.300s\n--- want\n%.300s", got, want)
	}

	at.p.Run("kafka-topics.sh --list", nil) // a few more lines
	at.idle()
	br = at.env.RunBuild(at.a)
	after := chunkOuts(br, term)
	changed := 0
	for key, bo := range after {
		if before[key] != bo {
			changed++
		}
	}
	if changed > 2 {
		t.Errorf("a command of a few lines rebuilt %d of %d chunks", changed, len(after))
	}
	want = at.a.T("terminal.welcome") + "\n" + terminalText(at.p.Lines())
	if got := at.render(nil).text("terminal"); got != want {
		t.Fatalf("after a command the scrollback is not the session")
	}

	// Past termShownMax lines the oldest scroll out: the first chunks go,
	// the others stay as they were.
	var more []string
	for i := range termShownMax {
		more = append(more, fmt.Sprintf("more-%04d", i))
	}
	at.p.Run("kafka-console-producer.sh --topic u", more)
	at.idle()
	at.p.Run("kafka-console-consumer.sh --topic u --from-beginning --max-messages 1", nil)
	at.idle()
	br = at.env.RunBuild(at.a)
	before = chunkOuts(br, term)
	at.p.Run("kafka-topics.sh --list", nil)
	at.idle()
	br = at.env.RunBuild(at.a)
	after = chunkOuts(br, term)
	changed = 0
	for key, bo := range after {
		if before[key] != bo {
			changed++
		}
	}
	if changed > 4 {
		t.Errorf("scrolling a few lines out rebuilt %d of %d chunks", changed, len(after))
	}
	text := at.render(nil).text("terminal")
	lines := at.p.Lines()
	if !strings.HasSuffix(text, terminalText(lines[len(lines)-termShownMax:])) || !strings.HasPrefix(text, at.a.Tf("terminal.more", len(lines)-termShownMax)) {
		t.Errorf("the scrollback does not show the newest %d lines under a note of the rest", termShownMax)
	}
}

// The event feed's list is built again only when the feed changed: a
// frame without a new event hands back the last output. Its items are
// keyed by their place in the feed, which a new event does not change.
func TestFeedListIsReusedUntilTheFeedChanges(t *testing.T) {
	at := newAppTest(t, "", "")
	feedOut := func() *vugu.BuildOut {
		br := at.env.RunBuild(at.a)
		return br.ResultFor(&at.a.Events.view)
	}
	keys := func(bo *vugu.BuildOut) map[string]string {
		out := map[string]string{}
		for li := bo.Out[0].FirstChild; li != nil; li = li.NextSibling {
			var key string
			for _, a := range li.Attr {
				if a.Key == "data-key" {
					key = a.Val
				}
			}
			out[key] = li.LastChild.FirstChild.Data
		}
		return out
	}
	first := feedOut()
	if len(first.Out[0].Attr) == 0 || first.Out[0].FirstChild == nil {
		t.Fatal("the feed is empty")
	}
	if again := feedOut(); again != first {
		t.Error("the feed's list was built again though no event arrived")
	}
	before := keys(first)
	at.p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	at.idle()
	next := feedOut()
	if next == first {
		t.Fatal("new events did not rebuild the list")
	}
	after := keys(next)
	same := 0
	for k, text := range before {
		if after[k] != "" {
			if after[k] != text {
				t.Errorf("item %s was %q and is %q", k, text, after[k])
			}
			same++
		}
	}
	if same == 0 || len(after) <= len(before) && same == len(before) {
		t.Errorf("%d of %d items kept their keys, %d items after", same, len(before), len(after))
	}
}

// A seek back replays over frames, each within the frame's events: the
// bar shows the moment it is going to and marks the seek (data-seeking),
// the page says it is seeking, and the cluster shown stays as it was until
// the seek arrives.
func TestScrubSeeksOverFrames(t *testing.T) {
	at := newAppTest(t, "", "")
	at.p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	at.idle()
	at.p.Run("time advance 20m", nil)
	at.idle()
	end := at.p.Now()
	// A long session: the seek replays from a moment minutes before the
	// target, which takes frames even where the idle cluster leaps (a
	// frame's worth at a time).
	target := end.Add(-90 * time.Second)
	at.p.SetFrameEvents(player.MinFrameEvents)
	bar := at.a.Bar
	bar.Scrub(appValue(appMillis(target), "input"))
	bar.ScrubDone(appValue(appMillis(target), "change"))
	at.frames(2, 16*time.Millisecond)
	if _, seeking := at.p.Seeking(); !seeking {
		t.Fatal("a seek back 90 s in 20 minutes with a frame budget of a few hundred events arrived at once")
	}
	doc := at.render(nil)
	if at.p.Now() != end {
		t.Errorf("the cluster shown moved to %s before the seek arrived", at.p.Now())
	}
	if got := doc.text("time-now"); got != fmtVirtualTime(target) {
		t.Errorf("the bar shows %s while seeking, want %s", got, fmtVirtualTime(target))
	}
	if bars := doc.byClass("timebar"); len(bars) != 1 || htmltest.Attr(bars[0], "data-seeking") != "true" {
		t.Error("the bar does not mark the seek")
	}
	if w := doc.byClass("working"); len(w) != 1 || appText(w[0]) != at.a.T("timeline.seeking") {
		t.Error("the page does not say it is seeking")
	}
	for i := 0; i < 5000; i++ {
		if _, seeking := at.p.Seeking(); !seeking {
			break
		}
		at.frames(1, 16*time.Millisecond)
		if most := at.p.LastFrameEvents(); most > 2*player.MinFrameEvents+2000 {
			t.Fatalf("a seek frame ran %d events with a budget of %d", most, player.MinFrameEvents)
		}
	}
	if at.p.Now() != target {
		t.Fatalf("the seek ended at %s, want %s", at.p.Now(), target)
	}
	if bars := at.render(nil).byClass("timebar"); htmltest.Attr(bars[0], "data-seeking") != "" {
		t.Error("the bar still marks a seek that arrived")
	}
}
