package storage

import (
	"math/rand"
	"testing"
)

// The directory holds what one slice would, through pushes of alike and
// unlike entries and truncations across its spans' boundaries, and keeps
// its invariants.
func TestBatchDirIsOneSlice(t *testing.T) {
	rnd := rand.New(rand.NewSource(5))
	var d batchDir
	var model []batchEntry
	for step := 0; step < 400; step++ {
		if rnd.Intn(5) > 0 {
			alike := rnd.Intn(2) == 0 // a run of NoOps: one size and count
			size := int32(1 + rnd.Intn(100))
			for k := rnd.Intn(3 * dirBlock / 2); k > 0; k-- {
				e := batchEntry{baseDelta: int32(len(model) + step), position: int32(len(model)) * size, recordCount: 1}
				if !alike || rnd.Intn(500) == 0 {
					e.position, e.recordCount = int32(rnd.Intn(1<<20)), int32(rnd.Intn(3))
				}
				d.push(e)
				model = append(model, e)
			}
		} else {
			n := rnd.Intn(len(model) + 1)
			if k := rnd.Intn(len(d.spans) + 1); k < len(d.spans) && rnd.Intn(2) == 0 { // at a span's boundary
				n = d.spans[k].first
			}
			d.truncate(n)
			model = model[:n]
		}
		if d.len() != len(model) {
			t.Fatalf("step %d: len %d, want %d", step, d.len(), len(model))
		}
		first, arithmetic := 0, 0
		for i := range d.spans {
			s := &d.spans[i]
			if s.first != first || s.len() == 0 || len(s.list) > dirBlock {
				t.Fatalf("step %d: span %d of %d starts at %d (want %d) and holds %d", step, i, len(d.spans), s.first, first, s.len())
			}
			first += s.len()
			if s.list == nil {
				arithmetic += s.count
			}
		}
		if first != d.len() {
			t.Fatalf("step %d: spans hold %d entries, len %d", step, first, d.len())
		}
		if len(model) > 10*dirBlock && arithmetic == 0 {
			t.Fatalf("step %d: no entry of %d is in an arithmetic span", step, len(model))
		}
		for k := 0; k < 20 && len(model) > 0; k++ {
			i := rnd.Intn(len(model))
			if d.at(i) != model[i] {
				t.Fatalf("step %d: entry %d is %+v, want %+v", step, i, d.at(i), model[i])
			}
		}
	}
}
