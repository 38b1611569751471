package ui

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vugu/html"
	"github.com/vugu/vugu"

	"kafkascope/core/i18n"
	"kafkascope/ui/internal/htmltest"
)

// The Korean page must show no English of its own: every string the UI
// draws comes from the UI table (core/i18n/ui*.go), which has both
// languages (TestEveryUIStringIsTranslated), and a Korean render of every
// part of the page, across the states a cluster goes through, shows none
// of the table's English words. Kafka's own names (APIs, states, configs,
// column names of its tools) stay as Kafka writes them, and so do the
// terminal's output and commands: the tools print English.

// uiKeyCall finds a literal key given to T, Tf or t in the UI's sources.
// (A key built from parts, "state." + s, is checked by the renders.)
var uiKeyCall = regexp.MustCompile(`\b(?:T|Tf|t)\(\s*["'` + "`" + `]([a-z][a-zA-Z0-9.\-]*)["'` + "`" + `]\s*[),]`)

// Every key the UI's sources ask for is in the table (a missing key is
// shown as the key itself).
func TestEveryUIKeyIsInTheTable(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	vugu, _ := filepath.Glob("*.vugu")
	files = append(files, vugu...)
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range uiKeyCall.FindAllStringSubmatch(string(src), -1) {
			seen++
			if _, _, ok := i18n.UIText(m[1]); !ok {
				t.Errorf("%s asks for the UI string %q, which the table does not have", f, m[1])
			}
		}
	}
	if seen < 100 {
		t.Fatalf("found only %d keys in the sources: the pattern is broken", seen)
	}
}

// koToken is a run of characters that could be a word; koWord is one that
// is a plain word (a name with digits, dots, dashes, underscores, inner
// capitals or = is not: kafka-1, linger.ms, acks=all, NoOpRecord, ISR; nor
// is a flag, --faults, or a call, send()).
var (
	koToken = regexp.MustCompile(`-*[A-Za-z][A-Za-z0-9_.\-=/@']*(?:\(\))?`)
	koWord  = regexp.MustCompile(`^[A-Za-z][a-z]+$`)
)

// koKnownEnglish are English words the engine writes around Kafka's names
// (message labels, Kafka's reasons), which the table's English may not
// use: the renders look for them too.
var koKnownEnglish = []string{"disconnected", "response", "ack", "start", "position", "none", "new", "member", "with", "the", "for", "not", "and"}

// koQuoted are phrases a Korean text quotes as Kafka writes them.
var koQuoted = []string{
	"Leader: none",      // the narration quotes kafka-topics.sh --describe
	"Bootstrap records", // the name Kafka's controller gives the bootstrap metadata transaction
}

// koNames are plain words that are Kafka's names, drawn as Kafka writes
// them in both languages: API (message) names, consumer group states, the
// KRaft roles kafka-metadata-quorum.sh prints.
var koNames = []string{
	"Fetch", "Produce", "Metadata", "Heartbeat", "Vote", "Observer", "Leader", "Follower", "Candidate",
	"Unattached", "Voted", "Resigned", "Prospective", "Empty", "Stable", "Dead", "Raft", "Kafka", "Linux",
}

// koEnglish is the English vocabulary of the UI table: the plain words of
// its English texts that its Korean texts never use.
func koEnglish() map[string]bool {
	en, ko := map[string]bool{}, map[string]bool{}
	for _, key := range i18n.UIKeys() {
		e, k, _ := i18n.UIText(key)
		for _, w := range koToken.FindAllString(e, -1) {
			if w = strings.TrimRight(w, ".-'"); koWord.MatchString(w) && len(w) >= 3 {
				en[strings.ToLower(w)] = true
			}
		}
		for _, w := range koToken.FindAllString(k, -1) {
			ko[strings.ToLower(strings.TrimRight(w, ".-'"))] = true
		}
	}
	for w := range ko {
		delete(en, w)
	}
	for _, w := range koKnownEnglish {
		en[w] = true
	}
	return en
}

// koSkip reports whether a subtree is English by design: the terminal's
// scrollback (the tools' output), code (commands), and whatever is marked
// lang="en" (Kafka's own words, such as a rebalance's reason). The event
// feed is core/feed's sentences, checked there.
func koSkip(n *html.Node) bool {
	switch {
	case htmltest.Attr(n, "id") == "terminal", htmltest.Attr(n, "id") == "feed-list", n.Data == "code", htmltest.Attr(n, "lang") == "en":
		return true
	}
	return false
}

// koFind lists the English words a rendered page shows, each with where.
func koFind(root *html.Node, vocab map[string]bool) []string {
	var out []string
	check := func(where, text string) {
		for _, q := range koQuoted {
			text = strings.ReplaceAll(text, q, "")
		}
		for _, w := range koToken.FindAllString(text, -1) {
			w = strings.TrimRight(w, ".-'")
			if koWord.MatchString(w) && vocab[strings.ToLower(w)] && !slices.Contains(koNames, w) {
				out = append(out, w+" in "+where+": "+strings.TrimSpace(text))
			}
		}
	}
	var walk func(n *html.Node, where string)
	walk = func(n *html.Node, where string) {
		if n.Type == html.ElementNode {
			if koSkip(n) {
				return
			}
			if c := htmltest.Attr(n, "class"); c != "" {
				where = n.Data + "." + strings.Fields(c)[0]
			} else if id := htmltest.Attr(n, "id"); id != "" {
				where = n.Data + "#" + id
			}
			for _, a := range []string{"title", "aria-label", "placeholder", "alt"} {
				if v := htmltest.Attr(n, a); v != "" {
					check(where+"["+a+"]", v)
				}
			}
		}
		if n.Type == html.TextNode {
			check(where, n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, where)
		}
	}
	walk(root, "page")
	return out
}

// koCheck renders the app (and, with the side tab given, that panel) and
// reports every English word on it, once per word and place.
func koCheck(t *testing.T, at *appTest, state string, seen map[string]bool, vocab map[string]bool) {
	t.Helper()
	for _, tab := range []string{sideTabEvents, sideTabKRaft} {
		at.a.ShowTab(tab)
		for _, f := range koFind(at.render(nil).root, vocab) {
			if !seen[f] {
				seen[f] = true
				t.Errorf("%s (%s tab): English on the Korean page: %s", state, tab, f)
			}
		}
	}
	at.a.ShowTab(sideTabEvents)
}

// The Korean page across a cluster's states: clients and groups, messages
// on the wire (a request to a killed broker answered by a reset), brokers
// killed, powered off, stopped, fenced and cut off, the controller gone, a
// scenario's story, the gallery, and a simulator run that ended.
func TestKoreanPageShowsNoEnglish(t *testing.T) {
	vocab := koEnglish()
	for _, w := range []string{"broker", "leader", "running", "committed", "disconnected", "response"} {
		if !vocab[w] {
			t.Fatalf("the English vocabulary lacks %q: the table or the tokenizer changed", w)
		}
	}
	seen := map[string]bool{}
	at := newAppTest(t, "", "#lang=ko")
	at.p.ShowHeartbeats, at.p.ShowMetadata = true, true
	check := func(state string) { t.Helper(); koCheck(t, at, state, seen, vocab) }
	check("the default cluster")

	at.run("kafka-topics.sh --create --topic orders --partitions 2 --replication-factor 3 --config min.insync.replicas=2")
	at.run("kafka-producer-perf-test.sh --topic orders --num-records 40 --throughput 4 --record-size 100 " +
		"--producer-props bootstrap.servers=kafka-1:9092 linger.ms=1000 enable.idempotence=true &")
	at.run("kafka-console-consumer.sh --topic orders --group billing --timeout-ms 20000 &")
	at.play(6 * time.Second)
	check("a producer and a group")
	for range 8 { // messages on the wire, a few frames apart
		at.frames(1, 16*time.Millisecond)
		check("messages on the wire")
	}

	at.run("broker kill 2")
	for range 12 { // requests to the dead broker come back as resets
		at.frames(1, 30*time.Millisecond)
		check("a broker killed")
	}
	at.play(12 * time.Second)
	check("a new leader elected")
	at.run("broker kill 3 --power-loss")
	at.play(2 * time.Second)
	check("a broker powered off")
	at.run("broker start 2")
	at.run("broker start 3")
	at.play(15 * time.Second)
	at.run("network cut 1 3")
	at.play(12 * time.Second)
	check("a broker cut off from the controller (fenced)")
	at.run("network heal")
	at.run("broker stop 3")
	at.play(3 * time.Second)
	check("a broker stopped")
	at.click("broker 2's card", func(n *vugu.VGNode) bool {
		return vgAttr(n, "data-broker") == "2" && strings.Contains(vgAttr(n, "class"), "kd-card")
	})
	check("a broker's menu")
	at.run("broker kill 1")
	at.play(3 * time.Second)
	check("the controller gone")

	at.a.OpenGallery()
	check("the gallery")
	at.a.Gallery.Choose("10-unclean-election")
	at.a.Flush()
	check("a scenario's first step")
	for at.p.Scenario() != nil && at.p.Scenario().Step+1 < at.p.Scenario().Steps() {
		if err := at.p.Scenario().Next(); err != nil {
			t.Fatal(err)
		}
		check("a scenario's step")
	}

	sim := newAppTest(t, "", "#sim=3&minutes=1&faults=2&lang=ko")
	koCheck(t, sim, "a simulator run", seen, vocab)
	sim.p.SetSpeed(100)
	for i := 0; i < 5000 && !sim.p.Sim().Done(); i++ {
		sim.frames(1, 250*time.Millisecond)
	}
	koCheck(t, sim, "a simulator run that ended", seen, vocab)
}
