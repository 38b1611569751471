package ui

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/view"
)

// ZooKeeper is the ZooKeeper tab of a ZooKeeper-era cluster (--version
// 2.8), in place of the KRaft quorum and metadata log: the ensemble's
// servers and their roles, the znode tree as the serving server holds it
// (folding, each node's data version, the broker owning an ephemeral
// node, the watches waiting on it), the selected znode's data and stat as
// zookeeper-shell's get -s prints them, and the watches that fired
// lately. It draws from the player's snapshot only.
type ZooKeeper struct {
	App *App

	// Selected is the znode whose data and stat show ("" none).
	Selected string
	// folded holds the viewer's choices by path (true folded); a path not
	// in it folds by default (kzFoldedByDefault).
	folded map[string]bool

	z       *view.ZooKeeper // read once per build
	servers []kzServer
	rows    []kzRow
	sel     *view.Znode
	fired   []kzFired
}

type kzServer struct {
	Name, Role, Zxid string
	Class, Tip       string
}

// kzRow is one znode of the tree as drawn.
type kzRow struct {
	Path    string
	Name    string
	Indent  string // style
	Fold    string // ▸, ▾ or "" for a leaf
	Version string // v3
	Owner   string // ephemeral's owner ("" persistent)
	Watch   string // how many watches wait on it ("" none)
	WatchT  string // who waits, for what (the watch's title)
	Class   string
	Tip     string // the path and versions (the name's title)
	Sel     string // aria-selected: "true" for the selected znode
}

type kzFired struct {
	At, Type, Path, To string
}

// kzManyChildren: a znode with more children than this starts folded
// (__consumer_offsets' 50 partitions), as does ZooKeeper's own /zookeeper.
const kzManyChildren = 12

func (c *ZooKeeper) t(key string) string { return c.App.T(key) }

// BeforeBuild lays out the panel once per render.
func (c *ZooKeeper) BeforeBuild() {
	c.z, c.servers, c.rows, c.sel, c.fired = nil, c.servers[:0], c.rows[:0], nil, c.fired[:0]
	snap := c.App.Player.Snapshot()
	if snap == nil || snap.ZooKeeper == nil {
		return
	}
	z := snap.ZooKeeper
	c.z = z
	for _, s := range z.Servers {
		c.servers = append(c.servers, c.server(s, z))
	}
	watches := map[string][]view.ZkWatch{}
	for _, w := range z.Watches {
		watches[w.Path] = append(watches[w.Path], w)
	}
	if c.Selected == "" {
		c.Selected = "/controller"
	}
	hideBelow := -1 // depth under a folded node
	for i := range z.Znodes {
		n := &z.Znodes[i]
		if n.Path == c.Selected {
			c.sel = n
		}
		if hideBelow >= 0 && n.Depth > hideBelow {
			continue
		}
		hideBelow = -1
		row := c.row(n, z, watches[n.Path])
		if n.Stat.NumChildren > 0 && c.isFolded(n) {
			hideBelow = n.Depth
		}
		c.rows = append(c.rows, row)
	}
	for i := len(z.Fired) - 1; i >= 0; i-- {
		f := z.Fired[i]
		path := f.Path
		if path == "" {
			path = "—"
		}
		c.fired = append(c.fired, kzFired{At: fmtVirtualTime(f.At), Type: f.Type, Path: path, To: f.Host})
	}
}

func (c *ZooKeeper) server(s view.ZkServer, z *view.ZooKeeper) kzServer {
	v := kzServer{Name: s.Host, Zxid: "0x" + strconv.FormatInt(s.LastZxid, 16), Class: "kz-server"}
	switch {
	case s.State != "running":
		v.Role = c.t("state." + s.State)
		v.Class += " kz-down"
	case s.Role == "standalone":
		v.Role = c.t("zk.standalone")
	default:
		v.Role = s.Role
	}
	if s.Role == "LEADING" || s.Role == "standalone" {
		v.Class += " kz-leading"
	}
	if s.State == "running" && !s.Serving {
		v.Class += " kz-looking"
	}
	if s.ID == z.Source {
		v.Class += " kz-source"
	}
	v.Tip = fmt.Sprintf(c.t("zk.server.tip"), s.Host, v.Role, v.Zxid, s.Sessions)
	return v
}

// kzFoldedByDefault: /zookeeper (the server's own) and crowded nodes.
func kzFoldedByDefault(n *view.Znode) bool {
	return n.Path == "/zookeeper" || n.Stat.NumChildren > kzManyChildren
}

func (c *ZooKeeper) isFolded(n *view.Znode) bool {
	if f, ok := c.folded[n.Path]; ok {
		return f
	}
	return kzFoldedByDefault(n)
}

func (c *ZooKeeper) row(n *view.Znode, z *view.ZooKeeper, ws []view.ZkWatch) kzRow {
	r := kzRow{Path: n.Path, Name: n.Name, Indent: "padding-left:" + strconv.FormatFloat(0.9*float64(n.Depth), 'f', 2, 64) + "rem",
		Version: "v" + strconv.Itoa(int(n.Stat.Version)), Class: "kz-node"}
	if n.Stat.NumChildren > 0 {
		r.Fold = "▾"
		if c.isFolded(n) {
			r.Fold = "▸"
		}
	}
	if n.Ephemeral() {
		r.Class += " kz-ephemeral"
		r.Owner = c.owner(n)
	}
	if n.Stat.Mzxid == z.LastZxid || n.Stat.Pzxid == z.LastZxid && n.Stat.NumChildren > 0 {
		r.Class += " kz-fresh" // the last transaction changed it
	}
	r.Sel = "false"
	if n.Path == c.Selected {
		r.Class += " kz-selected"
		r.Sel = "true"
	}
	if len(ws) > 0 {
		r.Watch = "◉" + strconv.Itoa(len(ws))
		r.WatchT = c.watchText(ws)
	}
	// ZooKeeper's own names only: the name is drawn lang="en".
	r.Tip = n.Path + " · dataVersion " + strconv.Itoa(int(n.Stat.Version)) + " · cversion " + strconv.Itoa(int(n.Stat.Cversion))
	return r
}

// owner names an ephemeral node's session: its broker, or the session id.
func (c *ZooKeeper) owner(n *view.Znode) string {
	if n.OwnerBroker >= 0 {
		return "kafka-" + strconv.Itoa(int(n.OwnerBroker))
	}
	return "0x" + strconv.FormatUint(uint64(n.Stat.EphemeralOwner), 16)
}

// watchText lists who waits on a znode, and for what.
func (c *ZooKeeper) watchText(ws []view.ZkWatch) string {
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		who := w.Host
		if who == "" {
			who = "?"
		}
		kind := c.t("zk.watch.data")
		if w.Child {
			kind = c.t("zk.watch.child")
		}
		parts = append(parts, who+" ("+kind+")")
	}
	return c.t("zk.watched") + " " + strings.Join(parts, ", ")
}

// Toggle folds or unfolds a znode's children.
func (c *ZooKeeper) Toggle(path string) {
	if c.folded == nil {
		c.folded = map[string]bool{}
	}
	if c.z != nil {
		for i := range c.z.Znodes {
			if n := &c.z.Znodes[i]; n.Path == path {
				c.folded[path] = !c.isFolded(n)
				return
			}
		}
	}
	c.folded[path] = !c.folded[path]
}

// Select shows a znode's data and stat.
func (c *ZooKeeper) Select(path string) { c.Selected = path }

// Click selects a znode; a click on the selected one folds or unfolds it.
func (c *ZooKeeper) Click(path string) {
	if c.Selected == path {
		c.Toggle(path)
		return
	}
	c.Select(path)
}

// status is the head's line: who the controller is, by /controller.
func (c *ZooKeeper) status() string {
	if c.z == nil {
		return ""
	}
	if c.z.ControllerID < 0 {
		return c.t("zk.nocontroller")
	}
	return fmt.Sprintf(c.t("zk.controller"), c.z.ControllerID, c.z.ControllerEpoch)
}

func (c *ZooKeeper) statusClass() string {
	if c.z == nil || c.z.ControllerID < 0 || c.z.Source == 0 {
		return "kq-status kq-bad"
	}
	return "kq-status kq-ok"
}

// noServing reports whether no server takes clients: the brokers' sessions
// wait and nothing can change.
func (c *ZooKeeper) noServing() bool { return c.z != nil && !zkServing(c.z) }

// zkServing reports whether a server of the ensemble takes clients.
func zkServing(z *view.ZooKeeper) bool {
	for _, s := range z.Servers {
		if s.Serving {
			return true
		}
	}
	return false
}

// data is the selected znode's data as zookeeper-shell's get prints it.
func (c *ZooKeeper) data() string {
	n := c.sel
	switch {
	case n == nil:
		return ""
	case n.Null:
		return "null"
	case n.DataCut:
		return n.Data + "…"
	}
	return n.Data
}

// stat lists the selected znode's stat in zookeeper-shell's names.
func (c *ZooKeeper) stat() [][2]string {
	n := c.sel
	if n == nil {
		return nil
	}
	hex := func(v int64) string { return "0x" + strconv.FormatUint(uint64(v), 16) }
	s := n.Stat
	owner := hex(s.EphemeralOwner)
	if n.Ephemeral() {
		owner += " (" + c.owner(n) + ")"
	}
	return [][2]string{
		{"cZxid", hex(s.Czxid)}, {"mZxid", hex(s.Mzxid)}, {"pZxid", hex(s.Pzxid)},
		{"cversion", strconv.Itoa(int(s.Cversion))}, {"dataVersion", strconv.Itoa(int(s.Version))},
		{"aclVersion", strconv.Itoa(int(s.Aversion))}, {"ephemeralOwner", owner},
		{"dataLength", strconv.Itoa(int(s.DataLength))}, {"numChildren", strconv.Itoa(int(s.NumChildren))},
	}
}

// selWatches is who waits on the selected znode.
func (c *ZooKeeper) selWatches() string {
	if c.sel == nil || c.z == nil {
		return ""
	}
	var ws []view.ZkWatch
	for _, w := range c.z.Watches {
		if w.Path == c.sel.Path {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return c.t("zk.nowatch")
	}
	return c.watchText(ws)
}

// sub names the server the tree is read from and its last zxid.
func (c *ZooKeeper) sub() string {
	if c.z == nil || c.z.Source == 0 {
		return c.t("zk.notree")
	}
	return fmt.Sprintf(c.t("zk.sub"), c.z.Servers[c.z.Source-1].Host, "0x"+strconv.FormatInt(c.z.LastZxid, 16), len(c.z.Znodes))
}
