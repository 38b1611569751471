package sorts

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

type item struct {
	key int // sorted on: few distinct values, so many ties
	id  int // where it started: tells apart equal keys
}

func byKey(a, b item) int { return cmp.Compare(a.key, b.key) }

// TestSameOrderAsSlices checks that Func and StableFunc leave every
// element, equal keys included, where slices.SortFunc and
// slices.SortStableFunc do, over the sizes where their algorithms switch
// (insertion sort up to 12 elements, stable blocks of 20, ninther pivots
// from 50) and over input patterns that trigger pattern breaking and
// partial insertion sort.
func TestSameOrderAsSlices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	patterns := map[string]func(i, n int) int{
		"random":     func(i, n int) int { return r.IntN(max(n/4, 1)) },
		"ascending":  func(i, n int) int { return i / 3 },
		"descending": func(i, n int) int { return (n - i) / 3 },
		"sawtooth":   func(i, n int) int { return i % 7 },
		"all equal":  func(i, n int) int { return 0 },
		"almost sorted": func(i, n int) int {
			if i%17 == 0 {
				return r.IntN(n + 1)
			}
			return i
		},
	}
	for name, key := range patterns {
		for _, n := range []int{0, 1, 2, 5, 12, 13, 20, 21, 49, 50, 51, 100, 257, 1000, 5000} {
			in := make([]item, n)
			for i := range in {
				in[i] = item{key: key(i, n), id: i}
			}
			want, got := slices.Clone(in), slices.Clone(in)
			slices.SortFunc(want, byKey)
			Func(got, byKey)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d elements: Func's order differs from slices.SortFunc's", name, n)
			}
			want, got = slices.Clone(in), slices.Clone(in)
			slices.SortStableFunc(want, byKey)
			StableFunc(got, byKey)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d elements: StableFunc's order differs from slices.SortStableFunc's", name, n)
			}
		}
	}
}
