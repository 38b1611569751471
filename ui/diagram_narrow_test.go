package ui

import (
	"strconv"
	"testing"

	"github.com/vugu/html"
)

// A diagram panel narrower than the default layout (an embed in a blog
// column, a phone) gets lanes that fit it; on a phone-sized panel every
// row a tap acts on is at least a finger tall as drawn, partition names
// keep their number, and rows are never compact. Without a width the
// layout is the default one.
func TestDiagramFitsANarrowPanel(t *testing.T) {
	p := dgCluster(t)
	wide := &Diagram{Player: p}
	dgRender(t, wide)
	if wide.lay.W != 2*dgPadX+dgLeftW+3*dgLaneWidth(3) || wide.fitAttr() != "" {
		t.Fatalf("without a width the diagram is %v wide (%q), want the default layout", wide.lay.W, wide.fitAttr())
	}

	mid := &Diagram{Player: p, Width: 660}
	dgRender(t, mid)
	if s := 660 / mid.lay.W; s < dgFitScale-0.01 || mid.fitAttr() != "narrow" || mid.lay.touch {
		t.Errorf("at 660 px the diagram is %v wide: drawn at %.2f (%q), want about %.2f without touch sizing", mid.lay.W, s, mid.fitAttr(), dgFitScale)
	}

	const phone = 374.0 // a 390 px screen less the page's margins
	d := &Diagram{Player: p, Width: phone}
	doc := dgRender(t, d)
	scale := min(phone/d.lay.W, dgScaleMax)
	if d.fitAttr() != "touch" || scale < dgScaleMin {
		t.Fatalf("at %v px: %q, drawn at %.2f", phone, d.fitAttr(), scale)
	}
	// Every broker's card is inside the panel at that scale.
	for id := int32(1); id <= 3; id++ {
		b := d.lay.Brokers[id-1]
		if right := (b.X + b.W) * scale; right > phone {
			t.Errorf("broker %d's card ends at %.0f px of %v", id, right, phone)
		}
	}
	px := func(units string) float64 {
		f, err := strconv.ParseFloat(units, 64)
		if err != nil {
			t.Fatalf("%q is not a number", units)
		}
		return f * scale
	}
	if h := px(d.lay.G.TopicBgH); h < 40 {
		t.Errorf("a topic row's band is %.1f px tall, want at least 40", h)
	}
	if h, w := px(d.lay.G.HitH), px(d.lay.G.HitW); h < 40 || w < 40 {
		t.Errorf("a replica's tap area is %.1f×%.1f px, want at least 40 either way", w, h)
	}
	names := doc.texts("kd-pname")
	if len(names) != 3 || names[0] != "t-0" {
		t.Errorf("partition names %q", names)
	}
	hits := dgAll(doc.root, func(n *html.Node) bool { return dgHasClass(n, "kd-hit") })
	if len(hits) != 9 {
		t.Errorf("%d replica tap areas, want 9 (3 partitions × 3 replicas)", len(hits))
	}
	if got := dgCutTail("peter-test01-0", dgNarrowRunes); got != "peter-tes…-0" {
		t.Errorf("dgCutTail = %q", got)
	}
}
