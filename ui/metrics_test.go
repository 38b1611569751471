package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"kafkascope/ui/internal/htmltest"
)

// The Metrics tab draws the engine's history: after a broker dies, the
// under-replicated row reads the partitions whose ISR is smaller than
// their replicas in the snapshot the diagram draws, is marked alerting,
// and its plot has a shaded stretch; the tab carries the alert mark.
func TestMetricsTabShowsTheDashboard(t *testing.T) {
	at := newAppTest(t, "", "")
	at.run("kafka-topics.sh --create --topic m --partitions 3 --replication-factor 3")
	at.click("#tab-metrics", vgID("tab-metrics"))
	if at.a.SideTab != sideTabMetrics {
		t.Fatalf("the tab is %q", at.a.SideTab)
	}
	doc := at.render(nil)
	if got := strings.TrimSpace(doc.text("metric-urp")); !strings.HasSuffix(got, " 0") {
		t.Fatalf("the under-replicated row on a healthy cluster: %q", got)
	}
	if strings.Contains(doc.text("tab-metrics"), "!") {
		t.Error("the tab warns on a healthy cluster")
	}
	at.run("broker kill 2")
	at.run("time advance 15s")
	urp := 0
	for _, tp := range at.p.Snapshot().Topics {
		for _, p := range tp.Partitions {
			if !tp.Light && p.Leader >= 0 && len(p.ISR) < len(p.Assignment) {
				urp++
			}
		}
	}
	if urp == 0 {
		t.Fatal("no partition is under-replicated in the snapshot")
	}
	doc = at.render(nil)
	row := doc.byID("metric-urp")
	if got := strings.TrimSpace(doc.text("metric-urp")); !strings.HasSuffix(got, " "+strconv.Itoa(urp)) {
		t.Errorf("the under-replicated row reads %q; the snapshot has %d such partitions", got, urp)
	}
	if htmltest.Attr(row, "data-alert") != "true" {
		t.Error("the row is not marked alerting")
	}
	if !strings.Contains(doc.src, `class="metric-warn" d="M`) {
		t.Error("no alert stretch is shaded")
	}
	if !strings.Contains(doc.text("tab-metrics"), "!") {
		t.Error("the tab does not warn")
	}
	// Per broker: a line for each broker that ran, a key naming them; the
	// value on the right stays the total.
	at.click("#metrics-per-broker", vgID("metrics-per-broker"))
	doc = at.render(nil)
	for _, cls := range []string{`class="metric-line metric-b0"`, `class="metric-line metric-b1"`, `class="metric-line metric-b2"`} {
		if !strings.Contains(doc.src, cls) {
			t.Errorf("no %s in the per-broker view", cls)
		}
	}
	if got := doc.texts("metric-key"); len(got) != 3 || got[1] != "broker 2" {
		t.Errorf("the key reads %q", got)
	}
	// The first row is URP's.
	if got := doc.texts("metric-value"); len(got) == 0 || strings.TrimSpace(got[0]) != strconv.Itoa(urp) {
		t.Errorf("per broker, the rows' values read %q, URP's not the total %d", got, urp)
	}
}

// A scenario step lists the dashboard metrics it changed, before → after:
// the step of scenario 08 that crashes a leader leaves partitions
// under-replicated, and the story says so, flagged as an alert.
func TestStoryListsTheMetricsAStepChanged(t *testing.T) {
	at := newAppTest(t, "", "")
	if err := at.p.OpenScenario("08-leader-election-on-crash", 0); err != nil {
		t.Fatal(err)
	}
	sc := at.p.Scenario()
	for sc.Step+1 < sc.Steps() {
		if err := sc.Next(); err != nil {
			t.Fatal(err)
		}
		doc := at.render(nil)
		if strings.Contains(doc.src, `data-state="alert"`) && strings.Contains(doc.src, at.a.T("metric.urp")) {
			return
		}
	}
	at.play(time.Second)
	t.Fatal("no step of the scenario lists under-replicated partitions as an alert")
}

// An embed opened with panel=metrics shows the dashboard in the story's
// place, with the step and Back/Next kept; its switch brings the story's
// text back, and a snippet copied then no longer asks for the panel.
// Without a story the dashboard stands alone beside the diagram.
func TestEmbedShowsTheDashboard(t *testing.T) {
	at := newAppTest(t, "?embed=1&panel=metrics", "#scenario=28-on-call&step=3")
	at.idle()
	doc := at.render(nil)
	story := doc.byID("story")
	if story == nil || doc.byID("metrics") == nil {
		t.Fatal("no story or no dashboard in the embed")
	}
	if !htmltest.Contains(story, doc.byID("metrics")) {
		t.Error("the dashboard is not in the story's place")
	}
	for _, id := range []string{"story-next", "story-back", "story-step", "metric-urp"} {
		if doc.byID(id) == nil {
			t.Errorf("no #%s with the dashboard shown", id)
		}
	}
	if doc.byID("story-text") != nil {
		t.Error("the story's text shows beside the dashboard")
	}
	if htmltest.Attr(doc.byID("story-metrics-toggle"), "aria-pressed") != "true" {
		t.Error("the switch is not pressed")
	}
	if href := at.a.openFullHref(); !strings.Contains(href, "?panel=metrics#") {
		t.Errorf("Open in kafkascope goes to %q, not to the Metrics tab", href)
	}
	at.click("#story-metrics-toggle", vgID("story-metrics-toggle"))
	doc = at.render(nil)
	if doc.byID("story-text") == nil || doc.byID("metrics") != nil {
		t.Error("the switch did not bring the story's text back")
	}
	if s := at.p.EmbedSnippet("https://k.test/", 960, 600); strings.Contains(s, "panel=") {
		t.Errorf("the snippet still asks for the dashboard: %s", s)
	}

	alone := newAppTest(t, "?embed=1&panel=metrics", "")
	alone.idle()
	doc = alone.render(nil)
	if doc.byID("metrics") == nil || doc.byID("story") != nil {
		t.Error("an embed without a story does not show the dashboard alone")
	}
	plain := newAppTest(t, "?embed=1", "")
	plain.idle()
	if doc = plain.render(nil); doc.byID("metrics") != nil {
		t.Error("an embed without panel=metrics shows the dashboard")
	}
}

// In the full app, panel=metrics opens the Metrics tab, and choosing a
// tab decides whether a copied embed opens on the dashboard.
func TestPanelMetricsOpensTheTab(t *testing.T) {
	at := newAppTest(t, "?panel=metrics", "")
	if at.a.SideTab != sideTabMetrics {
		t.Fatalf("the side tab is %q", at.a.SideTab)
	}
	at.a.ShowTab(sideTabEvents)
	if s := at.p.EmbedSnippet("https://k.test/", 960, 600); strings.Contains(s, "panel=") {
		t.Errorf("the events tab's snippet asks for the dashboard: %s", s)
	}
	at.a.ShowTab(sideTabMetrics)
	if s := at.p.EmbedSnippet("https://k.test/", 960, 600); !strings.Contains(s, "panel=metrics") {
		t.Errorf("the metrics tab's snippet does not: %s", s)
	}
}
