package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vugu/html"

	"kafkascope/core/player"

	"kafkascope/ui/internal/htmltest"
)

// A topic of many partitions is drawn where the viewer looks: with the
// page's view known, only the rows in view (and a view's height around
// it) are in the drawing, each with its replicas read whole, at the place
// it has in the whole drawing (which keeps its height); the topic's row
// says what all its partitions add up to. Without a view (a still
// picture, a first frame) every row is drawn.
func TestLargeTopicIsDrawnWhereTheViewerLooks(t *testing.T) {
	p := player.New()
	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic big --partitions 300 --replication-factor 3", nil)
	dgSettle(t, p)
	dgAdvance(p, 2*1e9)

	all := &Diagram{Player: p}
	doc := dgRender(t, all)
	rows := dgAll(doc.root, dgByAttr("data-topic", "")) // partition rows carry data-partition
	parts := 0
	for _, r := range rows {
		if strings.HasPrefix(htmltest.Attr(r, "data-partition"), "big-") {
			parts++
		}
	}
	if parts != 300 {
		t.Fatalf("without a view %d partition rows are drawn, want all 300", parts)
	}
	fullH := all.lay.PartsH

	// The view: 600 CSS px, 3000 px down the drawing.
	d := &Diagram{Player: p, View: PartsView{Known: true, Top: 3000, Bottom: 3600}}
	doc = dgRender(t, d)
	if d.lay.PartsH != fullH {
		t.Errorf("the drawing is %v tall with a view, %v without", d.lay.PartsH, fullH)
	}
	drawn := dgAll(doc.root, func(n *html.Node) bool { return strings.HasPrefix(htmltest.Attr(n, "data-partition"), "big-") })
	if len(drawn) == 0 || len(drawn) > 100 || d.lay.Drawn != len(drawn) {
		t.Fatalf("with a view of 600 px, %d rows are drawn (layout says %d)", len(drawn), d.lay.Drawn)
	}
	for _, r := range drawn {
		if reps := dgAll(r, dgByClass("kd-rep")); len(reps) != 3 {
			t.Fatalf("row %s has %d replicas drawn, want 3", htmltest.Attr(r, "data-partition"), len(reps))
		}
		if htmltest.Attr(r, "data-key") != "p/"+htmltest.Attr(r, "data-partition") {
			t.Fatalf("row %s is keyed %q", htmltest.Attr(r, "data-partition"), htmltest.Attr(r, "data-key"))
		}
	}
	// The rows drawn are those around the view, in order, at their place.
	first := d.lay.Rows[1]
	var x, y float64
	if _, err := fmt.Sscanf(first.T, "translate(%g,%g)", &x, &y); err != nil {
		t.Fatal(err)
	}
	if top := 3000 / d.lay.scale; y > top || y < top-2*600/d.lay.scale {
		t.Errorf("the first row drawn is at %v, the view starts at %v", y, top)
	}
	sub := dgText(dg1(doc, dgAll(doc.root, dgByAttr("data-topic", "big"))[0], "kd-topic-sub"))
	if !strings.Contains(sub, "300 partitions") || !strings.Contains(sub, "every partition led and in sync") {
		t.Errorf("the topic's row says %q", sub)
	}
	p.Run("broker kill 2", nil)
	dgAdvance(p, 20*1e9)
	doc = dgRender(t, d)
	sub = dgText(dg1(doc, dgAll(doc.root, dgByAttr("data-topic", "big"))[0], "kd-topic-sub"))
	if !strings.Contains(sub, "with replicas out of ISR") {
		t.Errorf("with broker 2 down the topic's row says %q", sub)
	}
}
