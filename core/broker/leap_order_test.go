package broker

import (
	"container/heap"
	"math/rand"
	"testing"
	"time"

	"kafkascope/core/sim"
)

// simEvent is an event of the brute-force run in TestChainOrderMatchesQueue.
type simEvent struct {
	at  sim.Time
	seq uint64
	e   ev
}

type simQueue []simEvent

func (q simQueue) Len() int { return len(q) }
func (q simQueue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q simQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *simQueue) Push(x any)   { *q = append(*q, x.(simEvent)) }
func (q *simQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// TestChainOrderMatchesQueue runs random loops event by event in a queue
// ordered as the world's (time, then push order; a handler's pushes in
// rank order, other pushes taking sequence numbers before a chain's next
// event) and checks the closed forms against it: when each event is due,
// how many are due before an instant, and seqCmp's order of every two
// events due at one instant.
func TestChainOrderMatchesQueue(t *testing.T) {
	rnd := rand.New(rand.NewSource(15))
	ms := time.Millisecond
	for round := 0; round < 200; round++ {
		var chains []*chain
		var q simQueue
		seq := uint64(0)
		for i, n := 0, 2+rnd.Intn(4); i < n; i++ {
			m := 2 + rnd.Intn(3)
			delta, rank := make([]time.Duration, m), make([]int, m)
			for s := range delta {
				delta[s] = time.Duration(rnd.Intn(3)) * ms // zeros: pushes due at their own instant
				rank[s] = rnd.Intn(2)
			}
			delta[m-1] += time.Duration(1+rnd.Intn(4)) * ms
			if len(chains) > 0 && rnd.Intn(2) == 0 {
				// A chain in step with an earlier one (seqCmp skips
				// the levels where two such agree).
				o := chains[rnd.Intn(len(chains))]
				m = o.m
				delta, rank = append([]time.Duration(nil), o.delta[:m]...), append([]int(nil), o.rank[:m]...)
			}
			seq += uint64(1 + rnd.Intn(3))
			c := newChain(sim.QueuedEvent{At: sim.Time(rnd.Intn(4)) * sim.Time(ms), Seq: seq}, rnd.Intn(m), delta, rank)
			chains = append(chains, c)
			q = append(q, simEvent{c.at, c.seq, ev{c, 0}})
		}
		heap.Init(&q)
		horizon := sim.Time(40 * ms)
		var ran []simEvent
		for q.Len() > 0 && q[0].at < horizon {
			x := heap.Pop(&q).(simEvent)
			ran = append(ran, x)
			c, j := x.e.c, x.e.j
			seq += uint64(c.rank[c.stepOf(j)]) // the handler's earlier pushes
			seq++
			heap.Push(&q, simEvent{x.at + sim.Time(c.delta[c.stepOf(j)]), seq, ev{c, j + 1}})
			seq += uint64(rnd.Intn(2)) // and maybe a later one
		}
		count := map[*chain]int{}
		for i, x := range ran {
			count[x.e.c]++
			if got := x.e.at(); got != x.at {
				t.Fatalf("round %d: event %d of a chain is due at %s, ran at %s", round, x.e.j, got, x.at)
			}
			for _, y := range ran[:i] {
				if y.at == x.at && seqCmp(y.e, x.e) >= 0 {
					t.Fatalf("round %d: at %s, seqCmp puts event %d after event %d, which ran after it", round, x.at, y.e.j, x.e.j)
				}
				if y.at == x.at && seqCmp(x.e, y.e) <= 0 {
					t.Fatalf("round %d: seqCmp is not antisymmetric", round)
				}
			}
		}
		for _, c := range chains {
			if got := c.before(horizon); got != count[c] {
				t.Fatalf("round %d: before(horizon) = %d, the run ran %d", round, got, count[c])
			}
			n := count[c]
			for s := 0; s < c.m; s++ {
				k, last := 0, -1
				for j := 0; j < n; j++ {
					if c.stepOf(j) == s {
						k, last = k+1, j
					}
				}
				if c.ofStep(s, n) != k || c.lastOf(s, n) != last {
					t.Fatalf("round %d: step %d: ofStep %d lastOf %d, want %d and %d", round, s, c.ofStep(s, n), c.lastOf(s, n), k, last)
				}
			}
		}
	}
}

// walkedPath hides a chain path's SameRun, so that ComparePaths walks it
// level by level.
type walkedPath struct{ p chainPath }

func (w walkedPath) Push(l int) (sim.Time, bool) { return w.p.Push(l) }
func (w walkedPath) Rank(l int) int              { return w.p.Rank(l) }
func (w walkedPath) Seq() uint64                 { return w.p.Seq() }

// TestSameLevelsSkipsOnlyWhatAgrees compares random chain paths with
// ComparePaths, once skipping the levels SameLevels vouches for and once
// walking every level: the orders must be the same. Chains share their
// base time and period often, so that many pairs agree for long.
func TestSameLevelsSkipsOnlyWhatAgrees(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var chains []*chain
	for i := 0; i < 40; i++ {
		m := 1 + rng.Intn(3)
		delta, rank := make([]time.Duration, m), make([]int, m)
		for s := range delta {
			delta[s] = time.Duration(1+rng.Intn(2)) * time.Millisecond
			rank[s] = rng.Intn(2)
		}
		base := sim.QueuedEvent{At: sim.Time(rng.Intn(3)) * sim.Time(time.Millisecond), Seq: uint64(rng.Intn(3)), PushedAt: 0}
		chains = append(chains, newChain(base, rng.Intn(m), delta, rank))
	}
	skipped := 0
	for n := 0; n < 20000; n++ {
		a := chainPath{chains[rng.Intn(len(chains))], rng.Intn(30)}
		b := chainPath{chains[rng.Intn(len(chains))], rng.Intn(30)}
		ra, rb := rng.Intn(2), rng.Intn(2)
		got := sim.ComparePaths(a, ra, b, rb)
		want := sim.ComparePaths(walkedPath{a}, ra, walkedPath{b}, rb)
		if got != want {
			t.Fatalf("chains %+v j=%d and %+v j=%d: %d with SameLevels, %d walked", *a.c, a.j, *b.c, b.j, got, want)
		}
		if a.SameLevels(b, 0) > 1 {
			skipped++
		}
	}
	if skipped < 100 {
		t.Fatalf("only %d pairs had levels to skip: the test does not exercise SameLevels", skipped)
	}
}
