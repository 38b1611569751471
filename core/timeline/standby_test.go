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
// moment, the same moving state of every node, disk and queued event
// (cluster.Digest: the traces differ where leaps fell differently),
// terminal and feed.
func sameMoment(t *testing.T, what string, got, want *Session) {
	t.Helper()
	if got.Now() != want.Now() || got.Cluster().Digest() != want.Cluster().Digest() {
		t.Fatalf("%s: at %s, a replay from the start is at %s, in another state", what, got.Now(), want.Now())
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

// A seek carried out in steps (StartSeek, SeekStep) runs no more than
// each step allows, leaves the moment shown as it was until it arrives,
// and arrives where a replay from the start is; a seek redirected on the
// way (the thumb moved again) ends at the new moment; an action taken
// mid-way is taken where the seek was going.
func TestSeekInSteps(t *testing.T) {
	s := longSession(t)
	end := s.Now()
	for _, at := range []sim.Time{sim.Time(5 * time.Minute), sim.Time(9 * time.Minute), sim.Time(time.Minute)} {
		if err := s.StartSeek(at); err != nil {
			t.Fatal(err)
		}
		shown := s.Now()
		steps := 0
		for {
			before := s.Cluster().World.Steps()
			done, err := s.SeekStep(500)
			if err != nil {
				t.Fatal(err)
			}
			if done {
				break
			}
			steps++
			if s.Now() != shown && at < shown {
				t.Fatalf("seeking back to %s: the moment shown moved from %s to %s before the seek arrived", at, shown, s.Now())
			}
			if target, ok := s.Seeking(); !ok || target != at {
				t.Fatalf("seeking to %s: Seeking says %s, %v", at, target, ok)
			}
			if at > shown { // the live replay plays forward itself
				if ran := s.Cluster().World.Steps() - before; ran > 500+stepsPerChunk/10 {
					t.Fatalf("a step of 500 events ran %d", ran)
				}
			}
		}
		if steps == 0 {
			t.Fatalf("seeking to %s took a single step of 500 events", at)
		}
		if _, ok := s.Seeking(); ok {
			t.Fatal("Seeking after the seek arrived")
		}
		sameMoment(t, "after seeking in steps to "+at.String(), s, fromStart(t, s, at))
	}
	// Redirected on the way back.
	if err := s.StartSeek(sim.Time(8 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SeekStep(300); err != nil {
		t.Fatal(err)
	}
	if err := s.StartSeek(sim.Time(3 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SeekStep(0); err != nil {
		t.Fatal(err)
	}
	sameMoment(t, "after a redirected seek", s, fromStart(t, s, sim.Time(3*time.Minute)))
	// An action mid-way: taken at the seek's moment.
	if err := s.StartSeek(sim.Time(6 * time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SeekStep(300); err != nil {
		t.Fatal(err)
	}
	s.Do("kafka-topics.sh --list", nil)
	if got := s.Actions()[len(s.Actions())-1].At; got != sim.Time(6*time.Minute) {
		t.Fatalf("an action taken during a seek to 6m is at %s", got)
	}
	if s.End() == end {
		t.Fatal("the action did not fork the branch")
	}
}

// SetStandbyLimit caps the standbys kept (the page lowers it when a large
// cluster's replays would not fit in its memory): extra ones go at once,
// idle time builds no more than the limit, and with none kept seeks still
// arrive where a replay from the start does.
func TestStandbyLimit(t *testing.T) {
	s := longSession(t)
	idle(t, s)
	if n := len(s.Standbys()); n < 3 {
		t.Fatalf("%d standbys after idle time, want several", n)
	}
	s.SetStandbyLimit(2)
	if n := len(s.Standbys()); n != 2 {
		t.Fatalf("%d standbys under a limit of 2", n)
	}
	idle(t, s)
	if n := len(s.Standbys()); n != 2 {
		t.Fatalf("idle time built %d standbys under a limit of 2", n)
	}
	s.SetStandbyLimit(0)
	idle(t, s)
	for _, at := range []sim.Time{sim.Time(8 * time.Minute), sim.Time(2 * time.Minute)} {
		if err := s.Seek(at); err != nil {
			t.Fatal(err)
		}
		if n := len(s.Standbys()); n != 0 {
			t.Fatalf("a seek left %d standbys with none to keep", n)
		}
		sameMoment(t, "seeking with no standbys", s, fromStart(t, s, at))
	}
	s.SetStandbyLimit(MaxStandbys)
	idle(t, s)
	if n := len(s.Standbys()); n < 3 {
		t.Fatalf("%d standbys once the limit was lifted", n)
	}
}

// A seek soon after the page was left alone resumes the standby that
// idle time is still building, where it has got to, rather than
// replaying from the start what was half replayed already; it arrives
// where a replay from the start does, and idle time then builds on.
func TestSeekResumesTheStandbyBeingBuilt(t *testing.T) {
	s := longSession(t)
	for s.standby.building == nil || s.standby.building.at() < sim.Time(2*time.Minute) {
		if _, err := s.Background(1000); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.Standbys()); n != 0 {
		t.Fatalf("the test wants no standby ready yet, got %v", s.Standbys())
	}
	half := s.standby.building.at()
	at := half + sim.Time(30*time.Second)
	if err := s.Seek(at); err != nil {
		t.Fatal(err)
	}
	ref := fromStart(t, s, at)
	if all := ref.Cluster().World.Steps(); s.lastSeekSteps >= all/2 {
		t.Fatalf("seeking to %s with a standby built up to %s ran %d events; from the start it runs %d",
			at, half, s.lastSeekSteps, all)
	}
	sameMoment(t, "after resuming the standby being built", s, ref)
	idle(t, s)
	if n := len(s.Standbys()); n < 3 {
		t.Fatalf("%d standbys after idle time, want several", n)
	}
}

// Idle time spreads MaxStandbys over a long branch so that no stretch a
// seek may have to replay is longer than an eighth of it (with 6
// standbys this 14-minute branch kept a stretch of a quarter).
func TestIdleTimeLeavesShortStretches(t *testing.T) {
	s := longSession(t)
	idle(t, s)
	points := append([]sim.Time{0}, s.Standbys()...)
	points = append(points, s.End())
	var most sim.Time
	for i := 1; i < len(points); i++ {
		most = max(most, points[i]-points[i-1])
	}
	// A standby stands at a whole millisecond, cut down from the middle.
	if most > s.End()/8+sim.Time(time.Millisecond) {
		t.Fatalf("after idle time the standbys are at %v over %s: a stretch of %s, want at most an eighth", s.Standbys(), s.End(), most)
	}
}

// A seek to the moment a standby stands at, as the scrubber names it (in
// whole milliseconds), resumes that standby and runs nothing: standbys
// built in idle time stand at whole milliseconds.
func TestSeekToAStandbysMillisecondResumesIt(t *testing.T) {
	s := longSession(t)
	idle(t, s)
	for _, at := range s.Standbys() {
		ms := sim.Time(time.Duration(at.Millis()) * time.Millisecond)
		if err := s.Seek(ms); err != nil {
			t.Fatal(err)
		}
		if _, events, _ := s.LastSeek(); events != 0 {
			t.Fatalf("seeking to %s, where a standby stood at %s, ran %d events", ms, at, events)
		}
		idle(t, s)
	}
}

// Idle time builds the cheaper of two stretches about as long: a standby
// replays every event up to its moment, so the earlier one costs less
// and shortens the seeks into it as much.
func TestIdleTimeSplitsTheEarlierOfLikeStretches(t *testing.T) {
	s := longSession(t)
	for len(s.Standbys()) < 2 {
		if _, err := s.Background(5000); err != nil {
			t.Fatal(err)
		}
	}
	first, second := s.Standbys()[0], s.Standbys()[1]
	if first > s.End()/3 || second < s.End()/3 {
		t.Fatalf("over %s the first two standbys stand at %v; want the middle first and then the middle of the first half", s.End(), s.Standbys())
	}
}

// A short branch dense with events gets standbys too: what a seek costs
// is the events it replays, not the virtual time (a 9-broker cluster
// with two producers at 200 records/s runs about 3,000 events a
// simulated second, and its 25 seconds took 1.5 s to replay in the page).
func TestIdleTimeCoversAShortDenseBranch(t *testing.T) {
	s := New()
	s.Do("cluster create", nil)
	s.Do("kafka-topics.sh --create --topic t --partitions 6 --replication-factor 3", nil)
	s.Do("kafka-producer-perf-test.sh --topic t --num-records 20000 --throughput 1000 --record-size 100 --producer-props bootstrap.servers=kafka-1:9092", nil)
	for s.Busy() {
		if _, err := s.Play(time.Second, 0); err != nil {
			t.Fatal(err)
		}
	}
	end, events := s.End(), s.Cluster().World.Steps()
	idle(t, s)
	if n := len(s.Standbys()); n < MaxStandbys/2 {
		t.Fatalf("a branch of %s with %d events got %d standbys in idle time: %v", end, events, n, s.Standbys())
	}
	for _, at := range []sim.Time{end / 3, end * 3 / 4} {
		if err := s.Seek(at); err != nil {
			t.Fatal(err)
		}
		if _, ran, _ := s.LastSeek(); ran > events/8 {
			t.Errorf("seeking to %s ran %d of the branch's %d events", at, ran, events)
		}
		sameMoment(t, "after seeking to "+at.String(), s, fromStart(t, s, at))
		idle(t, s)
	}
}
