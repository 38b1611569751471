package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/vugu/vugu"

	"kafkascope/core/event"
	"kafkascope/core/i18n"
	"kafkascope/core/storage"
	"kafkascope/core/view"
)

// Disk is the disk panel, a tab of the side column: one partition's
// directory on one broker's disk. It lists the directory's files as ls -l
// would (with the bytes a power loss would lose now), draws the log's
// segments as a bar of blocks (offset range, size, the active one marked,
// clean and dirty once the log cleaner has written its checkpoint), the
// batches of the chosen segment coloured by leader epoch, and the chosen
// batch's bytes as xxd shows them, every field coloured and labelled:
// hovering a byte names its field and value, clicking keeps it. Beside
// the listing, a table gives every broker machine's page cache: how full
// and how dirty it is, and how many pages the fetch responses its broker
// sent found in memory or read from disk, and the bytes they sent with
// sendfile (disk_pagecache.go).
//
// The partition is the one last clicked in the diagram (a replica strip
// opens this tab on that broker), else the first; the user can pick
// another partition and broker. What it shows comes from core/view's
// DiskCache and PageCaches, asked only while the panel is drawn.
type Disk struct {
	App *App

	// The viewer's choice: a partition ("" topic: none yet), a broker (0:
	// the partition's leader), a segment and a batch by base offset (-1:
	// the first), a field of the batch (-1: none), and how many of the
	// batch's bytes to draw.
	Topic     string
	Partition int32
	Broker    int32
	Segment   int64
	Batch     int64
	Field     int
	HexLimit  int

	cache view.DiskCache

	// Read once per build.
	pd      *view.PartitionDisk
	seg     *view.DiskSegment
	bb      *view.BatchBytes
	empty   string
	parts   []dkOption
	brokers []dkOption
	files   []dkFile
	segs    []dkSegment
	batches []dkBatch
	hex     dkHexCache
	laid    dkLayoutKey
	// The page-cache table: its rows, and what they were drawn from.
	pcs   []dkPageCache
	pcKey dkPageCacheKey
	pcOf  []view.PageCache
}

// dkHexLimit is how many of a batch's bytes are drawn at first, and
// dkHexMax the most ever drawn (the page redraws every element each
// frame while the cluster plays).
const (
	dkHexLimit = 512
	dkHexMax   = 4096
	// dkBatchesShown bounds the batch chips of a segment: the first and
	// the last half of it.
	dkBatchesShown = 80
	// dkRecordsShown bounds the record table.
	dkRecordsShown = 10
	// dkFilesShown bounds the listing: its first dkFilesHead lines and
	// its last ones (a tiny segment.bytes makes hundreds of files).
	dkFilesShown = 18
	dkFilesHead  = 6
)

// dkOption is an option of a picker.
type dkOption struct {
	Value    string
	Label    string
	Selected bool
}

// dkFile is one line of the listing: ls -l's text, and what a power
// loss would lose (drawn after it by the style sheet: one element a line,
// as the page is sent every element each frame).
type dkFile struct {
	Line      string
	Name      string
	Unflushed string // "" when flushed
	Tip       string
	Class     string
}

// dkSegment is one block of the segment bar: its offsets and size as
// text, its badge (active, clean, dirty) drawn by the style sheet.
type dkSegment struct {
	Base     int64
	Text     string
	Badge    string
	Class    string
	Style    string
	Tip      string
	Pressed  string
	DataBase string
}

// dkBatch is one batch chip (Gap: the "… N more …" between the first and
// the last ones).
type dkBatch struct {
	Base    int64
	Label   string
	Class   string
	Tip     string
	Pressed string
	Gap     bool
}

// NewDisk is the panel, with nothing chosen yet.
func NewDisk(a *App) *Disk {
	return &Disk{App: a, Segment: -1, Batch: -1, Field: -1, HexLimit: dkHexLimit}
}

func (c *Disk) t(key string) string { return c.App.T(key) }

// count is "1 record", "3 records" (what is "batch" or "record").
func (c *Disk) count(n int, what string) string {
	if n == 1 {
		return c.t("disk.n." + what)
	}
	return fmt.Sprintf(c.t("disk.n."+what+"s"), n)
}

// Show picks a partition and a broker (a click on a replica strip).
func (c *Disk) Show(topic string, partition, broker int32) {
	if c.Topic != topic || c.Partition != partition {
		c.Segment, c.Batch = -1, -1
	}
	c.Topic, c.Partition, c.Broker = topic, partition, broker
	c.resetBatch()
}

func (c *Disk) resetBatch() { c.Field, c.HexLimit = -1, dkHexLimit }

// BeforeBuild reads the partition's disk once per render.
func (c *Disk) BeforeBuild() {
	c.pd, c.seg, c.bb, c.empty = nil, nil, nil, ""
	c.parts, c.brokers = c.parts[:0], c.brokers[:0]
	p := c.App.Player
	snap := p.Snapshot()
	if snap == nil {
		c.empty = c.t("no.cluster")
		return
	}
	part := c.choosePartition(snap)
	if part == nil {
		c.empty = c.t("disk.none")
		return
	}
	broker := c.chooseBroker(snap, part)
	c.pd = p.PartitionDisk(&c.cache, broker, part.Topic, part.Index)
	if c.pd == nil {
		c.empty = c.t("no.cluster")
		return
	}
	c.chooseSegment()
	c.drawPageCaches(p.PageCaches())
	// The listing, the blocks and the chips only change with the view or
	// the choice (the view is the same one while the log stands still).
	if k := (dkLayoutKey{c.pd, c.Segment, c.Batch, c.App.Player.Lang}); k != c.laid {
		c.laid = k
		c.files, c.segs, c.batches = c.files[:0], c.segs[:0], c.batches[:0]
		c.listFiles()
		c.drawSegments()
		if c.seg != nil {
			c.drawBatches()
		}
	}
	if c.Batch >= 0 {
		c.bb = p.BatchBytes(&c.cache, c.pd, c.Batch)
	}
}

// dkLayoutKey is what the listing, the segment blocks and the batch chips
// are drawn from.
type dkLayoutKey struct {
	pd             *view.PartitionDisk
	segment, batch int64
	lang           i18n.Lang
}

// choosePartition is the chosen partition, else the first one, and fills
// the partition picker.
func (c *Disk) choosePartition(snap *view.Snapshot) *view.Partition {
	var chosen, first *view.Partition
	for ti := range snap.Topics {
		for pi := range snap.Topics[ti].Partitions {
			p := &snap.Topics[ti].Partitions[pi]
			if first == nil {
				first = p
			}
			if p.Topic == c.Topic && p.Index == c.Partition {
				chosen = p
			}
		}
	}
	if chosen == nil {
		chosen = first
	}
	if chosen == nil {
		return nil
	}
	if chosen.Topic != c.Topic || chosen.Index != c.Partition {
		c.Topic, c.Partition, c.Broker, c.Segment, c.Batch = chosen.Topic, chosen.Index, 0, -1, -1
		c.resetBatch()
	}
	for ti := range snap.Topics {
		for _, p := range snap.Topics[ti].Partitions {
			name := p.Topic + "-" + strconv.Itoa(int(p.Index))
			c.parts = append(c.parts, dkOption{Value: name, Label: name, Selected: p.Topic == chosen.Topic && p.Index == chosen.Index})
		}
	}
	return chosen
}

// chooseBroker is the chosen broker, else the partition's leader (else
// its first replica), and fills the broker picker.
func (c *Disk) chooseBroker(snap *view.Snapshot, p *view.Partition) int32 {
	ok := false
	for _, n := range snap.Nodes {
		ok = ok || n.ID == c.Broker
	}
	if !ok {
		c.Broker = p.Leader
		if c.Broker < 0 && len(p.Assignment) > 0 {
			c.Broker = p.Assignment[0]
		}
		if c.Broker < 0 && len(snap.Nodes) > 0 {
			c.Broker = snap.Nodes[0].ID
		}
	}
	for _, n := range snap.Nodes {
		role := c.t("disk.role.none")
		for _, r := range p.Replicas {
			if r.Broker == n.ID {
				role = c.t(dgRoleKey(r.Role))
			}
		}
		if n.State != "running" {
			role += ", " + c.t("state."+n.State)
		}
		c.brokers = append(c.brokers, dkOption{Value: strconv.Itoa(int(n.ID)),
			Label: "kafka-" + strconv.Itoa(int(n.ID)) + " · " + role, Selected: n.ID == c.Broker})
	}
	return c.Broker
}

// PickPartition follows the partition picker.
func (c *Disk) PickPartition(e vugu.DOMEvent) {
	name := e.PropString("target", "value")
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil {
		return
	}
	c.Show(name[:i], int32(n), 0)
}

// PickBroker follows the broker picker.
func (c *Disk) PickBroker(e vugu.DOMEvent) {
	if n, err := strconv.Atoi(e.PropString("target", "value")); err == nil {
		c.Broker = int32(n)
		c.resetBatch()
	}
}

// PickSegment shows a segment's batches (and its first batch).
func (c *Disk) PickSegment(base int64) {
	if c.Segment != base {
		c.Segment, c.Batch = base, -1
		c.resetBatch()
	}
}

// PickBatch shows a batch's bytes.
func (c *Disk) PickBatch(base int64) {
	if c.Batch != base {
		c.Batch = base
		c.resetBatch()
	}
}

// PickField keeps a field highlighted (or lets it go).
func (c *Disk) PickField(i int) {
	if c.Field == i {
		c.Field = -1
		return
	}
	c.Field = i
}

// ShowAllBytes draws the whole batch (up to dkHexMax bytes).
func (c *Disk) ShowAllBytes() { c.HexLimit = dkHexMax }

// chooseSegment settles the chosen segment and batch on ones that exist:
// the segment holding the chosen batch, else the chosen segment, else
// the first segment with batches.
func (c *Disk) chooseSegment() {
	pd := c.pd
	c.seg = nil
	if c.Batch >= 0 {
		for i := range pd.Segments {
			s := &pd.Segments[i]
			if c.Batch >= s.BaseOffset && c.Batch < s.NextOffset && dkHasBatch(s, c.Batch) {
				c.seg = s
			}
		}
	}
	if c.seg == nil && c.Segment >= 0 {
		c.seg = pd.Segment(c.Segment)
	}
	if c.seg == nil {
		for i := range pd.Segments {
			if !pd.Segments[i].Empty() {
				c.seg = &pd.Segments[i]
				break
			}
		}
	}
	if c.seg == nil && len(pd.Segments) > 0 {
		c.seg = &pd.Segments[0]
	}
	if c.seg == nil {
		c.Segment, c.Batch = -1, -1
		return
	}
	c.Segment = c.seg.BaseOffset
	if c.Batch < 0 || !dkHasBatch(c.seg, c.Batch) {
		c.Batch = -1
		if !c.seg.Empty() {
			c.Batch = c.seg.Batches[0].BaseOffset
		}
		c.resetBatch()
	}
}

func dkHasBatch(s *view.DiskSegment, base int64) bool {
	for _, b := range s.Batches {
		if b.BaseOffset == base {
			return true
		}
	}
	return false
}

// ---- the listing ----

// listFiles lays out the directory as ls -l does (no dates: the
// simulated disk keeps no file times).
func (c *Disk) listFiles() {
	files := c.pd.Files
	for i := 0; i < len(files); i++ {
		if len(files) > dkFilesShown && i == dkFilesHead {
			// A long listing keeps its head and its tail (where the
			// newest segments and the partition's other files sort).
			skip := len(files) - dkFilesShown
			more := fmt.Sprintf(c.t("disk.files.more"), skip)
			c.files = append(c.files, dkFile{Line: more, Name: more, Class: "dk-file dk-file-gap"})
			i += skip
		}
		f := files[i]
		df := dkFile{Line: fmt.Sprintf("-rw-r--r-- %8d %s", f.Size, f.Name), Name: f.Name, Class: "dk-file"}
		if f.IsDir {
			df.Line, df.Class = fmt.Sprintf("drwxr-xr-x %8d %s", 4096, f.Name), "dk-file dk-dir"
		}
		if f.Segment >= 0 {
			df.Class += " dk-file-seg"
			// A replaced segment's .deleted files (retention, truncation,
			// the cleaner's swap) share its base offset but are not the
			// live segment's.
			if c.seg != nil && f.Segment == c.seg.BaseOffset && !strings.HasSuffix(f.Name, storage.DeletedFileSuffix) {
				df.Class += " dk-file-current"
			}
		}
		if f.Unflushed > 0 {
			df.Unflushed = fmt.Sprintf(c.t("disk.unflushed"), dkBytes(f.Unflushed))
			df.Tip = c.t("disk.unflushed.tip")
			df.Class += " dk-file-dirty"
		}
		c.files = append(c.files, df)
	}
}

// dkBytes is a size as people read it: 75 B, 4.0 KiB, 1.5 MiB.
func dkBytes(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1024*1024:
		return strconv.FormatFloat(float64(n)/1024, 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(float64(n)/(1024*1024), 'f', 1, 64) + " MiB"
}

// dkRange is an offset range: "0–4", "7", or "5–" for an empty segment.
func dkRange(from, next int64) string {
	switch {
	case next <= from:
		return strconv.FormatInt(from, 10) + "–"
	case next == from+1:
		return strconv.FormatInt(from, 10)
	}
	return strconv.FormatInt(from, 10) + "–" + strconv.FormatInt(next-1, 10)
}

// ---- segments and batches ----

// dkSegmentsShown bounds the blocks drawn (the newest ones).
const dkSegmentsShown = 24

// dkSegmentsSized is how many blocks still have room for their size
// (with more, it is in the tooltip).
const dkSegmentsSized = 8

func (c *Disk) drawSegments() {
	segs := c.pd.Segments
	if len(segs) > dkSegmentsShown {
		segs = segs[len(segs)-dkSegmentsShown:]
	}
	var total int64
	for _, s := range segs {
		total += s.Size
	}
	cleaning := c.pd.CleanerCheckpoint >= 0
	sweptFrom, sweptTo := c.lastCleaning()
	for i := range segs {
		s := &segs[i]
		b := dkSegment{Base: s.BaseOffset, Text: dkRange(s.BaseOffset, s.NextOffset),
			Class: "dk-seg", Pressed: "false", DataBase: strconv.FormatInt(s.BaseOffset, 10)}
		if len(segs) <= dkSegmentsSized {
			b.Text += " · " + dkBytes(s.Size)
		}
		// Blocks grow with their size, but never below a readable width.
		grow := 1.0
		if total > 0 {
			grow = 1 + 6*float64(s.Size)/float64(total)
		}
		b.Style = "flex-grow:" + strconv.FormatFloat(grow, 'f', 2, 64)
		tip := []string{s.Name, fmt.Sprintf(c.t("disk.seg.tip"), dkRange(s.BaseOffset, s.NextOffset), c.count(len(s.Batches), "batch"), s.Size)}
		switch {
		case s.Active:
			b.Badge = c.t("disk.active")
			b.Class += " dk-seg-active"
			tip = append(tip, c.t("disk.active.tip"))
		case cleaning && s.Clean:
			b.Badge = c.t("disk.clean")
			b.Class += " dk-seg-clean"
			tip = append(tip, c.t("disk.clean.tip"))
		case cleaning:
			b.Badge = c.t("disk.dirty")
			b.Class += " dk-seg-dirty"
			tip = append(tip, c.t("disk.dirty.tip"))
		}
		if s.BaseOffset < sweptTo && s.NextOffset > sweptFrom {
			b.Class += " dk-seg-swept" // the cleaner just rewrote it: the style sheet sweeps it once
		}
		if s.Empty() {
			b.Class += " dk-seg-empty"
		}
		if s.FileSize != s.Size {
			// The file on disk is shorter than the log knows.
			warn := fmt.Sprintf(c.t("disk.seg.short"), dkBytes(max(s.FileSize, 0)))
			b.Text += " · " + warn
			b.Class += " dk-seg-short"
			tip = append(tip, warn)
		}
		if c.seg != nil && s.BaseOffset == c.seg.BaseOffset {
			b.Class += " dk-seg-on"
			b.Pressed = "true"
		}
		b.Tip = strings.Join(tip, "\n")
		c.segs = append(c.segs, b)
	}
}

// dkSweepFor is how long (virtual time) after a cleaning pass the segments
// it rewrote are drawn being swept.
const dkSweepFor = 3 * time.Second

// lastCleaning is the dirty range [from, to) of this broker's latest
// cleaning pass of the partition, if it ended within dkSweepFor of now
// (from the feed, so it follows time travel); otherwise an empty range.
func (c *Disk) lastCleaning() (from, to int64) {
	p := c.App.Player
	entries := p.FeedEntries()
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if p.Now().Sub(e.At) > dkSweepFor {
			break
		}
		n, ok := e.Note.(event.LogCleaned)
		if ok && n.TP.Topic == c.pd.Topic && n.TP.Partition == c.pd.Partition && n.Broker == c.pd.Broker {
			return n.From, n.To
		}
	}
	return 0, 0
}

// segsMore says how many older segments are not drawn.
func (c *Disk) segsMore() string {
	if n := len(c.pd.Segments) - dkSegmentsShown; n > 0 {
		return fmt.Sprintf(c.t("disk.segs.more"), n)
	}
	return ""
}

func (c *Disk) drawBatches() {
	bs := c.seg.Batches
	n := len(bs)
	for i := 0; i < n; i++ {
		if n > dkBatchesShown && i == dkBatchesShown/2 {
			c.batches = append(c.batches, dkBatch{Gap: true, Label: fmt.Sprintf(c.t("disk.batches.more"), n-dkBatchesShown)})
			i = n - dkBatchesShown/2
		}
		b := bs[i]
		e := int(b.Epoch) % dgEpochPalette
		if e < 0 {
			e += dgEpochPalette
		}
		ch := dkBatch{Base: b.BaseOffset, Label: dkRange(b.BaseOffset, b.LastOffset+1), Pressed: "false",
			Class: "dk-batch kd-e" + strconv.Itoa(e)}
		tip := fmt.Sprintf(c.t("disk.batch.tip"), dkRange(b.BaseOffset, b.LastOffset+1), c.count(int(b.RecordCount), "record"), b.Epoch, b.Position, b.Size)
		if b.LastOffset >= c.pd.HighWatermark {
			ch.Class += " dk-batch-unc"
			tip += " · " + c.t("uncommitted")
		}
		if b.BaseOffset == c.Batch {
			ch.Class += " dk-batch-on"
			ch.Pressed = "true"
		}
		ch.Tip = tip
		c.batches = append(c.batches, ch)
	}
}

// ---- text ----

func (c *Disk) pathText() string {
	if c.pd == nil {
		return ""
	}
	return c.pd.Dir
}

func (c *Disk) onText() string {
	if c.pd == nil {
		return ""
	}
	return fmt.Sprintf(c.t("disk.on"), c.pd.Broker)
}

// note says when the panel shows something other than a running
// broker's replica.
func (c *Disk) note() string {
	pd := c.pd
	switch {
	case pd == nil:
		return ""
	case !pd.Present:
		return fmt.Sprintf(c.t("disk.absent"), pd.Broker, pd.Topic+"-"+strconv.Itoa(int(pd.Partition)))
	case pd.State != "running":
		return fmt.Sprintf(c.t("disk.down"), pd.Broker, c.t("state."+pd.State))
	}
	return ""
}

// dkOffset is one of the offsets that cut the log.
type dkOffset struct {
	Label, Value, Tip, Class string
}

func (c *Disk) offsets() []dkOffset {
	pd := c.pd
	if pd == nil || !pd.Present {
		return nil
	}
	out := []dkOffset{
		{c.t("disk.lso"), strconv.FormatInt(pd.LogStartOffset, 10), c.t("disk.lso.tip"), "dk-o dk-o-lso"},
		{"HW", strconv.FormatInt(pd.HighWatermark, 10), c.t("disk.hw.tip"), "dk-o dk-o-hw"},
		{"LEO", strconv.FormatInt(pd.LogEndOffset, 10), c.t("disk.leo.tip"), "dk-o dk-o-leo"},
		{c.t("disk.rp"), strconv.FormatInt(pd.RecoveryPoint, 10), c.t("disk.rp.tip"), "dk-o dk-o-rp"},
	}
	// The log cleaner's checkpoint, once it has cleaned this log.
	if pd.CleanerCheckpoint >= 0 {
		out = append(out, dkOffset{c.t("disk.cleaned"), strconv.FormatInt(pd.CleanerCheckpoint, 10), c.t("disk.cleaned.tip"), "dk-o dk-o-clean"})
	}
	return out
}

func (c *Disk) batchesTitle() string {
	if c.seg == nil {
		return ""
	}
	return fmt.Sprintf(c.t("disk.batches"), c.seg.Name)
}

// hasBatch reports whether a batch's bytes are drawn.
func (c *Disk) hasBatch() bool { return c.bb != nil }

func (c *Disk) batchTitle() string {
	if c.bb == nil {
		return ""
	}
	return fmt.Sprintf(c.t("disk.batch"), c.bb.Info.BaseOffset)
}

func (c *Disk) batchSub() string {
	bb := c.bb
	if bb == nil {
		return ""
	}
	return fmt.Sprintf(c.t("disk.batch.sub"), bb.File, bb.Position, bb.Info.Size, c.count(int(bb.Info.RecordCount), "record"))
}

func (c *Disk) crcText() string {
	bb := c.bb
	switch {
	case bb == nil || !bb.HeaderOK:
		return ""
	case bb.CRCValid:
		return c.t("disk.crc.ok")
	}
	return fmt.Sprintf(c.t("disk.crc.bad"), dkHex32(bb.ComputedCRC))
}

func (c *Disk) crcClass() string {
	if c.bb != nil && c.bb.CRCValid {
		return "dk-crc dk-crc-ok"
	}
	return "dk-crc dk-crc-bad"
}

func (c *Disk) missingText() string {
	if c.bb == nil || c.bb.Missing <= 0 {
		return ""
	}
	return fmt.Sprintf(c.t("disk.missing"), c.bb.Missing)
}

// hexMore says how much of the batch is not drawn ("" when all is).
func (c *Disk) hexMore() string {
	if c.bb == nil || len(c.bb.Bytes) <= c.HexLimit {
		return ""
	}
	if c.HexLimit >= dkHexMax {
		return fmt.Sprintf(c.t("disk.hex.cap"), c.HexLimit, len(c.bb.Bytes))
	}
	return fmt.Sprintf(c.t("disk.hex.more"), c.HexLimit, len(c.bb.Bytes))
}

func (c *Disk) canShowAll() bool {
	return c.bb != nil && c.HexLimit < dkHexMax && len(c.bb.Bytes) > c.HexLimit
}
