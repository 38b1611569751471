package ui

import (
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"kafkascope/core/player"
)

// Gallery is the overlay that lists the built-in scenarios. Opening one
// replays it afresh to its first step (deferred work: it takes a moment).
type Gallery struct {
	App  *App
	Open bool
}

// galleryItem is one scenario card.
type galleryItem struct {
	ID     string
	Number string
	Title  string
	Steps  string
}

func (c *Gallery) items() []galleryItem {
	var out []galleryItem
	for _, s := range c.App.Player.Scenarios() {
		num, _, _ := strings.Cut(s.ID, "-")
		out = append(out, galleryItem{ID: s.ID, Number: num, Title: s.Title, Steps: c.App.Tf("steps.count", s.Steps)})
	}
	return out
}

// simItem is one card of "What the simulator found": a run that breaks a
// guarantee under a known-unsafe config, and the scenarios that teach the
// rule by hand.
type simItem struct {
	Index     int
	Config    string
	Title     string
	Seed      string // "seed N · finds invariant"
	SeedNum   string // N, on the card's badge
	Story     string
	Scenarios []galleryItem
}

func (c *Gallery) simItems() []simItem {
	p := c.App.Player
	titles := map[string]string{}
	for _, s := range p.Scenarios() {
		titles[s.ID] = s.Title
	}
	var out []simItem
	for i, f := range player.SimFindings {
		it := simItem{Index: i, Config: f.Key + "=" + f.Value, Title: p.FindingTitle(f), Seed: c.App.Tf("gallery.sim.seed", f.Seed, f.Invariant), SeedNum: strconv.FormatUint(f.Seed, 10), Story: p.FindingStory(f)}
		for _, id := range f.Scenarios {
			num, _, _ := strings.Cut(id, "-")
			it.Scenarios = append(it.Scenarios, galleryItem{ID: id, Number: num, Title: titles[id]})
		}
		out = append(out, it)
	}
	return out
}

// ChooseSim opens a finding's simulator run (deferred: the page first
// shows that it is working).
func (c *Gallery) ChooseSim(i int) {
	if i < 0 || i >= len(player.SimFindings) {
		return
	}
	c.Open = false
	p, l, host := c.App.Player, player.SimFindings[i].Link(), c.App.Host
	c.App.later(c.App.T("sim.opening"), func() {
		p.OpenSim(l)
		host.Focus("play") // the run plays: the keyboard continues on its control
	})
}

// Choose opens a scenario.
func (c *Gallery) Choose(id string) {
	c.Open = false
	p, host := c.App.Player, c.App.Host
	c.App.later(c.App.T("scenario.opening"), func() {
		if err := p.OpenScenario(id, 0); err != nil {
			p.Error = err.Error()
			return
		}
		// The gallery is gone with the element that had the focus: the
		// keyboard continues on the story's Next button.
		host.Focus("story-next")
	})
}

// Close hides the gallery; the focus goes back to the button that opened it.
func (c *Gallery) Close() {
	c.Open = false
	c.App.Host.Focus("open-gallery")
}

// Backdrop closes the gallery on a click outside the dialog.
func (c *Gallery) Backdrop(e vugu.DOMEvent) {
	if e.PropString("target", "id") == "gallery" {
		c.Close()
	}
}

// Key closes the gallery on Escape.
func (c *Gallery) Key(e vugu.DOMEvent) {
	if e.PropString("key") == "Escape" {
		c.Close()
	}
}
