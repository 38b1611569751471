package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestZooKeeperPage: a 2.8 cluster (--zookeepers 3) in the browser: the
// ensemble's row on the diagram, the ZooKeeper tab in place of the
// quorum's, its tree and a broker's registration gone after its session
// expired, at a desktop's width and a phone's (screenshots in
// build/screenshots).
func TestZooKeeperPage(t *testing.T) {
	tab, term, shots := openApp(t)
	term.enter("cluster create --version 2.8 --zookeepers 3", "$ cluster create --version 2.8")
	term.enter("kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic orders --partitions 3 --replication-factor 3", "Created topic orders.")
	waitFor(t, tab, `document.querySelectorAll('#kd-zk .kd-zk-server').length === 3 && document.getElementById("tab-kraft") === null`)
	if roles := evalString(tab, `[...document.querySelectorAll('#kd-zk .kd-zk-role-text')].map(e => e.textContent).sort().join(" ")`); roles != "FOLLOWING FOLLOWING LEADING" {
		t.Errorf("the ensemble's roles are %q", roles)
	}
	clickID(t, tab, "tab-zookeeper")
	waitFor(t, tab, `document.querySelector('#zk-tree li[data-path="/brokers/ids/2"] .kz-owner') !== null`)
	if owner := evalString(tab, `document.querySelector('#zk-tree li[data-path="/brokers/ids/2"] .kz-owner').textContent`); owner != "kafka-2" {
		t.Errorf("/brokers/ids/2 is owned by %q", owner)
	}
	clickCSS(t, tab, `#zk-tree li[data-path="/brokers/topics/orders/partitions/0/state"] .kz-line`)
	waitFor(t, tab, `document.getElementById("zk-detail").textContent.includes('"isr":[')`)
	screenshot(t, tab, filepath.Join(shots, "zookeeper-1280x800.png"), 1280, 800)

	ctl := evalString(tab, `document.getElementById("zk-status").textContent`)
	victim := "2"
	if strings.Contains(ctl, "kafka-2 ") {
		victim = "3"
	}
	term.enter("broker kill "+victim, "$ broker kill "+victim)
	term.enter("time advance 30s", "$ time advance 30s")
	waitFor(t, tab, `document.querySelector('#zk-tree li[data-path="/brokers/ids/`+victim+`"]') === null &&
		document.getElementById("zk-fired").textContent.includes("NodeChildrenChanged")`)
	screenshot(t, tab, filepath.Join(shots, "zookeeper-killed-1280x800.png"), 1280, 800)
	screenshot(t, tab, filepath.Join(shots, "zookeeper-390x844.png"), 390, 844)
	evalString(tab, `(document.getElementById("zookeeper").scrollIntoView(), "")`)
	screenshot(t, tab, filepath.Join(shots, "zookeeper-tab-390x844.png"), 390, 844)
	evalString(tab, `(document.getElementById("zk-detail").scrollIntoView(), "")`)
	screenshot(t, tab, filepath.Join(shots, "zookeeper-detail-390x844.png"), 390, 844)
	evalString(tab, `(window.scrollTo(0, 0), "")`)
	darkScreenshot(t, tab, filepath.Join(shots, "zookeeper-dark-1280x800.png"), 1280, 800)
}
