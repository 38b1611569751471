package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vugu/vugu"
	"github.com/vugu/vugu/staticrender"

	"kafkascope/core/textdiff"
)

// dgTree is a build as the page is given it, as text: every element with
// its namespace, attributes, inner HTML and listeners, every text, with
// components' outputs in their places.
func dgTree(br *vugu.BuildResults) string {
	var b strings.Builder
	var walk func(n *vugu.VGNode, depth int)
	walk = func(n *vugu.VGNode, depth int) {
		if n.Component != nil {
			for _, c := range br.ResultFor(n.Component).Out {
				walk(c, depth)
			}
			return
		}
		fmt.Fprintf(&b, "%s%d %s:%q", strings.Repeat(" ", depth), n.Type, n.Namespace, n.Data)
		for _, a := range n.Attr {
			fmt.Fprintf(&b, " %s=%q", a.Key, a.Val)
		}
		if n.InnerHTML != nil {
			fmt.Fprintf(&b, " html=%q", *n.InnerHTML)
		}
		for _, h := range n.DOMEventHandlerSpecList {
			fmt.Fprintf(&b, " @%s", h.EventType)
		}
		b.WriteString("\n")
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(br.Out.Out[0], 0)
	return b.String()
}

func dgVGAttr(n *vugu.VGNode, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// TestDiagramRowsRedrawEveryChange plays a cluster frame by frame while
// records are written to one partition and then to all, a second topic
// comes before the first (every row moves), a topic is folded and
// unfolded and the panel narrows, and checks every frame that the
// diagram, whose partition rows hand back their last output while they
// draw the same (DgRowMemo), gives the page exactly what a diagram that
// builds every row anew gives; that a click on any replica strip opens
// that strip's own partition on its own broker (a row handed back reads
// its own copy of the row: the layout reuses its rows' slices); and that
// rows were handed back at all.
func TestDiagramRowsRedrawEveryChange(t *testing.T) {
	p := dgCluster(t)
	var opened string
	memo := &Diagram{Player: p, OnReplica: func(topic string, part, broker int32) {
		opened = fmt.Sprintf("%s-%d@%d", topic, part, broker)
	}}
	fresh := &Diagram{Player: p, noRowMemo: true}
	envMemo, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	envFresh, err := vugu.NewBuildEnv(staticrender.New(nil).EventEnv())
	if err != nil {
		t.Fatal(err)
	}
	last := map[*vugu.BuildOut]bool{}
	reused, frames := 0, 0
	check := func(what string) {
		t.Helper()
		frames++
		br := envMemo.RunBuild(memo)
		got, want := dgTree(br), dgTree(envFresh.RunBuild(fresh))
		if got != want {
			t.Fatalf("%s: the rows handed back differ from rows built anew: %s", what, textdiff.FirstLine(got, want, "got", "want"))
		}
		now := map[*vugu.BuildOut]bool{}
		for _, c := range br.Out.Components {
			if _, ok := c.(*DgRowMemo); !ok {
				continue
			}
			bo := br.ResultFor(c)
			now[bo] = true
			if last[bo] {
				reused++
			}
			row := bo.Out[0]
			part := dgVGAttr(row, "data-partition")
			for n := row.FirstChild; n != nil; n = n.NextSibling {
				for g := n.FirstChild; g != nil; g = g.NextSibling {
					broker := dgVGAttr(g, "data-broker")
					if broker == "" {
						continue
					}
					for _, h := range g.DOMEventHandlerSpecList {
						if h.EventType == "click" {
							opened = ""
							h.Func(nil)
							if want := part + "@" + broker; opened != want {
								t.Fatalf("%s: a click on replica %s of row %s opened %q", what, broker, part, opened)
							}
						}
					}
				}
			}
		}
		last = now
	}
	frame := func(what string) {
		t.Helper()
		p.Tick(50 * time.Millisecond)
		check(what)
	}
	check("the topic made")
	// One partition written (a key), then every partition (no key).
	p.Run("kafka-console-producer.sh --bootstrap-server kafka-1:9092 --topic t --property parse.key=true --property key.separator=:", []string{"k:a", "k:b", "k:c"})
	if p.Error != "" {
		t.Fatal(p.Error)
	}
	for i := 0; i < 60; i++ {
		frame(fmt.Sprintf("keyed records, frame %d", i))
	}
	p.Run("kafka-producer-perf-test.sh --topic t --num-records 300 --record-size 10 --throughput 100 --producer-props bootstrap.servers=kafka-1:9092", nil)
	if p.Error != "" {
		t.Fatal(p.Error)
	}
	for i := 0; i < 80; i++ {
		frame(fmt.Sprintf("records to every partition, frame %d", i))
	}
	p.Run("kafka-topics.sh --create --topic a --partitions 2 --replication-factor 3", nil)
	if p.Error != "" {
		t.Fatal(p.Error)
	}
	for i := 0; i < 40; i++ {
		frame(fmt.Sprintf("topic a made before t, frame %d", i))
	}
	memo.toggleTopic("a")
	fresh.toggleTopic("a")
	check("topic a folded")
	memo.toggleTopic("a")
	fresh.toggleTopic("a")
	check("topic a unfolded")
	memo.Width, fresh.Width = 420, 420
	check("a narrow panel")
	for i := 0; i < 20; i++ {
		frame(fmt.Sprintf("narrow, frame %d", i))
	}
	if reused == 0 {
		t.Errorf("no row was handed back in %d frames: the test checks nothing of DgRowMemo", frames)
	}
	t.Logf("%d frames; %d rows handed back", frames, reused)
}
