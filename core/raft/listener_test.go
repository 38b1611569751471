package raft

import (
	"fmt"
	"testing"
	"time"

	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// reentrantListener appends from inside its callbacks, as an active
// controller does (it writes when it becomes leader and in reaction to what
// it reads), and checks that callbacks never nest.
type reentrantListener struct {
	n          *Node
	depth, max int
	appended   int
	limit      int
	got        []string
	events     []string
	t          *testing.T
}

func (l *reentrantListener) enter() func() {
	l.depth++
	l.max = max(l.max, l.depth)
	return func() { l.depth-- }
}

func (l *reentrantListener) appendNext(env *sim.Env) {
	if l.appended >= l.limit {
		return
	}
	l.appended++
	if _, _, err := l.n.Append(env, [][]byte{[]byte(fmt.Sprintf("r%d", l.appended))}); err != nil {
		l.t.Errorf("append: %v", err)
	}
}

func (l *reentrantListener) HandleCommit(env *sim.Env, b CommittedBatch) {
	defer l.enter()()
	for _, e := range b.Entries {
		if !e.Control {
			l.got = append(l.got, string(e.Payload))
		}
	}
	if !b.Control {
		l.appendNext(env)
	}
}
func (l *reentrantListener) HandleLoadSnapshot(*sim.Env, LoadedSnapshot) { defer l.enter()() }
func (l *reentrantListener) HandleLeaderChange(env *sim.Env, le LeaderAndEpoch) {
	defer l.enter()()
	l.events = append(l.events, "change "+le.String())
}
func (l *reentrantListener) HandleBecomeLeader(env *sim.Env, epoch int32) {
	defer l.enter()()
	l.events = append(l.events, fmt.Sprintf("lead %d", epoch))
	l.appendNext(env)
}
func (l *reentrantListener) HandleResign(*sim.Env, int32) { defer l.enter()() }

type singleProc struct {
	cfg Config
	l   *reentrantListener
}

func (p *singleProc) Start(env *sim.Env) {
	p.l.n = NewNode(p.cfg, p.l)
	if err := p.l.n.Start(env); err != nil {
		panic(err)
	}
}
func (p *singleProc) Receive(env *sim.Env, e *sim.Envelope) { p.l.n.Handle(env, e) }

// TestListenerReentrancy: a lone voter elects itself at start and commits
// each append at once. Its listener appends on becoming leader and on every
// commit; every append is delivered, in order, without nested callbacks,
// and the leader is announced only after the epoch's LeaderChangeMessage
// is committed.
func TestListenerReentrancy(t *testing.T) {
	w := sim.NewWorld(1)
	l := &reentrantListener{limit: 50, t: t}
	cfg := Config{NodeID: 1, Addr: "kafka-1:9093", Voters: map[int32]sim.Addr{1: "kafka-1:9093"},
		Disk: storage.NewDisk(w.Now), LogDir: testLogDir}
	if err := w.Spawn("kafka-1", &singleProc{cfg: cfg, l: l}); err != nil {
		t.Fatal(err)
	}
	if err := w.RunFor(time.Second); err != nil {
		t.Fatal(err)
	}
	if l.max != 1 {
		t.Fatalf("callbacks nested %d deep", l.max)
	}
	if len(l.got) != 50 || l.got[0] != "r1" || l.got[49] != "r50" {
		t.Fatalf("delivered %v", l.got)
	}
	if fmt.Sprint(l.events) != "[change epoch 1, leader unknown change epoch 1, leader 1 lead 1]" {
		t.Fatalf("events %v", l.events)
	}
	if l.n.Role() != RoleLeader || l.n.HighWatermark() != 51 {
		t.Fatalf("%s hw %d", l.n.Role(), l.n.HighWatermark())
	}
}
