package ui

import (
	"fmt"
	"strconv"

	"kafkascope/core/i18n"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/view"
)

// MetaLog is the metadata log panel: __cluster_metadata-0 as a list of
// events, newest at the bottom, one row per record ("offset · epoch ·
// RecordType · summary"), in Kafka's record names. KRaft's own control
// records are styled apart, runs of NoOpRecords are folded into one row
// (and can be hidden), entries not committed yet are marked, a row opens
// to the record's JSON, and chips show up to where each broker has
// applied the log. It is drawn from the snapshot, so it grows as the
// cluster changes and shows the log as it was when scrubbing back.
type MetaLog struct {
	App *App
	// HideNoOps hides the NoOpRecords (the active controller writes one
	// every 500 ms).
	HideNoOps bool

	ml   *view.MetaLog // read once per build
	rows []mlRow
	open map[int64]bool // rows opened to their JSON, by first offset

	summaries map[mlSummaryKey]string
	applied   []int64           // every running node's applied offset
	pieces    []*view.MetaEntry // runs of NoOpRecords as split for this build
}

// mlRow is one row as drawn.
type mlRow struct {
	Key        int64 // the entry's first offset
	Offset     string
	Off        string // "412", or "412–431" for a folded run
	Epoch      string
	EpochClass string
	Type       string
	Summary    string
	Class      string
	Tip        string
	Open       bool
	Applied    []mlChip
	entry      *view.MetaEntry // nil for the snapshot row
	last       int64
}

// mlChip marks where a node's broker has applied the log up to.
type mlChip struct {
	Text  string
	Class string
	Tip   string
}

// mlSummaryKey identifies a formatted summary: the decoded record (shared
// by every snapshot that lists the entry), the run's end, the language.
type mlSummaryKey struct {
	rec         metadata.Record
	lc          *raft.LeaderChangeMessage
	first, last int64
	lang        i18n.Lang
}

// mlMaxSummaries bounds the summaries kept between frames.
const mlMaxSummaries = 4 * view.MaxMetaEntries

// mlMaxOpen bounds the rows kept open.
const mlMaxOpen = 32

// BeforeBuild lays out the rows once per render.
func (c *MetaLog) BeforeBuild() {
	c.ml, c.rows, c.pieces = nil, c.rows[:0], c.pieces[:0]
	snap := c.App.Player.Snapshot()
	if snap == nil {
		return
	}
	c.ml = &snap.MetaLog
	ml := c.ml
	c.applied = c.applied[:0]
	for _, n := range snap.Quorum.Nodes {
		if n.Running && n.Applied >= 0 {
			c.applied = append(c.applied, n.Applied)
		}
	}
	snapRow := ml.Snapshot.EndOffset > ml.From && ml.Snapshot.EndOffset <= ml.HighWatermark
	for i := range ml.Entries {
		e := &ml.Entries[i]
		if snapRow && e.Offset >= ml.Snapshot.EndOffset {
			c.rows = append(c.rows, c.snapshotRow(ml.Snapshot))
			snapRow = false
		}
		if e.Type == "NoOpRecord" {
			if !c.HideNoOps {
				c.noOpRows(e)
			}
			continue
		}
		c.rows = append(c.rows, c.row(e))
	}
	if snapRow {
		c.rows = append(c.rows, c.snapshotRow(ml.Snapshot))
	}
	c.chips(&snap.Quorum)
}

func (c *MetaLog) t(key string) string { return c.App.T(key) }

// noOpRows adds a run of NoOpRecords, split where a node's replay stopped
// inside it, so every node's mark sits on the record it applied last.
func (c *MetaLog) noOpRows(e *view.MetaEntry) {
	piece := *e
	for piece.Offset <= e.LastOffset {
		piece.LastOffset = e.LastOffset
		for _, a := range c.applied {
			if a >= piece.Offset && a < piece.LastOffset && !e.Pending {
				piece.LastOffset = a
			}
		}
		p := piece // each row keeps its own entry
		c.pieces = append(c.pieces, &p)
		c.rows = append(c.rows, c.row(&p))
		piece.Offset = piece.LastOffset + 1
	}
}

func (c *MetaLog) row(e *view.MetaEntry) mlRow {
	r := mlRow{Key: e.Offset, Offset: strconv.FormatInt(e.Offset, 10), Off: strconv.FormatInt(e.Offset, 10),
		Epoch: strconv.Itoa(int(e.Epoch)), EpochClass: kqEpochClass(e.Epoch), Type: e.Type,
		Class: "ml-row", entry: e, last: e.LastOffset, Open: c.open[e.Offset]}
	if e.Count() > 1 {
		r.Off += "–" + strconv.FormatInt(e.LastOffset, 10)
	}
	switch {
	case e.Control:
		r.Class += " ml-control"
	case e.Type == "NoOpRecord":
		r.Class += " ml-noop"
	}
	if e.Pending {
		r.Class += " ml-pending"
		r.Tip = c.t("metalog.pending")
	}
	r.Summary = c.summary(e)
	if r.Open {
		r.Class += " ml-open"
	}
	return r
}

func (c *MetaLog) snapshotRow(id raft.SnapshotID) mlRow {
	name := raft.SnapshotFileName(id)
	return mlRow{Key: -1 - id.EndOffset, Offset: strconv.FormatInt(id.EndOffset, 10), Off: "≤" + strconv.FormatInt(id.EndOffset-1, 10),
		Epoch: strconv.Itoa(int(id.Epoch)), EpochClass: kqEpochClass(id.Epoch), Type: "Snapshot",
		Summary: fmt.Sprintf(c.t("metalog.snapshot"), id.EndOffset, name), Class: "ml-row ml-snapshot", last: id.EndOffset - 1}
}

// chips puts each running node's "applied up to here" mark on the last
// committed row at or before its applied offset.
func (c *MetaLog) chips(q *view.Quorum) {
	for _, n := range q.Nodes {
		if !n.Running || n.Applied < 0 {
			continue
		}
		at := -1
		for i := range c.rows {
			r := &c.rows[i]
			if r.entry == nil || r.entry.Pending || r.entry.Offset > n.Applied {
				continue
			}
			at = i
		}
		if at < 0 {
			continue
		}
		ch := mlChip{Text: strconv.Itoa(int(n.ID)), Class: "ml-applied", Tip: fmt.Sprintf(c.t("metalog.applied"), n.ID)}
		if n.Lag >= metadataLagShown {
			ch.Class += " ml-lagging"
			ch.Tip += " · " + fmt.Sprintf(c.t("metadata.lag"), n.Lag)
		}
		c.rows[at].Applied = append(c.rows[at].Applied, ch)
	}
}

// summary is the entry's one line, in the current language (cached: the
// entries are immutable and the list is redrawn every frame).
func (c *MetaLog) summary(e *view.MetaEntry) string {
	key := mlSummaryKey{rec: e.Record, lc: e.LeaderChange, first: e.Offset, last: e.LastOffset, lang: c.App.Player.Lang}
	if key.rec == nil && key.lc == nil {
		return mlSummary(c.t, e)
	}
	if s, ok := c.summaries[key]; ok {
		return s
	}
	if c.summaries == nil || len(c.summaries) >= mlMaxSummaries {
		c.summaries = map[mlSummaryKey]string{}
	}
	s := mlSummary(c.t, e)
	c.summaries[key] = s
	return s
}

// Toggle opens or closes a row's JSON.
func (c *MetaLog) Toggle(key int64) {
	if key < 0 {
		return // the snapshot row has no record
	}
	if c.open == nil || len(c.open) >= mlMaxOpen {
		c.open = map[int64]bool{}
	}
	if c.open[key] {
		delete(c.open, key)
		return
	}
	c.open[key] = true
}

// json is an open row's record.
func (r *mlRow) json() string {
	if r.entry == nil {
		return ""
	}
	return r.entry.JSON()
}

// ToggleNoOps shows or hides the NoOpRecords.
func (c *MetaLog) ToggleNoOps() { c.HideNoOps = !c.HideNoOps }

func (c *MetaLog) noOpsPressed() string { return fmt.Sprint(!c.HideNoOps) }

func (r *mlRow) expanded() string { return fmt.Sprint(r.Open) }

// subText says whose log this is and how far it is committed.
func (c *MetaLog) subText() string {
	ml := c.ml
	if ml == nil {
		return ""
	}
	if ml.Source < 0 {
		return c.t("metalog.sub.none")
	}
	s := fmt.Sprintf(c.t("metalog.sub"), ml.Source, kqOffset(ml.HighWatermark))
	pending := 0
	for i := len(ml.Entries) - 1; i >= 0 && ml.Entries[i].Pending; i-- {
		pending += int(ml.Entries[i].Count())
	}
	if pending > 0 {
		s += " · " + fmt.Sprintf(c.t("metalog.sub.pending"), pending)
	}
	return s
}

// moreText says what is before the first row ("" when the list starts at
// offset 0).
func (c *MetaLog) moreText() string {
	ml := c.ml
	if ml == nil || ml.From <= 0 || len(ml.Entries) == 0 {
		return ""
	}
	if ml.Snapshot.EndOffset == ml.From {
		return fmt.Sprintf(c.t("metalog.more.snapshot"), ml.From, raft.SnapshotFileName(ml.Snapshot))
	}
	return fmt.Sprintf(c.t("metalog.more"), ml.From)
}

// followKey changes when a row is added or a run grows, so the list
// scrolls to its end (unless the reader scrolled up).
func (c *MetaLog) followKey() string {
	if len(c.rows) == 0 {
		return "0"
	}
	last := c.rows[len(c.rows)-1]
	return strconv.Itoa(len(c.rows)) + "." + last.Offset + "." + strconv.FormatInt(last.last, 10)
}
