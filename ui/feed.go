package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
)

// The feed draws the newest feedShown events at least, and lets up to
// feedSlack more pile up before its oldest go, all of them at once: an
// event that pushed the oldest out moved every item up a place, and the
// browser invalidated and repainted all 150 of them, in most frames of a
// scenario. Added at the end, a new event is the only item to place and
// paint. (Chrome traces of four built-in scenarios: the feed, mostly
// scrolled out of view, was a third of the browser's paint and half of
// its pre-paint on the page's thread; dropping in batches cut pre-paint
// by a quarter and paint by a tenth, 0.4 ms a frame.)
const (
	feedShown = 150
	feedSlack = 50
)

// Feed is the event feed: what the engine did, one plain sentence per
// event, newest at the bottom. Appends are many; they show on request.
type Feed struct {
	App  *App
	Data bool // show data events (appends, truncations)

	list    []feedItem // what the list shows
	listKey feedKey    // what list was read from
	listGen int        // counts the changes to list
	view    FeedList
	// oldest is the feed place (Seq) of the oldest event list shows.
	oldest int
}

// feedKey is what the list shows: a feed at one version, in a language,
// with or without data events.
type feedKey struct {
	version player.FeedVersion
	lang    i18n.Lang
	data    bool
}

// BeforeBuild reads the feed when it changed since the last build (the
// feed changes only when an event arrives; a frame that added none
// formats nothing).
func (c *Feed) BeforeBuild() {
	p := c.App.Player
	key := feedKey{version: p.FeedVersion(), lang: p.Lang, data: c.Data}
	if key != c.listKey || c.list == nil {
		c.list, c.listKey = c.items(), key
		c.listGen++
	}
	c.view.Feed = c
}

// feedItem is one event as drawn.
type feedItem struct {
	Seq  int
	Time string
	Cat  string
	Text string
}

func (c *Feed) items() []feedItem {
	lines := c.App.Player.Feed(feedShown+feedSlack, c.Data)
	// Keep the oldest event drawn while it is among the newest
	// feedShown+feedSlack and at least feedShown are from it on (a seek
	// back may have cut the feed short of them); else start again from the
	// newest feedShown.
	from := max(len(lines)-feedShown, 0)
	if i, ok := slices.BinarySearchFunc(lines, c.oldest, func(l player.FeedLine, seq int) int { return cmp.Compare(l.Seq, seq) }); ok && len(lines)-i >= feedShown {
		from = i
	}
	lines = lines[from:]
	if len(lines) > 0 {
		c.oldest = lines[0].Seq
	}
	out := make([]feedItem, len(lines))
	for i, l := range lines {
		out[i] = feedItem{Seq: l.Seq, Time: fmtVirtualTime(l.At), Cat: l.Category, Text: l.Text}
	}
	return out
}

// followKey changes when a new event arrives, so the list scrolls to it.
func (c *Feed) followKey() string {
	if len(c.list) == 0 {
		return "0"
	}
	last := c.list[len(c.list)-1]
	return fmt.Sprintf("%d.%s.%s", last.Seq, last.Time, last.Text)
}

// ToggleData shows or hides appends.
func (c *Feed) ToggleData() { c.Data = !c.Data }

func (c *Feed) dataPressed() string { return fmt.Sprint(c.Data) }

// FeedList draws the feed's list:
//
//	<ol class="feed-list" id="feed-list" role="log" data-follow="…">
//	  <li data-cat="CAT" data-key="SEQ"><span class="feed-time">T+1.000s</span><span class="feed-text" title="TEXT">TEXT</span></li>…
//	</ol>
//
// Written by hand to hand back its last output while the feed is
// unchanged (most frames add no event: they then cost nothing to build,
// prepare or render), and keyed by each event's place in the feed, so
// that a new event (which pushes the oldest out) adds one item and
// removes one instead of rewriting all 150.
type FeedList struct {
	Feed *Feed

	gen int // the Feed.listGen out shows
	out *vugu.BuildOut
}

// Build draws the list, or returns the last output when it is unchanged.
func (c *FeedList) Build(*vugu.BuildIn) *vugu.BuildOut {
	f := c.Feed
	if c.out != nil && c.gen == f.listGen {
		return c.out
	}
	ol := &vugu.VGNode{Type: vugu.ElementNode, Data: "ol", Attr: []vugu.VGAttribute{
		{Key: "class", Val: "feed-list"}, {Key: "id", Val: "feed-list"}, {Key: "role", Val: "log"},
		{Key: "data-follow", Val: f.followKey()}}}
	for _, it := range f.list {
		li := &vugu.VGNode{Type: vugu.ElementNode, Data: "li", Attr: []vugu.VGAttribute{
			{Key: "data-cat", Val: it.Cat}, {Key: "data-key", Val: strconv.Itoa(it.Seq)}}}
		li.AppendChild(textSpan("feed-time", "", it.Time))
		li.AppendChild(textSpan("feed-text", it.Text, it.Text))
		ol.AppendChild(li)
	}
	c.gen, c.out = f.listGen, &vugu.BuildOut{Out: []*vugu.VGNode{ol}}
	return c.out
}

// textSpan is <span class="CLASS" title="TITLE">TEXT</span> (no title
// when it is empty).
func textSpan(class, title, text string) *vugu.VGNode {
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: "span", Attr: []vugu.VGAttribute{{Key: "class", Val: class}}}
	if title != "" {
		n.Attr = append(n.Attr, vugu.VGAttribute{Key: "title", Val: title})
	}
	if text != "" {
		n.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: text})
	}
	return n
}
