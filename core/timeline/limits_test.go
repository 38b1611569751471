package timeline

import (
	"strings"
	"testing"

	"kafkascope/core/sim"
)

// A live session takes actions up to MaxActionTime (31 days of virtual
// time): the next one is refused with the limit's message and not
// recorded, and cluster create starts a new session that works again (it
// used to be refused too: the check read the old cluster's clock).
func TestSessionTimeLimit(t *testing.T) {
	s := New()
	// One broker with fewer timers (no NoOpRecord every 500 ms, a broker
	// heartbeat every 30 s), so that 31 days of virtual time take seconds.
	play(t, s, "cluster create --brokers 1 --config metadata.max.idle.interval.ms=0 --config broker.heartbeat.interval.ms=30000 --config broker.session.timeout.ms=60000", "time advance 30d", "time advance 1d")
	if now := s.Now(); now <= sim.Time(MaxActionTime) {
		t.Fatalf("after 31 days of advances the session is at %s, not past the limit %s", now, sim.FormatDuration(MaxActionTime))
	}
	n := len(s.Actions())
	play(t, s, "kafka-topics.sh --bootstrap-server kafka-1:9092 --list")
	const msg = "kafkascope: this session has reached its time limit of 31d; start a new one with cluster create"
	lines := s.Lines()
	if last := lines[len(lines)-1].Text; last != msg {
		t.Fatalf("the last terminal line is %q, want %q", last, msg)
	}
	if len(s.Actions()) != n {
		t.Fatalf("the refused command was recorded: %d actions, had %d", len(s.Actions()), n)
	}
	play(t, s, "cluster create --brokers 1", "kafka-topics.sh --bootstrap-server kafka-1:9092 --create --topic t")
	if term := terminal(s); !strings.HasSuffix(term, "Created topic t.\n") {
		t.Fatalf("a new session after the limit does not work:\n%s", term[max(0, len(term)-500):])
	}
}
