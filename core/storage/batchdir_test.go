package storage

import (
	"math/rand"
	"testing"
)

// The directory holds what one slice would, through pushes and
// truncations across its blocks' boundaries, and keeps its blocks full.
func TestBatchDirIsOneSlice(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	var d batchDir
	var model []batchEntry
	for step := 0; step < 400; step++ {
		if rnd.Intn(5) > 0 {
			for k := rnd.Intn(3 * dirBlock / 2); k > 0; k-- {
				e := batchEntry{baseDelta: int32(step), position: int32(len(model))}
				d.push(e)
				model = append(model, e)
			}
		} else {
			n := rnd.Intn(len(model) + 1)
			if rnd.Intn(2) == 0 { // at a block's boundary
				n = n / dirBlock * dirBlock
			}
			d.truncate(n)
			model = model[:n]
		}
		if d.len() != len(model) {
			t.Fatalf("step %d: len %d, want %d", step, d.len(), len(model))
		}
		for i, b := range d.blocks {
			if i < len(d.blocks)-1 && len(b) != dirBlock || len(b) == 0 {
				t.Fatalf("step %d: block %d of %d holds %d", step, i, len(d.blocks), len(b))
			}
		}
		for k := 0; k < 20 && len(model) > 0; k++ {
			i := rnd.Intn(len(model))
			if *d.at(i) != model[i] {
				t.Fatalf("step %d: entry %d is %+v, want %+v", step, i, *d.at(i), model[i])
			}
		}
	}
}
