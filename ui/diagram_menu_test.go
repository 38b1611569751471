package ui

import (
	"slices"
	"testing"

	"github.com/vugu/html"

	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// The broker menu from the keyboard (the WAI-ARIA menu button pattern):
// Enter on a card opens its menu with the focus on the first item it can
// run; ↓ and ↑ move between the items that can run, round; Tab past the
// last closes it; Escape closes it and puts the focus back on the card, as
// running an item does. The card says it has a menu.
func TestDiagramBrokerMenuKeyboard(t *testing.T) {
	p := dgCluster(t)
	var focused []string
	d := &Diagram{Player: p, Focus: func(id string) { focused = append(focused, id) }}
	last := func() string {
		if len(focused) == 0 {
			return "(nothing)"
		}
		return focused[len(focused)-1]
	}
	doc := dgRender(t, d)
	card := doc.card(2)
	if htmltest.Attr(card, "id") != "kd-broker-2" || htmltest.Attr(card, "aria-haspopup") != "menu" {
		t.Errorf("broker 2's card: id %q, aria-haspopup %q", htmltest.Attr(card, "id"), htmltest.Attr(card, "aria-haspopup"))
	}

	enter := appKey("Enter", "kd-broker-2", "")
	d.keyBroker(enter, 2)
	if d.menu != 2 || !enter.prevented || last() != "kd-menu-kill" {
		t.Fatalf("Enter on broker 2: menu %d, focus on %s, want the menu open with the focus on kd-menu-kill", d.menu, last())
	}
	doc = dgRender(t, d)
	var ids []string
	for _, it := range dgAll(doc.root, dgByClass("kd-menu-item")) {
		ids = append(ids, htmltest.Attr(it, "id"))
	}
	if want := []string{"kd-menu-kill", "kd-menu-power-loss", "kd-menu-stop", "kd-menu-start", "kd-menu-isolate", "kd-menu-heal"}; !slices.Equal(ids, want) {
		t.Fatalf("menu item ids %q, want %q", ids, want)
	}
	// Start and Heal cannot run on a running, connected broker: skipped.
	for _, step := range []struct{ key, from, want string }{
		{"ArrowDown", "kd-menu-kill", "kd-menu-power-loss"},
		{"ArrowDown", "kd-menu-stop", "kd-menu-isolate"},
		{"ArrowDown", "kd-menu-isolate", "kd-menu-kill"},
		{"ArrowUp", "kd-menu-kill", "kd-menu-isolate"},
		{"End", "kd-menu-kill", "kd-menu-isolate"},
		{"Home", "kd-menu-isolate", "kd-menu-kill"},
		{"ArrowDown", "kd-menu-close", "kd-menu-kill"},
	} {
		e := appKey(step.key, step.from, "")
		d.keyMenu(e)
		if last() != step.want || !e.prevented || d.menu != 2 {
			t.Errorf("%s on %s: focus on %s (menu %d), want %s", step.key, step.from, last(), d.menu, step.want)
		}
	}
	// Tab moves through the items (the browser does it); past the last
	// one the menu closes.
	d.keyMenu(appKey("Tab", "kd-menu-stop", ""))
	if d.menu != 2 {
		t.Error("Tab inside the menu closed it")
	}
	d.keyMenu(appKey("Tab", "kd-menu-isolate", ""))
	if d.menu != 0 {
		t.Error("Tab past the last item left the menu open")
	}

	d.keyBroker(appKey("ArrowUp", "kd-broker-2", ""), 2)
	if d.menu != 2 || last() != "kd-menu-isolate" {
		t.Errorf("↑ on the card: menu %d, focus on %s, want the last item that can run", d.menu, last())
	}
	esc := appKey("Escape", "kd-menu-isolate", "")
	d.keyMenu(esc)
	if d.menu != 0 || last() != "kd-broker-2" || !esc.prevented {
		t.Errorf("Escape in the menu: menu %d, focus on %s, want it closed and the focus on the card", d.menu, last())
	}

	d.keyBroker(appKey(" ", "kd-broker-2", ""), 2)
	d.act("kill")
	if d.menu != 0 || last() != "kd-broker-2" {
		t.Errorf("after Kill: menu %d, focus on %s, want the focus back on the card", d.menu, last())
	}
	// A killed broker's menu starts at Start.
	dgRender(t, d)
	d.keyBroker(appKey("Enter", "kd-broker-2", ""), 2)
	if last() != "kd-menu-start" {
		t.Errorf("Enter on killed broker 2: focus on %s, want kd-menu-start", last())
	}
}

// Vugu patches the DOM by position: an element that moves in its parent's
// list of children becomes another element for the browser, and the
// keyboard focus on a card would jump to the next card whenever a link
// appears or goes away before it (a broker killed, a message on a new
// pair). The links are one group, so the cards keep their places.
func TestDiagramCardsKeepTheirDOMPlace(t *testing.T) {
	places := func(s *view.Snapshot) []int {
		doc := dgRender(t, &Diagram{Snapshot: s})
		svg := dg1(doc, doc.root, "kd-net")
		var out []int
		i := 0
		for c := svg.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				if dgHasClass(c, "kd-card") {
					out = append(out, i)
				}
				i++
			}
		}
		return out
	}
	busy := places(dgHandMade()) // a cut link and messages on three pairs
	quiet := dgHandMade()
	quiet.InFlight, quiet.Cuts = nil, nil
	if q := places(quiet); len(busy) != 3 || !slices.Equal(busy, q) {
		t.Errorf("the cards are children %v of the network SVG with traffic and %v without: they must not move", busy, q)
	}
}
