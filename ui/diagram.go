package ui

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/view"
)

// Diagram draws the cluster: the brokers and the controller on top with the
// links between them and the requests on the wire, and below, one row per
// partition with each replica's log strip in its broker's lane. Clicking a
// broker opens its menu (kill, power loss, stop, start, isolate, heal).
//
// Everything drawn comes from the player's snapshot; the diagram only keeps
// what the viewer chose (folded topics, an open menu).
type Diagram struct {
	Player *player.Player
	// Snapshot, when set, is drawn instead of the player's (a still
	// picture of any moment: SVG exports, tests). Player may then be nil:
	// the text is in English.
	Snapshot *view.Snapshot
	// OnReplica, when set, is called with the replica strip clicked (the
	// app opens the partition's disk panel on that broker).
	OnReplica func(topic string, partition, broker int32)
	// Width is the panel's width in CSS px, as the page last measured it
	// (0: unknown): a narrow panel gets narrower lanes (dgLayout.size).
	Width float64
	// Focus, when set, focuses the element with this id after the next
	// render (Host.Focus): the broker menu moves the keyboard focus into
	// itself and back to its card (dgMenuKeys).
	Focus func(id string)
	// View is the part of the partitions' drawing on the screen (zero:
	// unknown, everything is drawn): a topic of many partitions is drawn
	// where the viewer looks (dgDrawAllUpTo).
	View PartsView

	lay       dgLayout
	snap      *view.Snapshot
	menu      int32           // the broker whose menu is open; 0: none
	collapsed map[string]bool // folded topics
	// clientFolded: the clients' cards the viewer folded (by card key).
	clientFolded map[string]bool
	// noRowMemo builds every partition row anew (DgRowMemo), for tests
	// that compare the rows handed back with rows built afresh.
	noRowMemo bool
}

// BeforeBuild lays the snapshot out once per render.
func (c *Diagram) BeforeBuild() {
	c.snap = c.Snapshot
	p := c.Player
	if p == nil {
		p = dgEnglish
	} else if c.snap == nil {
		c.snap = p.Snapshot()
	}
	if c.snap == nil {
		return
	}
	c.snap = c.withDetail(c.snap)
	opts := dgOptions{
		ShowHeartbeats: p.ShowHeartbeats,
		ShowMetadata:   p.ShowMetadata,
		Width:          c.Width,
		Collapsed:      c.collapsed,
		ClientFolded:   c.clientFolded,
		Changed:        p.Changed,
		View:           dgView(c.View),
	}
	if c.Player != nil && c.Snapshot == nil {
		opts.Detail = c.Player.PartitionDetail
	}
	c.lay.Compute(c.snap, p.T, opts)
	if c.menu != 0 && c.menuBox() == nil {
		c.menu = 0 // the broker is gone (a new cluster)
	}
}

// PartsView is the part of the partitions' drawing (the .kd-parts SVG)
// on the screen, in CSS px from its top, as the page measures it.
type PartsView struct {
	Known       bool
	Top, Bottom float64
}

// withDetail is s with every unfolded Light topic (Kafka's internal
// topics, which Take reads without their replicas) read whole from the
// player's cluster: a folded __consumer_offsets costs a frame nothing. s
// itself is not changed (the player shares it).
func (c *Diagram) withDetail(s *view.Snapshot) *view.Snapshot {
	var out *view.Snapshot
	for i, tp := range s.Topics {
		if !tp.Light || dgFolded(c.collapsed, tp.Name) || c.Player == nil {
			continue
		}
		full, ok := c.Player.TopicDetail(tp.Name)
		if !ok {
			continue
		}
		if out == nil {
			cp := *s
			cp.Topics = slices.Clone(s.Topics)
			out = &cp
		}
		out.Topics[i] = full
	}
	if out == nil {
		return s
	}
	return out
}

// dgEnglish gives the UI text when the diagram has no player.
var dgEnglish = &player.Player{Lang: i18n.English}

// t is the UI text in the player's language.
func (c *Diagram) t(key string) string {
	if c.Player == nil {
		return dgEnglish.T(key)
	}
	return c.Player.T(key)
}

func (c *Diagram) topViewBox() string { return "0 0 " + dgf(c.lay.W) + " " + dgf(c.lay.TopH) }

func (c *Diagram) partsViewBox() string { return "0 0 " + dgf(c.lay.W) + " " + dgf(c.lay.PartsH) }

// svgStyle keeps text legible: the SVG scales with the panel but never
// below ~62% (the panel scrolls sideways instead) nor above 135%.
func (c *Diagram) svgStyle() string {
	return "min-width:" + dgf(c.lay.W*dgScaleMin) + "px;max-width:" + dgf(c.lay.W*dgScaleMax) + "px"
}

// fitAttr says how the diagram is laid out for its panel: "touch" (narrow:
// sized for a finger), "narrow" (lanes shrunk to fit), or "" (the default).
func (c *Diagram) fitAttr() string {
	switch {
	case c.lay.touch:
		return "touch"
	case c.lay.leftW > 0 && c.lay.colW < dgLaneWidth(c.lay.NodeCount):
		return "narrow"
	}
	return ""
}

func dgPressed(b bool) string {
	return strconv.FormatBool(b)
}

func (c *Diagram) toggleHeartbeats() {
	if c.Player != nil {
		c.Player.ShowHeartbeats = !c.Player.ShowHeartbeats
	}
}

func (c *Diagram) toggleMetadata() {
	if c.Player != nil {
		c.Player.ShowMetadata = !c.Player.ShowMetadata
	}
}

func (c *Diagram) toggleTopic(name string) {
	if c.collapsed == nil {
		c.collapsed = map[string]bool{}
	}
	c.collapsed[name] = !dgFolded(c.collapsed, name)
}

// toggleClient folds or opens a client's card.
func (c *Diagram) toggleClient(key string) {
	if c.clientFolded == nil {
		c.clientFolded = map[string]bool{}
	}
	c.clientFolded[key] = c.clientOpen(key)
}

// clientOpen reports whether a client's card is drawn open now.
func (c *Diagram) clientOpen(key string) bool {
	for _, p := range c.lay.Prods {
		if p.Key == key {
			return p.Open
		}
	}
	for _, g := range c.lay.Groups {
		if g.Key == key {
			return g.Open
		}
	}
	return !c.clientFolded[key]
}

// clickBroker opens (or closes) a broker's menu.
func (c *Diagram) clickBroker(id int32) {
	if c.Player == nil || c.menu == id { // a still picture has no menu
		c.menu = 0
		return
	}
	c.menu = id
}

// The broker menu follows the WAI-ARIA menu button pattern: a card is the
// button (aria-haspopup), Enter, Space or ↓ on it opens the menu with the
// focus on the first item it can run (↑: the last); in the menu ↓ and ↑
// move between the items (round), Home and End go to the ends, Tab moves
// on through them and closes the menu when it leaves, and Escape closes it
// with the focus back on the card, as an action run from it does.

// dgCardID is the DOM id of broker id's card; dgMenuItemID of a menu entry.
func dgCardID(id int32) string          { return "kd-broker-" + strconv.Itoa(int(id)) }
func dgMenuItemID(action string) string { return "kd-menu-" + action }

// keyBroker opens the menu from the keyboard and moves the focus into it.
func (c *Diagram) keyBroker(e vugu.DOMEvent, id int32) {
	switch e.PropString("key") {
	case "Enter", " ", "ArrowDown", "ArrowUp":
		e.PreventDefault()
		if c.Player == nil {
			return
		}
		c.menu = id
		items := c.menuItems()
		if e.PropString("key") == "ArrowUp" {
			c.focusItem(items, len(items)-1, -1)
		} else {
			c.focusItem(items, 0, 1)
		}
	case "Escape":
		c.menu = 0
	}
}

// keyMenu moves the focus inside the open menu.
func (c *Diagram) keyMenu(e vugu.DOMEvent) {
	items := c.menuItems()
	at := -1
	for i, it := range items {
		if it.ID == e.PropString("target", "id") {
			at = i
		}
	}
	switch key := e.PropString("key"); key {
	case "Escape":
		e.PreventDefault()
		c.closeMenu()
	case "ArrowDown", "ArrowUp":
		e.PreventDefault()
		step := 1
		if key == "ArrowUp" {
			step = -1
		}
		if at < 0 { // on the close button
			at = len(items)
			if step > 0 {
				at = -1
			}
		}
		c.focusItem(items, (at+step+len(items))%len(items), step)
	case "Home":
		e.PreventDefault()
		c.focusItem(items, 0, 1)
	case "End":
		e.PreventDefault()
		c.focusItem(items, len(items)-1, -1)
	case "Tab": // the browser moves the focus; past the last item it leaves
		if !e.PropBool("shiftKey") && at >= 0 && c.lastEnabled(items) == at {
			c.menu = 0
		}
	}
}

// focusItem focuses the first item from i on (going by step, round) that
// can run; with none, the menu's close button.
func (c *Diagram) focusItem(items []dgMenuItem, i, step int) {
	for range items {
		if i >= 0 && i < len(items) && !items[i].Disabled {
			c.focus(items[i].ID)
			return
		}
		i = (i + step + len(items)) % len(items)
	}
	c.focus("kd-menu-close")
}

func (c *Diagram) lastEnabled(items []dgMenuItem) int {
	for i := len(items) - 1; i >= 0; i-- {
		if !items[i].Disabled {
			return i
		}
	}
	return -1
}

func (c *Diagram) focus(id string) {
	if c.Focus != nil {
		c.Focus(id)
	}
}

// closeMenu closes the menu; the focus goes back to its card.
func (c *Diagram) closeMenu() {
	if c.menu != 0 {
		c.focus(dgCardID(c.menu))
	}
	c.menu = 0
}

// closeMenuBg closes the menu from a click on the diagram's background:
// the focus stays where the pointer put it.
func (c *Diagram) closeMenuBg() { c.menu = 0 }

// clickReplica hands a clicked replica strip to OnReplica. (The handler
// takes the row's slice and an index, not the replica: a closure that
// captured the loop's replica would copy it to the heap for every strip on
// every frame.)
func (c *Diagram) clickReplica(reps []dgReplica, i int) {
	c.menu = 0
	if c.OnReplica != nil && i >= 0 && i < len(reps) {
		c.OnReplica(reps[i].Topic, reps[i].Part, reps[i].Broker)
	}
}

// keyReplica is clickReplica from the keyboard (Enter or Space).
func (c *Diagram) keyReplica(e vugu.DOMEvent, reps []dgReplica, i int) {
	switch e.PropString("key") {
	case "Enter", " ":
		e.PreventDefault()
		c.clickReplica(reps, i)
	}
}

// dgMenuItem is one entry of a broker's menu.
type dgMenuItem struct {
	ID       string // its DOM id (dgMenuItemID)
	Action   string
	Label    string
	Disabled bool
	Class    string
}

func (c *Diagram) menuBox() *dgBroker {
	for i := range c.lay.Brokers {
		if c.lay.Brokers[i].ID == c.menu {
			return &c.lay.Brokers[i]
		}
	}
	return nil
}

func (c *Diagram) menuTitle() string {
	if b := c.menuBox(); b != nil {
		return b.Title + " · " + b.State
	}
	return ""
}

// menuStyle places the menu over the card, in the network SVG's box (in
// percent, so it follows the SVG's scale). Over, not under: the panel may
// be short, and a menu below the cards would be cut off.
func (c *Diagram) menuStyle() string {
	b := c.menuBox()
	if b == nil || c.lay.W == 0 || c.lay.TopH == 0 {
		return "display:none"
	}
	top := "top:" + dgf((b.Y+4)/c.lay.TopH*100) + "%;"
	if b.X+b.W/2 > c.lay.W/2 {
		return top + "right:" + dgf((c.lay.W-b.X-b.W+6)/c.lay.W*100) + "%"
	}
	return top + "left:" + dgf((b.X+6)/c.lay.W*100) + "%"
}

func (c *Diagram) menuItems() []dgMenuItem {
	b := c.menuBox()
	if b == nil {
		return nil
	}
	// A simulator run's faults come from its seed: no clicks.
	sim := c.Player != nil && c.Player.Sim() != nil
	item := func(action string, enabled bool) dgMenuItem {
		enabled = enabled && !sim
		cls := "kd-menu-item"
		if action == "kill" || action == "power-loss" {
			cls += " kd-menu-danger"
		}
		return dgMenuItem{ID: dgMenuItemID(action), Action: action, Label: c.t("action." + action), Disabled: !enabled, Class: cls}
	}
	return []dgMenuItem{
		item("kill", b.Running),
		item("power-loss", b.Running),
		item("stop", b.Running),
		item("start", !b.Running),
		item("isolate", !b.Isolated),
		item("heal", b.CutAny),
	}
}

// act runs a menu entry on the open broker; the focus goes back to its
// card.
func (c *Diagram) act(action string) {
	id := c.menu
	c.closeMenu()
	if c.Player == nil || id == 0 {
		return
	}
	_ = c.Player.BrokerAction(id, action) // a vanished broker: nothing to do
}

func (c *Diagram) moreText() string {
	if c.lay.More <= 0 {
		return ""
	}
	return fmt.Sprintf(c.t("partitions.more"), c.lay.More)
}

// keyTopic folds a topic from the keyboard.
func (c *Diagram) keyTopic(e vugu.DOMEvent, name string) {
	switch e.PropString("key") {
	case "Enter", " ":
		e.PreventDefault()
		c.toggleTopic(name)
	}
}

// langAttr is the lang attribute, so the browser picks Korean glyphs.
func (c *Diagram) langAttr() string {
	if c.Player != nil && c.Player.Lang == i18n.Korean { // Korean glyphs
		return "ko"
	}
	return "en"
}

func dgMetaClass(lag bool) string {
	if lag {
		return "kd-meta kd-meta-lag"
	}
	return "kd-meta"
}
