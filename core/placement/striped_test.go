package placement

import (
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
