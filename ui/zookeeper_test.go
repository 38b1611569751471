package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"

	"kafkascope/core/view"
	"kafkascope/ui/internal/htmltest"
)

// The ZooKeeper era (--version 2.8) on the real engine: the tab that
// replaces the quorum's, its tree, a znode's stat, the watches that fired,
// and the ensemble and controller on the diagram.

// zkApp is the app showing a 2.8 cluster (servers ZooKeeper servers)
// with topic t, its ZooKeeper tab open.
func zkApp(t *testing.T, servers string) *appTest {
	t.Helper()
	at := newAppTest(t, "", "")
	at.run("cluster create --version 2.8 --zookeepers " + servers)
	at.run("kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic t --partitions 3 --replication-factor 3")
	at.play(2 * time.Second)
	doc := at.render(nil)
	if doc.byID("tab-kraft") != nil || doc.byID("tab-zookeeper") == nil {
		t.Fatal("a 2.8 cluster shows the KRaft tab, or no ZooKeeper tab")
	}
	at.click("#tab-zookeeper", vgID("tab-zookeeper"))
	return at
}

// zkTreeRow is the tree's row for path (nil if not drawn).
func zkTreeRow(doc *appDoc, path string) *html.Node {
	for _, n := range doc.find(func(n *html.Node) bool { return n.Data == "li" && htmltest.Attr(n, "data-path") == path }) {
		return n
	}
	return nil
}

func TestZooKeeperTabShowsTheTree(t *testing.T) {
	at := zkApp(t, "1")
	doc := at.render(nil)
	if doc.byID("zookeeper") == nil || doc.byID("quorum") != nil || doc.byID("metalog") != nil {
		t.Fatal("the tab does not show the ZooKeeper panel in place of the quorum's")
	}
	if htmltest.Attr(doc.byID("tab-zookeeper"), "aria-selected") != "true" {
		t.Error("the ZooKeeper tab is not marked selected")
	}
	if !strings.Contains(doc.text("zk-nolog"), "No metadata log") {
		t.Errorf("no word on the missing metadata log: %q", doc.text("zk-nolog"))
	}
	z := at.p.Snapshot().ZooKeeper
	if got := doc.text("zk-status"); got != "controller kafka-"+itoa32(z.ControllerID)+" · epoch "+itoa32(z.ControllerEpoch) {
		t.Errorf("status %q", got)
	}
	if got := doc.text("zk-servers"); !strings.Contains(got, "zookeeper-1") || !strings.Contains(got, "standalone") {
		t.Errorf("servers %q", got)
	}
	// Registrations are ephemeral, owned by their broker's session.
	for _, id := range []string{"1", "2", "3"} {
		row := zkTreeRow(doc, "/brokers/ids/"+id)
		if row == nil {
			t.Fatalf("no row for /brokers/ids/%s", id)
		}
		if cellText(row, "kz-owner") != "kafka-"+id || !strings.Contains(htmltest.Attr(row, "class"), "kz-ephemeral") {
			t.Errorf("/brokers/ids/%s: %q", id, appText(row))
		}
	}
	// The controller watches /brokers/ids.
	if w := cellText(zkTreeRow(doc, "/brokers/ids"), "kz-watch"); w == "" {
		t.Error("no watch shown on /brokers/ids")
	}
	// /zookeeper starts folded; a click on its fold opens it.
	if zkTreeRow(doc, "/zookeeper") == nil || zkTreeRow(doc, "/zookeeper/quota") != nil {
		t.Fatal("/zookeeper does not start folded")
	}
	at.click("fold /zookeeper", func(n *vugu.VGNode) bool {
		return vgAttr(n, "class") == "kz-fold" && n.Parent != nil && vgAttr(n.Parent, "data-path") == "/zookeeper"
	})
	if doc = at.render(nil); zkTreeRow(doc, "/zookeeper/quota") == nil {
		t.Fatal("unfolding /zookeeper shows no child")
	}
	// /controller is selected at first: its data and stat.
	det := doc.text("zk-detail")
	if !strings.Contains(det, `"brokerid":`+itoa32(z.ControllerID)) || !strings.Contains(det, "ephemeralOwner") || !strings.Contains(det, "(kafka-"+itoa32(z.ControllerID)+")") {
		t.Errorf("detail of /controller: %q", det)
	}
	// Selecting a partition's state shows its JSON and dataVersion.
	at.click("the state znode", func(n *vugu.VGNode) bool {
		return vgAttr(n, "class") == "kz-line" && n.Parent != nil && vgAttr(n.Parent, "data-path") == "/brokers/topics/t/partitions/0/state"
	})
	doc = at.render(nil)
	if det := doc.text("zk-detail"); !strings.Contains(det, `"isr":[`) || !strings.Contains(det, "dataVersion") {
		t.Errorf("detail of a state znode: %q", det)
	}
	// The diagram: the ensemble's box, the controller's badge, sessions.
	if got := appText(doc.byID("kd-zk")); !strings.Contains(got, "zookeeper-1") {
		t.Errorf("ensemble box %q", got)
	}
	if cards := dgAll(doc.root, dgByClass("kd-ctl")); len(cards) != 1 {
		t.Errorf("%d controller badges in the diagram", len(cards))
	}
	if card := doc.byID(dgCardID(z.ControllerID)); card == nil || !strings.Contains(appText(card), "controller") || !strings.Contains(appText(card), "ZooKeeper session") {
		t.Errorf("the controller's card: %v", card)
	}
	if doc.byID("zk-banner") != nil || len(doc.byClass("side-tab-alert")) != 0 {
		t.Error("a serving ensemble shows the frozen banner")
	}
}

func TestZooKeeperTabAfterABrokerDies(t *testing.T) {
	at := zkApp(t, "1")
	ctl := at.p.Snapshot().ZooKeeper.ControllerID
	victim := int32(2)
	if ctl == victim {
		victim = 3
	}
	at.run("broker kill " + itoa32(victim))
	at.run("time advance 30s")
	doc := at.render(nil)
	if zkTreeRow(doc, "/brokers/ids/"+itoa32(victim)) != nil {
		t.Error("the dead broker's registration is still drawn")
	}
	fired := doc.text("zk-fired")
	if !strings.Contains(fired, "NodeChildrenChanged") || !strings.Contains(fired, "/brokers/ids") || !strings.Contains(fired, "kafka-"+itoa32(ctl)) {
		t.Errorf("watches fired: %q", fired)
	}
}

func TestZooKeeperEnsembleOnTheDiagram(t *testing.T) {
	at := zkApp(t, "3")
	doc := at.render(nil)
	var roles []string
	for _, n := range dgAll(doc.byID("kd-zk"), dgByClass("kd-zk-role-text")) {
		roles = append(roles, appText(n))
	}
	if got := strings.Join(roles, " "); strings.Count(got, "LEADING") != 1 || strings.Count(got, "FOLLOWING") != 2 {
		t.Errorf("ensemble roles %q", got)
	}
	if names := appText(doc.byID("kd-zk")); !strings.Contains(names, "zookeeper-1") || !strings.Contains(names, "zookeeper-3") {
		t.Errorf("ensemble row %q", names)
	}
	if got := doc.text("zk-servers"); strings.Count(got, "zookeeper-") != 3 {
		t.Errorf("servers %q", got)
	}
	// A Korean render of the tab shows the same state in Korean words.
	at.click("#lang-ko", vgID("lang-ko"))
	doc = at.render(nil)
	if !strings.Contains(doc.text("zk-nolog"), "메타데이터 로그") {
		t.Errorf("Korean note %q", doc.text("zk-nolog"))
	}
}

// A KRaft cluster keeps its quorum tab (and no ZooKeeper).
func TestKRaftClusterHasNoZooKeeperTab(t *testing.T) {
	at := newAppTest(t, "", "")
	doc := at.render(nil)
	if doc.byID("tab-zookeeper") != nil || doc.byID("kd-zk") != nil || doc.byID("tab-kraft") == nil {
		t.Fatal("a KRaft cluster shows ZooKeeper, or no KRaft tab")
	}
}

func itoa32(n int32) string { return dgItoa(int64(n)) }

// The Korean page of a 2.8 cluster: the ZooKeeper tab, the ensemble and
// its messages, a broker killed and its session expired. Znode paths,
// data and stat names are ZooKeeper's and Kafka's own (lang="en").
func TestKoreanZooKeeperPageShowsNoEnglish(t *testing.T) {
	vocab := koEnglish()
	seen := map[string]bool{}
	at := newAppTest(t, "", "#lang=ko")
	at.p.ShowHeartbeats, at.p.ShowMetadata = true, true
	check := func(state string) { t.Helper(); koCheck(t, at, state, seen, vocab) }
	at.run("cluster create --version 2.8 --zookeepers 3")
	check("a 2.8 cluster")
	at.run("kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic t --partitions 3 --replication-factor 3 &")
	for range 10 { // ZooKeeper requests on the wire
		at.frames(1, 16*time.Millisecond)
		check("ZooKeeper messages on the wire")
	}
	at.run("broker kill 2")
	at.play(30 * time.Second)
	check("a broker's session expired")
}

// A broker's requests to ZooKeeper run between its card and the server's
// pill in the ensemble's row, never from the clients' box; a tool's
// (zookeeper-shell) between the clients' box and the pill; the servers'
// own quorum traffic is not drawn. (The engine's ZooKeeper round trips
// are a few milliseconds: the messages are put on a snapshot of a real
// 2.8 cluster.)
func TestZooKeeperMessagesOnTheDiagram(t *testing.T) {
	at := zkApp(t, "3")
	s := *at.p.Snapshot()
	s.InFlight = []view.Message{
		{ID: 1, From: 1, FromHost: "kafka-1", ToHost: "zookeeper-2", Kind: "create", Label: "create /brokers/topics/x", Category: "zookeeper", Progress: 0.5},
		{ID: 2, To: 3, FromHost: "zookeeper-2", ToHost: "kafka-3", Kind: "notification", Label: "NodeChildrenChanged /brokers/ids", Category: "zookeeper", Progress: 0.5},
		{ID: 3, FromHost: "zookeeper-1", ToHost: "zookeeper-3", Kind: "ACK", Label: "ACK", Category: "zookeeper", Progress: 0.5},
		{ID: 4, FromHost: "zookeeper-shell-4", ToHost: "zookeeper-1", Kind: "getChildren2", Label: "getChildren2 /", Category: "zookeeper", Progress: 0.5},
	}
	d := &Diagram{Player: at.p, Snapshot: &s}
	doc := dgRender(t, d)
	labels, _ := dgPills(t, doc)
	slices.Sort(labels)
	want := []string{"↑ create /brokers/topics/x", "↑ getChildren2 /", "↓ NodeChildrenChanged /brokers/ids"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	for _, m := range d.lay.Msgs {
		if !strings.Contains(m.Class, "kd-cat-quorum") {
			t.Errorf("%s drawn %q", m.Title, m.Class)
		}
	}
	// Each link leaves its server's pill from the bottom of the row.
	busy := 0
	for _, k := range d.lay.Links {
		if k.a <= dgLaneZK {
			busy++
			x := d.lay.Ensemble.x[dgLaneZK-k.a] + d.lay.Ensemble.w/2
			if k.p[0] != [2]float64{x, dgZkTop + dgZkH} {
				t.Errorf("the link from server %d starts at %v, not under its pill (%v)", dgLaneZK-k.a+1, k.p[0], x)
			}
		}
	}
	if busy != 3 {
		t.Errorf("%d links from the ensemble, want 3", busy)
	}
}

// A leader cut off from both followers: they elect a new leader, the old
// one is LOOKING (not serving), drawn so on the diagram and the tab, and
// the tree comes from the new leader.
func TestZooKeeperLeaderCutOff(t *testing.T) {
	at := zkApp(t, "3")
	old := at.p.Snapshot().ZooKeeper.Source
	name := "zookeeper-" + itoa32(int32(old))
	for n := 1; n <= 3; n++ {
		if n != old {
			at.run("network cut " + name + " zookeeper-" + itoa32(int32(n)))
		}
	}
	at.run("time advance 30s")
	z := at.p.Snapshot().ZooKeeper
	if z.Source == old || z.Servers[old-1].Serving || z.Servers[z.Source-1].Role != "LEADING" {
		t.Fatalf("after the cut: source %d, servers %+v", z.Source, z.Servers)
	}
	doc := at.render(nil)
	pills := dgAll(doc.byID("kd-zk"), dgByClass("kd-zk-server"))
	if len(pills) != 3 || !strings.Contains(htmltest.Attr(pills[old-1], "class"), "kd-zk-looking") {
		t.Errorf("server %d's pill is not drawn as not serving", old)
	}
	if !strings.Contains(doc.text("zk-sub"), "zookeeper-"+itoa32(int32(z.Source))) {
		t.Errorf("the tree is not read from the new leader: %q", doc.text("zk-sub"))
	}
	if doc.byID("zk-banner") != nil {
		t.Error("two serving servers show the frozen banner")
	}
}

// An ensemble whose servers cannot reach each other has no quorum: no
// server serves, metadata is frozen, and the tab, its banner and the
// diagram say so.
func TestZooKeeperQuorumLost(t *testing.T) {
	at := zkApp(t, "3")
	at.run("network cut zookeeper-1 zookeeper-2")
	at.run("network cut zookeeper-1 zookeeper-3")
	at.run("network cut zookeeper-2 zookeeper-3")
	at.run("time advance 30s")
	doc := at.render(nil)
	if doc.byID("zk-banner") == nil || len(doc.byClass("side-tab-alert")) != 1 {
		t.Fatalf("no frozen banner or tab alert: servers %+v", at.p.Snapshot().ZooKeeper.Servers)
	}
	if got := appText(dg1n(doc.root, "kd-frozen")); got != "no ZooKeeper server serving: metadata is frozen" {
		t.Errorf("the diagram says %q", got)
	}
}
