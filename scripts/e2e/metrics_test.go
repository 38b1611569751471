package e2e

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMetricsTab plays a failure in the page and reads the Metrics tab:
// the under-replicated count it shows is what kafka-topics.sh
// --under-replicated-partitions lists, its alert shading and the tab's
// mark appear, and the per-broker view draws a line per broker.
// Screenshots of the tab at a desktop and a phone width, and per broker,
// go to build/screenshots.
func TestMetricsTab(t *testing.T) {
	tab, term, shots := openApp(t)
	term.enter("kafka-topics.sh --create --topic m --partitions 3 --replication-factor 3", "Created topic m.")
	term.enter("kafka-producer-perf-test.sh --topic m --num-records 300 --record-size 200 --throughput 50 --producer-props bootstrap.servers=kafka-1:9092", "records sent")
	clickID(t, tab, "tab-metrics")
	waitFor(t, tab, `document.querySelector("#metric-urp .metric-value") !== null`)
	if got := textOf(tab, "#metric-urp .metric-value"); got != "0" {
		t.Errorf("under-replicated partitions read %q on a healthy cluster", got)
	}
	if got := textOf(tab, "#metric-messages-in .metric-value"); got == "0/s" || got == "" {
		t.Errorf("messages in reads %q after a producer ran", got)
	}
	term.enter("broker kill 3", "$ broker kill 3")
	term.enter("time advance 15s", "$ time advance 15s")
	out := term.enter("kafka-topics.sh --describe --under-replicated-partitions", "$ kafka-topics.sh --describe --under-replicated-partitions")
	urp := strings.Count(out, "\tPartition: ")
	if urp == 0 {
		t.Fatalf("no partition is under-replicated after broker 3 died:\n%s", out)
	}
	waitFor(t, tab, `document.querySelector("#metric-urp .metric-value").textContent === `+strconv.Quote(strconv.Itoa(urp)))
	waitFor(t, tab, `document.querySelector("#metric-urp").dataset.alert === "true" && document.querySelector("#metric-urp .metric-warn").getAttribute("d") !== ""`)
	waitFor(t, tab, `document.querySelector("#tab-metrics .side-tab-alert") !== null`)
	screenshot(t, tab, filepath.Join(shots, "metrics-desktop.png"), 1280, 800)
	clickID(t, tab, "metrics-per-broker")
	waitFor(t, tab, `document.querySelectorAll("#metric-urp .metric-line.metric-b2").length === 1 && document.querySelectorAll(".metric-key").length === 3`)
	screenshot(t, tab, filepath.Join(shots, "metrics-per-broker.png"), 1280, 800)
	clickID(t, tab, "metrics-per-broker")
	screenshot(t, tab, filepath.Join(shots, "metrics-phone.png"), 390, 844)
}
