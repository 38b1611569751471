package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/feed"
	"kafkascope/core/player"
)

// dgLangs are a player per UI language, for hand-made snapshots.
func dgLangs() map[string]*player.Player {
	ko := player.New()
	ko.SetLang(feed.Korean)
	return map[string]*player.Player{"en": {Lang: feed.English}, "ko": ko}
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
				return dgAttr(n, "class"), dgText(n)
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
