package timeline

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// play runs commands like a user at a terminal: each waits for the
// previous one, with a pause between them.
func play(t *testing.T, s *Session, cmds ...string) {
	t.Helper()
	for _, c := range cmds {
		var stdin []string
		if cmd, in, ok := strings.Cut(c, " <<< "); ok {
			c, stdin = cmd, strings.Split(in, "|")
		}
		s.Do(c, stdin)
		for s.Busy() {
			if _, err := s.Play(50*time.Millisecond, 0); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Play(300*time.Millisecond, 0); err != nil {
			t.Fatal(err)
		}
	}
}

func describe(s *Session) string {
	var b strings.Builder
	for _, p := range viewOf(s) {
		b.WriteString(p + "\n")
	}
	return b.String()
}

// viewOf is a compact fingerprint of every replica's state.
func viewOf(s *Session) []string {
	c := s.Cluster()
	var out []string
	for _, id := range c.NodeIDs() {
		out = append(out, string(c.State(id)))
		for _, p := range c.Node(id).Broker.Partitions() {
			out = append(out, p.String())
		}
	}
	return out
}

func terminal(s *Session) string {
	var b strings.Builder
	for _, l := range s.Lines() {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func TestSeekBackReplaysExactly(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3",
		"kafka-console-producer.sh --topic t <<< a|b|c")
	mid := s.Now()
	// The cluster's digest, not its trace: a replay leaps where the first
	// run stepped (a leap keeps no trace of what it skips).
	midView, midTerm, midDigest := describe(s), terminal(s), s.Cluster().Digest()
	s.Play(100*time.Millisecond, 0) // the next action comes strictly later than mid
	play(t, s, "broker kill 2", "time advance 10s", "kafka-console-producer.sh --topic t <<< d")
	if describe(s) == midView {
		t.Fatal("later actions changed nothing; the test cannot tell states apart")
	}
	end := s.Now()
	if err := s.Seek(mid); err != nil {
		t.Fatal(err)
	}
	if s.Now() != mid || describe(s) != midView || terminal(s) != midTerm || s.Cluster().Digest() != midDigest {
		t.Fatalf("seeking back did not restore the moment:\n%s\nvs\n%s", describe(s), midView)
	}
	if s.End() != end {
		t.Fatalf("End = %s, want the branch end %s", s.End(), end)
	}
	// Seeking forward replays the recorded future.
	if err := s.Seek(end); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(terminal(s), "broker kill 2") || s.Cluster().State(2) != "killed" {
		t.Fatalf("seeking forward did not replay the kill:\n%s", terminal(s))
	}
}

func TestActingInThePastForks(t *testing.T) {
	s := New()
	play(t, s, "cluster create", "kafka-topics.sh --create --topic t --replication-factor 3")
	fork := s.Now()
	s.Play(100*time.Millisecond, 0)
	play(t, s, "broker kill 1", "time advance 5s")
	if err := s.Seek(fork); err != nil {
		t.Fatal(err)
	}
	play(t, s, "broker kill 3")
	for _, a := range s.Actions() {
		if a.Line == "broker kill 1" || a.Line == "time advance 5s" {
			t.Fatalf("the old future survived the fork: %+v", s.Actions())
		}
	}
	if s.Cluster().State(1) != "running" || s.Cluster().State(3) != "killed" {
		t.Fatalf("states after fork: 1=%s 3=%s", s.Cluster().State(1), s.Cluster().State(3))
	}
	if s.End() != s.Now() {
		t.Fatal("after a fork the branch ends now")
	}
}

func TestInterruptIsRecordedAndReplayed(t *testing.T) {
	s := New()
	play(t, s, "cluster create", "kafka-topics.sh --create --topic t")
	s.Do("kafka-console-consumer.sh --topic t", nil)
	if _, err := s.Play(2*time.Second, 0); err != nil {
		t.Fatal(err)
	}
	if !s.Busy() {
		t.Fatal("a consumer with no end stopped by itself")
	}
	s.Interrupt()
	for s.Busy() {
		s.Play(10*time.Millisecond, 0)
	}
	if !strings.Contains(terminal(s), "Processed a total of 0 messages") {
		t.Fatalf("no total after Ctrl-C:\n%s", terminal(s))
	}
	now, term := s.Now(), terminal(s)
	s.Seek(0)
	s.Seek(now)
	if terminal(s) != term {
		t.Fatalf("replay of an interrupt differs:\n%s\nvs\n%s", terminal(s), term)
	}
}

func TestShareLinkReproducesTheMoment(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3 --seed 9",
		"kafka-topics.sh --create --topic t --partitions 3 --replication-factor 2",
		"kafka-console-producer.sh --topic t <<< x|y",
		"broker kill 2", "time advance 12s")
	if err := s.Seek(s.Now() - sim.Time(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	link := s.Encode()
	r, err := Decode(link)
	if err != nil {
		t.Fatal(err)
	}
	if r.Now() != s.Now() || describe(r) != describe(s) || terminal(r) != terminal(s) {
		t.Fatalf("decoded session differs:\n%s\nvs\n%s", describe(r), describe(s))
	}
	if r.End() != s.End() {
		t.Fatalf("decoded branch ends at %s, want %s", r.End(), s.End())
	}
}

func TestDecodeRejectsGarbage(t *testing.T) {
	good := func() string {
		s := New()
		play(t, s, "cluster create")
		return s.Encode()
	}()
	for name, in := range map[string]string{
		"empty":      "",
		"not base64": "%%%",
		"not flate":  "aGVsbG8",
		"too long":   strings.Repeat("A", MaxEncodedBytes+1),
		"truncated":  good[:len(good)/2],
	} {
		if _, err := Decode(in); !errors.Is(err, ErrBadSession) {
			t.Errorf("%s: err = %v, want ErrBadSession", name, err)
		}
		// Commands refuses what Decode refuses, for the same reason.
		_, derr := Decode(in)
		if _, cerr := Commands(in); fmt.Sprint(cerr) != fmt.Sprint(derr) {
			t.Errorf("%s: Commands says %v, Decode %v", name, cerr, derr)
		}
	}
	if _, err := Decode(good); err != nil {
		t.Fatalf("a good link failed: %v", err)
	}
	if lines, err := Commands(good); err != nil || len(lines) != 1 || lines[0] != "cluster create" {
		t.Fatalf("Commands of a good link: %q, %v", lines, err)
	}
}

// A link made when every cluster ran Kafka 3.8 (version 1) opens a 3.8
// cluster whatever the default is now; a version 2 link runs its line as
// it is.
func TestVersion1LinksOpenKafka38(t *testing.T) {
	for _, c := range []struct{ in, line string }{
		{`{"v":1,"a":[{"c":"cluster create --brokers 2"}],"at":1}`, "cluster create --brokers 2 --version 3.8"},
		{`{"v":1,"a":[{"c":"cluster create --version 3.8.0"}],"at":1}`, "cluster create --version 3.8.0"},
		{`{"v":2,"a":[{"c":"cluster create --brokers 2"}],"at":1}`, "cluster create --brokers 2"},
	} {
		lines, err := Commands(link(c.in))
		if err != nil || len(lines) != 1 || lines[0] != c.line {
			t.Errorf("%s: Commands = %q, %v; want %q", c.in, lines, err, c.line)
		}
		s, err := Decode(link(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if got := s.Cluster().Release().Version.String(); c.line != "cluster create --brokers 2" && got != "3.8" {
			t.Errorf("%s: the cluster runs Kafka %s, want 3.8", c.in, got)
		}
	}
}
