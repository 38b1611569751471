package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"kafkascope/core/metadata"
	"kafkascope/core/view"
)

// The diagram's geometry, in SVG user units. Both SVGs (the network on top,
// the partitions below) share one width and one column grid, so a broker's
// card and its replicas stay in the same lane at any zoom.
const (
	dgPadX      = 12.0  // left and right margin
	dgLeftW     = 136.0 // the first column: clients on top, partition names below
	dgColGap    = 14.0  // between two broker lanes
	dgColMinW   = 120.0 // a lane never gets narrower (9 brokers: 120 each)
	dgColMaxW   = 300.0 // nor wider (1 to 2 brokers)
	dgLanesW    = 820.0 // 3 brokers fit a ~900 px panel at ~90%
	dgCardH     = 84.0
	dgBandMin   = 50.0 // height above the cards for the links, at least
	dgStripX    = 32.0 // where a strip starts inside its lane
	dgStripPadR = 8.0

	dgRowFull      = 58.0 // a partition row with captions
	dgRowCompact   = 30.0 // a partition row when there are many
	dgTopicRowH    = 28.0
	dgCompactAbove = 12 // more visible partitions than this: compact rows
	dgFitRows      = 16 // partition rows that fit before the panel scrolls
	// dgDrawAllUpTo: with more partition rows than this, and the panel's
	// view known (dgOptions.View), only the rows in view (and a view's
	// height around it) are drawn; the others keep their place (the
	// drawing is as tall) and their topic's row says what they add up to.
	dgDrawAllUpTo = 120

	dgMaxClientLines = 3
	dgAllLinksUpTo   = 5  // brokers; above, idle replication links are not drawn
	dgMaxLabelRunes  = 18 // topic names and client hosts are cut short beyond this
)

// A panel narrower than the default layout (dgOptions.Width, in CSS px):
// the lanes shrink so the diagram fits it at about dgFitScale, down to
// dgColNarrowW a lane. Below dgTouchBelow (a phone, an embed in a narrow
// column) the first column narrows too, labels get shorter, and every row
// a tap acts on is at least dgTouchPx tall as drawn: partition rows are
// never compact there, and topic rows grow.
const (
	dgFitBelow    = 980.0
	dgFitScale    = 0.9
	dgColNarrowW  = 110.0
	dgLeftNarrowW = 112.0
	dgTouchBelow  = 600.0
	dgTouchPx     = 48.0
	dgNarrowRunes = 12   // partition names and client hosts in the narrow first column
	dgScaleMin    = 0.62 // the SVG never draws smaller (Diagram.svgStyle)
	dgScaleMax    = 1.35 // nor larger
)

// Message categories (view.Message.Category).
const (
	dgCatMetadata  = "metadata"
	dgCatHeartbeat = "heartbeat"
	dgCatQuorum    = "quorum"
	dgCatZooKeeper = "zookeeper"
)

// dgEpochPalette is how many leader-epoch colours the palette cycles through
// (diagram.css defines --kd-e0 … --kd-e7).
const dgEpochPalette = 8

// Class strings are built once: the diagram re-renders every animation
// frame and must not format the same constant strings again.
var (
	dgCellClass   [dgEpochPalette][2][dgTxnKinds]string // [epoch%8][committed][transactional kind]
	dgSwatchClass [dgEpochPalette]string
	dgSmallInts   = func() (a [1000]string) {
		for i := range a {
			a[i] = strconv.Itoa(i)
		}
		return a
	}()
)

func init() {
	for e := range dgEpochPalette {
		for k := range dgTxnKinds {
			dgCellClass[e][0][k] = "kd-cell kd-unc kd-e" + strconv.Itoa(e) + dgTxnClass[k]
			dgCellClass[e][1][k] = "kd-cell kd-e" + strconv.Itoa(e) + dgTxnClass[k]
		}
		dgSwatchClass[e] = "kd-swatch kd-e" + strconv.Itoa(e)
	}
}

// dgItoa formats small non-negative numbers without allocating.
func dgItoa(n int64) string {
	if n >= 0 && n < int64(len(dgSmallInts)) {
		return dgSmallInts[n]
	}
	return strconv.FormatInt(n, 10)
}

// dgf formats a coordinate with at most one decimal.
func dgf(x float64) string {
	r := math.Round(x*10) / 10
	if r == math.Trunc(r) && math.Abs(r) < float64(len(dgSmallInts)) && r >= 0 {
		return dgSmallInts[int(r)]
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

func dgTranslate(x, y float64) string { return "translate(" + dgf(x) + "," + dgf(y) + ")" }

// dgTranslator gives UI text in the current language (player.Player.T).
type dgTranslator func(key string) string

// dgOptions are the viewer's choices that change what is drawn.
type dgOptions struct {
	ShowHeartbeats bool
	ShowMetadata   bool
	// Width is the panel's width in CSS px (0: unknown, the default layout).
	Width        float64
	Collapsed    map[string]bool   // topic name → folded (internal topics: folded unless false)
	ClientFolded map[string]bool   // client card key → folded
	Changed      func(string) bool // what the last scenario step changed
	// View is the part of the partitions' drawing the page shows (dgView).
	View dgView
	// Detail reads a partition whole (view.PartitionDetail): Take reads
	// a large topic's partitions Light, and the rows drawn need their
	// replicas. nil: Light partitions are drawn without replicas.
	Detail func(topic string, index int32) (view.Partition, bool)
}

// dgView is the part of the partitions' drawing (the .kd-parts SVG) on
// the screen, in CSS px from its top, as the page last measured it.
type dgView struct {
	Known       bool
	Top, Bottom float64
}

// dgLayout is everything the diagram draws, placed. It is computed from a
// snapshot in one pass and kept between frames (its slices are reused).
type dgLayout struct {
	W, TopH, PartsH float64
	SepX2           string
	NodeCount       int
	Summary         string
	Frozen          bool // no active controller, or no quorum: metadata is frozen
	FrozenText      string
	Empty           bool // no topics
	More            int  // partition rows beyond what fits (the panel scrolls)
	Partitions      int
	Drawn           int // partition rows drawn (fewer than the visible ones when many)

	Brokers []dgBroker
	// Racks are the bands behind each rack's broker cards (none without
	// broker.rack).
	Racks    []dgRack
	Clients  dgClients
	Ensemble dgEnsemble   // a ZooKeeper-era cluster's ensemble (diagram_zookeeper.go)
	Prods    []dgProducer // producers' cards (diagram_clients.go)
	Groups   []dgGroup    // consumer groups' cards (diagram_groups.go)
	Links    []dgLink
	Msgs     []dgMsg
	Lanes    []dgLane
	Rows     []dgRow
	Epochs   []dgSwatch // the leader epochs on screen, for the legend
	// TxnLegend explains what of transactions the strips draw (markers,
	// aborted and open records, the LSO); empty without any.
	TxnLegend []dgLegendItem

	G dgGeometry // row geometry shared by every row of this frame

	cellX     []string // x of each of the MaxCells slots in a strip
	buf       []byte   // scratch for path data
	strikeBuf []byte   // scratch for an aborted run's strike-through
	leftW     float64  // the first column's width
	touch     bool     // a narrow panel: labels shorten, rows are tall enough for a finger
	scale     float64  // CSS px per SVG unit the panel will draw at (1 when unknown)
	cellW     float64
	cellWs    string
	cellText  bool
	stripW    float64
	colW      float64
	bandH     float64
	cardsY    float64
	laneOf    map[int32]int
	clientsH  float64 // the clients' box's height
	epochSeen [dgEpochPalette]bool
	txnSeen   dgTxnSeen
	fx        dgEffects // what changed since the last frame (diagram_effects.go)
	labels    dgLabels  // the network SVG's labels, kept apart (diagram_labels.go)
}

// dgGeometry is the vertical layout of a partition row (full or compact),
// as attribute strings shared by all rows. HitW and HitH are a replica's
// lane cell (what a click or a tap on it opens), TopicBgH a topic row's
// band.
type dgGeometry struct {
	PadX, StripX            string
	StripY, StripH          string
	ChipTY, OffY            string
	HWY1, HWY2, HWTY        string
	CapY                    string
	NameY, SubY, ISRY, SepY string
	TopicTY, FoldX, NameX   string
	TopicBgH                string
	HitW, HitH              string
}

var (
	dgGeomFull = dgGeometry{
		PadX: dgf(dgPadX), StripX: dgf(dgStripX),
		StripY: "16", StripH: "18", ChipTY: "29", OffY: "28.5",
		HWY1: "10", HWY2: "40", HWTY: "9",
		CapY:  "53",
		NameY: "20", SubY: "36", ISRY: "51", SepY: dgf(dgRowFull),
		TopicTY: "19", FoldX: "22", NameX: "36", TopicBgH: "23",
	}
	dgGeomCompact = dgGeometry{
		PadX: dgf(dgPadX), StripX: dgf(dgStripX),
		StripY: "7", StripH: "16", ChipTY: "19", OffY: "19",
		HWY1: "3", HWY2: "27", HWTY: "0",
		CapY:  "0",
		NameY: "19.5", SubY: "19.5", ISRY: "0", SepY: dgf(dgRowCompact),
		TopicTY: "19", FoldX: "22", NameX: "36", TopicBgH: "23",
	}
)

// dgBroker is one broker's card.
type dgBroker struct {
	ID                 int32
	T                  string // transform
	X, Y, W            float64
	Ws, GlowWs         string
	Hs, GlowHs         string
	Class              string
	Title, Host, Right string
	State, StateClass  string
	StateX, StateW     string
	StateTX, RightX    string
	StateY, StateTY    string
	Ctl                bool
	CtlText, CtlW      string
	CtlTX, Leads       string
	MetaTrackW         string
	CtlInfo, CtlInfoX  string
	Meta               string
	MetaBarW           string
	MetaLag            bool
	Changed            bool
	// Coord names the groups this broker coordinates (a badge on the
	// card's top edge; "" none).
	Coord, CoordW     string
	CoordX, CoordTX   string
	Running, Isolated bool
	CutAny            bool
	Tip               string
}

// dgClients is the clients' box at the left of the brokers.
type dgClients struct {
	T, Ws, Hs string
	Title     string
	Lines     []string
	Active    bool
}

// dgLink is a line between two nodes (or the clients and a node).
type dgLink struct {
	D        string // SVG path
	Class    string
	Cut      string // "" or what to write on a cut link
	CutX     string
	CutY     string
	a, b     int // lane indices; -1 is the clients
	p        [4][2]float64
	cutAB    bool
	cutBA    bool
	traffic  bool
	selfLoop bool
}

// dgMsg is one message on the wire: a dot on its link and a label above
// (moved when another label is there, or left out without room: dgLabels;
// Label is then "").
type dgMsg struct {
	T            string
	Class        string
	Label        string
	PillX, PillY string
	PillW        string
	TextX, TextY string
	Title        string
}

// A message's label: its pill's top and height, and its text's baseline,
// relative to the dot.
const (
	dgPillTop  = -23.0
	dgPillH    = 15.0
	dgPillText = -12.5
)

// dgMsgEnds is how much of each end of a link a message dot never reaches
// (the ends touch the cards; a label there would cover them).
const dgMsgEnds = 0.12

func dgMsgClass(category string) string {
	switch category {
	case "data":
		return "kd-msg kd-cat-data"
	case dgCatHeartbeat:
		return "kd-msg kd-cat-heartbeat"
	case dgCatMetadata:
		return "kd-msg kd-cat-metadata"
	case dgCatQuorum, dgCatZooKeeper: // coordination: the KRaft quorum's colour
		return "kd-msg kd-cat-quorum"
	}
	return "kd-msg kd-cat-admin"
}

// dgLane is one broker's column behind the partition rows.
type dgLane struct {
	X, W, H string
	Class   string
}

// dgRow is a topic header or a partition.
type dgRow struct {
	dgRowLine
	Replicas []dgReplica
}

// dgRowLine is all of a row but its replicas: comparable with ==, so that
// dgSameRow sees every field, including any added later.
type dgRowLine struct {
	T       string
	Topic   bool // a topic header row
	Compact bool
	Name    string
	Sub     string // topic: "3 partitions"; partition: leader and epoch
	ISR     string
	Class   string
	BgW     string
	BgH     string
	SubX    string
	Fold    string // topic rows: ▾ or ▸
	Key     string // topic name, for folding
	// Partition ("t-0") and TopicName ("t", header rows) name the row for
	// tests and tools (data-partition, data-topic); empty otherwise.
	Partition string
	TopicName string
	// Alert is a warning line under the name (no serving leader for N s, or
	// lost committed records); AlertTip explains it.
	Alert    string
	AlertTip string
	// Tip is a partition row's tooltip: its lines in their longest forms
	// (a narrow first column shortens them).
	Tip string
}

// rowKey names a row among the rows drawn (ui/patch matches rows by it:
// rows scrolling into view are added, those leaving removed, the others
// left alone).
func (r *dgRow) rowKey() string {
	if r.Topic {
		return "t/" + r.Key
	}
	return "p/" + r.Partition
}

// dgReplica is one replica's log strip inside its broker's lane.
type dgReplica struct {
	dgReplicaLine
	Runs  []dgRun
	Cells []dgCell // offsets written in the cells; empty when too narrow
	// Lost marks the offsets of committed records this partition lost.
	Lost []dgMark
}

// dgReplicaLine is all of a replica's strip but its slices: comparable
// with ==, as dgRowLine.
type dgReplicaLine struct {
	Broker     int32
	Topic      string // the partition (a click opens its disk panel)
	Part       int32
	Role       string // leader, follower, offline
	T          string
	Class      string
	Chip       string
	ChipClass  string
	StripW     string
	HW         bool
	HWX        string
	HWTextX    string
	LEO        bool
	LEOPath    string
	CaptionL   string
	CaptionR   string
	CaptionLX  string
	CaptionRX  string
	CaptionCls string
	Tip        string
	// LSO: the replica's last stable offset is below its HW, and drawn
	// at LSOX (diagram_txn.go).
	LSO      bool
	LSOX     string
	LSOTextX string
	LSOTip   string
}

// dgRun is adjacent cells of one leader epoch, committed or not, of one
// transactional kind (diagram_txn.go): one path. Op is its opacity ("1",
// or less for the cells of a fading truncation); Tip its tooltip, when
// its kind needs one ("" draws none).
type dgRun struct {
	Class string
	D     string
	Op    string
	Tip   string
}

// dgCell is one offset written in its cell (when cells are wide enough).
type dgCell struct {
	TX     string
	Text   string
	TClass string
}

// dgSwatch is one leader epoch's colour in the legend.
type dgSwatch struct {
	Class string
	Label string
}

func dgLaneWidth(n int) float64 {
	if n < 1 {
		n = 1
	}
	return min(max(math.Floor(dgLanesW/float64(n)), dgColMinW), dgColMaxW)
}

// laneX is where lane i starts.
func (l *dgLayout) laneX(i int) float64 { return dgPadX + l.leftW + float64(i)*l.colW }

// cardX is the left edge of the card (or clients box) of lane i (-1: clients).
func (l *dgLayout) cardX(i int) float64 {
	if i < 0 {
		return dgPadX
	}
	return l.laneX(i) + dgColGap/2
}

func (l *dgLayout) cardW(i int) float64 {
	if i < 0 {
		return l.leftW - dgColGap
	}
	return l.colW - dgColGap
}

// Compute lays out snapshot s. t translates UI text. Nothing in s is
// changed; l's slices are reused.
func (l *dgLayout) Compute(s *view.Snapshot, t dgTranslator, o dgOptions) {
	changed := o.Changed
	if changed == nil {
		changed = func(string) bool { return false }
	}
	n := len(s.Nodes)
	l.NodeCount = n
	l.size(n, o.Width)
	l.SepX2 = dgf(l.W - dgPadX)
	l.Frozen = s.Controller.NodeID < 0 || s.Quorum.Frozen()
	zkDown := s.ZooKeeper != nil && !zkServing(s.ZooKeeper)
	l.Frozen = l.Frozen || zkDown
	switch {
	case zkDown:
		l.FrozenText = t("zk.frozen")
	case s.Quorum.Status == view.QuorumLost:
		l.FrozenText = t("quorum.lost.short")
	case s.Quorum.Status == view.QuorumElecting:
		l.FrozenText = t("quorum.electing.short")
	default:
		l.FrozenText = t("controller.down")
	}
	l.Empty = len(s.Topics) == 0
	l.epochSeen = [dgEpochPalette]bool{}
	l.txnSeen = dgTxnSeen{}
	if l.laneOf == nil {
		l.laneOf = map[int32]int{}
	}
	clear(l.laneOf)
	for i, nd := range s.Nodes {
		l.laneOf[nd.ID] = i
	}

	// Strip geometry, shared by every replica.
	l.stripW = l.colW - dgColGap - dgStripX - dgStripPadR
	l.cellW = l.stripW / view.MaxCells
	l.cellWs = dgf(l.cellW - dgCellGap(l.cellW))
	if cap(l.cellX) < view.MaxCells {
		l.cellX = make([]string, view.MaxCells)
	}
	l.cellX = l.cellX[:view.MaxCells]
	for i := range l.cellX {
		l.cellX[i] = dgf(dgStripX + float64(i)*l.cellW)
	}

	l.fx.observe(s)
	l.summary(s, t, o.Width)
	l.ensemble(s, t)
	l.links(s, o)
	l.cards(s, t, changed)
	l.clients(s, t)
	l.producers(s, t, o)
	l.groups(s, t, o)
	l.coordinators(s, t)
	l.blockDrawn()
	l.messages(s, t, o)
	l.partitions(s, t, o, changed)
	l.legendEpochs(t)
	l.legendTxns(t)
}

// size picks the column widths for n lanes in a panel width px wide (0:
// unknown), and the scale the panel will draw the diagram at.
func (l *dgLayout) size(n int, width float64) {
	l.leftW, l.colW, l.touch, l.scale = dgLeftW, dgLaneWidth(n), false, 1
	if width > 0 && width < dgFitBelow {
		if width < dgTouchBelow {
			l.leftW, l.touch = dgLeftNarrowW, true
		}
		fit := math.Floor((width/dgFitScale - 2*dgPadX - l.leftW) / float64(max(n, 1)))
		l.colW = min(l.colW, max(fit, dgColNarrowW))
	}
	l.W = dgPadX*2 + l.leftW + float64(n)*l.colW
	if width > 0 {
		l.scale = min(max(width/l.W, dgScaleMin), dgScaleMax)
	}
}

// touchUnits is dgTouchPx in SVG units at the scale drawn (0 outside touch
// sizing).
func (l *dgLayout) touchUnits() float64 {
	if !l.touch {
		return 0
	}
	return dgTouchPx / l.scale
}

func dgCellGap(w float64) float64 {
	if w >= 8 {
		return 1.5
	}
	return 0.75
}

// dgBarRoom is what the diagram's title bar needs besides its summary (the
// title and the two message toggles), in CSS px; dgSummaryPx is the
// summary's font size (.kd-summary), and dgSansFactor how much narrower
// than dgTextWidth's monospace-ish estimate a sans-serif line is drawn
// (the English summary: 460 px drawn, 555 estimated).
const (
	dgBarRoom    = 360.0
	dgSummaryPx  = 13.6
	dgSansFactor = 0.85
)

// summary is the line beside the diagram's title; a panel too narrow for
// it whole gets the short form (the bar never cuts it).
func (l *dgLayout) summary(s *view.Snapshot, t dgTranslator, width float64) {
	// The release leads: the same commands mean other things on another
	// Kafka (cluster create --version).
	brokers := fmt.Sprintf(t("diagram.brokers"), s.Version, len(s.Nodes))
	if len(s.Nodes) == 1 {
		brokers = fmt.Sprintf(t("diagram.broker1"), s.Version)
	}
	if s.Controller.NodeID < 0 {
		l.Summary = brokers
		return
	}
	c := s.Controller
	if s.ZooKeeper != nil {
		l.Summary = brokers + " · " + fmt.Sprintf(t("zk.controller.summary"), c.NodeID, c.Epoch)
		return
	}
	l.Summary = brokers + " · " + fmt.Sprintf(t("controller.summary"), c.NodeID, c.Epoch, c.HighWatermark)
	if width > 0 && dgTextWidth(l.Summary, dgSummaryPx)*dgSansFactor+dgBarRoom > width {
		l.Summary = brokers + " · " + fmt.Sprintf(t("summary.short"), c.NodeID, c.Epoch, c.HighWatermark)
	}
}

// links decides which lines to draw and their curves: one arc above the
// cards for every running node and the controller's node, every pair of
// running brokers that share a partition (up to dgAllLinksUpTo brokers;
// beyond, the arcs would be a tangle), every cut, and every pair with a
// message on it.
func (l *dgLayout) links(s *view.Snapshot, o dgOptions) {
	l.Links = l.Links[:0]
	n := len(s.Nodes)
	running := func(i int) bool { return i >= 0 && i < n && s.Nodes[i].State == "running" }
	isolated := func(i int) bool { return i >= 0 && i < n && s.Nodes[i].Isolated }
	find := func(a, b int) int {
		if a > b {
			a, b = b, a
		}
		for k := range l.Links {
			if l.Links[k].a == a && l.Links[k].b == b {
				return k
			}
		}
		l.Links = append(l.Links, dgLink{a: a, b: b})
		return len(l.Links) - 1
	}
	// Links the cluster uses all the time, between running nodes.
	ctl, hasCtl := l.laneOf[s.Controller.NodeID]
	for i := range n {
		if hasCtl && i != ctl && running(i) && running(ctl) && !isolated(i) && !isolated(ctl) {
			find(i, ctl)
		}
	}
	for _, tp := range s.Topics {
		if n > dgAllLinksUpTo {
			break // many brokers: replication links show only while in use
		}
		for _, p := range tp.Partitions {
			for x := 0; x < len(p.Assignment); x++ {
				for y := x + 1; y < len(p.Assignment); y++ {
					a, okA := l.laneOf[p.Assignment[x]]
					b, okB := l.laneOf[p.Assignment[y]]
					if okA && okB && running(a) && running(b) && !isolated(a) && !isolated(b) {
						find(a, b)
					}
				}
			}
		}
	}
	// Cuts (an isolated node's card says so; its cuts are not drawn one by one).
	for _, c := range s.Cuts {
		a, okA := l.laneOf[c[0]]
		b, okB := l.laneOf[c[1]]
		if !okA || !okB || isolated(a) || isolated(b) {
			continue
		}
		k := find(a, b)
		if a <= b {
			l.Links[k].cutAB = true
		} else {
			l.Links[k].cutBA = true
		}
	}
	// Messages in flight.
	for _, m := range s.InFlight {
		if !o.visible(m.Category) {
			continue
		}
		if a, b, ok := l.msgLanes(&m); ok {
			l.Links[find(a, b)].traffic = true
		}
	}
	// The band above the cards holds the tallest arc there could be (from
	// the clients to the last broker), so the cards never move when a
	// message appears.
	l.bandH = max(dgBandMin, dgArcPeak(n)+22) + zkBand(s)
	l.clientsH = dgClientsH(len(s.Clients))
	l.cardsY = l.bandH + 8
	l.TopH = l.cardsY + dgCardH + 12
	for _, nd := range s.Nodes {
		if nd.Rack != "" {
			l.TopH += dgRackLabelH // each rack's name goes under its cards
			break
		}
	}
	for k := range l.Links {
		lk := &l.Links[k]
		lk.p = l.curve(lk.a, lk.b)
		lk.selfLoop = lk.a == lk.b
		lk.D = dgPathD(lk.p)
		switch {
		case lk.cutAB || lk.cutBA:
			lk.Class = "kd-link kd-link-cut"
			mid := dgBezier(lk.p, 0.5)
			lk.CutX, lk.CutY = dgf(mid[0]), dgf(mid[1]-6)
			switch {
			case lk.cutAB && lk.cutBA:
				lk.Cut = "✕"
			case lk.cutAB:
				lk.Cut = "✕ " + l.laneName(s, lk.a) + "→" + l.laneName(s, lk.b)
			default:
				lk.Cut = "✕ " + l.laneName(s, lk.b) + "→" + l.laneName(s, lk.a)
			}
		case lk.traffic:
			lk.Class = "kd-link kd-link-busy"
		default:
			lk.Class = "kd-link"
		}
	}
}

func (l *dgLayout) laneName(s *view.Snapshot, i int) string {
	if i < 0 || i >= len(s.Nodes) {
		return "?"
	}
	return strconv.Itoa(int(s.Nodes[i].ID))
}

// endpoint is the lane of a message's node (-1: a client).
func (l *dgLayout) endpoint(id int32) (int, bool) {
	if id == 0 {
		return -1, true
	}
	i, ok := l.laneOf[id]
	return i, ok
}

func (o dgOptions) visible(cat string) bool {
	switch cat {
	case dgCatHeartbeat:
		return o.ShowHeartbeats
	case dgCatMetadata:
		return o.ShowMetadata
	}
	return true
}

func dgArcPeak(span int) float64 { return 10 + 10*float64(span) }

// anchor is where the link from lane a towards lane b leaves a's card:
// spread along the top edge so arcs do not all meet at one point.
func (l *dgLayout) anchor(a, b int) float64 {
	cx := l.cardX(a) + l.cardW(a)/2
	half := l.cardW(a)/2 - 16
	step := min(16.0, half/4)
	return cx + min(max(float64(b-a)*step, -half), half)
}

// curve is the cubic Bézier of the link between lanes a <= b.
func (l *dgLayout) curve(a, b int) [4][2]float64 {
	if a <= dgLaneZK {
		return l.zkCurve(a, b)
	}
	y := l.cardsY
	if a == b { // a node talking to itself (a broker and its own controller)
		cx := l.cardX(a) + l.cardW(a)/2
		return [4][2]float64{{cx - 8, y}, {cx - 26, y - 40}, {cx + 26, y - 40}, {cx + 8, y}}
	}
	x0, x1 := l.anchor(a, b), l.anchor(b, a)
	h := 2 * dgArcPeak(b-a) // a quadratic's peak is half its control height
	q := [2]float64{(x0 + x1) / 2, y - h}
	p0, p3 := [2]float64{x0, y}, [2]float64{x1, y}
	return [4][2]float64{p0,
		{p0[0] + 2.0/3*(q[0]-p0[0]), p0[1] + 2.0/3*(q[1]-p0[1])},
		{p3[0] + 2.0/3*(q[0]-p3[0]), p3[1] + 2.0/3*(q[1]-p3[1])},
		p3}
}

func dgPathD(p [4][2]float64) string {
	var b strings.Builder
	b.Grow(64)
	b.WriteString("M")
	for i, pt := range p {
		if i == 1 {
			b.WriteString(" C")
		}
		b.WriteByte(' ')
		b.WriteString(dgf(pt[0]))
		b.WriteByte(' ')
		b.WriteString(dgf(pt[1]))
	}
	return b.String()
}

func dgBezier(p [4][2]float64, t float64) [2]float64 {
	u := 1 - t
	a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return [2]float64{
		a*p[0][0] + b*p[1][0] + c*p[2][0] + d*p[3][0],
		a*p[0][1] + b*p[1][1] + c*p[2][1] + d*p[3][1],
	}
}

// dgNodeState is the one word a card shows: the process first, then what the
// controller and the network say.
func dgNodeState(n view.Node) string {
	switch n.State {
	case "killed", "power-off", "stopped":
		return n.State
	}
	switch {
	case n.Isolated:
		return "isolated"
	case n.BrokerState == "PENDING_CONTROLLED_SHUTDOWN" || n.BrokerState == "SHUTTING_DOWN":
		return "stopping"
	case n.BrokerState != "" && n.BrokerState != "RUNNING":
		return "starting"
	case n.Fenced:
		return "fenced"
	}
	return "running"
}

func (l *dgLayout) cards(s *view.Snapshot, t dgTranslator, changed func(string) bool) {
	l.Brokers = l.Brokers[:0]
	for i, nd := range s.Nodes {
		st := dgNodeState(nd)
		x, w := l.cardX(i), l.cardW(i)
		b := dgBroker{
			ID: nd.ID, X: x, Y: l.cardsY, W: w,
			T: dgTranslate(x, l.cardsY), Ws: dgf(w), GlowWs: dgf(w + 8), GlowHs: dgf(dgCardH + 8), Hs: dgf(dgCardH),
			Class: "kd-card kd-st-" + st,
			Title: t("broker") + " " + strconv.Itoa(int(nd.ID)),
			Host:  nd.Host + ":9092",
			State: t("state." + st), StateClass: "kd-state kd-st-" + st,
			Changed: changed("broker/" + strconv.Itoa(int(nd.ID))),
			Running: nd.State == "running", Isolated: nd.Isolated,
		}
		sw := dgTextWidth(b.State, 10.5) + 16
		b.StateW, b.StateX, b.StateTX = dgf(sw), dgf(w-10-sw), dgf(w-10-sw/2)
		b.StateY, b.StateTY = "8", "20.5"
		if w < 200 { // narrow cards: the state goes under the title, instead of the host
			b.StateX, b.StateTX = "10", dgf(10+sw/2)
			b.StateY, b.StateTY = "25", "37.5"
			b.Host = ""
		}
		b.RightX = dgf(w - 12)
		b.MetaTrackW = dgf(w - 20)
		if nd.DelayMs > 0 {
			b.Right = fmt.Sprintf(t("delay"), nd.DelayMs)
		}
		if nd.State == "running" {
			b.Leads = fmt.Sprintf(t("leads"), nd.Leads)
		}
		if nd.IsController && s.Controller.NodeID == nd.ID {
			b.Ctl = true
			b.CtlText = t("controller")
			cw := dgTextWidth(b.CtlText, 10.5) + 16
			b.CtlW, b.CtlTX = dgf(cw), dgf(10+cw/2)
			info := fmt.Sprintf(t("controller.info"), s.Controller.Epoch, s.Controller.HighWatermark)
			if s.ZooKeeper != nil {
				info = fmt.Sprintf(t("zk.controller.info"), s.Controller.Epoch)
			}
			if 10+cw+8+dgTextWidth(info, 11) <= w-8 {
				b.CtlInfo, b.CtlInfoX = info, dgf(10+cw+8)
			}
		}
		for _, c := range s.Cuts {
			if c[0] == nd.ID || c[1] == nd.ID {
				b.CutAny = true
				break
			}
		}
		if s.ZooKeeper != nil {
			l.zkCardMeta(&b, nd, t)
		} else {
			l.cardMeta(&b, s, nd, t)
		}
		b.Tip = b.Title + " (" + nd.Host + "): " + b.State
		if nd.BrokerState != "" {
			b.Tip += " · " + nd.BrokerState
		}
		if nd.Fenced && st != "fenced" {
			b.Tip += " · " + t("state.fenced")
		}
		l.Brokers = append(l.Brokers, b)
	}
	l.racks(s, t)
}

// dgRackLabelH is the room under the cards for the racks' names.
const dgRackLabelH = 14

// dgRack is one rack's band: behind its brokers' cards (the snapshot puts
// a rack's nodes next to each other), its name under them.
type dgRack struct {
	T, Ws, Hs, LabelX, LabelY, Label, Tip string
}

// racks draws a band behind each run of cards of the same rack.
func (l *dgLayout) racks(s *view.Snapshot, t dgTranslator) {
	l.Racks = l.Racks[:0]
	for i := 0; i < len(s.Nodes); {
		j := i
		for j+1 < len(s.Nodes) && s.Nodes[j+1].Rack == s.Nodes[i].Rack {
			j++
		}
		if r := s.Nodes[i].Rack; r != "" {
			x0, x1 := l.cardX(i)-5, l.cardX(j)+l.cardW(j)+5
			l.Racks = append(l.Racks, dgRack{
				T: dgTranslate(x0, l.cardsY-5), Ws: dgf(x1 - x0), Hs: dgf(dgCardH + 10 + dgRackLabelH),
				LabelX: dgf((x1 - x0) / 2), LabelY: dgf(dgCardH + 5 + dgRackLabelH),
				Label: fmt.Sprintf(t("rack"), r), Tip: fmt.Sprintf(t("rack.tip"), r),
			})
		}
		i = j + 1
	}
}

// cardMeta writes how far a broker replayed the metadata log, and how far
// behind the controller's high watermark it is once that is more than the
// normal trail (metadataLagShown, as the quorum tab counts it). The label
// shortens on a narrow card but keeps the lag: both languages say the same.
func (l *dgLayout) cardMeta(b *dgBroker, s *view.Snapshot, nd view.Node, t dgTranslator) {
	room := b.W - 20
	if nd.State != "running" {
		b.Meta, b.MetaBarW = t("metadata.down"), "0"
		if dgTextWidth(b.Meta, 11) > room {
			b.Meta = "—"
		}
		return
	}
	hw := s.Controller.HighWatermark
	frac, lag := 1.0, ""
	if hw > 0 {
		frac = min(max(float64(nd.MetadataOffset+1)/float64(hw), 0), 1)
		if behind := hw - nd.MetadataOffset - 1; s.Controller.NodeID >= 0 && behind >= metadataLagShown {
			b.MetaLag = true
			lag = " · " + fmt.Sprintf(t("metadata.lag"), behind)
		}
	}
	b.MetaBarW = dgf(room * frac)
	forms := []string{ // the last is drawn when none fits
		fmt.Sprintf(t("metadata.replayed"), nd.MetadataOffset) + lag,
		fmt.Sprintf(t("metadata.short"), nd.MetadataOffset) + lag,
	}
	if lag != "" { // the lag before the word
		forms = append(forms, "@"+strconv.FormatInt(nd.MetadataOffset, 10)+lag)
	}
	for _, m := range forms {
		b.Meta = m
		if dgTextWidth(m, 11) <= room {
			return
		}
	}
}

func (l *dgLayout) clients(s *view.Snapshot, t dgTranslator) {
	c := &l.Clients
	w := l.cardW(-1)

	c.Ws = dgf(w)
	c.Title = t("clients")
	c.Lines = c.Lines[:0]
	c.Active = len(s.Clients) > 0
	for i, h := range s.Clients {
		if i == dgMaxClientLines && len(s.Clients) > dgMaxClientLines+1 {
			c.Lines = append(c.Lines, fmt.Sprintf(t("clients.more"), len(s.Clients)-dgMaxClientLines))
			break
		}
		c.Lines = append(c.Lines, dgCut(strings.TrimPrefix(h, "kafka-"), l.labelRunes()))
	}
	if len(c.Lines) == 0 {
		c.Lines = append(c.Lines, t("clients.none"))
	}
	h := dgClientsH(len(s.Clients))
	c.Hs = dgf(h)
	c.T = dgTranslate(l.cardX(-1), l.cardsY+max(0, (dgCardH-h)/2))
}

// dgClientsH is the clients' box's height for n clients: a line each,
// up to dgMaxClientLines and a line saying how many more ("none" for 0).
func dgClientsH(n int) float64 {
	lines := max(n, 1)
	if n > dgMaxClientLines+1 {
		lines = dgMaxClientLines + 1
	}
	return 30 + 15*float64(lines)
}

// dgMsgWords are the English words core/view writes into message labels
// around Kafka's names (API names, error codes, HW and epochs stay as they
// are): a label that starts with one is drawn with the UI string instead,
// which puts the rest of the label where its %s is.
var dgMsgWords = []struct{ en, key string }{
	{"Fetch metadata @", "msg.fetch.metadata"},
	{"Fetch response", "msg.fetch.response"},
	{"ack @", "msg.ack"},
}

// dgConnKinds are the messages that are TCP events, not Kafka requests: a
// reset from the operating system of a host whose process is not running
// (sim.Disconnected: a tool that exited, a broker that crashed) and a
// client closing its connection (sim.Closed, a FIN). They are drawn muted,
// in words: UI key of the label and of the tooltip.
var dgConnKinds = map[string][2]string{
	"Disconnected": {"msg.reset", "msg.reset.tip"},
	"Closed":       {"msg.closed", "msg.closed.tip"},
}

// dgMsgLabel is a message's label in the UI's language.
func dgMsgLabel(label string, t dgTranslator) string {
	for _, w := range dgMsgWords {
		if rest, ok := strings.CutPrefix(label, w.en); ok {
			return fmt.Sprintf(t(w.key), rest)
		}
	}
	return label
}

func (l *dgLayout) messages(s *view.Snapshot, t dgTranslator, o dgOptions) {
	l.Msgs = l.Msgs[:0]
	for _, m := range s.InFlight {
		if !o.visible(m.Category) {
			continue
		}
		a, b, ok := l.msgLanes(&m)
		if !ok {
			continue
		}
		var lk *dgLink
		for k := range l.Links {
			if l.Links[k].a == min(a, b) && l.Links[k].b == max(a, b) {
				lk = &l.Links[k]
				break
			}
		}
		if lk == nil {
			continue
		}
		// The dot moves along the visible part of the arc, off the cards.
		at := dgMsgEnds + min(max(m.Progress, 0), 1)*(1-2*dgMsgEnds)
		if a > b {
			at = 1 - at
		}
		pt := dgBezier(lk.p, at)
		// The label says which way the message goes: a still picture (a
		// paused session, a screenshot) shows no motion.
		label, class := dgMsgLabel(m.Label, t), dgMsgClass(m.Category)
		title := dgMsgLabel(m.Kind, t) + ": " + m.FromHost + " → " + m.ToHost
		if keys, ok := dgConnKinds[m.Kind]; ok {
			label, class = t(keys[0]), "kd-msg kd-cat-conn"
			title = fmt.Sprintf(t(keys[1]), m.FromHost, m.ToHost)
		}
		switch {
		case a <= dgLaneZK: // down from the ensemble's row
			label = "↓ " + label
		case b <= dgLaneZK:
			label = "↑ " + label
		case a < b:
			label += " →"
		case a > b:
			label = "← " + label
		}
		lw := dgTextWidth(label, 10) + 12
		mv := dgMsg{Class: class, Label: label, PillW: dgf(lw), Title: title}
		mv.T = dgTranslate(pt[0], pt[1])
		dx, dy, ok := l.labels.place(pt[0]-lw/2, pt[1]+dgPillTop, lw, dgPillH, l.W, l.TopH)
		mv.PillX, mv.TextX = dgf(dx-lw/2), dgf(dx)
		mv.PillY, mv.TextY = dgf(dgPillTop+dy), dgf(dgPillText+dy)
		if !ok {
			mv.Label = ""
		}
		l.Msgs = append(l.Msgs, mv)
	}
}

// partitions lays out the topic headers and partition rows, and the lanes
// behind them.
func (l *dgLayout) partitions(s *view.Snapshot, t dgTranslator, o dgOptions, changed func(string) bool) {
	visible := 0
	l.Partitions = 0
	maxOffset := int64(0)
	for _, tp := range s.Topics {
		l.Partitions += len(tp.Partitions)
		if !dgFolded(o.Collapsed, tp.Name) {
			visible += len(tp.Partitions)
		}
		for _, p := range tp.Partitions {
			for _, r := range p.Replicas {
				maxOffset = max(maxOffset, r.LEO)
			}
		}
	}
	compact := visible > dgCompactAbove && !l.touch
	digits := len(strconv.FormatInt(max(maxOffset, 1), 10))
	l.cellText = !compact && l.cellW >= 5.1*float64(digits)+3
	l.More = max(0, visible-dgFitRows)

	rowH, topicH := dgRowFull, dgTopicRowH
	l.G = dgGeomFull
	if compact {
		rowH = dgRowCompact
		l.G = dgGeomCompact
	}
	if tu := l.touchUnits(); tu > 0 {
		// A finger's height at the scale drawn: taller rows keep their
		// drawing at the top, a taller topic row centres its text.
		rowH, topicH = max(rowH, math.Ceil(tu)), max(topicH, math.Ceil(tu))
		l.G.SepY = dgf(rowH)
		l.G.TopicBgH = dgf(topicH - 4)
		l.G.TopicTY = dgf(3 + (topicH-4)/2 + 4.5)
	}
	l.G.HitW, l.G.HitH = dgf(l.colW-dgColGap), dgf(rowH)
	// Many rows: draw those in view, a view's height around it, in SVG
	// units (the page draws the SVG at l.scale CSS px a unit).
	winTop, winBottom := math.Inf(-1), math.Inf(1)
	if visible > dgDrawAllUpTo && o.View.Known {
		h := (o.View.Bottom - o.View.Top) / l.scale
		winTop, winBottom = o.View.Top/l.scale-h, o.View.Bottom/l.scale+h
	}
	l.Drawn = 0
	// Reuse the rows (and their replica and cell slices) from the last frame.
	rows := l.Rows[:0]
	y := 6.0
	for _, tp := range s.Topics {
		folded := dgFolded(o.Collapsed, tp.Name)
		r := dgNextRow(&rows)
		r.Topic, r.Compact = true, false
		r.T = dgTranslate(0, y)
		r.Name = dgCut(tp.Name, dgMaxLabelRunes*2)
		r.Sub = fmt.Sprintf(t("topic.partitions"), len(tp.Partitions))
		if len(tp.Partitions) == 1 {
			r.Sub = t("topic.partition1")
		}
		if agg := dgTopicHealth(tp, t); agg != "" {
			r.Sub += " · " + agg
		}
		r.Fold = "▾"
		if folded {
			r.Fold = "▸"
			r.Sub += " · " + t("topic.folded")
		}
		r.Key = tp.Name
		r.TopicName, r.Partition = tp.Name, ""
		r.SubX = dgf(36 + dgTextWidth(r.Name, 13.5) + 10)
		r.Class = "kd-topic"
		r.BgW, r.BgH = dgf(l.W-2*dgPadX), dgf(topicH)
		r.Replicas = r.Replicas[:0]
		y += topicH
		if folded {
			continue
		}
		for _, p := range tp.Partitions {
			if y+rowH < winTop || y > winBottom {
				y += rowH // out of view: not drawn, its place kept
				continue
			}
			if p.Light && o.Detail != nil {
				if full, ok := o.Detail(p.Topic, p.Index); ok {
					p = full
				}
			}
			r := dgNextRow(&rows)
			l.partitionRow(r, s, p, t, compact, rowH, changed)
			r.T = dgTranslate(0, y)
			l.Drawn++
			y += rowH
		}
	}
	l.Rows = rows
	l.PartsH = y + 8
	if l.Empty {
		l.PartsH = 0
	}

	l.Lanes = l.Lanes[:0]
	for i, nd := range s.Nodes {
		cls := "kd-lane"
		if nd.State != "running" {
			cls += " kd-lane-down"
		}
		l.Lanes = append(l.Lanes, dgLane{X: dgf(l.cardX(i)), W: dgf(l.cardW(i)), H: dgf(l.PartsH), Class: cls})
	}
}

// dgTopicHealth sums up a large topic's partitions for its row (the
// rows drawn are only those in view): how many have no leader and how
// many have fewer replicas in sync than assigned, from the metadata of
// every partition. "" for a topic of up to dgDrawAllUpTo partitions, or
// when all are led and fully in sync.
func dgTopicHealth(tp view.Topic, t dgTranslator) string {
	if len(tp.Partitions) <= dgDrawAllUpTo {
		return ""
	}
	offline, under := 0, 0
	for _, p := range tp.Partitions {
		if p.Leader < 0 {
			offline++
		}
		if len(p.ISR) < len(p.Assignment) {
			under++
		}
	}
	var parts []string
	if offline > 0 {
		parts = append(parts, fmt.Sprintf(t("topic.offline"), offline))
	}
	if under > 0 {
		parts = append(parts, fmt.Sprintf(t("topic.under"), under))
	}
	if len(parts) == 0 {
		return t("topic.healthy")
	}
	return strings.Join(parts, " · ")
}

// dgFolded reports whether a topic is folded: as the viewer chose, else
// folded for Kafka's internal topics (__consumer_offsets, with its 50
// partitions, and the others) and open for the rest.
func dgFolded(collapsed map[string]bool, topic string) bool {
	if f, ok := collapsed[topic]; ok {
		return f
	}
	return metadata.IsInternalTopic(topic)
}

func dgNextRow(rows *[]dgRow) *dgRow {
	if len(*rows) < cap(*rows) {
		*rows = (*rows)[:len(*rows)+1]
	} else {
		*rows = append(*rows, dgRow{})
	}
	return &(*rows)[len(*rows)-1]
}

func (l *dgLayout) partitionRow(r *dgRow, s *view.Snapshot, p view.Partition, t dgTranslator, compact bool, rowH float64, changed func(string) bool) {
	name := p.Topic + "-" + strconv.Itoa(int(p.Index))
	r.Topic, r.Compact = false, compact
	r.Name = dgCutTail(name, min(l.labelRunes(), int(l.rowTextRoom()/(dgNamePx*0.6))))
	r.Key = ""
	r.Partition, r.TopicName = name, ""
	r.SubX = "24"
	if compact {
		r.SubX = dgf(24 + dgTextWidth(r.Name, 13) + 10)
	}
	r.Fold = ""
	r.BgW, r.BgH = dgf(l.W-2*dgPadX), dgf(rowH)
	r.Class = "kd-prow"
	if changed("partition/" + name) {
		r.Class += " kd-changed"
	}
	if l.fx.elected[name] > 0 {
		r.Class += " kd-elected"
	}
	// Every line of the first column stops short of the first lane
	// (dgFit): the longest form that fits, else a shorter one.
	room := l.rowTextRoom()
	alerts, tip := dgAlert(s, p, t)
	r.Alert, r.AlertTip = "", tip
	if alerts[0] != "" {
		r.Alert = dgFit(room, dgAlertPx, alerts[:]...)
	}
	// The leader as the metadata says; marked when its broker is down (no
	// active controller to elect another, or not yet noticed).
	leaderDown := false
	if lane, ok := l.laneOf[p.Leader]; ok && s.Nodes[lane].State != "running" {
		leaderDown = true
	}
	leader, epoch := strconv.Itoa(int(p.Leader)), strconv.Itoa(int(p.LeaderEpoch))
	var subs []string // the leader line, longest first
	switch {
	case p.Leader < 0:
		r.Class += " kd-noleader"
		subs = []string{t("leader.none") + " · " + t("epoch") + " " + epoch, t("leader.none")}
	case leaderDown:
		r.Class += " kd-noleader"
		subs = []string{fmt.Sprintf(t("leader.down"), p.Leader) + " · " + t("epoch") + " " + epoch, fmt.Sprintf(t("leader.down"), p.Leader), "L" + leader + "✕ · e" + epoch}
	default:
		subs = []string{t("leader") + " " + leader + " · " + t("epoch") + " " + epoch, "L" + leader + " · e" + epoch}
	}
	longSub := subs[0]      // for the tooltip
	if compact || l.touch { // the short form: L2 · e0
		subs = subs[len(subs)-1:]
	}
	if !compact {
		r.Sub = dgFit(room, dgSubPx, subs...)
	} else { // no line of its own for the warning: it joins the leader line
		var line []string
		for _, a := range alerts {
			if a != "" {
				line = append(line, subs[0]+" · "+a)
			}
		}
		r.Sub = dgFit(room-(dgTextWidth(r.Name, dgNamePx)+10), dgSubPx, append(line, subs[0])...)
	}
	var isr strings.Builder
	isr.WriteString(t("isr"))
	isr.WriteString(" [")
	for i, id := range p.ISR {
		if i > 0 {
			isr.WriteByte(',')
		}
		isr.WriteString(strconv.Itoa(int(id)))
	}
	isr.WriteByte(']')
	r.ISR = isr.String()
	r.Tip = name + ": " + longSub + " · " + r.ISR
	if alerts[0] != "" {
		r.Tip += " · " + alerts[0]
	}

	// Every replica of the partition shows the same window of offsets, so
	// logs line up across lanes: the last MaxCells offsets of the longest.
	end := int64(0)
	for _, rp := range p.Replicas {
		if rp.Present {
			end = max(end, rp.LEO)
		}
	}
	start := max(0, end-view.MaxCells)
	// Without a live leader (CommittedHW < 0) the view marks nothing
	// committed; but an offset below any replica's HW was committed (a HW
	// only moves past committed records), so draw those as committed.
	knownHW := int64(-1)
	if p.CommittedHW < 0 {
		for _, rp := range p.Replicas {
			if rp.Present {
				knownHW = max(knownHW, rp.HW)
			}
		}
	}

	reps := r.Replicas[:0]
	for _, rp := range p.Replicas {
		lane, ok := l.laneOf[rp.Broker]
		if !ok {
			continue
		}
		if len(reps) < cap(reps) {
			reps = reps[:len(reps)+1]
		} else {
			reps = append(reps, dgReplica{})
		}
		rv := &reps[len(reps)-1]
		l.replica(rv, s.Nodes[lane], name, rp, start, knownHW, t, compact, lane, changed)
		rv.Topic, rv.Part = p.Topic, p.Index
		rv.Lost = l.lostMarks(p, start)
	}
	r.Replicas = reps
}

func (l *dgLayout) replica(rv *dgReplica, nd view.Node, name string, rp view.Replica, start, knownHW int64, t dgTranslator, compact bool, lane int, changed func(string) bool) {
	top := 14.0 // the strip's top inside the row
	h := 18.0
	if compact {
		top, h = 6, 16
	}
	rv.T = dgTranslate(l.cardX(lane), 0)
	rv.Broker, rv.Role = rp.Broker, dgRoleKey(rp.Role)
	rv.StripW = dgf(l.stripW)
	cls := "kd-rep"
	down := nd.State != "running"
	if down {
		cls += " kd-rep-down"
	}
	if !rp.Present {
		cls += " kd-rep-absent"
	}
	if changed("replica/" + name + "/" + strconv.Itoa(int(rp.Broker))) {
		cls += " kd-changed"
	}
	rv.Class = cls
	switch rp.Role {
	case "leader":
		rv.Chip, rv.ChipClass = "L", "kd-chip kd-chip-leader"
	case "follower":
		rv.Chip, rv.ChipClass = "F", "kd-chip kd-chip-follower"
	default:
		rv.Chip, rv.ChipClass = "–", "kd-chip kd-chip-offline"
	}
	switch {
	case rp.InELR:
		// Out of the ISR, yet eligible to lead (KIP-966): not a
		// warning, a replica that holds every committed record.
		rv.ChipClass += " kd-chip-out kd-chip-elr"
	case !rp.InISR:
		rv.ChipClass += " kd-chip-out"
	}

	// Cells of one class next to each other are one path: a strip is a few
	// elements, not MaxCells of them (the diagram is rebuilt every frame).
	cells := rv.Cells[:0]
	runs := rv.Runs[:0]
	runClass, runKind := "", dgTxnData
	flush := func() {
		if len(l.buf) > 0 {
			run := dgRun{Class: runClass, D: string(l.buf), Op: "1"}
			if runKind != dgTxnData {
				run.Tip = t(dgTxnTip[runKind])
			}
			runs = append(runs, run)
			l.buf = l.buf[:0]
		}
	}
	l.strikeBuf = l.strikeBuf[:0]
	for _, c := range rp.Cells {
		if c.Offset < start || c.Offset >= start+view.MaxCells {
			continue
		}
		slot := int(c.Offset - start)
		e := int(c.Epoch) % dgEpochPalette
		if e < 0 {
			e += dgEpochPalette
		}
		l.epochSeen[e] = true
		committed := 0
		if c.Committed || c.Offset < knownHW {
			committed = 1
		}
		kind := dgCellKind(c)
		l.txnSeen[kind] = true
		if kind == dgTxnAborted {
			l.strike(slot, compact)
		}
		if class := dgCellClass[e][committed][kind]; class != runClass {
			flush()
			runClass, runKind = class, kind
		}
		l.buf = append(l.buf, 'M')
		l.buf = append(l.buf, l.cellX[slot]...)
		l.buf = append(l.buf, ' ')
		l.buf = append(l.buf, l.G.StripY...)
		l.buf = append(l.buf, 'h')
		l.buf = append(l.buf, l.cellWs...)
		l.buf = append(l.buf, 'v')
		l.buf = append(l.buf, l.G.StripH...)
		l.buf = append(l.buf, "h-"...)
		l.buf = append(l.buf, l.cellWs...)
		l.buf = append(l.buf, 'z')
		if l.cellText {
			cell := dgCell{Text: dgItoa(c.Offset), TClass: "kd-off"}
			if committed == 0 || kind == dgTxnAborted { // a faded cell: dark text
				cell.TClass = "kd-off kd-off-unc"
			}
			cell.TX = dgf(dgStripX + (float64(slot)+0.5)*l.cellW - dgCellGap(l.cellW)/2)
			cells = append(cells, cell)
		}
	}
	flush()
	if len(l.strikeBuf) > 0 {
		runs = append(runs, dgRun{Class: "kd-strike", D: string(l.strikeBuf), Op: "1"})
	}
	if d, op := l.cutRun(name, rp.Broker, start); d != "" {
		runs = append(runs, dgRun{Class: "kd-cut", D: d, Op: op})
	}
	rv.Cells, rv.Runs = cells, runs

	slotX := func(off int64) float64 {
		return dgStripX + float64(min(max(off-start, 0), view.MaxCells))*l.cellW - dgCellGap(l.cellW)/2
	}
	rv.HW, rv.LEO = rp.Present, rp.Present
	if rp.Present {
		hx := slotX(rp.HW)
		rv.HWX, rv.HWTextX = dgf(hx), dgf(hx+2.5)
		lx := slotX(rp.LEO)
		bottom := top + h
		rv.LEOPath = "M" + dgf(lx) + " " + dgf(bottom+1) + "l-4 6h8z"
	}
	rv.CaptionL, rv.CaptionR, rv.CaptionCls = "", "", "kd-caption"
	if !compact {
		rv.CaptionLX = dgf(dgStripX)
		rv.CaptionRX = dgf(dgStripX + l.stripW)
		isr := t("isr.in")
		switch {
		case rp.InELR:
			isr = t("isr.elr")
			rv.CaptionCls += " kd-caption-elr"
		case !rp.InISR:
			isr = t("isr.out")
			rv.CaptionCls += " kd-caption-out"
		}
		switch {
		case !rp.Present:
			rv.CaptionL = t("replica.absent")
		case l.stripW < 90: // a narrow lane: the offsets only (the chip shows the ISR)
			rv.CaptionR = "LEO " + dgItoa(rp.LEO) + " · HW " + dgItoa(rp.HW)
		case l.stripW < 200:
			rv.CaptionL = "e" + strconv.Itoa(int(rp.LeaderEpoch))
			rv.CaptionR = "LEO " + dgItoa(rp.LEO) + " · HW " + dgItoa(rp.HW)
			mark := ""
			switch {
			case rp.InELR:
				mark = "ELR"
			case !rp.InISR:
				mark = "∉ ISR"
			}
			rv.CaptionL = dgFitCaption(l.stripW, rv.CaptionR, rv.CaptionL, mark)
		default:
			rv.CaptionL = t("epoch") + " " + strconv.Itoa(int(rp.LeaderEpoch)) + " · " + isr
			rv.CaptionR = "LEO " + dgItoa(rp.LEO) + " · HW " + dgItoa(rp.HW)
		}
	}
	var tip strings.Builder
	tip.WriteString(name)
	tip.WriteString(" @ ")
	tip.WriteString(t("broker"))
	tip.WriteByte(' ')
	tip.WriteString(strconv.Itoa(int(rp.Broker)))
	tip.WriteString(": ")
	tip.WriteString(t(dgRoleKey(rp.Role)))
	switch {
	case rp.InISR:
		tip.WriteString(", " + t("isr.in"))
	case rp.InELR:
		tip.WriteString(", " + t("isr.elr"))
	default:
		tip.WriteString(", " + t("isr.out"))
	}
	if rp.Present {
		fmt.Fprintf(&tip, ", %s %d, %s %d, LEO %d, HW %d", t("epoch"), rp.LeaderEpoch, t("log.start"), rp.LogStart, rp.LEO, rp.HW)
		if rp.LeaderViewLEO >= 0 {
			fmt.Fprintf(&tip, " (%s: LEO %d)", t("leader.view"), rp.LeaderViewLEO)
		}
	}
	rv.Tip = tip.String()
	l.lso(rv, rp, slotX, t)
}

func dgRoleKey(role string) string {
	switch role {
	case "leader", "follower":
		return role
	}
	return "offline"
}

func (l *dgLayout) legendEpochs(t dgTranslator) {
	l.Epochs = l.Epochs[:0]
	seen := false
	for _, s := range l.epochSeen {
		seen = seen || s
	}
	for e := range dgEpochPalette {
		if l.epochSeen[e] || (!seen && e < 3) {
			l.Epochs = append(l.Epochs, dgSwatch{Class: dgSwatchClass[e], Label: strconv.Itoa(e)})
		}
	}
	if len(l.Epochs) > 0 && len(l.Epochs) < dgEpochPalette && !seen {
		l.Epochs = append(l.Epochs, dgSwatch{Class: "kd-swatch kd-swatch-more", Label: "…"})
	}
}

// dgTextWidth estimates how wide s is at font size px (monospace-ish Latin,
// full-width Hangul). Used to size pills; a few units of slack are fine.
func dgTextWidth(s string, px float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r >= 0x1100 && (r <= 0x11ff || (r >= 0x3130 && r <= 0x318f) || (r >= 0xac00 && r <= 0xd7af)):
			w += px * 0.95
		case r < 0x80:
			w += px * 0.6
		default:
			w += px * 0.7
		}
	}
	return w
}

// The first column's lines, from dgRowTextX: the font sizes diagram.css
// gives them (.kd-pname, .kd-psub, .kd-palert).
const (
	dgRowTextX = 24.0
	dgNamePx   = 13.0
	dgSubPx    = 11.0
	dgAlertPx  = 10.5
)

// rowTextRoom is how wide a line of a partition row's first column may be:
// from where it starts to the first broker's lane, less a gap, so that no
// text runs under a replica's L or F chip.
func (l *dgLayout) rowTextRoom() float64 {
	return l.cardX(0) - dgRowTextX - 4
}

// dgFit is the first of forms (longest first) that is at most room wide
// at font size px (dgTextWidth), else the last one cut to fit with an
// ellipsis.
func dgFit(room, px float64, forms ...string) string {
	for _, f := range forms {
		if dgTextWidth(f, px) <= room {
			return f
		}
	}
	r := []rune(forms[len(forms)-1])
	for len(r) > 1 && dgTextWidth(string(r)+"…", px) > room {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// labelRunes is how long a label in the first column may be.
func (l *dgLayout) labelRunes() int {
	if l.touch {
		return dgNarrowRunes
	}
	return dgMaxLabelRunes
}

// dgCutTail shortens s to at most n runes keeping its last "-part" (a
// partition's number): peter-test01-0 → peter-tes…-0.
func dgCutTail(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	tail := 0
	for i := len(r) - 1; i > 0; i-- {
		if r[i] == '-' {
			tail = len(r) - i
			break
		}
	}
	if tail == 0 || tail > n/2 {
		return dgCut(s, n)
	}
	return string(r[:n-1-tail]) + "…" + string(r[len(r)-tail:])
}

// dgCut shortens s to at most n runes with an ellipsis.
func dgCut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// dgFitCaption is a replica's left caption for a lane stripW wide whose
// right side reads right: its epoch and ISR mark ("e0 · ∉ ISR") when
// both fit beside it, else the mark alone (it says more than the epoch,
// which the tooltip has), else the epoch alone, else nothing; the two
// never overprint.
func dgFitCaption(stripW float64, right, epoch, mark string) string {
	fits := func(left string) bool {
		return dgTextWidth(left, dgCaptionPx)+dgTextWidth(right, dgCaptionPx)+12 <= stripW
	}
	both := epoch
	if mark != "" {
		both += " · " + mark
	}
	for _, c := range []string{both, mark, epoch} {
		if c != "" && fits(c) {
			return c
		}
	}
	return ""
}
