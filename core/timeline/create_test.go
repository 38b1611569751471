package timeline

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// timelineLines is the terminal of the current timeline only: what a share
// link carries (the lines from before its cluster create are not part of it).
func timelineLines(s *Session) string {
	var b strings.Builder
	for _, l := range s.lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

// A page opens with a cluster that has been running; the user types their
// own cluster create. The new timeline starts at the new cluster's time 0,
// so its link opens (the old cluster's clock leaked into the first action).
func TestTypedClusterCreateStartsAShareableTimeline(t *testing.T) {
	for _, create := range []string{"cluster create --brokers 3", "cluster create --brokers 5 --controllers 3"} {
		t.Run(create, func(t *testing.T) {
			s := New()
			play(t, s, "cluster create --brokers 3")
			if _, err := s.Play(90*time.Second, 0); err != nil {
				t.Fatal(err)
			}
			play(t, s, create,
				"kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3",
				"kafka-console-producer.sh --topic t <<< a|b")
			if got := s.Actions()[0]; got.Line != create || got.At != 0 {
				t.Fatalf("first action = %+v, want %q at 0", got, create)
			}
			r, err := Decode(s.Encode())
			if err != nil {
				t.Fatalf("the link of a typed cluster create does not open: %v", err)
			}
			// The typed create says what it stopped; the link's own
			// create, run with no cluster before it, has nothing to say.
			note := "cluster create: stopped the running cluster (Kafka 4.3, 3 brokers) and replaced it with a new one"
			lines := timelineLines(s)
			first, rest, _ := strings.Cut(lines, "\n")
			noted, rest, _ := strings.Cut(rest, "\n")
			if !strings.HasPrefix(noted, note) {
				t.Fatalf("the typed create does not say what it replaced:\n%s", lines)
			}
			if strings.Contains(timelineLines(r), note) {
				t.Fatalf("the link's terminal says a cluster was replaced:\n%s", timelineLines(r))
			}
			if r.Now() != s.Now() || describe(r) != describe(s) || timelineLines(r) != first+"\n"+rest {
				t.Fatalf("decoded session differs:\n%s%s\nvs\n%s%s", describe(r), timelineLines(r), describe(s), timelineLines(s))
			}
			// A replay of the branch (a seek back) shows the note again.
			at := s.Now()
			if err := s.Seek(at / 2); err != nil {
				t.Fatal(err)
			}
			if back := timelineLines(s); !strings.HasPrefix(back, first+"\n"+noted+"\n") {
				t.Fatalf("after seeking back the terminal reads\n%s", back)
			}
			if err := s.Seek(at); err != nil {
				t.Fatal(err)
			}
			if timelineLines(s) != lines {
				t.Fatalf("after seeking back and forth the terminal reads\n%s\nwant\n%s", timelineLines(s), lines)
			}
			if !strings.HasPrefix(timelineLines(s), "$ "+create+"\n") && !strings.HasPrefix(timelineLines(s), create+"\n") {
				t.Fatalf("the new timeline's terminal does not start with its cluster create:\n%s", timelineLines(s))
			}
			if !strings.Contains(terminal(s), "cluster create --brokers 3\n") {
				t.Fatalf("the old timeline's lines are gone from the terminal:\n%s", terminal(s))
			}
		})
	}
}

// A cluster create the engine refuses changes nothing: no new timeline, no
// action, the old cluster keeps running, and the link still opens.
func TestRefusedClusterCreateIsNotAnAction(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	c, actions, end := s.Cluster(), s.Actions(), s.End()
	for _, bad := range []string{"cluster create --brokers 100000000", "cluster create --controllers 9", "cluster create --bogus"} {
		s.Do(bad, nil)
		if s.Cluster() != c {
			t.Fatalf("%q replaced the cluster", bad)
		}
		if got := s.Actions(); len(got) != len(actions) {
			t.Fatalf("%q was recorded: %d actions, want %d", bad, len(got), len(actions))
		}
		if !strings.Contains(terminal(s), bad+"\n") || !strings.Contains(terminal(s), "cluster create: ") {
			t.Fatalf("%q: the terminal does not show the command and its error:\n%s", bad, terminal(s))
		}
	}
	if s.End() < end {
		t.Fatalf("the branch end went back from %s to %s", end, s.End())
	}
	play(t, s, "kafka-console-producer.sh --topic t <<< a")
	if err := s.Seek(s.Now() / 2); err != nil {
		t.Fatalf("seeking back after a refused create: %v", err)
	}
	play(t, s, "broker kill 1") // a fork
	r, err := Decode(s.Encode())
	if err != nil {
		t.Fatalf("the link after a refused create does not open: %v", err)
	}
	if describe(r) != describe(s) {
		t.Fatalf("decoded session differs:\n%s\nvs\n%s", describe(r), describe(s))
	}
	// Refused with no cluster at all: still nothing to record.
	e := New()
	e.Do("cluster create --brokers 0", nil)
	if e.Cluster() != nil || len(e.Actions()) != 0 || !strings.Contains(terminal(e), "--brokers must be between") {
		t.Fatalf("a refused first create: cluster %v, actions %v, terminal:\n%s", e.Cluster(), e.Actions(), terminal(e))
	}
}

// Links copied before the fix above carry the previous cluster's clock in
// their first action; the rest of the link is in the new cluster's time,
// so reading that first action at 0 opens them as they were meant.
func TestLinkWithTheOldClockInItsFirstActionOpens(t *testing.T) {
	s := New()
	play(t, s, "cluster create --brokers 3",
		"kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	sh := shared{V: 1, Actions: s.Actions(), At: s.Now(), End: s.End()}
	sh.Actions[0].At = sim.Time(6606600128) // what such a link held
	data, err := json.Marshal(sh)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(data)
	w.Close()
	r, err := Decode(base64.RawURLEncoding.EncodeToString(buf.Bytes()))
	if err != nil {
		t.Fatalf("an old link does not open: %v", err)
	}
	if describe(r) != describe(s) || r.Actions()[0].At != 0 {
		t.Fatalf("old link decoded to:\n%s\nwant\n%s", describe(r), describe(s))
	}
}
