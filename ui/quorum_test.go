package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"

	"kafkascope/core/raft"
	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// The quorum panel and the metadata log are tested on the real engine:
// the app booted natively, its tabs and rows clicked through their real
// handlers, the HTML read back.

// click fires the click handler of the first element (in any component)
// that match accepts, as the page would.
func (at *appTest) click(what string, match func(n *vugu.VGNode) bool) {
	at.t.Helper()
	br := at.env.RunBuild(at.a)
	Prepare(br, at.a.HandlerPanic)
	var handler func(vugu.DOMEvent)
	var visit func(n *vugu.VGNode)
	visit = func(n *vugu.VGNode) {
		for ; n != nil && handler == nil; n = n.NextSibling {
			if match(n) {
				for _, h := range n.DOMEventHandlerSpecList {
					if h.EventType == "click" {
						handler = h.Func
					}
				}
			}
			visit(n.FirstChild)
		}
	}
	eachOut(br, visit)
	if handler == nil {
		at.t.Fatalf("nothing to click: %s", what)
	}
	handler(&appTestEvent{summary: map[string]any{}})
	if at.a.Problem != "" {
		at.t.Fatalf("clicking %s: %s", what, at.a.Problem)
	}
}

func vgAttr(n *vugu.VGNode, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func vgID(id string) func(*vugu.VGNode) bool {
	return func(n *vugu.VGNode) bool { return vgAttr(n, "id") == id }
}

// kraftTab opens the side column's quorum and metadata log tab.
func (at *appTest) kraftTab() {
	at.t.Helper()
	at.click("#tab-kraft", vgID("tab-kraft"))
	if at.a.SideTab != sideTabKRaft {
		at.t.Fatalf("the tab is %q", at.a.SideTab)
	}
}

// play runs d of virtual time through animation frames.
func (at *appTest) play(d time.Duration) {
	for end := at.p.Now().Add(d); at.p.Now() < end; {
		at.frames(1, 50*time.Millisecond)
	}
}

// kqRows are the quorum table's rows by node id.
func kqRows(t *testing.T, doc *appDoc) map[int32]*html.Node {
	t.Helper()
	table := doc.byID("quorum-table")
	if table == nil {
		t.Fatal("no quorum table")
	}
	out := map[int32]*html.Node{}
	for _, n := range doc.find(func(n *html.Node) bool { return n.Data == "tr" && htmltest.Attr(n, "data-node") != "" }) {
		id, _ := strconv.Atoi(htmltest.Attr(n, "data-node"))
		out[int32(id)] = n
	}
	return out
}

// cellText is the text of the row's cell with the class.
func cellText(row *html.Node, class string) string {
	var found string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for ; n != nil; n = n.NextSibling {
			if n.Type == html.ElementNode && strings.Contains(" "+htmltest.Attr(n, "class")+" ", " "+class+" ") && found == "" {
				found = appText(n)
			}
			walk(n.FirstChild)
		}
	}
	walk(row.FirstChild)
	return found
}

// mlRows are the metadata log's rows, oldest first.
type mlTestRow struct {
	offset  int64
	typ     string
	epoch   string
	summary string
	class   string
	json    string
	applied []string // node ids marked as having applied up to this row
	lagging []string // those of them that are behind the quorum's HW
}

func mlRowsOf(t *testing.T, doc *appDoc) []mlTestRow {
	t.Helper()
	if doc.byID("metalog-list") == nil {
		t.Fatal("no metadata log list")
	}
	var out []mlTestRow
	for _, n := range doc.find(func(n *html.Node) bool { return n.Data == "li" && htmltest.Attr(n, "data-type") != "" }) {
		off, _ := strconv.ParseInt(htmltest.Attr(n, "data-offset"), 10, 64)
		r := mlTestRow{offset: off, typ: htmltest.Attr(n, "data-type"), class: htmltest.Attr(n, "class"),
			epoch: cellText(n, "kq-epoch"), summary: cellText(n, "ml-sum"), json: cellText(n, "ml-json")}
		var walk func(c *html.Node)
		walk = func(c *html.Node) {
			for ; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && strings.Contains(htmltest.Attr(c, "class"), "ml-applied") {
					r.applied = append(r.applied, appText(c))
					if strings.Contains(htmltest.Attr(c, "class"), "ml-lagging") {
						r.lagging = append(r.lagging, appText(c))
					}
				}
				walk(c.FirstChild)
			}
		}
		walk(n.FirstChild)
		out = append(out, r)
	}
	return out
}

func mlOfType(rows []mlTestRow, typ string) []mlTestRow {
	var out []mlTestRow
	for _, r := range rows {
		if r.typ == typ {
			out = append(out, r)
		}
	}
	return out
}

func TestKRaftTabShowsTheQuorum(t *testing.T) {
	at := newAppTest(t, "", "")
	doc := at.render(nil)
	if doc.byID("feed") == nil || doc.byID("quorum") != nil || htmltest.Attr(doc.byID("tab-events"), "aria-selected") != "true" {
		t.Fatal("the side column does not open on the event feed")
	}
	at.kraftTab()
	doc = at.render(nil)
	if doc.byID("feed") != nil || doc.byID("quorum") == nil || doc.byID("metalog") == nil {
		t.Fatal("the KRaft tab does not show the quorum and the metadata log")
	}
	if htmltest.Attr(doc.byID("tab-kraft"), "aria-selected") != "true" {
		t.Error("the KRaft tab is not marked selected")
	}
	q := at.p.Snapshot().Quorum
	rows := kqRows(t, doc)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	for id, row := range rows {
		role := htmltest.Attr(row, "data-role")
		want := "Follower"
		if id == q.LeaderID {
			want = "Leader"
		}
		if role != want {
			t.Errorf("kafka-%d is drawn %s, want %s", id, role, want)
		}
		ctl := len(dgAll(row, dgByClass("kq-ctl")))
		if (ctl == 1) != (id == q.LeaderID) {
			t.Errorf("kafka-%d has %d controller marks (leader %d)", id, ctl, q.LeaderID)
		}
		if got := cellText(row, "kq-epoch"); got != strconv.Itoa(int(q.Epoch)) {
			t.Errorf("kafka-%d epoch %q, want %d", id, got, q.Epoch)
		}
		if !strings.Contains(cellText(row, "kq-epoch")+" "+htmltest.Attr(dg1n(row, "kq-epoch"), "class"), fmt.Sprintf("kd-e%d", q.Epoch%8)) {
			t.Errorf("kafka-%d epoch is not coloured as the diagram colours epoch %d", id, q.Epoch)
		}
		if cellText(row, "kq-hw") == "—" || cellText(row, "kq-leo") == "—" || cellText(row, "kq-applied") == "—" {
			t.Errorf("kafka-%d lacks numbers: %q", id, appText(row))
		}
	}
	want := fmt.Sprintf("leader %d · epoch %d · HW %d", q.LeaderID, q.Epoch, q.HighWatermark)
	if got := doc.text("quorum-status"); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	if doc.byID("quorum-banner") != nil || len(doc.byClass("side-tab-alert")) != 0 {
		t.Error("a healthy quorum shows the frozen banner")
	}
	// The diagram marks the same node as the active controller.
	if cards := dgAll(doc.root, dgByClass("kd-ctl")); len(cards) != 1 {
		t.Errorf("%d controller badges in the diagram", len(cards))
	}
	at.click("#tab-events", vgID("tab-events"))
	if doc = at.render(nil); doc.byID("feed") == nil {
		t.Error("the events tab does not come back")
	}
}

// dg1n is the first element under n with the class (nil if none).
func dg1n(n *html.Node, class string) *html.Node {
	if all := dgAll(n, dgByClass(class)); len(all) > 0 {
		return all[0]
	}
	return nil
}

func TestMetadataLogShowsATopicCreate(t *testing.T) {
	at := newAppTest(t, "", "")
	at.kraftTab()
	before := mlRowsOf(t, at.render(nil))
	if len(mlOfType(before, "RegisterBrokerRecord")) != 3 || len(mlOfType(before, "LeaderChange")) == 0 || len(mlOfType(before, "FeatureLevelRecord")) == 0 {
		t.Fatalf("a fresh cluster's log: %v", before)
	}
	for _, r := range mlOfType(before, "LeaderChange") {
		if !strings.Contains(r.class, "ml-control") {
			t.Errorf("a control record is not styled as one: %q", r.class)
		}
	}
	at.a.Term.Enter("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3")
	at.idle()
	doc := at.render(nil)
	rows := mlRowsOf(t, doc)
	if len(rows) <= len(before) {
		t.Fatalf("the log did not grow: %d rows, then %d", len(before), len(rows))
	}
	topics := mlOfType(rows, "TopicRecord")
	if len(topics) != 1 || !strings.HasPrefix(topics[0].summary, "topic orders created") {
		t.Fatalf("TopicRecord rows %+v", topics)
	}
	parts := mlOfType(rows, "PartitionRecord")
	if len(parts) != 2 {
		t.Fatalf("PartitionRecord rows %+v", parts)
	}
	for i, p := range parts {
		if !strings.HasPrefix(p.summary, fmt.Sprintf("orders-%d: replicas ", i)) || p.offset <= topics[0].offset {
			t.Errorf("PartitionRecord row %+v", p)
		}
	}
	// Offsets grow down the list; the newest row is the last.
	for i := 1; i < len(rows); i++ {
		if rows[i].offset <= rows[i-1].offset {
			t.Fatalf("rows out of order: %+v then %+v", rows[i-1], rows[i])
		}
	}
	if doc.text("metalog-sub") == "" || htmltest.Attr(doc.byID("metalog-list"), "data-follow") == "" {
		t.Error("no source line or follow key")
	}
	// Every broker's mark sits on the record it applied last: the
	// leader's on the last row, the others' at most a fetch behind, none
	// marked lagging.
	at.play(time.Second)
	doc = at.render(nil)
	rows = mlRowsOf(t, doc)
	marks, lagging := map[string]int64{}, 0
	for _, r := range rows {
		for _, a := range r.applied {
			marks[a] = r.offset
		}
		lagging += len(r.lagging)
	}
	leader := strconv.Itoa(int(at.p.Snapshot().Quorum.LeaderID))
	if last := rows[len(rows)-1]; len(marks) != 3 || !strings.Contains(strings.Join(last.applied, ","), leader) || lagging != 0 {
		t.Errorf("applied marks %v (leader %s, last row %+v), %d lagging", marks, leader, last, lagging)
	}

	// A row opens to its JSON.
	at.click("the TopicRecord row", func(n *vugu.VGNode) bool {
		return n.Data == "button" && vgAttr(n, "class") == "ml-line" && n.Parent != nil && vgAttr(n.Parent, "data-type") == "TopicRecord"
	})
	opened := mlOfType(mlRowsOf(t, at.render(nil)), "TopicRecord")[0]
	if !strings.HasPrefix(opened.json, `{"type":"TOPIC_RECORD","version":0,"data":{"name":"orders","topicId":`) {
		t.Errorf("the TopicRecord's JSON: %q", opened.json)
	}

	// NoOpRecords fold into runs, and hide on request.
	at.play(3 * time.Second)
	rows = mlRowsOf(t, at.render(nil))
	noops := mlOfType(rows, "NoOpRecord")
	folded := false
	for _, r := range noops {
		folded = folded || strings.HasPrefix(r.summary, "×")
	}
	if !folded {
		t.Fatalf("NoOpRecord rows %+v", noops)
	}
	at.click("#metalog-noops", vgID("metalog-noops"))
	if n := len(mlOfType(mlRowsOf(t, at.render(nil)), "NoOpRecord")); n != 0 || !at.a.MetaLog.HideNoOps {
		t.Errorf("%d NoOpRecord rows after hiding them", n)
	}

	// In Korean.
	at.a.SetLang("ko")
	ko := mlOfType(mlRowsOf(t, at.render(nil)), "TopicRecord")[0]
	if !strings.HasPrefix(ko.summary, "토픽 orders 생성") {
		t.Errorf("the Korean summary %q", ko.summary)
	}

	// Scrubbing back shows the log as it was.
	at.p.Seek(0)
	at.a.Flush()
	back := mlRowsOf(t, at.render(nil))
	if len(mlOfType(back, "TopicRecord")) != 0 {
		t.Errorf("after seeking to the start the log still lists the topic: %v", back)
	}
}

func TestQuorumFailoverElectsANewLeader(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.Term.Enter("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3")
	at.idle()
	at.kraftTab()
	first := at.p.Snapshot().Quorum
	old := first.LeaderID
	if err := at.p.BrokerAction(old, "kill"); err != nil {
		t.Fatal(err)
	}
	doc := at.render(nil)
	if got := squash(doc.text("quorum-banner")); !strings.HasPrefix(got, at.a.T("quorum.electing")) {
		t.Errorf("right after the kill the banner says %q", got)
	}
	if got := htmltest.Attr(kqRows(t, doc)[old], "data-role"); got != at.a.T("state.killed") {
		t.Errorf("the killed voter's role reads %q", got)
	}
	if got := doc.texts("kd-frozen"); len(got) != 1 || got[0] != at.a.T("quorum.electing.short") {
		t.Errorf("the diagram's banner %q", got)
	}
	// The followers give up on the leader after the fetch timeout; a
	// randomised election timeout later one stands, and a split vote costs
	// another timeout (after a backoff).
	limit := raft.DefaultFetchTimeout + 2*2*raft.DefaultElectionTimeout + raft.DefaultElectionBackoffMax
	var took time.Duration
	for ; took < limit && at.p.Snapshot().Quorum.Status != view.QuorumOK; took += 50 * time.Millisecond {
		at.frames(1, 50*time.Millisecond)
	}
	doc = at.render(nil)
	q := at.p.Snapshot().Quorum
	if q.Status != view.QuorumOK || q.LeaderID == old || q.Epoch <= first.Epoch {
		t.Fatalf("after %s: leader %d epoch %d (was %d in epoch %d)", took, q.LeaderID, q.Epoch, old, first.Epoch)
	}
	t.Logf("kafka-%d leads epoch %d, %s after kafka-%d died in epoch %d", q.LeaderID, q.Epoch, took, old, first.Epoch)
	row := kqRows(t, doc)[q.LeaderID]
	if htmltest.Attr(row, "data-role") != "Leader" || cellText(row, "kq-epoch") != strconv.Itoa(int(q.Epoch)) {
		t.Errorf("the new leader's row: %q", appText(row))
	}
	if doc.byID("quorum-banner") != nil {
		t.Error("the banner stays after the election")
	}
	// The log shows the election and, once the dead broker's session
	// expires, its fencing and the partitions it led moving away.
	at.play(12 * time.Second)
	rows := mlRowsOf(t, at.render(nil))
	lcs := mlOfType(rows, "LeaderChange")
	if last := lcs[len(lcs)-1]; last.epoch != strconv.Itoa(int(q.Epoch)) || !strings.HasPrefix(last.summary, fmt.Sprintf("voter %d leads epoch %d", q.LeaderID, q.Epoch)) {
		t.Errorf("the last LeaderChange row %+v", last)
	}
	fenced := false
	for _, r := range mlOfType(rows, "BrokerRegistrationChangeRecord") {
		fenced = fenced || r.summary == fmt.Sprintf("broker %d fenced", old)
	}
	moved := 0
	for _, r := range mlOfType(rows, "PartitionChangeRecord") {
		if strings.HasPrefix(r.summary, "t-") && strings.Contains(r.summary, "leader ") {
			moved++
		}
	}
	if !fenced || moved == 0 {
		t.Errorf("after the failover: fenced %t, %d leader changes in %v", fenced, moved, rows)
	}
}

func TestQuorumLossShowsTheBanner(t *testing.T) {
	at := newAppTest(t, "", "")
	at.kraftTab()
	leader := at.p.Snapshot().Quorum.LeaderID
	var killed []int32
	for _, id := range []int32{1, 2, 3} {
		if id != leader && len(killed) < 2 {
			killed = append(killed, id)
		}
	}
	for _, id := range killed {
		if err := at.p.BrokerAction(id, "kill"); err != nil {
			t.Fatal(err)
		}
	}
	at.play(5 * time.Second)
	doc := at.render(nil)
	banner := squash(doc.text("quorum-banner"))
	if !strings.HasPrefix(banner, "No quorum: metadata is frozen (creates, elections and ISR changes wait).") {
		t.Fatalf("the banner with 1 of 3 voters: %q", banner)
	}
	if !strings.Contains(banner, "Only 1 of 3 voters") {
		t.Errorf("the banner does not count the voters: %q", banner)
	}
	if got := doc.text("quorum-status"); got != "no quorum" {
		t.Errorf("status %q", got)
	}
	if !strings.Contains(doc.text("tab-kraft"), "!") {
		t.Error("the tab does not warn")
	}
	if got := doc.texts("kd-frozen"); len(got) != 1 || got[0] != "no quorum: metadata is frozen" {
		t.Errorf("the diagram's banner %q", got)
	}
	// The same in Korean, from the i18n table.
	at.a.SetLang("ko")
	doc = at.render(nil)
	if got := squash(doc.text("quorum-banner")); !strings.HasPrefix(got, "쿼럼 없음: 메타데이터가 멈췄습니다") {
		t.Errorf("the Korean banner %q", got)
	}
	at.a.SetLang("en")
	// A voter back: a majority again, and the banner goes.
	if err := at.p.BrokerAction(killed[0], "start"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200 && at.p.Snapshot().Quorum.Status != view.QuorumOK; i++ {
		at.frames(1, 50*time.Millisecond)
	}
	if doc = at.render(nil); doc.byID("quorum-banner") != nil {
		t.Errorf("the banner stays with 2 of 3 voters: %q", doc.text("quorum-banner"))
	}
}

func TestBrokerCutFromTheQuorumLags(t *testing.T) {
	at := newAppTest(t, "", "")
	at.a.Term.Enter("cluster create --brokers 4")
	at.idle()
	at.kraftTab()
	doc := at.render(nil)
	rows := kqRows(t, doc)
	if len(rows) != 4 || htmltest.Attr(rows[4], "data-role") != "Observer" {
		t.Fatalf("broker 4 is not an observer: %v", rows)
	}
	for _, id := range []int32{1, 2, 3} {
		at.a.Term.Enter(fmt.Sprintf("network cut 4 %d", id))
		at.idle()
	}
	lag := func() int64 {
		for _, n := range at.p.Snapshot().Quorum.Nodes {
			if n.ID == 4 {
				return n.Lag
			}
		}
		return -1
	}
	var lags []int64
	var texts []string
	for range 3 {
		at.play(2 * time.Second)
		doc = at.render(nil)
		lags = append(lags, lag())
		texts = append(texts, cellText(kqRows(t, doc)[4], "kq-lag"))
	}
	if !(lags[0] > 0 && lags[1] > lags[0] && lags[2] > lags[1]) {
		t.Fatalf("the cut broker's lag: %v", lags)
	}
	for i, s := range texts {
		if s != fmt.Sprintf("%d behind", lags[i]) {
			t.Errorf("lag %d reads %q", lags[i], s)
		}
	}
	if !strings.Contains(htmltest.Attr(kqRows(t, doc)[4], "class"), "kq-lagging") {
		t.Error("the row is not marked lagging")
	}
	// Its mark in the log says it is behind (a run of NoOpRecords may
	// hold the others' marks too).
	var at4, atOthers int64 = -1, -1
	behind := false
	for _, r := range mlRowsOf(t, doc) {
		for _, a := range r.applied {
			if a == "4" {
				at4 = r.offset
			} else {
				atOthers = max(atOthers, r.offset)
			}
		}
		behind = behind || strings.Join(r.lagging, ",") == "4"
	}
	if at4 < 0 || at4 > atOthers || !behind {
		t.Errorf("broker 4's mark at %d (lagging %t), the others' at %d", at4, behind, atOthers)
	}
}

// squash is text with its runs of white space made single spaces.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// texts lists the text of the elements with the class.
func (d *appDoc) texts(class string) []string {
	var out []string
	for _, n := range d.byClass(class) {
		out = append(out, appText(n))
	}
	return out
}
