package feed_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/feed"
	"kafkascope/core/i18n"
)

// Every key the engine notes has a sentence in both languages, and every
// {field} in a sentence is filled by the events a real run produces.
func TestEveryEngineEventHasBothLanguages(t *testing.T) {
	s := console.NewSession()
	for _, cmd := range []string{
		"cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --replica-assignment 1:2:3 --config min.insync.replicas=2",
		"broker kill 2", "broker kill 3", "time advance 10s",
		"broker start 2", "broker start 3", "time advance 1s", "broker stop 3", "broker start 3",
		"broker kill 1 --power-loss", "broker start 1",
	} {
		s.Exec(cmd, nil)
	}
	s.Exec("kafka-console-producer.sh --topic t", []string{"x"})
	entries := feed.Recent(s.Cluster().World.Trace(), 0, 0)
	if len(entries) < 20 {
		t.Fatalf("only %d feed entries", len(entries))
	}
	seen := map[string]bool{}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, e := range entries {
		seen[e.Key] = true
		for _, lang := range []i18n.Lang{i18n.English, i18n.Korean} {
			text := e.Text(lang)
			if placeholder.MatchString(text) {
				t.Errorf("%s (%s): unfilled field in %q", e.Key, lang, text)
			}
		}
		if e.Text(i18n.English) == e.Text(i18n.Korean) {
			t.Errorf("%s: Korean text is the English text", e.Key)
		}
	}
	for _, key := range []string{"broker.registered", "broker.fenced", "leader.elected", "isr.changed", "process.killed", "process.power-loss", "topic.created",
		"raft.transition.leader", "raft.transition.follower", "controller.active"} {
		if !seen[key] {
			t.Errorf("no %s event in the run (saw %v)", key, keys(seen))
		}
	}
	for key, tpl := range feed.Sentences() {
		if strings.TrimSpace(tpl[0]) == "" || strings.TrimSpace(tpl[1]) == "" {
			t.Errorf("%s: missing a language", key)
		}
	}
}

// Every note type in core/event has a catalog sentence, including notes
// the run above does not produce, unless the feed leaves it out on
// purpose (unexplained).
func TestCatalogCoversEveryNoteType(t *testing.T) {
	keyRe := regexp.MustCompile(`\) Key\(\) string\s*\{\s*return "([a-z.-]+)"`)
	files, err := filepath.Glob("../event/*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyRe.FindAllStringSubmatch(string(data), -1) {
			found++
			_, explained := feed.Sentences()[m[1]]
			if explained == feed.Unexplained[m[1]] {
				t.Errorf("%s: note %q: in the catalog %v, left out on purpose %v", f, m[1], explained, feed.Unexplained[m[1]])
			}
		}
	}
	if found < 60 {
		t.Fatalf("found only %d note types: is the source scan broken?", found)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A field's value is inserted as it is, never scanned for other fields,
// whatever the order of the fields.
func TestTextFillsFieldsInOnePass(t *testing.T) {
	e := feed.Entry{Key: "config.changed", Fields: map[string]string{"resource": "topic t", "name": "my.custom", "value": "{name}"}}
	want := e.Text(i18n.English)
	if !strings.Contains(want, "{name}") || !strings.Contains(want, "my.custom") {
		t.Fatalf("text %q: the value {name} was replaced or the name is missing", want)
	}
	for range 50 {
		if got := e.Text(i18n.English); got != want {
			t.Fatalf("text changed between renders: %q then %q", want, got)
		}
	}
}

// The log cleaner's and the keyless-record events fill every field.
func TestCompactionEventsFillTheirFields(t *testing.T) {
	s := console.NewSession()
	s.Exec("cluster create --brokers 3", nil)
	s.Exec("kafka-topics.sh --create --topic c --replication-factor 3 --config cleanup.policy=compact --config internal.segment.bytes=150", nil)
	s.Exec("kafka-console-producer.sh --topic c", []string{"no-key"})
	s.Exec("kafka-console-producer.sh --topic c --sync --producer-property linger.ms=0 --property parse.key=true --property key.separator=:", []string{"a:1", "a:2", "a:3"})
	s.Exec("time advance 16s", nil)
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	seen := map[string]string{}
	for _, e := range feed.Recent(s.Cluster().World.Trace(), 0, 0) {
		if e.Key != "log.cleaned" && e.Key != "produce.keyless" {
			continue
		}
		for _, lang := range []i18n.Lang{i18n.English, i18n.Korean} {
			if text := e.Text(lang); placeholder.MatchString(text) {
				t.Errorf("%s (%s): unfilled field in %q", e.Key, lang, text)
			}
		}
		seen[e.Key] = e.Text(i18n.English)
	}
	if len(seen) != 2 {
		t.Fatalf("events seen: %v", seen)
	}
	if want := "'s log cleaner compacted c-0 (dirty ratio 1.00, dirty section [0, 2)): it kept 1 of 2 records and removed 1, 0 of them expired tombstones; offsets are unchanged."; !strings.HasSuffix(seen["log.cleaned"], want) {
		t.Fatalf("log.cleaned reads %q", seen["log.cleaned"])
	}
}

// A ZooKeeper ensemble member's crash and restart are explained, in both
// languages; zookeeper-shell.sh's process is not.
func TestZooKeeperServerCrashExplained(t *testing.T) {
	s := console.NewSession()
	for _, cmd := range []string{
		"cluster create --version 2.8 --zookeepers 3",
		"zookeeper kill 2", "time advance 10s", "zookeeper start 2",
		"zookeeper-shell.sh zookeeper-1:2181 ls /",
	} {
		s.Exec(cmd, nil)
	}
	var killed, restarted bool
	for _, e := range feed.Recent(s.Cluster().World.Trace(), 0, 0) {
		if strings.Contains(e.Fields["server"], "shell") {
			t.Errorf("a tool's process explained: %+v", e)
		}
		switch {
		case e.Key == "zookeeper.killed" && e.Fields["server"] == "zookeeper-2":
			killed = e.Category == feed.CatCrash && strings.Contains(e.Text(i18n.English), "ZooKeeper server zookeeper-2 crashed") && strings.Contains(e.Text(i18n.Korean), "zookeeper-2")
		case e.Key == "zookeeper.started" && e.Fields["server"] == "zookeeper-2":
			restarted = true
		}
	}
	if !killed || !restarted {
		t.Errorf("killed %v, restarted %v", killed, restarted)
	}
}
