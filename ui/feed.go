package ui

import (
	"fmt"
)

// feedShown is how many events the feed draws (the newest).
const feedShown = 150

// Feed is the event feed: what the engine did, one plain sentence per
// event, newest at the bottom. Appends are many; they show on request.
type Feed struct {
	App  *App
	Data bool // show data events (appends, truncations)

	list []feedItem // read once per build
}

// BeforeBuild reads the feed once per render.
func (c *Feed) BeforeBuild() { c.list = c.items() }

// feedItem is one event as drawn.
type feedItem struct {
	Time string
	Cat  string
	Text string
}

func (c *Feed) items() []feedItem {
	lines := c.App.Player.Feed(feedShown, c.Data)
	out := make([]feedItem, len(lines))
	for i, l := range lines {
		out[i] = feedItem{Time: fmtVirtualTime(l.At), Cat: l.Category, Text: l.Text}
	}
	return out
}

// followKey changes when a new event arrives, so the list scrolls to it.
func (c *Feed) followKey() string {
	lines := c.App.Player.Feed(1, c.Data)
	if len(lines) == 0 {
		return "0"
	}
	return fmt.Sprintf("%d.%s", lines[0].At, lines[0].Text)
}

// ToggleData shows or hides appends.
func (c *Feed) ToggleData() { c.Data = !c.Data }

func (c *Feed) dataPressed() string { return fmt.Sprint(c.Data) }
