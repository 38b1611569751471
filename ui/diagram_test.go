package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// The diagram is tested the way it runs: real players on the real engine,
// rendered to HTML by Vugu's static renderer, and the markup read back.
// Hand-made snapshots cover what is hard to reach on a live cluster (a
// one-way cut, a powered-off broker, a diverged log, 30 partitions).

// dgDoc is one rendered diagram.
type dgDoc struct {
	t    *testing.T
	root *html.Node
	src  string
}

func dgRender(t *testing.T, d *Diagram) *dgDoc {
	t.Helper()
	root, src := htmltest.Render(t, d)
	return &dgDoc{t: t, root: root, src: src}
}

func dgHasClass(n *html.Node, class string) bool {
	return slices.Contains(strings.Fields(htmltest.Attr(n, "class")), class)
}

func dgText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// all lists the elements under n (n included) that match.
func dgAll(n *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func dgByClass(class string) func(*html.Node) bool {
	return func(n *html.Node) bool { return dgHasClass(n, class) }
}

func dgByAttr(key, val string) func(*html.Node) bool {
	return func(n *html.Node) bool { return htmltest.Attr(n, key) == val }
}

// one is the single element under n that matches.
func (d *dgDoc) one(n *html.Node, what string, match func(*html.Node) bool) *html.Node {
	d.t.Helper()
	if n == nil {
		n = d.root
	}
	got := dgAll(n, match)
	if len(got) != 1 {
		d.t.Fatalf("%s: %d matches, want 1", what, len(got))
	}
	return got[0]
}

// card is broker id's card in the network SVG.
func (d *dgDoc) card(id int32) *html.Node {
	d.t.Helper()
	return d.one(nil, fmt.Sprintf("card of broker %d", id), func(n *html.Node) bool {
		return dgHasClass(n, "kd-card") && htmltest.Attr(n, "data-broker") == fmt.Sprint(id)
	})
}

// replica is the log strip of partition on broker id.
func (d *dgDoc) replica(partition string, id int32) *html.Node {
	d.t.Helper()
	row := d.one(nil, "row "+partition, dgByAttr("data-partition", partition))
	return d.one(row, fmt.Sprintf("replica of %s on %d", partition, id), func(n *html.Node) bool {
		return dgHasClass(n, "kd-rep") && htmltest.Attr(n, "data-broker") == fmt.Sprint(id)
	})
}

func (d *dgDoc) texts(class string) []string {
	var out []string
	for _, n := range dgAll(d.root, dgByClass(class)) {
		out = append(out, dgText(n))
	}
	return out
}

// dgCells counts the offset cells drawn in a replica's strip, by class
// (cells of one class are drawn as one path, a subpath each).
func dgCells(rep *html.Node) map[string]int {
	out := map[string]int{}
	for _, run := range dgAll(rep, dgByClass("kd-cell")) {
		out[htmltest.Attr(run, "class")] += strings.Count(htmltest.Attr(run, "d"), "M")
	}
	return out
}

func dgCount(m map[string]int, class string) int {
	n := 0
	for k, v := range m {
		if slices.Contains(strings.Fields(k), class) {
			n += v
		}
	}
	return n
}

func dgSettle(t *testing.T, p *player.Player) {
	t.Helper()
	for i := 0; p.Busy(); i++ {
		if i > 4000 {
			t.Fatal("the command is still running after 200 s of virtual time")
		}
		p.Tick(50 * time.Millisecond)
	}
	if p.Error != "" {
		t.Fatal(p.Error)
	}
}

func dgAdvance(p *player.Player, d time.Duration) {
	for end := p.Now().Add(d); p.Now() < end; {
		p.Tick(50 * time.Millisecond)
	}
}

// dgCluster is the default 3-broker cluster with topic t (3 partitions,
// replication factor 3).
func dgCluster(t *testing.T) *player.Player {
	t.Helper()
	p := player.New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	dgSettle(t, p)
	// Brokers that follow the metadata quorum learn the topic within one
	// metadata fetch wait (500 ms) of its commit.
	dgAdvance(p, time.Second)
	return p
}

func TestDiagramEmptyClusterShowsTheHint(t *testing.T) {
	p := player.New()
	p.Boot("", "")
	doc := dgRender(t, &Diagram{Player: p})
	cards := dgAll(doc.root, dgByClass("kd-card"))
	if len(cards) != 3 {
		t.Fatalf("%d broker cards, want 3", len(cards))
	}
	for i, c := range cards {
		if got, want := dgText(dg1(doc, c, "kd-card-title")), fmt.Sprintf("broker %d", i+1); got != want {
			t.Errorf("card %d title %q, want %q", i, got, want)
		}
		if got := dgText(dg1(doc, c, "kd-state-text")); got != "running" {
			t.Errorf("card %d state %q", i, got)
		}
	}
	if hint := doc.texts("kd-empty"); len(hint) != 1 || hint[0] != p.T("no.topics") {
		t.Errorf("empty state %q, want the no.topics hint", hint)
	}
	if len(dgAll(doc.root, dgByClass("kd-parts"))) != 0 {
		t.Error("the partitions SVG is drawn without topics")
	}
	// The controller badge is on the node hosting the active controller.
	s := p.Snapshot()
	ctl := doc.card(s.Controller.NodeID)
	want := fmt.Sprintf("epoch %d · HW %d", s.Controller.Epoch, s.Controller.HighWatermark)
	if got := dgText(dg1(doc, ctl, "kd-ctl-info")); got != want {
		t.Errorf("controller badge %q, want %q", got, want)
	}
	if n := len(dgAll(doc.root, dgByClass("kd-ctl"))); n != 1 {
		t.Errorf("%d controller badges, want 1", n)
	}
}

// d1 is the one element of class under n.
func dg1(doc *dgDoc, n *html.Node, class string) *html.Node {
	doc.t.Helper()
	return doc.one(n, class, dgByClass(class))
}

func TestDiagramPartitionsAndLeaders(t *testing.T) {
	p := dgCluster(t)
	p.Run("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t", []string{"a", "b", "c", "d", "e"})
	dgSettle(t, p)
	doc := dgRender(t, &Diagram{Player: p})
	s := p.Snapshot()
	if len(s.Topics) != 1 || len(s.Topics[0].Partitions) != 3 {
		t.Fatalf("topics %+v", s.Topics)
	}
	if got := doc.texts("kd-topic-name"); len(got) != 1 || got[0] != "t" {
		t.Errorf("topic headers %q", got)
	}
	written := int64(0)
	for _, part := range s.Topics[0].Partitions {
		name := fmt.Sprintf("t-%d", part.Index)
		row := doc.one(nil, name, dgByAttr("data-partition", name))
		if got, want := dgText(dg1(doc, row, "kd-pname")), name; got != want {
			t.Errorf("row name %q, want %q", got, want)
		}
		if got, want := dgText(dg1(doc, row, "kd-psub")), fmt.Sprintf("leader %d · epoch %d", part.Leader, part.LeaderEpoch); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
		reps := dgAll(row, dgByClass("kd-rep"))
		if len(reps) != 3 {
			t.Fatalf("%s: %d replicas drawn, want 3", name, len(reps))
		}
		for _, r := range part.Replicas {
			rep := doc.replica(name, r.Broker)
			chip := dgText(dg1(doc, rep, "kd-chip-text"))
			wantChip, wantRole := "F", "follower"
			if r.Broker == part.Leader {
				wantChip, wantRole = "L", "leader"
			}
			if chip != wantChip || htmltest.Attr(rep, "data-role") != wantRole {
				t.Errorf("%s on broker %d: chip %q role %q, want %q %q", name, r.Broker, chip, htmltest.Attr(rep, "data-role"), wantChip, wantRole)
			}
			cells := dgCells(rep)
			if n := dgCount(cells, "kd-cell"); n != len(r.Cells) {
				t.Errorf("%s on broker %d: %d cells drawn, the log has %d", name, r.Broker, n, len(r.Cells))
			}
			if n := dgCount(cells, "kd-e0"); n != len(r.Cells) {
				t.Errorf("%s on broker %d: %d of %d cells have epoch 0's colour: %v", name, r.Broker, n, len(r.Cells), cells)
			}
			if want := fmt.Sprintf("LEO %d · HW %d", r.LEO, r.HW); dgText(dg1(doc, rep, "kd-caption-r")) != want {
				t.Errorf("%s on %d: caption %q, want %q", name, r.Broker, dgText(dg1(doc, rep, "kd-caption-r")), want)
			}
		}
		for _, r := range part.Replicas {
			if r.Broker == part.Leader {
				written += r.LEO
			}
		}
	}
	if written != 5 {
		t.Errorf("the leaders hold %d records, want the 5 produced", written)
	}
}

func TestDiagramKilledBrokerThenNewLeader(t *testing.T) {
	p := dgCluster(t)
	d := &Diagram{Player: p}
	// Broker 2 is not the controller's node, so the controller elects new
	// leaders for what it led once its session times out.
	var led string
	for _, part := range p.Snapshot().Topics[0].Partitions {
		if part.Leader == 2 {
			led = fmt.Sprintf("t-%d", part.Index)
		}
	}
	if led == "" {
		t.Fatal("broker 2 leads nothing")
	}
	if err := p.BrokerAction(2, "kill"); err != nil {
		t.Fatal(err)
	}
	doc := dgRender(t, d)
	card := doc.card(2)
	if !dgHasClass(card, "kd-st-killed") || dgText(dg1(doc, card, "kd-state-text")) != "killed" {
		t.Fatalf("broker 2 is not drawn killed: class %q", htmltest.Attr(card, "class"))
	}
	// Its replicas keep their last log, dimmed, and say offline.
	rep := doc.replica(led, 2)
	if !dgHasClass(rep, "kd-rep-down") || htmltest.Attr(rep, "data-role") != "offline" {
		t.Errorf("the dead broker's replica: class %q role %q", htmltest.Attr(rep, "class"), htmltest.Attr(rep, "data-role"))
	}

	dgAdvance(p, 12*time.Second) // past broker.session.timeout.ms (9 s)
	doc = dgRender(t, d)
	var part view.Partition
	for _, x := range p.Snapshot().Topics[0].Partitions {
		if fmt.Sprintf("t-%d", x.Index) == led {
			part = x
		}
	}
	if part.Leader == 2 || part.Leader < 0 || part.LeaderEpoch < 1 {
		t.Fatalf("%s after the session timeout: leader %d epoch %d", led, part.Leader, part.LeaderEpoch)
	}
	if role := htmltest.Attr(doc.replica(led, part.Leader), "data-role"); role != "leader" {
		t.Errorf("the new leader %d of %s is drawn as %q", part.Leader, led, role)
	}
	row := doc.one(nil, led, dgByAttr("data-partition", led))
	if got, want := dgText(dg1(doc, row, "kd-psub")), fmt.Sprintf("leader %d · epoch %d", part.Leader, part.LeaderEpoch); got != want {
		t.Errorf("%s label %q, want %q", led, got, want)
	}
	if got := dgText(dg1(doc, row, "kd-pisr")); strings.Contains(got, "2") {
		t.Errorf("%s: %q still lists broker 2 in the ISR", led, got)
	}
	if chip := dg1(doc, doc.replica(led, 2), "kd-chip"); !dgHasClass(chip, "kd-chip-out") {
		t.Errorf("broker 2's replica is not drawn out of the ISR: %q", htmltest.Attr(chip, "class"))
	}
}

func TestDiagramControllerDownFreezesMetadata(t *testing.T) {
	p := dgCluster(t)
	var keyed []string // keys spread the records over the partitions
	for i := range 12 {
		keyed = append(keyed, fmt.Sprintf("key-%d:v", i))
	}
	p.Run("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t --property parse.key=true --property key.separator=:", keyed)
	dgSettle(t, p)
	dgAdvance(p, 2*time.Second)        // the followers learn the HW
	for _, id := range []int32{1, 2} { // two of the three controller voters: no quorum
		if err := p.BrokerAction(id, "kill"); err != nil {
			t.Fatal(err)
		}
	}
	// A leader left alone resigns once no voter has fetched for 1.5 times
	// controller.quorum.fetch.timeout.ms (3 s): then nobody is active.
	dgAdvance(p, 4*time.Second)
	doc := dgRender(t, &Diagram{Player: p})
	// Nobody elects a new leader: the partitions broker 1 led say their
	// leader is down, and what any replica knew to be committed stays drawn
	// committed.
	checked := 0
	for _, part := range p.Snapshot().Topics[0].Partitions {
		if part.Leader != 1 {
			continue
		}
		name := fmt.Sprintf("t-%d", part.Index)
		row := doc.one(nil, name, dgByAttr("data-partition", name))
		// The first column has room for the leader; the epoch is in the
		// row's tooltip (and in each replica's caption).
		if got, want := dgText(dg1(doc, row, "kd-psub")), "leader 1 is down"; got != want || !dgHasClass(row, "kd-noleader") {
			t.Errorf("%s: %q (class %q), want %q", name, got, htmltest.Attr(row, "class"), want)
		}
		if got, want := dgText(dg1(doc, row, "kd-prow-tip")), fmt.Sprintf("leader 1 is down · epoch %d", part.LeaderEpoch); !strings.Contains(got, want) {
			t.Errorf("%s: tooltip %q, want it to say %q", name, got, want)
		}
		known := int64(0)
		for _, r := range part.Replicas {
			known = max(known, r.HW)
		}
		for _, r := range part.Replicas {
			want := 0
			for _, c := range r.Cells {
				if c.Offset >= known {
					want++
				}
			}
			if got := dgCount(dgCells(doc.replica(name, r.Broker)), "kd-unc"); got != want {
				t.Errorf("%s on %d: %d cells drawn uncommitted, want %d (HW known: %d)", name, r.Broker, got, want, known)
			}
			checked += len(r.Cells)
		}
	}
	if checked == 0 {
		t.Fatal("broker 1 led no partition with records")
	}
	// The banner says why: the quorum is lost, not merely between leaders.
	if got := doc.texts("kd-frozen"); len(got) != 1 || got[0] != p.T("quorum.lost.short") {
		t.Fatalf("frozen banner %q", got)
	}
	if n := len(dgAll(doc.root, dgByClass("kd-ctl"))); n != 0 {
		t.Errorf("%d controller badges without an active controller", n)
	}
	if doc.texts("kd-summary")[0] != "Kafka 4.3 · 3 brokers" {
		t.Errorf("summary %q", doc.texts("kd-summary"))
	}
}

func TestDiagramMessagesInFlight(t *testing.T) {
	p := dgCluster(t)
	p.Run("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t", []string{"x", "y", "z"})
	// Step one event at a time until data messages are on the wire.
	var want []string
	for i := 0; i < 200 && len(want) == 0; i++ {
		p.StepEvent()
		for _, m := range p.Snapshot().InFlight {
			if m.Category == "data" {
				want = append(want, m.Label)
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no data message was ever in flight")
	}
	doc := dgRender(t, &Diagram{Player: p})
	var got []string
	for _, l := range doc.texts("kd-msg-label") {
		got = append(got, strings.Trim(l, "←→ ")) // the arrow says which way it goes
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("message %q is not drawn (labels: %q)", w, got)
		}
	}
}

func TestDiagramKoreanLegend(t *testing.T) {
	p := dgCluster(t)
	p.SetLang(i18n.Korean)
	doc := dgRender(t, &Diagram{Player: p})
	if lang := htmltest.Attr(dg1(doc, doc.root, "kd"), "lang"); lang != "ko" {
		t.Errorf("lang %q", lang)
	}
	legend := dgText(dg1(doc, doc.root, "kd-legend"))
	for _, key := range []string{"legend.epoch", "committed", "uncommitted", "legend.hw", "legend.leo", "leader", "follower", "isr.out"} {
		ko := p.T(key)
		if !strings.Contains(legend, ko) {
			t.Errorf("legend lacks %s = %q: %q", key, ko, legend)
		}
	}
	for _, en := range []string{"leader epoch", "committed", "follower"} {
		if strings.Contains(legend, en) {
			t.Errorf("the Korean legend still says %q", en)
		}
	}
	if got := dgText(dg1(doc, doc.card(1), "kd-state-text")); got != "실행 중" {
		t.Errorf("Korean state %q", got)
	}
}

func TestDiagramBrokerMenu(t *testing.T) {
	p := dgCluster(t)
	d := &Diagram{Player: p}
	d.clickBroker(2)
	doc := dgRender(t, d)
	menu := dg1(doc, doc.root, "kd-menu")
	items := dgAll(menu, dgByClass("kd-menu-item"))
	var labels, disabled []string
	for _, it := range items {
		labels = append(labels, dgText(it))
		if htmltest.Attr(it, "disabled") != "" {
			disabled = append(disabled, dgText(it))
		}
	}
	wantLabels := []string{"Kill (crash)", "Power loss", "Stop (SIGTERM)", "Start", "Isolate from the network", "Heal its network"}
	if !slices.Equal(labels, wantLabels) {
		t.Errorf("menu %q, want %q", labels, wantLabels)
	}
	if !slices.Equal(disabled, []string{"Start", "Heal its network"}) {
		t.Errorf("disabled on a running broker: %q", disabled)
	}
	d.act("kill")
	if d.menu != 0 {
		t.Error("the menu stays open after an action")
	}
	if st := p.Snapshot().Nodes[1].State; st != "killed" {
		t.Fatalf("broker 2 is %s after Kill", st)
	}
	d.clickBroker(2)
	doc = dgRender(t, d)
	disabled = nil
	for _, it := range dgAll(doc.root, dgByClass("kd-menu-item")) {
		if htmltest.Attr(it, "disabled") != "" {
			disabled = append(disabled, dgText(it))
		}
	}
	if !slices.Equal(disabled, []string{"Kill (crash)", "Power loss", "Stop (SIGTERM)", "Heal its network"}) {
		t.Errorf("disabled on a killed broker: %q", disabled)
	}
	d.act("isolate")
	if !p.Snapshot().Nodes[1].Isolated {
		t.Fatal("Isolate did not cut broker 2 off")
	}
	d.clickBroker(2)
	d.clickBroker(2) // a second click closes
	if d.menu != 0 {
		t.Error("a second click does not close the menu")
	}
}

func TestDiagramToggles(t *testing.T) {
	p := dgCluster(t)
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	toggles := dgAll(doc.root, dgByClass("kd-toggle"))
	if len(toggles) != 2 || htmltest.Attr(toggles[0], "aria-pressed") != "false" {
		t.Fatalf("toggles %d, first pressed %q", len(toggles), htmltest.Attr(toggles[0], "aria-pressed"))
	}
	d.toggleHeartbeats()
	d.toggleMetadata()
	if !p.ShowHeartbeats || !p.ShowMetadata {
		t.Fatal("the toggles do not reach the player")
	}
	doc = dgRender(t, d)
	for _, tg := range dgAll(doc.root, dgByClass("kd-toggle")) {
		if htmltest.Attr(tg, "aria-pressed") != "true" {
			t.Errorf("toggle %q not pressed", dgText(tg))
		}
	}
	d.toggleTopic("t")
	doc = dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 0 {
		t.Errorf("%d partition rows of a folded topic", n)
	}
	if got := doc.texts("kd-fold"); len(got) != 1 || got[0] != "▸" {
		t.Errorf("fold mark %q", got)
	}
}

func TestDiagramHighlightsTheLastStep(t *testing.T) {
	p := player.New()
	if err := p.OpenScenario("04-isr", 1000); err != nil {
		t.Fatal(err)
	}
	doc := dgRender(t, &Diagram{Player: p})
	s := p.Snapshot()
	marked := 0
	for _, tp := range s.Topics {
		for _, part := range tp.Partitions {
			name := fmt.Sprintf("%s-%d", part.Topic, part.Index)
			row := doc.one(nil, name, dgByAttr("data-partition", name))
			if got, want := dgHasClass(row, "kd-changed"), p.Changed("partition/"+name); got != want {
				t.Errorf("%s: highlighted %v, changed %v", name, got, want)
			}
			for _, r := range part.Replicas {
				rep := doc.replica(name, r.Broker)
				if got, want := dgHasClass(rep, "kd-changed"), p.Changed(fmt.Sprintf("replica/%s/%d", name, r.Broker)); got != want {
					t.Errorf("%s on %d: highlighted %v, changed %v", name, r.Broker, got, want)
				}
				if dgHasClass(rep, "kd-changed") {
					marked++
				}
			}
			if dgHasClass(row, "kd-changed") {
				marked++
			}
		}
	}
	for _, n := range s.Nodes {
		glow := len(dgAll(doc.card(n.ID), dgByClass("kd-glow"))) == 1
		if glow != p.Changed(fmt.Sprintf("broker/%d", n.ID)) {
			t.Errorf("broker %d: glow %v", n.ID, glow)
		}
		if glow {
			marked++
		}
	}
	if marked == 0 {
		t.Fatal("the scenario's last step highlights nothing")
	}
}

// dgHandMade is a snapshot no live cluster is in at one instant: broker 2
// lost power, 1 → 3 is cut one way, and partition orders-0's replicas
// disagree (leader 1 at epoch 4 has uncommitted records, broker 2 kept an
// old log).
func dgHandMade() *view.Snapshot {
	cells := func(from, to int64, epochAt func(int64) int32, committedBelow int64) []view.Cell {
		var out []view.Cell
		for o := max(from, to-view.MaxCells); o < to; o++ {
			out = append(out, view.Cell{Offset: o, Epoch: epochAt(o), Committed: o < committedBelow})
		}
		return out
	}
	epoch := func(o int64) int32 {
		if o < 10 {
			return 3
		}
		return 4
	}
	return &view.Snapshot{
		Nodes: []view.Node{
			{ID: 1, Host: "kafka-1", State: "running", BrokerState: "RUNNING", Registered: true, IsController: true, MetadataOffset: 119, Leads: 1},
			{ID: 2, Host: "kafka-2", State: "power-off", Registered: true, Fenced: true},
			{ID: 3, Host: "kafka-3", State: "running", BrokerState: "RUNNING", Registered: true, MetadataOffset: 110},
		},
		Controller: view.Controller{NodeID: 1, Epoch: 4, HighWatermark: 120},
		Topics: []view.Topic{{Name: "orders", Partitions: []view.Partition{{
			Topic: "orders", Index: 0, Leader: 1, LeaderEpoch: 4, Assignment: []int32{1, 2, 3}, ISR: []int32{1, 3}, CommittedHW: 18,
			Replicas: []view.Replica{
				{Broker: 1, Present: true, Role: "leader", InISR: true, LEO: 20, HW: 18, LSO: 18, LeaderEpoch: 4, Cells: cells(0, 20, epoch, 18), LeaderViewLEO: -1},
				{Broker: 2, Present: true, Role: "offline", LEO: 12, HW: 9, LSO: 9, LeaderEpoch: 3, Cells: cells(0, 12, epoch, 9), LeaderViewLEO: 12},
				{Broker: 3, Present: true, Role: "follower", InISR: true, LEO: 19, HW: 17, LSO: 17, LeaderEpoch: 4, Cells: cells(0, 19, epoch, 18), LeaderViewLEO: 18},
			},
		}}}},
		InFlight: []view.Message{
			{ID: 1, From: 3, To: 1, FromHost: "kafka-3", ToHost: "kafka-1", Kind: "Fetch", Label: "Fetch @19", Category: "data", Progress: 0.4},
			{ID: 2, From: 1, To: 3, FromHost: "kafka-1", ToHost: "kafka-3", Kind: "FetchResponse", Label: "HW 18", Category: "data", Progress: 0.7},
			{ID: 3, From: 0, To: 1, FromHost: "kafka-console-producer-1", ToHost: "kafka-1", Kind: "Produce", Label: "Produce", Category: "data", Progress: 0.5},
			{ID: 4, From: 3, To: 1, FromHost: "kafka-3", ToHost: "kafka-1", Kind: "BrokerHeartbeat", Label: "BrokerHeartbeat", Category: "heartbeat", Progress: 0.5},
			{ID: 5, From: 3, To: 1, FromHost: "kafka-3", ToHost: "kafka-1", Kind: "Fetch(__cluster_metadata)", Label: "Fetch(__cluster_metadata)", Category: "metadata", Progress: 0.2},
		},
		Clients: []string{"kafka-console-producer-1"},
		Cuts:    [][2]int32{{1, 3}},
	}
}

func TestDiagramHandMadeSnapshot(t *testing.T) {
	d := &Diagram{Snapshot: dgHandMade()} // no player: a still picture, in English
	doc := dgRender(t, d)

	card := doc.card(2)
	if !dgHasClass(card, "kd-st-power-off") || dgText(dg1(doc, card, "kd-state-text")) != "power off" {
		t.Errorf("broker 2: class %q", htmltest.Attr(card, "class"))
	}
	if got := doc.texts("kd-cut-label"); !slices.Equal(got, []string{"✕ 1→3"}) {
		t.Errorf("cut labels %q, want the one-way cut 1→3", got)
	}
	// Heartbeats and metadata messages are hidden unless asked for.
	if got := doc.texts("kd-msg-label"); !slices.Equal(got, []string{"← Fetch @19", "HW 18 →", "Produce →"}) {
		t.Errorf("messages %q", got)
	}
	if got := doc.texts("kd-client-line"); !slices.Equal(got, []string{"console-producer-1"}) {
		t.Errorf("clients %q", got)
	}

	// The window is the last 16 offsets of the longest log: 4..19.
	lead := doc.replica("orders-0", 1)
	cells := dgCells(lead)
	if n := dgCount(cells, "kd-cell"); n != 16 {
		t.Fatalf("leader: %d cells", n)
	}
	if len(dgAll(lead, dgByClass("kd-cell"))) != 3 {
		t.Errorf("leader: cells drawn as %v, want 3 paths (epoch 3, epoch 4, epoch 4 uncommitted)", cells)
	}
	if unc, e3 := dgCount(cells, "kd-unc"), dgCount(cells, "kd-e3"); unc != 2 || e3 != 6 {
		t.Errorf("leader: %d uncommitted cells (want 2: offsets 18, 19), %d of epoch 3 (want 6: offsets 4-9)", unc, e3)
	}
	if n := dgCount(dgCells(doc.replica("orders-0", 2)), "kd-cell"); n != 8 {
		t.Errorf("broker 2's old log: %d cells in the window, want 8 (offsets 4-11)", n)
	}
	if !dgHasClass(doc.replica("orders-0", 2), "kd-rep-down") {
		t.Error("broker 2's replica is not dimmed")
	}
	// HW lines: where each replica believes the HW is.
	hwX := func(broker int32) string {
		return htmltest.Attr(doc.one(doc.replica("orders-0", broker), "HW line", func(n *html.Node) bool { return n.Data == "line" }), "x1")
	}
	if hwX(1) == hwX(3) {
		t.Errorf("the leader (HW 18) and the follower (HW 17) draw the HW at the same x %s", hwX(1))
	}
	if got := doc.texts("kd-off"); len(got) == 0 || got[0] != "4" {
		t.Errorf("offsets in the cells: %q", got)
	}
	var legend []string
	for _, n := range dgAll(doc.root, dgByClass("kd-swatch")) {
		legend = append(legend, dgText(n))
	}
	if !slices.Equal(legend, []string{"3", "4"}) {
		t.Errorf("legend epochs %q, want the two on screen", legend)
	}
	if len(dgAll(doc.root, dgByClass("kd-tools"))) != 0 {
		t.Error("toggles drawn without a player")
	}
	d.clickBroker(1)
	if d.menu != 0 {
		t.Error("a still picture opened a menu")
	}

	// The cards do not move when messages come and go.
	quiet := dgHandMade()
	quiet.InFlight = nil
	q := dgRender(t, &Diagram{Snapshot: quiet})
	top := func(doc *dgDoc) string {
		return htmltest.Attr(dg1(doc, doc.root, "kd-net"), "viewbox") + htmltest.Attr(doc.card(1), "transform")
	}
	if top(doc) != top(q) {
		t.Errorf("the network moved: %s vs %s", top(doc), top(q))
	}
}

// dgMany is 9 brokers and three topics of 10 partitions each.
func dgMany() *view.Snapshot {
	s := &view.Snapshot{Controller: view.Controller{NodeID: 1, Epoch: 1, HighWatermark: 200}}
	for id := int32(1); id <= 9; id++ {
		s.Nodes = append(s.Nodes, view.Node{ID: id, Host: fmt.Sprintf("kafka-%d", id), State: "running", BrokerState: "RUNNING", IsController: id == 1, MetadataOffset: 199})
	}
	for _, name := range []string{"clicks", "orders", "payments"} {
		tp := view.Topic{Name: name}
		for i := int32(0); i < 10; i++ {
			a := []int32{1 + i%9, 1 + (i+1)%9, 1 + (i+2)%9}
			part := view.Partition{Topic: name, Index: i, Leader: a[0], Assignment: a, ISR: a, CommittedHW: 40}
			for k, b := range a {
				r := view.Replica{Broker: b, Present: true, Role: "follower", InISR: true, LEO: 40, HW: 40, LSO: 40, LeaderViewLEO: 40}
				if k == 0 {
					r.Role, r.LeaderViewLEO = "leader", -1
				}
				for o := int64(40 - view.MaxCells); o < 40; o++ {
					r.Cells = append(r.Cells, view.Cell{Offset: o, Epoch: int32(o / 10), Committed: true})
				}
				part.Replicas = append(part.Replicas, r)
			}
			tp.Partitions = append(tp.Partitions, part)
		}
		s.Topics = append(s.Topics, tp)
	}
	return s
}

func TestDiagramManyPartitions(t *testing.T) {
	d := &Diagram{Snapshot: dgMany()}
	doc := dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-card"))); n != 9 {
		t.Fatalf("%d cards", n)
	}
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 30 {
		t.Fatalf("%d partition rows", n)
	}
	if got, want := doc.texts("kd-more"), []string{"14 more partitions (scroll)"}; !slices.Equal(got, want) {
		t.Errorf("overflow note %q, want %q", got, want)
	}
	if n := len(dgAll(doc.root, dgByClass("kd-caption"))); n != 0 {
		t.Errorf("compact rows still carry %d captions", n)
	}
	if n := len(dgAll(doc.root, dgByClass("kd-off"))); n != 0 {
		t.Errorf("%d offsets written in tiny cells", n)
	}
	d.toggleTopic("orders")
	d.toggleTopic("payments")
	doc = dgRender(t, d)
	if n := len(dgAll(doc.root, dgByClass("kd-prow"))); n != 10 {
		t.Errorf("%d rows with two topics folded", n)
	}
	if n := len(doc.texts("kd-more")); n != 0 {
		t.Error("the overflow note stays when everything fits")
	}
	if n := len(dgAll(doc.root, dgByClass("kd-caption"))); n == 0 {
		t.Error("10 rows should have room for captions")
	}
}

// TestDiagramSVGNamespace checks what the DOM renderer relies on: every
// element inside an <svg> is built in the SVG namespace (domrender creates
// it with createElementNS), and the HTML around it is not; the partition
// rows, components of their own (DgRowMemo), included.
func TestDiagramSVGNamespace(t *testing.T) {
	p := dgCluster(t)
	d := &Diagram{Player: p}
	d.clickBroker(1)
	env, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	br := env.RunBuild(d)
	out := br.Out.Out[0]
	svgs, htmls := 0, 0
	var walk func(n *vugu.VGNode, inSVG bool)
	walk = func(n *vugu.VGNode, inSVG bool) {
		if n.Component != nil { // a partition row (DgRowMemo): its output goes here
			for _, c := range br.ResultFor(n.Component).Out {
				walk(c, inSVG)
			}
			return
		}
		if n.Type == vugu.ElementNode {
			if n.Data == "svg" {
				inSVG = true
			}
			switch {
			case inSVG && n.Namespace != "svg":
				t.Errorf("<%s> inside an SVG has namespace %q", n.Data, n.Namespace)
			case !inSVG && n.Namespace != "":
				t.Errorf("HTML <%s> has namespace %q", n.Data, n.Namespace)
			case inSVG:
				svgs++
			default:
				htmls++
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inSVG)
		}
	}
	walk(out, false)
	if svgs < 100 || htmls < 10 {
		t.Errorf("%d SVG and %d HTML elements: the walk missed the diagram", svgs, htmls)
	}
}

func BenchmarkDiagramBuild(b *testing.B) {
	d := &Diagram{Snapshot: dgMany()}
	env, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		env.RunBuild(d)
	}
}

func BenchmarkDiagramBuildSmall(b *testing.B) {
	d := &Diagram{Snapshot: dgHandMade()}
	env, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		env.RunBuild(d)
	}
}

// A partition whose leader died says for how long it has been unavailable;
// when the controller elects another leader the row pulses and the warning
// goes away.
func TestDiagramUnavailableTimerAndElection(t *testing.T) {
	p := dgCluster(t)
	d := &Diagram{Player: p}
	var led string
	for _, part := range p.Snapshot().Topics[0].Partitions {
		if part.Leader == 2 {
			led = fmt.Sprintf("t-%d", part.Index)
		}
	}
	dgRender(t, d)
	if err := p.BrokerAction(2, "kill"); err != nil {
		t.Fatal(err)
	}
	dgAdvance(p, 3*time.Second)
	doc := dgRender(t, d)
	row := doc.one(nil, led, dgByAttr("data-partition", led))
	if got := dgText(dg1(doc, row, "kd-palert")); !strings.HasPrefix(got, "unavailable 3.") {
		t.Fatalf("%s warning %q, want unavailable 3.x s (the first column's short form)", led, got)
	}
	if got := dgText(dg1(doc, row, "kd-prow-tip")); !strings.Contains(got, "unavailable for 3.") {
		t.Errorf("%s tooltip %q, want it to say unavailable for 3.x s", led, got)
	}
	dgAdvance(p, 9*time.Second)
	doc = dgRender(t, d)
	row = doc.one(nil, led, dgByAttr("data-partition", led))
	if len(dgAll(row, dgByClass("kd-palert"))) != 0 {
		t.Errorf("%s still warns after the new leader took over", led)
	}
	if !dgHasClass(row, "kd-elected") {
		t.Errorf("%s does not mark the election: class %q", led, htmltest.Attr(row, "class"))
	}
}

// After an unclean election the lost committed offsets are marked on the
// strips and named in the row's warning; when the old leader returns and
// truncates the record, the removed cell fades out in its strip.
func TestDiagramLostDataAndTruncation(t *testing.T) {
	p := player.New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic u --replica-assignment 1:2", nil)
	dgSettle(t, p)
	p.Run("kafka-console-producer.sh --topic u", []string{"kept"})
	dgSettle(t, p)
	dgAdvance(p, time.Second)
	p.Run("network cut 1 2", nil)
	dgSettle(t, p)
	p.Run("kafka-console-producer.sh --topic u --producer-property acks=1", []string{"lost"})
	dgSettle(t, p)
	dgAdvance(p, 45*time.Second) // broker 2 leaves the ISR
	for _, cmd := range []string{"broker kill 1", "network heal",
		"kafka-configs.sh --alter --topic u --add-config unclean.leader.election.enable=true"} {
		p.Run(cmd, nil)
		dgSettle(t, p)
	}
	dgAdvance(p, 6*time.Minute) // the controller's unclean election check
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	row := doc.one(nil, "u-0", dgByAttr("data-partition", "u-0"))
	if got := dgText(dg1(doc, row, "kd-palert")); got != "lost 1 record(s)" {
		t.Fatalf("u-0 warning %q", got)
	}
	if got := dgText(dg1(doc, row, "kd-prow-tip")); !strings.Contains(got, "lost 1 committed record(s)") {
		t.Errorf("u-0 tooltip %q", got)
	}
	if n := len(dgAll(doc.replica("u-0", 2), dgByClass("kd-lost"))); n != 1 {
		t.Errorf("broker 2's strip has %d lost marks, want 1", n)
	}
	p.Run("broker start 1", nil)
	dgSettle(t, p)
	dgRender(t, d)              // broker 1 recovered its log: two offsets
	dgAdvance(p, 2*time.Second) // it follows broker 2 and cuts "lost"
	doc = dgRender(t, d)
	cuts := dgAll(doc.replica("u-0", 1), dgByClass("kd-cut"))
	if len(cuts) != 1 || htmltest.Attr(cuts[0], "opacity") == "" {
		t.Errorf("broker 1's truncated cell is not drawn fading (%d kd-cut paths)", len(cuts))
	}
}

// TestDiagramMarksEligibleLeaderReplicas: a replica out of the ISR but in
// the ELR (KIP-966) is drawn as eligible, not as a warning; one merely out
// of the ISR keeps the warning.
func TestDiagramMarksEligibleLeaderReplicas(t *testing.T) {
	s := dgHandMade()
	p := &s.Topics[0].Partitions[0]
	p.ISR, p.ELR = []int32{1}, []int32{3}
	p.Replicas[2].InISR, p.Replicas[2].InELR = false, true
	doc := dgRender(t, &Diagram{Snapshot: s})
	elr := doc.replica("orders-0", 3)
	if chip := dg1(doc, elr, "kd-chip"); !dgHasClass(chip, "kd-chip-elr") {
		t.Errorf("ELR replica's chip: class %q", htmltest.Attr(chip, "class"))
	}
	if cap := dgAll(elr, dgByClass("kd-caption-elr")); len(cap) != 1 || !strings.Contains(dgText(cap[0]), "eligible leader (ELR)") {
		t.Errorf("ELR replica's caption: %d drawn", len(cap))
	}
	if !strings.Contains(dgText(elr), "eligible leader (ELR)") {
		t.Errorf("ELR replica says %q", dgText(elr))
	}
	out := doc.replica("orders-0", 2)
	if chip := dg1(doc, out, "kd-chip"); dgHasClass(chip, "kd-chip-elr") || !dgHasClass(chip, "kd-chip-out") {
		t.Errorf("out-of-ISR replica's chip: class %q", htmltest.Attr(chip, "class"))
	}
}
