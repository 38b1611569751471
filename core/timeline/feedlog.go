package timeline

import (
	"kafkascope/core/feed"
	"kafkascope/core/sim"
)

// FeedLog is what the UI shows of a cluster's trace: the event feed (its
// last MaxFeed entries) and the entries that mark the timeline (crashes,
// elections, ISR changes), read from the trace as it grows. A console
// replay and the browser's simulator run each keep one.
type FeedLog struct {
	feed  []feed.Entry
	marks []feed.Entry
	seen  uint64 // trace events already read
}

// Drain reads the trace events not read yet.
func (l *FeedLog) Drain(tr *sim.Trace) {
	for _, e := range feed.Recent(tr, l.seen, 0) {
		l.feed = append(l.feed, e)
		if e.Marks() {
			l.marks = append(l.marks, e)
		}
	}
	l.seen = tr.Count()
	if over := len(l.feed) - MaxFeed; over > 0 {
		l.feed = append([]feed.Entry(nil), l.feed[over:]...)
	}
}

// Feed is the event feed, oldest first (at most MaxFeed entries).
func (l *FeedLog) Feed() []feed.Entry { return l.feed }

// Markers are the marking entries, oldest first.
func (l *FeedLog) Markers() []feed.Entry { return l.marks }

// Reset forgets everything read (a new cluster's trace starts over).
func (l *FeedLog) Reset() { *l = FeedLog{} }
