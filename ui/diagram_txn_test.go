package ui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/view"
	"kafkascope/ui/internal/htmltest"
)

// dgWithTxns is the hand-made cluster with topic pay (one partition,
// leader 1) holding, as transactions.txt leaves it: a committed
// transaction at 0-3 and its COMMIT marker at 4, an aborted one at 5-9
// and its ABORT marker at 10, and a transaction open from 11 (12 is its
// record too). The leader's HW is 13, its LSO 11 (the open
// transaction's first offset); follower 3 lacks the ABORT marker so far,
// so it sees 5-9 open as well, and its LSO is 5; follower 2 is down and
// stopped before any transaction (LSO = HW).
func dgWithTxns() *view.Snapshot {
	s := dgHandMade()
	kinds := func(to int64, open int64) []view.Cell {
		var out []view.Cell
		for o := int64(0); o < to; o++ {
			c := view.Cell{Offset: o, Epoch: 4, Committed: o < 13}
			switch {
			case o < 4:
				c.Txn = view.TxnCommitted
			case o == 4:
				c.Marker, c.Txn = true, view.TxnCommitted
			case o >= open:
				c.Txn = view.TxnOpen
			case o < 10:
				c.Txn = view.TxnAborted
			case o == 10:
				c.Marker, c.Txn = true, view.TxnAborted
			}
			out = append(out, c)
		}
		return out
	}
	cells3 := kinds(10, 5) // no ABORT marker yet: 5-9 open
	s.Topics = append(s.Topics, view.Topic{Name: "pay", Partitions: []view.Partition{{
		Topic: "pay", Index: 0, Leader: 1, LeaderEpoch: 4, Assignment: []int32{1, 2, 3}, ISR: []int32{1, 3}, CommittedHW: 13,
		Replicas: []view.Replica{
			{Broker: 1, Present: true, Role: "leader", InISR: true, LEO: 13, HW: 13, LSO: 11, LeaderEpoch: 4, Cells: kinds(13, 11), LeaderViewLEO: -1},
			{Broker: 2, Present: true, Role: "offline", LEO: 0, HW: 0, LSO: 0, LeaderEpoch: 3, LeaderViewLEO: 0},
			{Broker: 3, Present: true, Role: "follower", InISR: true, LEO: 10, HW: 10, LSO: 5, LeaderEpoch: 4, Cells: cells3, LeaderViewLEO: 10},
		},
	}}})
	return s
}

// subpaths counts the cells (a subpath each) of a replica's runs whose
// class has every one of classes, and lists their offsets' x.
func subpaths(rep *html.Node, classes ...string) int {
	n := 0
	for _, run := range dgAll(rep, func(n *html.Node) bool { return n.Data == "path" }) {
		ok := true
		for _, c := range classes {
			ok = ok && dgHasClass(run, c)
		}
		if ok {
			n += strings.Count(htmltest.Attr(run, "d"), "M")
		}
	}
	return n
}

// runTips are the tooltips of a replica's runs.
func runTips(rep *html.Node) []string {
	var out []string
	for _, run := range dgAll(rep, func(n *html.Node) bool { return n.Data == "path" && dgHasClass(n, "kd-cell") }) {
		for _, tl := range dgAll(run, func(n *html.Node) bool { return n.Data == "title" }) {
			out = append(out, dgText(tl))
		}
	}
	return out
}

// The strips draw what each replica's log says of transactions: exactly
// the aborted records faded and struck through, exactly the markers as
// markers, the records of an open transaction ringed; a committed
// transaction's records as plain data. The LSO line is drawn where the
// LSO is below the HW, left of the HW line, and nowhere else; the legend
// explains what is drawn, and only that.
func TestDiagramStripsShowTransactions(t *testing.T) {
	doc := dgRender(t, &Diagram{Snapshot: dgWithTxns()})

	lead := doc.replica("pay-0", 1)
	if n := subpaths(lead, "kd-cell", "kd-txn-aborted"); n != 5 {
		t.Errorf("leader: %d aborted cells, want 5 (offsets 5-9)", n)
	}
	if n := subpaths(lead, "kd-strike"); n != 5 {
		t.Errorf("leader: %d struck cells, want the 5 aborted", n)
	}
	if c, a := subpaths(lead, "kd-marker-commit"), subpaths(lead, "kd-marker-abort"); c != 1 || a != 1 {
		t.Errorf("leader: %d COMMIT and %d ABORT markers, want one each", c, a)
	}
	if n := subpaths(lead, "kd-txn-open"); n != 2 {
		t.Errorf("leader: %d open cells, want 2 (offsets 11, 12)", n)
	}
	if n := subpaths(lead, "kd-cell"); n != 13 {
		t.Errorf("leader: %d cells, want 13", n)
	}
	// The committed transaction's records are data: no transactional class.
	plain := 0
	for _, run := range dgAll(lead, dgByClass("kd-cell")) {
		if !strings.Contains(htmltest.Attr(run, "class"), "kd-txn") && !dgHasClass(run, "kd-marker") {
			plain += strings.Count(htmltest.Attr(run, "d"), "M")
		}
	}
	if plain != 4 {
		t.Errorf("leader: %d plain data cells, want the committed transaction's 4", plain)
	}
	follower := doc.replica("pay-0", 3)
	if a, o, m := subpaths(follower, "kd-txn-aborted"), subpaths(follower, "kd-txn-open"), subpaths(follower, "kd-marker-abort"); a != 0 || o != 5 || m != 0 {
		t.Errorf("follower 3 without the ABORT marker: %d aborted, %d open, %d ABORT markers; want 0, 5, 0", a, o, m)
	}

	// Each kind's run says what it is.
	tips := runTips(lead)
	for _, key := range []string{"txn.aborted.tip", "txn.commit.tip", "txn.abort.tip", "txn.open.tip"} {
		en, _, _ := i18n.UIText(key)
		if !slices.Contains(tips, en) {
			t.Errorf("leader: no run says %q (tips %q)", en, tips)
		}
	}

	// The LSO line: on the replicas whose LSO is below their HW.
	lso := func(broker int32) []*html.Node { return dgAll(doc.replica("pay-0", broker), dgByClass("kd-lso")) }
	if len(lso(2)) != 0 {
		t.Error("broker 2 (LSO = HW) draws an LSO line")
	}
	for _, b := range []int32{1, 3} {
		l := lso(b)
		if len(l) != 1 {
			t.Fatalf("broker %d: %d LSO lines, want 1", b, len(l))
		}
		if got := dgText(dg1(doc, l[0], "kd-lso")); !strings.HasPrefix(got, "LSO") {
			t.Errorf("broker %d: LSO label %q", b, got)
		}
	}
	x := func(g *html.Node) string {
		return htmltest.Attr(doc.one(g, "line", func(n *html.Node) bool { return n.Data == "line" }), "x1")
	}
	lsoX, hwX := x(lso(1)[0]), x(doc.one(lead, "HW", dgByClass("kd-hw")))
	if dgParse(lsoX) >= dgParse(hwX) {
		t.Errorf("leader: LSO at x %s, HW at x %s: the LSO must be left of the HW", lsoX, hwX)
	}
	if tip := dgText(doc.one(lso(1)[0], "LSO title", func(n *html.Node) bool { return n.Data == "title" })); !strings.HasPrefix(tip, "LSO 11 · HW 13: ") {
		t.Errorf("leader's LSO tooltip %q", tip)
	}
	for _, other := range []string{"orders-0"} { // no transaction there
		row := doc.one(nil, other, dgByAttr("data-partition", other))
		if len(dgAll(row, dgByClass("kd-lso"))) != 0 || len(dgAll(row, dgByClass("kd-strike"))) != 0 {
			t.Errorf("%s draws transactions it has not", other)
		}
	}

	legend := doc.texts("kd-lg")
	for _, want := range []string{"open transaction", "aborted", "COMMIT marker", "ABORT marker", "LSO (last stable offset)"} {
		if !slices.Contains(legend, want) {
			t.Errorf("legend %q lacks %q", legend, want)
		}
	}
	plainDoc := dgRender(t, &Diagram{Snapshot: dgHandMade()})
	for _, l := range plainDoc.texts("kd-lg") {
		if strings.Contains(l, "marker") || strings.Contains(l, "LSO") || strings.Contains(l, "transaction") {
			t.Errorf("a cluster without transactions shows %q in its legend", l)
		}
	}
}

// dgParse reads a coordinate.
func dgParse(s string) float64 {
	var f float64
	for i, frac := 0, 0.0; i < len(s); i++ {
		switch {
		case s[i] == '.':
			frac = 1
		case frac > 0:
			frac /= 10
			f += float64(s[i]-'0') * frac
		default:
			f = f*10 + float64(s[i]-'0')
		}
	}
	return f
}

// A transactional producer's card, live: the perf test's producer shows
// its transactional.id, its state under Kafka's name with a tooltip that
// explains it (folded too), its coordinator and the partition in the
// transaction. Fenced by a second instance of the same transactional.id,
// it falls into ABORTABLE_ERROR: the pill and the card are marked, and the
// error is shown as Kafka's client says it. In Korean the explanation is
// Korean; the state and the error stay Kafka's.
func TestDiagramTransactionalProducerCard(t *testing.T) {
	p := player.New()
	p.Boot("", "")
	for _, c := range []string{"cluster create --brokers 3 --controllers 1 --version 3.8",
		"kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3"} {
		p.Run(c, nil)
		dgSettle(t, p)
	}
	p.Run("kafka-producer-perf-test.sh --topic t --num-records 100 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id billing --producer-props bootstrap.servers=kafka-1:9092 &", nil)
	dgAdvance(p, 3*time.Second)
	d := &Diagram{Player: p}
	doc := dgRender(t, d)
	cards := dgAll(doc.root, dgByClass("kd-prod"))
	if len(cards) != 1 {
		t.Fatalf("%d producer cards", len(cards))
	}
	card := cards[0]
	pill := dg1(doc, card, "kd-ts")
	if dgText(pill) != "IN_TRANSACTION" || !dgHasClass(pill, "kd-ts-open") {
		t.Errorf("state pill %q, class %q", dgText(pill), htmltest.Attr(pill, "class"))
	}
	if tip, _, _ := i18n.UIText("txn.state.IN_TRANSACTION"); htmltest.Attr(pill, "title") != tip {
		t.Errorf("pill tooltip %q", htmltest.Attr(pill, "title"))
	}
	var coord int32
	for _, tr := range p.Snapshot().Transactions {
		if tr.TransactionalID == "billing" {
			coord = tr.Coordinator
		}
	}
	want := "transactional.id billing · coordinator: broker " + dgItoa(int64(coord)) + ", Ongoing · in the transaction: t-0"
	if got := dgText(dg1(doc, card, "kd-txn-line")); coord == 0 || got != want {
		t.Errorf("transaction line %q, want %q", got, want)
	}
	if dgHasClass(card, "kd-prod-error") || len(dgAll(card, dgByClass("kd-txn-err"))) != 0 {
		t.Error("a healthy transactional producer is marked as failed")
	}
	// The coordinator's card names the transactional id.
	if got := dgText(dg1(doc, doc.card(coord), "kd-coord-text")); got != "txn coordinator: billing" {
		t.Errorf("coordinator badge %q", got)
	}
	// Folded, the card keeps its state.
	d.toggleClient(d.lay.Prods[0].Key)
	doc = dgRender(t, d)
	card = dgAll(doc.root, dgByClass("kd-prod"))[0]
	if dgText(dg1(doc, card, "kd-ts")) != "IN_TRANSACTION" || len(dgAll(card, dgByClass("kd-txn-line"))) != 0 {
		t.Error("a folded card lost its state, or draws its body")
	}
	d.toggleClient(d.lay.Prods[0].Key)

	// A second instance of billing fences the first.
	p.Run("kafka-producer-perf-test.sh --topic t --num-records 2 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id billing --producer-props bootstrap.servers=kafka-1:9092 &", nil)
	dgAdvance(p, 3*time.Second)
	doc = dgRender(t, d)
	var fenced *html.Node
	for _, c := range dgAll(doc.root, dgByClass("kd-prod")) {
		if dgText(dg1(doc, c, "kd-ts")) == "ABORTABLE_ERROR" {
			fenced = c
		}
	}
	if fenced == nil {
		t.Fatalf("no producer in ABORTABLE_ERROR: %q", doc.texts("kd-ts"))
	}
	if !dgHasClass(fenced, "kd-prod-error") || !dgHasClass(dg1(doc, fenced, "kd-ts"), "kd-ts-error") {
		t.Errorf("the fenced producer's card is not marked: %q", htmltest.Attr(fenced, "class"))
	}
	errLine := dg1(doc, fenced, "kd-txn-err")
	if got := dgText(errLine); !strings.HasPrefix(got, "The transaction failed: ") || !strings.Contains(got, "InvalidProducerEpochException") {
		t.Errorf("error line %q", got)
	}

	p.SetLang("ko")
	doc = dgRender(t, d)
	for _, c := range dgAll(doc.root, dgByClass("kd-prod")) {
		pill := dg1(doc, c, "kd-ts")
		if _, ko, _ := i18n.UIText("txn.state." + dgText(pill)); htmltest.Attr(pill, "title") != ko {
			t.Errorf("Korean pill tooltip %q", htmltest.Attr(pill, "title"))
		}
		if line := dgText(dg1(doc, c, "kd-txn-line")); !strings.Contains(line, "코디네이터: 브로커 ") {
			t.Errorf("Korean transaction line %q", line)
		}
	}
	if got := dgText(dg1(doc, fencedIn(doc), "kd-txn-err-k")); got != "트랜잭션 오류:" {
		t.Errorf("Korean error label %q", got)
	}
}

// fencedIn is the producer card in an error state.
func fencedIn(doc *dgDoc) *html.Node {
	return doc.one(nil, "the failed producer's card", dgByClass("kd-prod-error"))
}

// The Korean page with transactions on it (the strips, the legend, the
// producer's card, a coordinator's badge, a producer fenced into an error)
// shows no English of the UI table's: only Kafka's names.
func TestKoreanPageWithTransactions(t *testing.T) {
	vocab := koEnglish()
	seen := map[string]bool{}
	at := newAppTest(t, "", "#lang=ko")
	at.run("cluster create --brokers 3 --controllers 1 --version 3.8")
	at.run("kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	at.run("kafka-producer-perf-test.sh --topic t --num-records 100 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id billing --producer-props bootstrap.servers=kafka-1:9092 &")
	at.play(3 * time.Second)
	koCheck(t, at, "a transaction open", seen, vocab)
	at.run("kafka-producer-perf-test.sh --topic t --num-records 2 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id billing --producer-props bootstrap.servers=kafka-1:9092 &")
	at.play(3 * time.Second)
	koCheck(t, at, "a producer fenced", seen, vocab)
	doc := at.render(nil)
	if len(doc.find(func(n *html.Node) bool { return htmltest.Attr(n, "class") == "kd-lg-cell kd-lg-marker-commit" })) == 0 {
		t.Error("the page shows no COMMIT marker: the run did not reach what this test checks")
	}
}

// A coordinator's badge stays inside its card, however narrow: a long
// transactional id is cut shorter on narrower cards, and on a phone's
// even a short one is cut to its first letters.
func TestDiagramCoordinatorBadgeFitsItsCard(t *testing.T) {
	s := dgHandMade()
	s.Transactions = []view.Transaction{{TransactionalID: "performance-producer-default-transactional-id", Coordinator: 1, State: "Ongoing"},
		{TransactionalID: "billing", Coordinator: 3, State: "Empty"}}
	for _, width := range []float64{0, 680, 390} {
		d := &Diagram{Snapshot: s, Width: width}
		doc := dgRender(t, d)
		for _, b := range d.lay.Brokers {
			if b.Coord == "" {
				continue
			}
			if w := dgParse(b.CoordW); w > b.W-24 {
				t.Errorf("width %v: broker %d's badge %q is %v wide on a card of %v", width, b.ID, b.Coord, w, b.W)
			}
		}
		if got := dgText(dg1(doc, doc.card(3), "kd-coord-text")); !strings.HasPrefix(got, "txn ") || !strings.HasSuffix(got, " billing") && (width > dgTouchBelow || !strings.HasPrefix(got, "txn bi")) {
			t.Errorf("width %v: broker 3's badge %q", width, got)
		}
		if got := dgText(dg1(doc, doc.card(1), "kd-coord-text")); !strings.HasPrefix(got, "txn ") || !strings.Contains(got, " per") {
			t.Errorf("width %v: broker 1's badge %q", width, got)
		}
		if width == 0 && dgText(dg1(doc, doc.card(3), "kd-coord-text")) != "txn coordinator: billing" {
			t.Error("a wide card does not name the transaction coordinator in full")
		}
	}
}

func TestShortException(t *testing.T) {
	for in, want := range map[string]string{
		"org.apache.kafka.common.errors.InvalidProducerEpochException: Producer attempted to produce with an old epoch.": "InvalidProducerEpochException: Producer attempted to produce with an old epoch.",
		"org.apache.kafka.common.errors.ProducerFencedException":                                                         "org.apache.kafka.common.errors.ProducerFencedException",
		"Timeout expired: the broker said no.":                                                                           "Timeout expired: the broker said no.",
	} {
		if got := dgShortException(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// On Kafka 4.3 (transaction.version 2) the card says the producer uses
// transactions v2, and its epoch (on the card's idempotence line) has
// moved with each commit.
func TestDiagramTransactionalProducerV2(t *testing.T) {
	p := player.New()
	p.Boot("", "")
	for _, c := range []string{"cluster create --brokers 3 --controllers 1",
		"kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3"} {
		p.Run(c, nil)
		dgSettle(t, p)
	}
	p.Run("kafka-producer-perf-test.sh --topic t --num-records 100 --record-size 8 --throughput 5 --transaction-duration-ms 400 --transactional-id billing --producer-props bootstrap.servers=kafka-1:9092 &", nil)
	dgAdvance(p, 3*time.Second)
	doc := dgRender(t, &Diagram{Player: p})
	cards := dgAll(doc.root, dgByClass("kd-prod"))
	if len(cards) != 1 {
		t.Fatalf("%d producer cards", len(cards))
	}
	got := dgText(dg1(doc, cards[0], "kd-txn-line"))
	v2, _, _ := i18n.UIText("txn.v2")
	if !strings.HasPrefix(got, "transactional.id billing · "+v2+" · ") {
		t.Errorf("transaction line %q: want %q", got, v2)
	}
	if pid, epoch := p.Snapshot().Producers[0].ProducerID, p.Snapshot().Producers[0].ProducerEpoch; pid < 0 || epoch < 2 {
		t.Errorf("producer id %d epoch %d: each end should have bumped it", pid, epoch)
	}
}
