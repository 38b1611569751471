package timeline

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// longSession is a cluster with a topic, records and actions spread over
// ten minutes of virtual time.
func longSession(t testing.TB) *Session {
	t.Helper()
	s := New()
	s.Do("cluster create", nil)
	run := func(line string, stdin []string) {
		s.Do(line, stdin)
		for s.Busy() {
			if _, err := s.Play(time.Minute, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	run("kafka-topics.sh --create --topic t --partitions 3 --replication-factor 3", nil)
	run("kafka-console-producer.sh --topic t", []string{"a", "b", "c"})
	run("time advance 4m", nil)
	run("broker kill 2", nil)
	run("time advance 3m", nil)
	run("broker start 2", nil)
	run("kafka-console-producer.sh --topic t", []string{"d"})
	run("time advance 3m", nil)
	return s
}

// sameMoment fails unless two sessions show the same state: the same
// trace (count and running hash of every event), terminal and feed.
func sameMoment(t *testing.T, what string, got, want *Session) {
	t.Helper()
	gt, wt := got.Cluster().World.Trace(), want.Cluster().World.Trace()
	if got.Now() != want.Now() || gt.Count() != wt.Count() || gt.Hash() != wt.Hash() {
		t.Fatalf("%s: at %s with %d events (hash %x), a replay from the start is at %s with %d (hash %x)",
			what, got.Now(), gt.Count(), gt.Hash(), want.Now(), wt.Count(), wt.Hash())
	}
	if !slices.Equal(got.Lines(), want.Lines()) {
		t.Fatalf("%s: the terminal differs from a replay from the start", what)
	}
	if len(got.Feed()) != len(want.Feed()) {
		t.Fatalf("%s: feed of %d entries, a replay from the start has %d", what, len(got.Feed()), len(want.Feed()))
	}
}

// fromStart is the same branch replayed from the cluster's creation to t
// (a decoded share link has no standbys).
func fromStart(t *testing.T, s *Session, at sim.Time) *Session {
	t.Helper()
	ref, err := Decode(s.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Seek(at); err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestSeekBackResumesStandbys(t *testing.T) {
	s := longSession(t)
	end := s.Now()
	total := s.Cluster().World.Steps()
	idle(t, s)
	if n := len(s.Standbys()); n < 3 {
		t.Fatalf("%d standbys after idle time over %s, want several: %v", n, end, s.Standbys())
	}
	for _, at := range []sim.Time{
		end - sim.Time(30*time.Second), sim.Time(2 * time.Minute), sim.Time(6*time.Minute + 30*time.Second),
		sim.Time(30 * time.Second), sim.Time(9 * time.Minute),
	} {
		if err := s.Seek(at); err != nil {
			t.Fatal(err)
		}
		if s.lastSeekSteps > total/4 {
			t.Errorf("seeking back to %s ran %d events; a replay from the start runs %d", at, s.lastSeekSteps, total)
		}
		sameMoment(t, "after seeking to "+at.String(), s, fromStart(t, s, at))
		idle(t, s) // the user looks at it: idle time refills the standbys
	}
}

// idle gives a session all the idle time it wants.
func idle(t testing.TB, s *Session) {
	t.Helper()
	for i := 0; ; i++ {
		more, err := s.Background(5000)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			return
		}
		if i > 10000 {
			t.Fatal("background work never finishes")
		}
	}
}

// Acting in the past forks the branch: standbys that saw its dropped
// future go, the others stay and still give the same states.
func TestForkDropsStandbysThatSawTheFuture(t *testing.T) {
	s := longSession(t)
	idle(t, s)
	at := sim.Time(5 * time.Minute)
	if err := s.Seek(at); err != nil {
		t.Fatal(err)
	}
	s.Do("kafka-topics.sh --create --topic forked", nil)
	for s.Busy() {
		if _, err := s.Play(time.Minute, 0); err != nil {
			t.Fatal(err)
		}
	}
	for _, sb := range s.Standbys() {
		if sb > at {
			t.Fatalf("a standby at %s survived a fork at %s", sb, at)
		}
	}
	s.Do("time advance 2m", nil)
	for s.Busy() {
		if _, err := s.Play(time.Minute, 0); err != nil {
			t.Fatal(err)
		}
	}
	idle(t, s)
	for _, back := range []sim.Time{sim.Time(6 * time.Minute), sim.Time(time.Minute)} {
		if err := s.Seek(back); err != nil {
			t.Fatal(err)
		}
		sameMoment(t, "after the fork, at "+back.String(), s, fromStart(t, s, back))
	}
}

// BenchmarkSeekBack measures a seek back over a fourteen-minute branch,
// with the standbys idle time builds and without any.
func BenchmarkSeekBack(b *testing.B) {
	for _, withStandbys := range []bool{false, true} {
		name := "from-start"
		if withStandbys {
			name = "standbys"
		}
		b.Run(name, func(b *testing.B) {
			s := longSession(b)
			at := []sim.Time{sim.Time(3 * time.Minute), sim.Time(9 * time.Minute)}
			for i := 0; b.Loop(); i++ {
				if withStandbys {
					b.StopTimer()
					idle(b, s)
					b.StartTimer()
				} else {
					s.standby.reset()
				}
				if err := s.Seek(at[i%2]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Replays the timeline lets go are closed: after seeking back and forth,
// building standbys, forking and starting a new cluster, only the new
// cluster's goroutines are left (and slack for one more), not those of
// every replay built on the way.
func TestDroppedReplaysLetTheirGoroutinesGo(t *testing.T) {
	before := runtime.NumGoroutine()
	s := longSession(t)
	perCluster := runtime.NumGoroutine() - before
	for i := range 30 {
		if err := s.Seek(sim.Time(0).Add(time.Duration(i%10) * time.Minute)); err != nil {
			t.Fatal(err)
		}
		for range 20 {
			if _, err := s.Background(5000); err != nil {
				t.Fatal(err)
			}
		}
	}
	s.Do("broker kill 1", nil) // a fork drops the standbys after it
	s.Do("cluster create", nil)
	if len(s.Standbys()) != 0 {
		t.Fatalf("standbys %v after cluster create", s.Standbys())
	}
	limit := before + 2*perCluster
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > limit && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > limit {
		t.Fatalf("%d goroutines after 30 seeks, a fork and a new cluster; a cluster has %d, the limit is %d", n, perCluster, limit)
	}
}
