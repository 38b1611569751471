package ui

import (
	"slices"

	"github.com/vugu/vugu"
)

// TermChunk draws one chunk of the terminal's scrollback (see
// termChunkLines):
//
//	<span class="terminal-chunk" data-key="K"><span class="CLASS"><span class="terminal-ps">$ </span>TEXT</span>…</span>
//
// It is written by hand rather than generated from a .vugu file so that
// it can hand back the very output it built last time while its chunk is
// unchanged: then neither the build, nor Prepare, nor the renderer (which
// skips an output it drew before, ui/patch) spends anything on it. While
// a consumer prints, only the newest chunk changes; the others (up to
// termShownMax lines) cost nothing a frame.
type TermChunk struct {
	Chunk termChunk

	built termChunk // what out shows
	out   *vugu.BuildOut
}

// Build draws the chunk, or returns the last output when it shows the same.
func (c *TermChunk) Build(*vugu.BuildIn) *vugu.BuildOut {
	if c.out != nil && c.Chunk.Key == c.built.Key && slices.EqualFunc(c.Chunk.Blocks, c.built.Blocks, sameBlock) {
		return c.out
	}
	root := &vugu.VGNode{Type: vugu.ElementNode, Data: "span", Attr: []vugu.VGAttribute{
		{Key: "class", Val: "terminal-chunk"}, {Key: "data-key", Val: c.Chunk.Key}}}
	for _, b := range c.Chunk.Blocks {
		el := &vugu.VGNode{Type: vugu.ElementNode, Data: "span", Attr: []vugu.VGAttribute{{Key: "class", Val: b.Class}}}
		if b.Prompt != "" {
			ps := &vugu.VGNode{Type: vugu.ElementNode, Data: "span", Attr: []vugu.VGAttribute{{Key: "class", Val: "terminal-ps"}}}
			ps.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: b.Prompt})
			el.AppendChild(ps)
		}
		text := &vugu.VGNode{Type: vugu.ElementNode, Data: "span"}
		if b.Text != "" {
			text.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: b.Text})
		}
		el.AppendChild(text)
		root.AppendChild(el)
	}
	c.built = termChunk{Key: c.Chunk.Key, Blocks: slices.Clone(c.Chunk.Blocks)}
	c.out = &vugu.BuildOut{Out: []*vugu.VGNode{root}}
	return c.out
}

func sameBlock(a, b termBlock) bool {
	return a.Class == b.Class && a.Prompt == b.Prompt && a.Text == b.Text
}
