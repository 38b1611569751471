package console

import (
	"slices"
	"strings"
	"testing"
)

// help TOPIC prints the part of help about that command: lines of the
// whole help, every one of them about the command asked for.
func TestHelpTopicPrintsItsCommandOnly(t *testing.T) {
	s := NewSession()
	all := s.Exec("help", nil)
	topics := helpTopics()
	for _, want := range []string{"cluster", "broker", "network", "time", "jobs", "kill", "ls", "cat", "xxd", "replicas", "downtime", "lost", "pagecache"} {
		if !slices.Contains(topics, want) {
			t.Errorf("help has no topic %q (topics: %v)", want, topics)
		}
	}
	for _, topic := range topics {
		out := s.Exec("help "+topic, nil)
		if len(out) == 0 || len(out) >= len(all) {
			t.Errorf("help %s printed %d lines (help alone: %d)", topic, len(out), len(all))
			continue
		}
		for _, l := range out {
			if !slices.Contains(all, l) {
				t.Errorf("help %s printed %q, which help does not", topic, l)
			}
		}
		if !strings.Contains(out[0], topic) {
			t.Errorf("help %s starts with %q", topic, out[0])
		}
	}
	network := s.Exec("help network", nil)
	for _, l := range network {
		if !strings.HasPrefix(l, "  network ") && !strings.HasPrefix(l, "        ") {
			t.Errorf("help network printed %q", l)
		}
	}
	if len(network) < 4 {
		t.Errorf("help network printed %d lines, want cut, heal, delay and corrupt", len(network))
	}
}
