package ui

import (
	"slices"

	"github.com/vugu/vugu"
)

// DgRow draws one row of the partitions' drawing (dg-row.vugu: vugugen
// names a component after its file): a topic's header or a partition
// with its replicas' strips. It is built by DgRowMemo, never on its own.
type DgRow struct {
	Row   *dgRow
	G     *dgGeometry
	SepX2 string
	D     *Diagram
}

// DgRowMemo is one row of the partitions' drawing that hands back the
// output it built last time while the row draws the same: then neither
// the build, nor Prepare, nor the renderer (which skips an output it drew
// before, ui/patch) spends anything on it. While a cluster plays, most
// rows do not change from one frame to the next (a frame's records reach
// a few partitions; an election or a rebalance writes none), yet every
// row was built, prepared and compared every frame.
//
// What the row draws is its dgRow, the frame's row geometry and the
// separators' end: all three are compared with what the output was
// built from. dgLayout.Compute reuses its rows' slices from frame to
// frame, so the output is built from a deep copy (built), never from the
// layout's row: the copy is what the comparison reads, and what the
// output's handlers (a click on a replica strip) read when they run.
type DgRowMemo struct {
	Row   dgRow
	G     dgGeometry
	SepX2 string
	D     *Diagram

	built dgRow // a copy of the row out shows
	g     dgGeometry
	sepX2 string
	d     *Diagram
	inner DgRow
	out   *vugu.BuildOut
}

// Build draws the row, or returns the last output when it shows the same.
func (c *DgRowMemo) Build(in *vugu.BuildIn) *vugu.BuildOut {
	if c.out != nil && !c.D.noRowMemo && c.d == c.D && c.g == c.G && c.sepX2 == c.SepX2 && dgSameRow(&c.built, &c.Row) {
		return c.out
	}
	c.built, c.g, c.sepX2, c.d = dgCloneRow(&c.Row), c.G, c.SepX2, c.D
	c.inner = DgRow{Row: &c.built, G: &c.g, SepX2: c.sepX2, D: c.d}
	out := c.inner.Build(in)
	for _, n := range out.Out {
		dgInSVG(n)
	}
	c.out = out
	return c.out
}

// dgInSVG puts n's elements in the SVG namespace: the row is drawn inside
// the partitions' <svg>, but its own .vugu file has no <svg> around it.
func dgInSVG(n *vugu.VGNode) {
	if n.Type == vugu.ElementNode {
		n.Namespace = "svg"
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		dgInSVG(ch)
	}
}

// dgSameRow reports whether two rows draw the same: every field equal (a
// nil slice and an empty one draw the same). It compares with == and
// slices.Equal rather than reflect.DeepEqual, which took 39 KB of
// main.wasm (11 KB gzipped, 5 KB brotli) for this one use.
func dgSameRow(a, b *dgRow) bool {
	return a.dgRowLine == b.dgRowLine && slices.EqualFunc(a.Replicas, b.Replicas, func(x, y dgReplica) bool {
		return x.dgReplicaLine == y.dgReplicaLine && slices.Equal(x.Runs, y.Runs) && slices.Equal(x.Cells, y.Cells) && slices.Equal(x.Lost, y.Lost)
	})
}

// dgCloneRow is a deep copy of r: none of its slices shares an array with
// r's.
func dgCloneRow(r *dgRow) dgRow {
	out := *r
	out.Replicas = slices.Clone(r.Replicas)
	for i := range out.Replicas {
		rp := &out.Replicas[i]
		rp.Runs = slices.Clone(rp.Runs)
		rp.Cells = slices.Clone(rp.Cells)
		rp.Lost = slices.Clone(rp.Lost)
	}
	return out
}
