package sim

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// recorderProc records every message and timer it handles, with the time.
type recorderProc struct{ got []string }

func (r *recorderProc) Start(env *Env) {}
func (r *recorderProc) Receive(env *Env, e *Envelope) {
	r.got = append(r.got, e.Msg.Kind()+"@"+env.Now().String())
}

type named string

func (n named) Kind() string { return string(n) }

type recordFire struct {
	r    *recorderProc
	name string
}

func (f recordFire) Fire(env *Env) { f.r.got = append(f.r.got, f.name+"@"+env.Now().String()) }

// A leap that would skip an event it does not account for is refused and
// changes nothing; one that does moves the clock and queues what it adds.
func TestLeapRefusesToSkipAnEventItDoesNotDrop(t *testing.T) {
	// A message to another host, due in 1 ms.
	w := NewWorld(1)
	r := &recorderProc{}
	_ = w.Spawn("r", r)
	_ = w.RunUntil(0)
	_ = w.Call("r", "send", func(env *Env) { env.Send("r:1", "s:1", named("Far")) })
	_ = w.RunFor(0)
	q := w.Queued()
	if len(q) != 1 || q[0].Env == nil || q[0].At != Time(time.Millisecond) {
		t.Fatalf("queued: %+v", q)
	}
	if err := w.Leap(Time(2*time.Millisecond), nil, nil); !errors.Is(err, ErrLeap) {
		t.Fatalf("a leap over an undropped message: %v, want ErrLeap", err)
	}
	if w.Now() != 0 || len(w.Queued()) != 1 {
		t.Fatalf("a refused leap changed the world: now %s, %d queued", w.Now(), len(w.Queued()))
	}
	if err := w.Leap(Time(2*time.Millisecond), q, nil); err != nil {
		t.Fatal(err)
	}
	if w.Now() != Time(2*time.Millisecond) || len(w.Queued()) != 0 || w.Leaps() != 1 {
		t.Fatalf("after the leap: now %s, %d queued, %d leaps", w.Now(), len(w.Queued()), w.Leaps())
	}
	if err := w.Leap(Time(time.Millisecond), nil, nil); !errors.Is(err, ErrLeap) {
		t.Fatalf("a leap back in time: %v, want ErrLeap", err)
	}
}

// Events a leap queues run, at one instant, in the order a stepped run
// would have pushed them (their push paths, as deep as they agree, then
// Rank), after the events already queued for that instant (pushed before
// the span).
func TestLeapQueuesInPushOrder(t *testing.T) {
	w := NewWorld(1)
	r := &recorderProc{}
	if err := w.Spawn("r", r); err != nil {
		t.Fatal(err)
	}
	_ = w.RunUntil(0)
	ms := func(n int) Time { return Time(time.Duration(n) * time.Millisecond) }
	// Already queued before the span: a timer due at 10 ms.
	_ = w.Call("r", "arm", func(env *Env) {
		env.Arm(&Timer{}, 10*time.Millisecond, "old", recordFire{r, "old"})
	})
	_ = w.RunUntil(0)
	var t1, t2, t3, t4 Timer
	// Two bases queued before the span (seq 7 before seq 9), and pushes
	// in the span that go back to them.
	early, late := BasePath{Pushed: 0, SeqNo: 7}, BasePath{Pushed: 0, SeqNo: 9}
	at := func(ts ...Time) []Time { return ts }
	add := []LeapEvent{
		{PushedAt: ms(5), Path: LeadPath{Lead: at(ms(5), ms(3)), Then: early}, Rank: 1, Host: "r", Timer: &t1, At: ms(10), Name: "b", Task: recordFire{r, "b"}},
		{PushedAt: ms(5), Path: LeadPath{Lead: at(ms(5), ms(3)), Then: early}, Rank: 0, Host: "r", Timer: &t2, At: ms(10), Name: "a", Task: recordFire{r, "a"}},
		{PushedAt: ms(4), Path: LeadPath{Lead: at(ms(4)), Then: late}, Rank: 9, Host: "r", Timer: &t3, At: ms(10), Name: "first", Task: recordFire{r, "first"}},
		// Pushed at 5 ms too, by a handler whose own event was pushed at
		// 3 ms as well: the bases decide (seq 9 after seq 7).
		{PushedAt: ms(5), Path: LeadPath{Lead: at(ms(5), ms(3)), Then: late}, Rank: 0, Env: &Envelope{From: "x:1", To: "r:1", Msg: named("Msg"), SentAt: ms(5), DeliverAt: ms(10)}},
		// Pushed at 5 ms by a handler whose event was pushed at 2 ms: first
		// of the 5 ms pushes.
		{PushedAt: ms(5), Path: PeriodicPath{Last: ms(5), Period: 3 * time.Millisecond, Runs: 2, From: late}, Rank: 5, Host: "r", Timer: &t4, At: ms(10), Name: "periodic", Task: recordFire{r, "periodic"}},
	}
	if err := w.Leap(ms(5), nil, add); err != nil {
		t.Fatal(err)
	}
	if err := w.RunUntil(ms(20)); err != nil {
		t.Fatal(err)
	}
	want := []string{"old@T+10ms", "first@T+10ms", "periodic@T+10ms", "a@T+10ms", "b@T+10ms", "Msg@T+10ms"}
	if !slices.Equal(r.got, want) {
		t.Fatalf("ran %v, want %v", r.got, want)
	}
}
