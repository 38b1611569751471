package storage

// batchDir is a segment's directory of batches (batchEntry) in blocks of
// dirBlock entries: appending never copies the entries already there. An
// idle week's metadata log lists 1.2 million batches a replica; kept in
// one slice that Go's append grew by a quarter at a time, its copies were
// a quarter of everything a leaped week allocated. The first block grows
// as a slice does (most segments list a few batches), later ones are
// made whole.
//
// Invariants: every block but the last holds dirBlock entries; the last
// holds at least one; n is the total.
type batchDir struct {
	blocks [][]batchEntry
	n      int
}

const dirBlock = 4096

// len is the number of entries.
func (d *batchDir) len() int { return d.n }

// at is entry i (i < len).
func (d *batchDir) at(i int) *batchEntry { return &d.blocks[i/dirBlock][i%dirBlock] }

// push adds e at the end.
func (d *batchDir) push(e batchEntry) {
	k := len(d.blocks)
	if k == 0 || len(d.blocks[k-1]) == dirBlock {
		size := dirBlock
		if k == 0 {
			size = 4
		}
		d.blocks = append(d.blocks, make([]batchEntry, 0, size))
		k++
	}
	d.blocks[k-1] = append(d.blocks[k-1], e)
	d.n++
}

// truncate keeps the first n entries (n <= len).
func (d *batchDir) truncate(n int) {
	k := (n + dirBlock - 1) / dirBlock // blocks kept
	clear(d.blocks[k:])                // let the dropped blocks go
	d.blocks = d.blocks[:k]
	if k > 0 {
		d.blocks[k-1] = d.blocks[k-1][:n-(k-1)*dirBlock]
	}
	d.n = n
}
