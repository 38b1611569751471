package ui

import (
	"strings"

	"github.com/vugu/vugu"
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

// Choose opens a scenario.
func (c *Gallery) Choose(id string) {
	c.Open = false
	p := c.App.Player
	c.App.later(c.App.T("scenario.opening"), func() {
		if err := p.OpenScenario(id, 0); err != nil {
			p.Error = err.Error()
		}
	})
}

// Close hides the gallery.
func (c *Gallery) Close() { c.Open = false }

// Backdrop closes the gallery on a click outside the dialog.
func (c *Gallery) Backdrop(e vugu.DOMEvent) {
	if e.PropString("target", "id") == "gallery" {
		c.Open = false
	}
}

// Key closes the gallery on Escape.
func (c *Gallery) Key(e vugu.DOMEvent) {
	if e.PropString("key") == "Escape" {
		c.Open = false
	}
}
