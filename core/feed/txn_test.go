package feed_test

import (
	"regexp"
	"strings"
	"testing"

	"kafkascope/core/console"
	"kafkascope/core/feed"
	"kafkascope/core/i18n"
)

// A committed transaction and one the coordinator aborts on timeout, as
// the feed tells them: each coordinator step in the sentence of its state
// (Empty, Ongoing, PrepareCommit, CompleteCommit, PrepareAbort,
// CompleteAbort), each marker in the sentence of its kind, all in the
// transactions' category, every field filled in both languages. On 4.3
// (transactions v2) a leader's add and the end's epoch bump have
// sentences of their own.
func TestFeedTellsATransactionStepByStep(t *testing.T) {
	base := []string{"txn.state.Empty", "txn.state.Ongoing", "txn.state.CompleteCommit",
		"txn.state.PrepareAbort", "txn.state.CompleteAbort", "txn.marker.commit", "txn.marker.abort"}
	for _, c := range []struct {
		version string
		want    []string
	}{
		{"3.8", append([]string{"txn.state.PrepareCommit"}, base...)},
		{"4.3", append([]string{"txn.state.PrepareCommit.v2", "txn.added.by.leader"}, base...)},
	} {
		t.Run(c.version, func(t *testing.T) { feedTellsATransaction(t, c.version, c.want) })
	}
}

func feedTellsATransaction(t *testing.T, version string, want []string) {
	s := console.NewSession()
	for _, cmd := range []string{
		"cluster create --brokers 3 --controllers 1 --version " + version,
		"kafka-topics.sh --create --topic payments --partitions 1 --replication-factor 3",
		"kafka-producer-perf-test.sh --topic payments --num-records 4 --record-size 8 --throughput 5 --transaction-duration-ms 1000 --producer-props bootstrap.servers=kafka-1:9092",
		"kafka-producer-perf-test.sh --topic payments --num-records 100 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id orders-app --producer-props bootstrap.servers=kafka-1:9092 &",
		"time advance 3s",
		"kill -9 %1",
		"time advance 70s",
	} {
		s.Exec(cmd, nil)
	}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	seen := map[string]bool{}
	for _, e := range feed.Recent(s.Cluster().World.Trace(), 0, 0) {
		if !strings.HasPrefix(e.Key, "txn.") {
			continue
		}
		seen[e.Key] = true
		if e.Category != feed.CatTxn {
			t.Errorf("%s: category %q, want %q", e.Key, e.Category, feed.CatTxn)
		}
		en, ko := e.Text(i18n.English), e.Text(i18n.Korean)
		if placeholder.MatchString(en) || placeholder.MatchString(ko) || en == ko {
			t.Errorf("%s: %q / %q", e.Key, en, ko)
		}
	}
	for _, key := range want {
		if !seen[key] {
			t.Errorf("no %s in the feed (saw %v)", key, keys(seen))
		}
	}
	if seen["txn.state"] || seen["txn.marker"] {
		t.Errorf("a step fell back to the general sentence: %v", keys(seen))
	}
}
