package placement

import (
	"reflect"
	"slices"
	"testing"

	"kafkascope/core/sim"
)

// The testable property of the striped placer (StripedReplicaPlacer): within
// the first n partitions each list is a rotation of the sorted brokers, each
// partition starts one broker after the previous, and leadership is even.
func TestStripedPlacementRotates(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		sp := &Striped{Rand: sim.NewRand(seed, "placement")}
		got, err := sp.Place([]int32{3, 1, 2}, nil, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		leaders := map[int32]int{}
		for i, r := range got {
			leaders[r[0]]++
			for j := range r {
				if want := (r[0]-1+int32(j))%3 + 1; r[j] != want {
					t.Fatalf("seed %d: partition %d replicas %v are not a rotation", seed, i, r)
				}
			}
			if i > 0 && r[0] != got[i-1][0]%3+1 {
				t.Fatalf("seed %d: partition %d starts at %d after %d", seed, i, r[0], got[i-1][0])
			}
		}
		if len(leaders) != 3 {
			t.Fatalf("seed %d: leaders %v not spread", seed, leaders)
		}
	}
}

func TestPlacementErrors(t *testing.T) {
	sp := &Striped{Rand: sim.NewRand(1, "p")}
	if _, err := sp.Place([]int32{1}, nil, 1, 3); err == nil || err.Error() != "The target replication factor of 3 cannot be reached because only 1 broker(s) are registered." {
		t.Fatalf("err = %v", err)
	}
	if _, err := sp.Place(nil, []int32{1}, 1, 1); err == nil || err.Error() != "All brokers are currently fenced." {
		t.Fatalf("err = %v", err)
	}
	sp43 := &Striped{Rand: sim.NewRand(1, "p"), CordonedText: true}
	if _, err := sp43.Place([]int32{1}, nil, 1, 3); err == nil || err.Error() != "The target replication factor of 3 cannot be reached because only 1 broker(s) are registered or some brokers have all their log directories cordoned." {
		t.Fatalf("4.3 err = %v", err)
	}
	if _, err := sp43.Place(nil, []int32{1}, 1, 1); err == nil || err.Error() != "All brokers are currently fenced, or have all their log directories cordoned." {
		t.Fatalf("4.3 err = %v", err)
	}
	got, err := sp.Place([]int32{1}, []int32{2}, 2, 2)
	if err != nil || got[0][0] != 1 || got[1][0] != 1 {
		t.Fatalf("a fenced broker led: %v %v", got, err)
	}
}

// oldStriped is the placer as it was before racks (the single-rack walk
// written directly): the rack-aware placer must place exactly as it did
// when no broker has a rack, draw for draw, so that every placement seen
// so far (transcripts, share links) stays as it was.
func oldStriped(r *sim.Rand, unfenced, fenced []int32, count, rf int) [][]int32 {
	u, f := slices.Clone(unfenced), slices.Clone(fenced)
	slices.Sort(u)
	slices.Sort(f)
	n := len(u)
	start := r.Intn(n)
	fstart := 0
	if len(f) > 0 {
		fstart = r.Intn(len(f))
	}
	var out [][]int32
	for p := 0; p < count; p++ {
		k := p % n
		if p > 0 && k == 0 && n > 1 {
			r.Shuffle(len(u), func(i, j int) { u[i], u[j] = u[j], u[i] })
			r.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
		}
		replicas := make([]int32, 0, rf)
		for j := 0; j < rf && j < n; j++ {
			replicas = append(replicas, u[(start+k+j)%n])
		}
		for j := 0; len(replicas) < rf; j++ {
			replicas = append(replicas, f[(fstart+p+j)%len(f)])
		}
		out = append(out, replicas)
	}
	return out
}

func TestStripedWithoutRacksPlacesAsBefore(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		pick := sim.NewRand(seed, "shape")
		n := 1 + pick.Intn(6)
		nf := pick.Intn(3)
		var unfenced, fenced []int32
		ids := make([]int, n+nf)
		for i := range ids {
			ids[i] = i
		}
		pick.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		for _, id := range ids {
			if len(unfenced) < n {
				unfenced = append(unfenced, int32(id+1))
			} else {
				fenced = append(fenced, int32(id+1))
			}
		}
		rf := 1 + pick.Intn(n+nf)
		count := 1 + pick.Intn(20)
		want := oldStriped(sim.NewRand(seed, "p"), unfenced, fenced, count, rf)
		got, err := (&Striped{Rand: sim.NewRand(seed, "p")}).Place(unfenced, fenced, count, rf)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: unfenced %v fenced %v rf %d: got %v (%v), before %v", seed, unfenced, fenced, rf, got, err, want)
		}
	}
}

// With racks, the Javadoc's example: racks A, B and C of three brokers
// each, every offset 0, give A0,B0,C0 then B1,C1,A1 then C2,A2,B2 — each
// partition spans the three racks, its leader's rack one further on each
// time. Offsets are random here, so the test checks those properties:
// every partition has one replica per rack, consecutive leaders come from
// consecutive racks, and each rack leads three of nine partitions. (In
// this shape every rack is visited by every partition, so each rack's
// rotation returns to the same leader every three partitions: Kafka's
// placer has the same period, until its reshuffle after nine.)
func TestStripedSpreadsReplicasOverRacks(t *testing.T) {
	rackOf := map[int32]string{}
	var brokers []Broker
	for i, r := range []string{"a", "b", "c"} {
		for j := 0; j < 3; j++ {
			id := int32(i*3 + j + 1)
			rackOf[id] = r
			brokers = append(brokers, Broker{ID: id, Rack: r})
		}
	}
	for seed := uint64(1); seed <= 50; seed++ {
		got, err := (&Striped{Rand: sim.NewRand(seed, "p")}).PlaceBrokers(brokers, 9, 3)
		if err != nil {
			t.Fatal(err)
		}
		leads := map[int32]int{}
		for p, r := range got {
			racks := map[string]bool{}
			for _, id := range r {
				racks[rackOf[id]] = true
			}
			if len(racks) != 3 {
				t.Fatalf("seed %d: partition %d's replicas %v share a rack", seed, p, r)
			}
			if p > 0 {
				prev, cur := rackOf[got[p-1][0]], rackOf[r[0]]
				if next := map[string]string{"a": "b", "b": "c", "c": "a"}[prev]; cur != next {
					t.Fatalf("seed %d: partition %d's leader rack %s follows %s", seed, p, cur, prev)
				}
			}
			leads[r[0]]++
		}
		perRack := map[string]int{}
		for id, n := range leads {
			perRack[rackOf[id]] += n
		}
		if perRack["a"] != 3 || perRack["b"] != 3 || perRack["c"] != 3 {
			t.Fatalf("seed %d: leaders %v", seed, leads)
		}
	}
	// Racks of unequal sizes, fewer racks than replicas: the replicas
	// still cover every rack before any rack gets a second one.
	uneven := []Broker{{1, "a", false}, {2, "a", false}, {3, "a", false}, {4, "b", false}, {5, "c", false}}
	got, err := (&Striped{Rand: sim.NewRand(3, "p")}).PlaceBrokers(uneven, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	for p, r := range got {
		racks := map[string]bool{}
		for _, id := range r {
			racks[[]string{"", "a", "a", "a", "b", "c"}[id]] = true
		}
		if len(racks) != 3 {
			t.Fatalf("partition %d: %v covers %d racks", p, r, len(racks))
		}
	}
}
