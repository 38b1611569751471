package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/vugu/html"
	"github.com/vugu/vugu"

	"kafkascope/core/storage"
	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// The disk panel is tested on the real engine, as the quorum panel is:
// records produced through the terminal, the panel opened by its tab or a
// click on a replica strip, the HTML read back.

// diskTab opens the side column's disk tab.
func (at *appTest) diskTab() {
	at.t.Helper()
	at.click("#tab-disk", vgID("tab-disk"))
	if at.a.SideTab != sideTabDisk {
		at.t.Fatalf("the tab is %q", at.a.SideTab)
	}
}

// run types a command (and the producer's input lines) and waits for it.
func (at *appTest) run(line string, stdin ...string) {
	at.t.Helper()
	at.a.Term.Enter(line)
	if len(stdin) > 0 {
		for _, l := range stdin {
			at.a.Term.Enter(l)
		}
		at.a.Term.Enter("")
	}
	at.idle()
}

// dkRow is one row of the hex view as drawn.
type dkTestRow struct {
	off   string
	hex   []dkTestRun
	ascii []dkTestRun
}

type dkTestRun struct {
	field, text, class, id, title string
}

func dkRowsOf(t *testing.T, doc *appDoc) []dkTestRow {
	t.Helper()
	hex := doc.byID("disk-hex")
	if hex == nil {
		t.Fatal("no hex view")
	}
	var out []dkTestRow
	runs := func(col *html.Node) []dkTestRun {
		var rs []dkTestRun
		for c := col.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				rs = append(rs, dkTestRun{field: htmltest.Attr(c, "data-field"), text: appText(c), class: htmltest.Attr(c, "class"), id: htmltest.Attr(c, "id"), title: htmltest.Attr(c, "title")})
			}
		}
		return rs
	}
	for _, row := range dgAll(hex, dgByClass("dk-row")) {
		r := dkTestRow{off: htmltest.Attr(row, "data-offset")}
		if col := dg1n(row, "dk-hexb"); col != nil {
			r.hex = runs(col)
		}
		if col := dg1n(row, "dk-asc"); col != nil {
			r.ascii = runs(col)
		}
		out = append(out, r)
	}
	return out
}

// dkASCII is the text column of every row, joined.
func dkASCII(rows []dkTestRow) string {
	var b strings.Builder
	for _, r := range rows {
		for _, a := range r.ascii {
			b.WriteString(a.text)
		}
	}
	return b.String()
}

// dkByte finds the hex run holding byte i of the batch (16 a row) and
// the byte's two hex digits.
func dkByte(t *testing.T, rows []dkTestRow, i int) (dkTestRun, string) {
	t.Helper()
	row := rows[i/16]
	col := i % 16
	for _, r := range row.hex {
		n := (len(r.text) + 1) / 3
		if col < n {
			return r, r.text[3*col : 3*col+2]
		}
		col -= n
	}
	t.Fatalf("no byte %d", i)
	return dkTestRun{}, ""
}

func selectedOption(doc *appDoc, id string) string {
	sel := doc.byID(id)
	if sel == nil {
		return ""
	}
	for _, o := range dgAll(sel, func(n *html.Node) bool { return n.Data == "option" }) {
		if appHasAttr(o, "selected") {
			return htmltest.Attr(o, "value")
		}
	}
	return ""
}

func TestDiskTabShowsABatchFieldByField(t *testing.T) {
	at := newAppTest(t, "", "")
	at.render(nil)
	if at.a.Disk.pd != nil || at.a.Disk.cache.Partition(nil, 0, "", 0) != nil {
		t.Fatal("the closed disk panel read the disk")
	}
	at.run("kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	at.run("kafka-console-producer.sh --topic t", "hello disk")
	at.diskTab()
	doc := at.render(nil)
	if doc.byID("disk") == nil || doc.byID("feed") != nil || htmltest.Attr(doc.byID("tab-disk"), "aria-selected") != "true" {
		t.Fatal("the disk tab does not show the disk panel alone")
	}
	leader := at.p.Snapshot().Topics[0].Partitions[0].Leader
	if got := doc.text("disk-path"); got != "/tmp/kafka-logs/t-0" {
		t.Errorf("path %q", got)
	}
	if p, b := selectedOption(doc, "disk-partition"), selectedOption(doc, "disk-broker"); p != "t-0" || b != strconv.Itoa(int(leader)) {
		t.Errorf("picked %s on %s, want t-0 on the leader %d", p, b, leader)
	}
	// The files, as the broker's disk lists them.
	disk := sessionTL(at.p).Cluster().Disk(leader)
	var want []string
	for _, e := range disk.List("/tmp/kafka-logs/t-0") {
		want = append(want, fmt.Sprintf("-rw-r--r-- %8d %s", e.Size, e.Name))
	}
	var got []string
	dirty := ""
	for _, f := range dgAll(doc.byID("disk-files"), dgByClass("dk-file")) {
		got = append(got, appText(f))
		if htmltest.Attr(f, "data-name") == "00000000000000000000.log" {
			dirty = htmltest.Attr(f, "data-dirty")
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files\n%s\ndisk\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasSuffix(dirty, " B not flushed") {
		t.Errorf("the log's unflushed bytes: %q", dirty)
	}
	segs := dgAll(doc.byID("disk-segments"), dgByClass("dk-seg"))
	if len(segs) != 1 || !dgHasClass(segs[0], "dk-seg-active") || htmltest.Attr(segs[0], "data-base") != "0" || !strings.HasPrefix(appText(segs[0]), "0 · ") || htmltest.Attr(segs[0], "data-badge") != "active" {
		t.Fatalf("segments %v", appText(doc.byID("disk-segments")))
	}
	if offs := doc.text("disk-offsets"); !strings.Contains(offs, "HW1") || !strings.Contains(offs, "LEO1") || !strings.Contains(offs, "log start0") {
		t.Errorf("offsets %q", offs)
	}

	// The batch as xxd shows it: base offset 0, magic 2 at 0x10, the
	// value in the text column.
	rows := dkRowsOf(t, doc)
	if len(rows) < 5 || rows[0].off != "00000000" || rows[1].off != "00000010" {
		t.Fatalf("%d rows, offsets %q %q", len(rows), rows[0].off, rows[1].off)
	}
	if r := rows[0].hex[0]; r.field != view.FieldBaseOffset || r.text != "00 00 00 00 00 00 00 00" {
		t.Errorf("the first run %+v", r)
	}
	if r, b := dkByte(t, rows, 0x10); r.field != view.FieldMagic || b != "02" || !strings.Contains(r.class, "dk-c-magic") {
		t.Errorf("byte 0x10: %q in %+v", b, r)
	}
	if r, _ := dkByte(t, rows, 0x10); r.title != "magic = 2" {
		t.Errorf("magic's tooltip %q", r.title)
	}
	if !strings.Contains(dkASCII(rows), "hello disk") {
		t.Errorf("the value is not in the text column: %q", dkASCII(rows))
	}
	for _, r := range rows {
		for _, h := range r.hex {
			if h.field == view.FieldValue && (!strings.Contains(h.class, "dk-rec") || h.title != `record 0 · value = "hello disk"`) {
				t.Errorf("a value run: %+v", h)
			}
		}
	}
	if got := doc.text("disk-crc"); got != "CRC-32C verified" {
		t.Errorf("crc %q", got)
	}
	header := dgAll(doc.byID("disk-header"), func(n *html.Node) bool { return n.Data == "tr" && htmltest.Attr(n, "data-field") != "" })
	if len(header) != 13 {
		t.Fatalf("%d header rows", len(header))
	}
	for _, r := range header {
		if htmltest.Attr(r, "data-field") == view.FieldMagic && cellText(r, "dk-val") != "2" {
			t.Errorf("magic's row %q", appText(r))
		}
		// The console producer is idempotent (enable.idempotence=true by
		// default): its batch carries the first producer id the
		// controller hands out, 0.
		if htmltest.Attr(r, "data-field") == view.FieldProducerID && cellText(r, "dk-val") != "0" {
			t.Errorf("producerId's row %q", appText(r))
		}
	}
	if recs := doc.text("disk-records"); !strings.Contains(recs, `"hello disk"`) || !strings.Contains(recs, "null") {
		t.Errorf("records %q", recs)
	}

	// Clicking a byte keeps its field: every run of it is marked, and
	// the field is spelled out.
	magic, _ := dkByte(t, rows, 0x10)
	at.a.Disk.ClickHex(&appTestEvent{summary: map[string]any{"target": map[string]any{"id": magic.id}}})
	doc = at.render(nil)
	if got := doc.text("disk-field"); got != "magic (int8) · batch bytes 16 · file position 16\n= 2\nThe batch format version: 2 since Kafka 0.11." {
		t.Errorf("the chosen field: %q", got)
	}
	if r, _ := dkByte(t, dkRowsOf(t, doc), 0x10); !strings.Contains(r.class, "dk-sel") {
		t.Errorf("the chosen field is not marked: %+v", r)
	}
	at.click("the value's record row", func(n *vugu.VGNode) bool {
		return n.Data == "button" && vgAttr(n, "class") == "dk-fbtn" && n.Parent != nil && n.Parent.Parent != nil && strings.Contains(vgAttr(n.Parent.Parent, "class"), "dk-rrow")
	})
	if got := at.render(nil).text("disk-field"); !strings.HasPrefix(got, "record 0 · length (varint)") {
		t.Errorf("a record row picks its first field: %q", got)
	}

	// In Korean.
	at.a.SetLang("ko")
	doc = at.render(nil)
	if appText(doc.byID("tab-disk")) != "디스크" || doc.text("disk-crc") != "CRC-32C 일치" || !strings.Contains(doc.text("disk-field"), "레코드 0 · length (varint)") {
		t.Errorf("Korean: tab %q, crc %q, field %q", appText(doc.byID("tab-disk")), doc.text("disk-crc"), doc.text("disk-field"))
	}
	if !strings.Contains(doc.text("disk-field"), "이 필드 뒤로 이어지는 레코드의 크기") {
		t.Errorf("the field's meaning in Korean: %q", doc.text("disk-field"))
	}
}

// replicaOf matches partition's replica strip on broker in the diagram.
func replicaOf(partition string, broker int32) func(n *vugu.VGNode) bool {
	return func(n *vugu.VGNode) bool {
		if n.Data != "g" || vgAttr(n, "data-broker") != strconv.Itoa(int(broker)) || !strings.Contains(vgAttr(n, "class"), "kd-rep") {
			return false
		}
		for p := n.Parent; p != nil; p = p.Parent {
			if v := vgAttr(p, "data-partition"); v != "" {
				return v == partition
			}
		}
		return false
	}
}

func TestDiskOpensFromAReplicaAndFollowsThePickers(t *testing.T) {
	at := newAppTest(t, "", "")
	at.run("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 2")
	at.run("kafka-console-producer.sh --topic orders --property parse.key=true --property key.separator=:", "a:1", "b:2", "c:3", "d:4")
	p1 := at.p.Snapshot().Topics[0].Partitions[1]
	follower := p1.Assignment[0]
	if follower == p1.Leader {
		follower = p1.Assignment[1]
	}
	at.click("orders-1 on a follower", replicaOf("orders-1", follower))
	if at.a.SideTab != sideTabDisk {
		t.Fatalf("a click on a replica opens the %q tab", at.a.SideTab)
	}
	doc := at.render(nil)
	if doc.text("disk-path") != "/tmp/kafka-logs/orders-1" || selectedOption(doc, "disk-broker") != strconv.Itoa(int(follower)) {
		t.Fatalf("path %q on broker %s, want orders-1 on %d", doc.text("disk-path"), selectedOption(doc, "disk-broker"), follower)
	}
	if on := doc.byClass("dk-on"); len(on) != 1 || appText(on[0]) != fmt.Sprintf("on kafka-%d", follower) {
		t.Errorf("whose disk: %v", on)
	}
	if doc.byID("disk-note") != nil {
		t.Errorf("a follower's replica has a note: %q", doc.text("disk-note"))
	}

	// A broker without a replica: the directory does not exist.
	var other int32
	for _, n := range at.p.Snapshot().Nodes {
		if n.ID != p1.Assignment[0] && n.ID != p1.Assignment[1] {
			other = n.ID
		}
	}
	at.a.Disk.PickBroker(appValue(strconv.Itoa(int(other)), "change"))
	doc = at.render(nil)
	if note := doc.text("disk-note"); !strings.Contains(note, fmt.Sprintf("kafka-%d holds no replica of orders-1", other)) || doc.byID("disk-files") != nil {
		t.Errorf("a broker without the replica: note %q", note)
	}
	if opt := dgAll(doc.byID("disk-broker"), func(n *html.Node) bool {
		return n.Data == "option" && htmltest.Attr(n, "value") == strconv.Itoa(int(other))
	}); len(opt) != 1 || !strings.Contains(appText(opt[0]), "no replica") {
		t.Errorf("the broker picker does not say so")
	}

	// The partition picker.
	at.a.Disk.PickPartition(appValue("orders-0", "change"))
	doc = at.render(nil)
	leader0 := at.p.Snapshot().Topics[0].Partitions[0].Leader
	if doc.text("disk-path") != "/tmp/kafka-logs/orders-0" || selectedOption(doc, "disk-broker") != strconv.Itoa(int(leader0)) {
		t.Errorf("after picking orders-0: %q on %s (leader %d)", doc.text("disk-path"), selectedOption(doc, "disk-broker"), leader0)
	}

	// A broker that lost power: its files are what survived.
	at.run(fmt.Sprintf("broker kill %d --power-loss", leader0))
	doc = at.render(nil)
	if note := doc.text("disk-note"); !strings.Contains(note, fmt.Sprintf("kafka-%d is not running (power off)", leader0)) {
		t.Errorf("a powered-off broker: note %q", note)
	}
}

func TestDiskSegmentsBatchesAndLongBatches(t *testing.T) {
	at := newAppTest(t, "", "")
	at.run("kafka-topics.sh --create --topic small --partitions 1 --replication-factor 1 --config internal.segment.bytes=160")
	for i := 0; i < 5; i++ {
		at.run("kafka-console-producer.sh --topic small", fmt.Sprintf("record-%d", i))
	}
	at.diskTab()
	doc := at.render(nil)
	segs := dgAll(doc.byID("disk-segments"), dgByClass("dk-seg"))
	if len(segs) < 3 || !dgHasClass(segs[len(segs)-1], "dk-seg-active") || dgHasClass(segs[0], "dk-seg-active") {
		t.Fatalf("segments %q", doc.text("disk-segments"))
	}
	for _, s := range segs {
		if strings.Contains(htmltest.Attr(s, "class"), "dk-seg-clean") || strings.Contains(htmltest.Attr(s, "class"), "dk-seg-dirty") {
			t.Error("clean or dirty marks before the cleaner ever ran")
		}
	}
	if !dgHasClass(segs[0], "dk-seg-on") {
		t.Error("the first segment is not the one shown")
	}
	pd := at.a.Disk.pd
	// The first segment holds two batches; pick the second: its rows start
	// at its byte position in the file, as xxd -s would.
	first := pd.Segments[0]
	if len(first.Batches) < 2 {
		t.Fatalf("first segment %+v", first)
	}
	b2 := first.Batches[1]
	at.click("the second batch", func(n *vugu.VGNode) bool {
		return n.Data == "button" && strings.Contains(vgAttr(n, "class"), "dk-batch") && vgAttr(n, "data-base") == strconv.FormatInt(b2.BaseOffset, 10)
	})
	doc = at.render(nil)
	rows := dkRowsOf(t, doc)
	if rows[0].off != fmt.Sprintf("%08x", b2.Position) {
		t.Errorf("the second batch's rows start at %s, it is at byte %d", rows[0].off, b2.Position)
	}
	if r := rows[0].hex[0]; r.field != view.FieldBaseOffset || r.text != fmt.Sprintf("00 00 00 00 00 00 00 %02x", b2.BaseOffset) {
		t.Errorf("the second batch's base offset %+v", r)
	}
	if !strings.Contains(doc.text("disk-batch-sub"), first.Name+" from byte "+strconv.FormatInt(int64(b2.Position), 10)) {
		t.Errorf("sub %q", doc.text("disk-batch-sub"))
	}

	// The hook for the log cleaner: once it writes its checkpoint, the
	// segments below it are clean and the others dirty.
	cl := sessionTL(at.p).Cluster()
	d := cl.Disk(pd.Broker)
	ckpt := storage.EncodeOffsetCheckpoint(map[storage.TopicPartition]int64{{Topic: "small", Partition: 0}: first.NextOffset})
	if err := d.WriteFileDurable("/tmp/kafka-logs/"+storage.CleanerOffsetCheckpoint, ckpt); err != nil {
		t.Fatal(err)
	}
	at.a.Disk.cache = view.DiskCache{} // the listing is otherwise re-read at the next writeback tick
	doc = at.render(nil)
	segs = dgAll(doc.byID("disk-segments"), dgByClass("dk-seg"))
	if !dgHasClass(segs[0], "dk-seg-clean") || !dgHasClass(segs[1], "dk-seg-dirty") || !dgHasClass(segs[len(segs)-1], "dk-seg-active") {
		t.Errorf("clean and dirty: %q", doc.text("disk-segments"))
	}
	if !strings.Contains(doc.text("disk-offsets"), "cleaned up to"+strconv.FormatInt(first.NextOffset, 10)) {
		t.Errorf("offsets %q", doc.text("disk-offsets"))
	}

	// A long batch (a topic with the default segment.bytes: Kafka refuses
	// a batch larger than a segment): the view draws its start and shows
	// the rest on request.
	at.run("kafka-topics.sh --create --topic big --partitions 1 --replication-factor 1")
	at.run("kafka-console-producer.sh --topic big", strings.Repeat("x", 900))
	at.a.Disk.PickPartition(appValue("big-0", "change"))
	doc = at.render(nil)
	rows = dkRowsOf(t, doc)
	big := at.a.Disk.pd
	if doc.text("disk-path") != "/tmp/kafka-logs/big-0" || len(big.Segments) != 1 || len(big.Segments[0].Batches) != 1 {
		t.Fatalf("big-0: %q, %+v", doc.text("disk-path"), big.Segments)
	}
	size := int(big.Segments[0].Batches[0].Size)
	if size <= dkHexLimit || len(rows) != dkHexLimit/16 || doc.byID("disk-hex-all") == nil {
		t.Fatalf("a %d-byte batch draws %d rows", size, len(rows))
	}
	at.click("#disk-hex-all", vgID("disk-hex-all"))
	doc = at.render(nil)
	rows = dkRowsOf(t, doc)
	if len(rows) != (size+15)/16 || doc.byID("disk-hex-all") != nil || !strings.Contains(dkASCII(rows), strings.Repeat("x", 900)) {
		t.Errorf("the whole batch: %d rows for %d bytes", len(rows), size)
	}
}

func TestDiskPanelWithoutTopics(t *testing.T) {
	at := newAppTest(t, "", "")
	at.diskTab()
	doc := at.render(nil)
	if !strings.HasPrefix(doc.text("disk-empty"), "No topics yet") || doc.byID("disk-hex") != nil {
		t.Errorf("no topics: %q", doc.text("disk-empty"))
	}
	at.click("#tab-events", vgID("tab-events"))
	if doc = at.render(nil); doc.byID("feed") == nil || doc.byID("disk") != nil {
		t.Error("the events tab does not come back")
	}
}

// A tiny segment.bytes makes hundreds of files: the listing keeps its
// head and its tail (the newest segments and the partition's own files).
func TestDiskListingIsBounded(t *testing.T) {
	at := newAppTest(t, "", "")
	c := at.a.Disk
	c.pd = &view.PartitionDisk{}
	for i := 0; i < 100; i++ {
		c.pd.Files = append(c.pd.Files, view.DiskFile{Name: storage.SegmentFileName(int64(i), ".log"), Size: 75, Segment: int64(i)})
	}
	c.pd.Files = append(c.pd.Files, view.DiskFile{Name: "leader-epoch-checkpoint", Size: 8, Segment: -1}, view.DiskFile{Name: "partition.metadata", Size: 43, Segment: -1})
	c.listFiles()
	if len(c.files) != dkFilesShown+1 {
		t.Fatalf("%d lines", len(c.files))
	}
	skipped := 102 - dkFilesShown
	if c.files[0].Name != storage.SegmentFileName(0, ".log") || c.files[dkFilesHead].Name != fmt.Sprintf("… %d more files …", skipped) ||
		c.files[len(c.files)-1].Name != "partition.metadata" || c.files[dkFilesHead+1].Name != storage.SegmentFileName(int64(dkFilesHead+skipped), ".log") {
		t.Errorf("listing %v … %v", c.files[dkFilesHead-1:dkFilesHead+2], c.files[len(c.files)-1])
	}
}

// BenchmarkDiskBuild is the disk panel's cost per frame on a busy
// partition (over a hundred segments; a batch must fit segment.bytes, or
// the broker refuses it with RecordBatchTooLargeException, as Kafka does): "hit" when nothing changed since
// the last frame, "miss" when the log grew (the partition is read again).
func BenchmarkDiskBuild(b *testing.B) {
	at := newAppTest(b, "", "")
	at.a.Term.Enter("kafka-topics.sh --create --topic busy --partitions 1 --replication-factor 3 --config internal.segment.bytes=20000")
	at.idle()
	at.a.Term.Enter("kafka-producer-perf-test.sh --topic busy --num-records 20000 --record-size 100 --throughput 2000 --producer-props bootstrap.servers=kafka-1:9092 linger.ms=20")
	at.idle()
	at.a.ShowTab(sideTabDisk)
	at.render(nil)
	if pd := at.a.Disk.pd; pd == nil || len(pd.Segments) < 100 {
		for _, l := range at.p.Lines() {
			b.Log(l.Text)
		}
		b.Fatalf("disk %+v", pd)
	}
	b.Logf("%d segments, %d files", len(at.a.Disk.pd.Segments), len(at.a.Disk.pd.Files))
	b.Run("hit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			at.env.RunBuild(at.a.Disk)
		}
	})
	b.Run("miss", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			at.a.Disk.cache = view.DiskCache{}
			at.env.RunBuild(at.a.Disk)
		}
	})
}

// A cleaning pass is animated: the segments the cleaner just rewrote are
// marked to be swept for a few seconds, then drawn clean.
func TestDiskSweepsTheSegmentsACleaningRewrote(t *testing.T) {
	at := newAppTest(t, "", "")
	at.run("kafka-topics.sh --create --topic kv --partitions 1 --replication-factor 1 --config cleanup.policy=compact --config internal.segment.bytes=300")
	at.run("kafka-console-producer.sh --topic kv --sync --producer-property linger.ms=0 --property parse.key=true --property key.separator=:",
		"K1:1", "K2:2", "K1:3", "K1:4", "K3:2", "K2:3", "K3:4", "K3:5", "K2:6")
	at.diskTab()
	cleaned := func() bool {
		for _, e := range at.p.FeedEntries() {
			if e.Key == "log.cleaned" && e.Fields["tp"] == "kv-0" {
				return true
			}
		}
		return false
	}
	for i := 0; !cleaned(); i++ {
		if i > 40 {
			t.Fatal("the cleaner never cleaned kv-0")
		}
		at.run("time advance 1s")
	}
	swept := func() int {
		n := 0
		for _, s := range dgAll(at.render(nil).byID("disk-segments"), dgByClass("dk-seg")) {
			if dgHasClass(s, "dk-seg-swept") {
				n++
				if !dgHasClass(s, "dk-seg-clean") {
					t.Errorf("a swept segment is not drawn clean: %q", htmltest.Attr(s, "class"))
				}
			}
		}
		return n
	}
	if n := swept(); n == 0 {
		t.Fatal("no segment is swept right after the cleaning pass")
	}
	at.run("time advance 5s")
	if n := swept(); n != 0 {
		t.Fatalf("%d segments still swept 5 s after the pass", n)
	}
}

// The page-cache table shows every machine's page cache as the engine
// keeps it: the numbers in its rows are the disks' own counters, the
// leader's machine counts the fetches it answered, and a consumer reading
// a log the cache no longer holds makes misses.
func TestDiskTabShowsEveryMachinesPageCache(t *testing.T) {
	at := newAppTest(t, "", "")
	at.run("cluster create --brokers 3 --page-cache-bytes 65536")
	at.run("kafka-topics.sh --create --topic t --replica-assignment 1:2:3")
	at.run("kafka-console-producer.sh --topic t", "hello", "cache")
	at.diskTab()
	cl := sessionTL(at.p).Cluster()
	// rows checks every row against the engine and returns them by broker.
	rows := func(doc *appDoc, of string) map[int32]*html.Node {
		t.Helper()
		byBroker := map[int32]*html.Node{}
		trs := dgAll(doc.byID("disk-pagecache"), dgByClass("dk-pc-row"))
		if len(trs) != 3 {
			t.Fatalf("%d page-cache rows", len(trs))
		}
		for i, tr := range trs {
			id := int32(i + 1)
			st := cl.Disk(id).PageCache()
			if htmltest.Attr(tr, "data-broker") != strconv.Itoa(int(id)) {
				t.Fatalf("row %d is broker %q", i, htmltest.Attr(tr, "data-broker"))
			}
			for attr, want := range map[string]int64{"data-cached": st.CachedBytes, "data-dirty": st.DirtyBytes, "data-hits": st.HitPages, "data-misses": st.MissPages, "data-sent": st.SentBytes} {
				if got := htmltest.Attr(tr, attr); got != strconv.FormatInt(want, 10) {
					t.Errorf("broker %d %s = %s, the engine says %d", id, attr, got, want)
				}
			}
			var cells []string
			for c := tr.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode {
					cells = append(cells, appText(c))
				}
			}
			want := []string{cells[0], fmt.Sprintf(of, dkBytes(st.CachedBytes), "64.0 KiB"), dkBytes(st.DirtyBytes), strconv.FormatInt(st.HitPages, 10), strconv.FormatInt(st.MissPages, 10), dkBytes(st.SentBytes)}
			if !strings.HasPrefix(cells[0], "kafka-"+strconv.Itoa(int(id))) || strings.Join(cells, "|") != strings.Join(want, "|") {
				t.Errorf("broker %d's row %q, want %q", id, cells, want)
			}
			byBroker[id] = tr
		}
		return byBroker
	}
	doc := at.render(nil)
	r := rows(doc, "%s of %s")
	// The panel opened on the partition's leader, broker 1: its row is
	// marked, and the followers' fetches of the new batch were hits there.
	if !dgHasClass(r[1], "dk-pc-on") || dgHasClass(r[2], "dk-pc-on") {
		t.Error("the chosen broker's row is not the one marked")
	}
	if htmltest.Attr(r[1], "data-hits") == "0" || htmltest.Attr(r[1], "data-sent") == "0" || htmltest.Attr(r[1], "data-misses") != "0" {
		t.Errorf("the leader's machine: hits %s, misses %s, sent %s", htmltest.Attr(r[1], "data-hits"), htmltest.Attr(r[1], "data-misses"), htmltest.Attr(r[1], "data-sent"))
	}
	if doc.text("disk-pagecache-hint") == "" || !strings.Contains(htmltest.Attr(dgAll(doc.byID("disk-pagecache"), func(n *html.Node) bool { return n.Data == "caption" })[0], "title"), "sendfile") {
		t.Error("the table does not explain itself")
	}

	// Four times the cache, then a read from the beginning: misses.
	at.run("kafka-producer-perf-test.sh --topic t --num-records 256 --record-size 1000 --throughput -1 --producer-props bootstrap.servers=kafka-1:9092")
	at.run("kafka-console-consumer.sh --topic t --partition 0 --offset 0 --max-messages 1")
	at.run("broker kill 3")
	doc = at.render(nil)
	r = rows(doc, "%s of %s")
	if htmltest.Attr(r[1], "data-misses") == "0" || htmltest.Attr(r[1], "data-cached") != "65536" {
		t.Errorf("after reading an overrun log: misses %s, cached %s", htmltest.Attr(r[1], "data-misses"), htmltest.Attr(r[1], "data-cached"))
	}
	if got := appText(r[3].FirstChild); got != "kafka-3 · killed" {
		t.Errorf("a killed broker's row is named %q", got)
	}

	// In Korean.
	at.a.SetLang("ko")
	doc = at.render(nil)
	caption := dgAll(doc.byID("disk-pagecache"), func(n *html.Node) bool { return n.Data == "caption" })[0]
	if appText(caption) != "머신별 페이지 캐시" || !strings.Contains(doc.text("disk-pagecache-hint"), "적중과 미스") {
		t.Errorf("Korean: %q, %q", appText(caption), doc.text("disk-pagecache-hint"))
	}
	if r := rows(doc, "%[2]s 중 %[1]s"); appText(r[3].FirstChild) != "kafka-3 · 죽음" {
		t.Errorf("Korean: a killed broker's row is named %q", appText(r[3].FirstChild))
	}
}
