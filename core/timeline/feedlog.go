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
	// dropped counts the entries cut from the front of feed, so an entry
	// stays at dropped+i (its place among every entry kept so far) while
	// newer ones arrive; gen counts the changes to feed.
	dropped int
	gen     uint64
}

// Drain reads the trace events not read yet.
func (l *FeedLog) Drain(tr *sim.Trace) {
	for _, e := range feed.Recent(tr, l.seen, 0) {
		l.dropRound(e)
		l.feed = append(l.feed, e)
		l.gen++
		if e.Marks() {
			l.marks = append(l.marks, e)
		}
	}
	l.seen = tr.Count()
	// Cut in batches (Feed shows the last MaxFeed): cutting on every
	// drain copied the whole feed each time once it was full.
	if over := len(l.feed) - MaxFeed; over > MaxFeed/4 {
		l.feed = append([]feed.Entry(nil), l.feed[over:]...)
		l.dropped += over
	}
}

// retryWindow is how far back the feed looks for the previous round of a
// retry loop (feed.Entry.Replaces): a loop's own entries alternate, with
// at most a few others between.
const retryWindow = 6

// dropRound removes the previous round of e's retry loop from the newest
// entries, so e takes its place at the end.
func (l *FeedLog) dropRound(e feed.Entry) {
	for i := len(l.feed) - 1; i >= max(0, len(l.feed)-retryWindow); i-- {
		if e.Replaces(l.feed[i]) {
			l.feed = append(l.feed[:i], l.feed[i+1:]...)
			l.gen++
			return
		}
	}
}

// Feed is the event feed, oldest first (at most MaxFeed entries).
func (l *FeedLog) Feed() []feed.Entry { return l.feed[max(0, len(l.feed)-MaxFeed):] }

// FeedBase is the place of Feed()[0] among every entry kept so far: an
// entry keeps its place while newer ones arrive (until a retry loop's
// newer round replaces an older one before it).
func (l *FeedLog) FeedBase() int { return l.dropped + max(0, len(l.feed)-MaxFeed) }

// FeedGen changes whenever Feed does.
func (l *FeedLog) FeedGen() uint64 { return l.gen }

// Markers are the marking entries, oldest first.
func (l *FeedLog) Markers() []feed.Entry { return l.marks }

// Reset forgets everything read (a new cluster's trace starts over).
func (l *FeedLog) Reset() { *l = FeedLog{} }
