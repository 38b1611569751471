package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/i18n"
	"kafkascope/core/player"
	"kafkascope/core/view"

	"kafkascope/ui/internal/htmltest"
)

// dgLangs are a player per UI language, for hand-made snapshots.
func dgLangs() map[string]*player.Player {
	ko := player.New()
	ko.SetLang(i18n.Korean)
	return map[string]*player.Player{"en": {Lang: i18n.English}, "ko": ko}
}

// A broker's card warns (in the warning colour, with "N behind") only when
// it is more than the normal trail behind the controller's high watermark
// (metadataLagShown, as the quorum tab counts it): a broker a record behind
// on an idle cluster is caught up. A narrow card shortens the label but
// keeps the lag, in English as in Korean.
func TestDiagramMetadataLagOnCards(t *testing.T) {
	s := dgHandMade()
	s.Nodes[0].MetadataOffset = 118 // HW 120: a record behind, the normal trail
	s.Nodes[2].MetadataOffset = 110 // nine behind
	for lang, p := range dgLangs() {
		for _, width := range []float64{0, 700, 480} {
			doc := dgRender(t, &Diagram{Player: p, Snapshot: s, Width: width})
			what := fmt.Sprintf("%s at width %v", lang, width)
			meta := func(id int32) (string, string) {
				n := doc.one(doc.card(id), "metadata line", dgByClass("kd-meta"))
				return htmltest.Attr(n, "class"), dgText(n)
			}
			behind := strings.TrimSpace(strings.ReplaceAll(p.T("metadata.lag"), "%d", ""))
			if class, text := meta(1); class != "kd-meta" || strings.Contains(text, behind) {
				t.Errorf("%s: broker 1, a record behind, reads %q (class %q): want no warning", what, text, class)
			}
			if class, text := meta(3); !strings.Contains(class, "kd-meta-lag") || !strings.Contains(text, fmt.Sprintf(p.T("metadata.lag"), 9)) {
				t.Errorf("%s: broker 3, nine behind, reads %q (class %q): want the warning and %q", what, text, class, fmt.Sprintf(p.T("metadata.lag"), 9))
			}
		}
	}
}

// The idle default cluster: no broker card warns.
func TestDiagramIdleClusterIsNotBehind(t *testing.T) {
	p := dgCluster(t)
	for range 8 { // moments across a few NoOpRecords (one every 500 ms)
		dgAdvance(p, 170*time.Millisecond)
		doc := dgRender(t, &Diagram{Player: p})
		if n := dgAll(doc.root, dgByClass("kd-meta-lag")); len(n) > 0 {
			t.Fatalf("at %v an idle cluster's card warns: %q", p.Now(), dgText(n[0]))
		}
	}
}

// dgPills reads the message labels' boxes back from the markup, in the
// network SVG's units: each message's transform plus its pill's box.
func dgPills(t *testing.T, doc *dgDoc) (labels []string, boxes []dgRect) {
	t.Helper()
	for _, g := range dgAll(doc.root, dgByClass("kd-msg")) {
		var x, y float64
		if _, err := fmt.Sscanf(htmltest.Attr(g, "transform"), "translate(%g,%g)", &x, &y); err != nil {
			t.Fatalf("message transform %q: %v", htmltest.Attr(g, "transform"), err)
		}
		pill := doc.one(g, "pill", dgByClass("kd-pill"))
		var px, py, pw, ph float64
		for _, f := range []struct {
			key string
			v   *float64
		}{{"x", &px}, {"y", &py}, {"width", &pw}, {"height", &ph}} {
			if _, err := fmt.Sscanf(htmltest.Attr(pill, f.key), "%g", f.v); err != nil {
				t.Fatalf("pill %s %q: %v", f.key, htmltest.Attr(pill, f.key), err)
			}
		}
		labels = append(labels, dgText(doc.one(g, "label", dgByClass("kd-msg-label"))))
		boxes = append(boxes, dgRect{x + px, y + py, pw, ph})
	}
	return labels, boxes
}

// The resets a tool's exit leaves on the wire (sim.Disconnected: the
// operating system of the tool's host answers the brokers that had
// answered it) are real messages: they are drawn, in words, in the muted
// connection colour, never as the orange "Disconnected" of an admin
// request; and two sent at the same instant (scenario 23, step 2: the
// console producer leaves resets for brokers 1 and 2) have labels apart.
func TestDiagramConnectionResetsAreLabelledApart(t *testing.T) {
	for lang, want := range map[i18n.Lang]string{i18n.English: "connection reset →", i18n.Korean: "연결 리셋 →"} {
		p := player.New()
		p.Boot("", "")
		p.SetLang(lang)
		if err := p.OpenScenario("23-why-kafka-is-fast", 1); err != nil {
			t.Fatal(err)
		}
		doc := dgRender(t, &Diagram{Player: p})
		labels, boxes := dgPills(t, doc)
		resets := 0
		for i, l := range labels {
			if l == want {
				resets++
				if g := dgAll(doc.root, dgByClass("kd-msg"))[i]; !dgHasClass(g, "kd-cat-conn") {
					t.Errorf("%v: %q drawn as %q, want the connection category", lang, l, htmltest.Attr(g, "class"))
				}
			}
			if strings.Contains(l, "Disconnected") {
				t.Errorf("%v: a message reads %q", lang, l)
			}
		}
		if resets != 2 {
			t.Errorf("%v: labels %q, want two %q (the producer's resets to brokers 1 and 2)", lang, labels, want)
		}
		for i := range boxes {
			for j := range i {
				if boxes[i].overlaps(boxes[j]) {
					t.Errorf("%v: labels %q at %v and %q at %v overlap", lang, labels[j], boxes[j], labels[i], boxes[i])
				}
			}
		}
	}
}

// A client closing its connection (sim.Closed) and a reset read as what
// they are in both languages, with a tooltip that says it in a sentence;
// the legend names the category. Their labels clear the cards and the
// clients' box as well as each other.
func TestDiagramConnectionEventsInBothLanguages(t *testing.T) {
	s := dgHandMade()
	s.InFlight = []view.Message{
		{ID: 1, From: 0, To: 2, FromHost: "kafka-topics-7", ToHost: "kafka-2", Kind: "Closed", Label: "Closed", Category: "admin"},
		{ID: 2, From: 0, To: 2, FromHost: "kafka-topics-7", ToHost: "kafka-2", Kind: "Disconnected", Label: "Disconnected", Category: "admin"},
		{ID: 3, From: 0, To: 1, FromHost: "kafka-topics-7", ToHost: "kafka-1", Kind: "Disconnected", Label: "Disconnected", Category: "admin"},
	}
	s.Cuts = nil
	want := map[string][]string{
		"en": {"connection closed →", "connection reset →", "connection reset →"},
		"ko": {"연결 닫음 →", "연결 리셋 →", "연결 리셋 →"},
	}
	for lang, p := range dgLangs() {
		d := &Diagram{Player: p, Snapshot: s}
		doc := dgRender(t, d)
		labels, boxes := dgPills(t, doc)
		if !slices.Equal(labels, want[lang]) {
			t.Errorf("%s: labels %q, want %q", lang, labels, want[lang])
		}
		titles := doc.texts("kd-msg")
		if len(titles) != 3 || !strings.Contains(titles[0], "TCP FIN") || !strings.Contains(titles[1], "TCP") {
			t.Errorf("%s: tooltips %q", lang, titles)
		}
		if legend := dgText(dg1(doc, doc.root, "kd-legend")); !strings.Contains(legend, p.T("cat.conn")) {
			t.Errorf("%s: the legend does not name %q: %q", lang, p.T("cat.conn"), legend)
		}
		for i, b := range boxes {
			for j := range i {
				if b.overlaps(boxes[j]) {
					t.Errorf("%s: labels %d at %v and %d at %v overlap", lang, j, boxes[j], i, b)
				}
			}
			for _, card := range d.lay.Brokers {
				if b.overlaps(dgRect{card.X, card.Y, card.W, dgCardH}) {
					t.Errorf("%s: label %q at %v covers broker %d's card", lang, labels[i], b, card.ID)
				}
			}
		}
	}
}

// A replica's captions never overprint: in a lane too narrow for the
// epoch, the ISR mark and the offsets, the epoch goes first, then the
// mark; a wide lane keeps both.
func TestFitCaptionDropsWhatDoesNotFit(t *testing.T) {
	right := "LEO 26 · HW 26"
	for _, c := range []struct {
		w          float64
		mark, want string
	}{
		{200, "∉ ISR", "e0 · ∉ ISR"},
		{135, "∉ ISR", "∉ ISR"},
		{135, "", "e0"},
		{103, "∉ ISR", ""},
		{120, "ELR", "ELR"},
	} {
		got := dgFitCaption(c.w, right, "e0", c.mark)
		if got != c.want {
			t.Errorf("lane %v, mark %q: caption %q, want %q", c.w, c.mark, got, c.want)
		}
		if got != "" && dgTextWidth(got, dgCaptionPx)+dgTextWidth(right, dgCaptionPx)+12 > c.w {
			t.Errorf("lane %v: %q and %q overprint", c.w, got, right)
		}
	}
}
