// Package patch keeps the page's DOM in step with Vugu builds by sending
// only what changed.
//
// Vugu v0.4.0's DOM renderer (domrender) walks the whole tree on every
// render: it sends every element, attribute and text to JavaScript, which
// compares each with the page, and re-adds every event listener. The page
// renders on every animation frame while the cluster plays, so a diagram
// of a few thousand nodes cost tens of milliseconds a frame in wasm
// (issue 15's profiles: half of each frame was domrender, the decoding of
// its strings in JavaScript and the garbage it left).
//
// A Renderer remembers what it put in the page (a shadow of every DOM
// node it made: tag, attributes, text, listeners) and diffs each new build
// against it, child by child in order, as domrender does. What differs
// becomes a compact list of operations (ops.go) that the page's script
// (Script) applies in one call. A component whose build returned the very
// same output as last time (the same *vugu.BuildOut, see Memo) costs
// nothing: its subtree is not even walked unless components nested in it
// were rebuilt.
//
// A component sets a DOM property (an input's value) with a dynamic
// attribute named after it behind a dot, :.value="expr", rather than with
// Vugu's .value="expr": Vugu compiles the latter to a call of
// encoding/json's reflection-based Marshal, which kept 0.4 MB of code in
// main.wasm (48 KB of its brotli size) for two string values. An
// attribute whose name starts with a dot cannot be set in the DOM
// (setAttribute throws on it), so the renderer never sends one as an
// attribute: it asserts the property on every render, as a .prop.
//
// The package is plain Go: it builds and is tested natively against a
// model of the DOM (patch_test.go). The browser side (applying the
// operations, delivering events) is in wasm/.
package patch

import (
	"fmt"
	"strings"

	"github.com/vugu/vugu"

	"kafkascope/core/jsonvalue"
)

// node is the shadow of one DOM node the Renderer made.
//
// Invariant: the page's node with JavaScript id `id` has exactly this
// type, namespace, tag, attributes, text and listeners, and (unless html
// is set: the children came from innerHTML) exactly the children kids, in
// order. src is the VGNode last drawn here: when a build hands the same
// VGNode again (a reused component output), nothing in it changed.
type node struct {
	id      uint32
	typ     vugu.VGNodeType
	ns, tag string
	data    string // text and comments
	attrs   []vugu.VGAttribute
	hasHTML bool   // the children came from innerHTML
	html    string // that innerHTML
	listens []listen
	kids    []*node
	src     *vugu.VGNode
}

// listen is an event listener on an element: its slot names it to the
// page's script and holds the handler to call.
type listen struct {
	typ              string
	capture, passive bool
	slot             uint32
}

// child is a node of a build to draw, with the component output it
// belongs to.
type child struct {
	n  *vugu.VGNode
	bo *vugu.BuildOut
}

// Renderer diffs builds against what it drew before. It is not safe for
// concurrent use; Render and Handler must not overlap (the page calls
// both from its render loop and its event handler, which the event
// environment's lock keeps apart).
type Renderer struct {
	mount string // CSS selector of the element the root draws into
	root  *node
	br    *vugu.BuildResults
	ops   ops
	stack []child // flattened children of the nodes being diffed
	js    []byte  // a property's value as JSON (propAttrs' scratch)

	nextID  uint32
	freeIDs []uint32

	handlers  []func(vugu.DOMEvent) // by slot; nil: free
	freeSlots []uint32

	// Stats counts the last render's work (for tests and benchmarks).
	Stats Stats
}

// Stats is what one render did.
type Stats struct {
	Visited int // nodes compared
	Skipped int // subtrees skipped as unchanged (a reused component output)
	Created int // nodes created
	Removed int // subtrees removed
	Ops     int // operations sent
	Bytes   int // their size
}

// New makes a renderer that draws into the element matching mount (a CSS
// selector); the root element of every build takes its place's
// attributes and children, as Vugu's own renderer does.
func New(mount string) *Renderer { return &Renderer{mount: mount} }

// Render diffs a build against what is on the page and returns the
// operations that bring the page up to it, for the page's script
// (Script's kfPatch). The slice is reused by the next Render.
func (r *Renderer) Render(br *vugu.BuildResults) ([]byte, error) {
	if br == nil || br.Out == nil || len(br.Out.Out) != 1 {
		return nil, fmt.Errorf("patch: a build must have exactly one root node")
	}
	rootVG := br.Out.Out[0]
	if rootVG.Type != vugu.ElementNode || rootVG.IsTemplate() || rootVG.Component != nil {
		return nil, fmt.Errorf("patch: the root of a build must be an element, not %q", rootVG.Data)
	}
	r.br = br
	r.ops.reset()
	r.Stats = Stats{}
	if r.root == nil {
		r.root = &node{id: r.alloc(), typ: vugu.ElementNode, tag: rootVG.Data, ns: rootVG.Namespace}
		r.ops.mount(r.root.id, r.mount)
	}
	if err := r.patch(r.root, child{rootVG, br.Out}); err != nil {
		return nil, err
	}
	r.br = nil
	r.Stats.Ops, r.Stats.Bytes = r.ops.count, len(r.ops.buf)
	return r.ops.buf, nil
}

// Handler is the event handler of a listener slot (nil if the slot is no
// longer in use: its element is gone).
func (r *Renderer) Handler(slot uint32) func(vugu.DOMEvent) {
	if int(slot) < len(r.handlers) {
		return r.handlers[slot]
	}
	return nil
}

func (r *Renderer) alloc() uint32 {
	if n := len(r.freeIDs); n > 0 {
		id := r.freeIDs[n-1]
		r.freeIDs = r.freeIDs[:n-1]
		return id
	}
	r.nextID++
	return r.nextID - 1
}

func (r *Renderer) allocSlot(f func(vugu.DOMEvent)) uint32 {
	if n := len(r.freeSlots); n > 0 {
		s := r.freeSlots[n-1]
		r.freeSlots = r.freeSlots[:n-1]
		r.handlers[s] = f
		return s
	}
	r.handlers = append(r.handlers, f)
	return uint32(len(r.handlers) - 1)
}

// compatible reports whether k can be patched into n (else it is
// replaced): the same kind of node, and for elements the same tag and
// the same id attribute (an element with an id is that element: patching
// one into another would move its state, such as a list's scroll
// position, to something else).
func compatible(k *node, n *vugu.VGNode) bool {
	if k.typ != n.Type {
		return false
	}
	if k.typ != vugu.ElementNode {
		return true
	}
	if k.tag != n.Data || k.ns != n.Namespace {
		return false
	}
	a, _ := attrVal(k.attrs, "", "id")
	b, _ := attrVal(n.Attr, "", "id")
	return a == b
}

// lookahead is how far patchKids looks for a sibling that came or went.
const lookahead = 4

// patch brings k up to c.n.
func (r *Renderer) patch(k *node, c child) error {
	n := c.n
	r.Stats.Visited++
	same := k.src == n
	if same && len(c.bo.Components) == 0 {
		// A reused output with no component inside: all of it is as drawn.
		r.Stats.Skipped++
		return nil
	}
	k.src = n
	switch n.Type {
	case vugu.TextNode, vugu.CommentNode:
		if k.data != n.Data {
			r.ops.setText(k.id, n.Data)
			k.data = n.Data
		}
		return nil
	case vugu.ElementNode:
	default:
		return fmt.Errorf("patch: unknown node type %d", n.Type)
	}
	if !same {
		r.diffAttrs(k, n)
		r.diffListens(k, n)
	}
	for _, p := range n.Prop {
		// A property (an input's value) is asserted on every render, as
		// Vugu does: the user may have changed it since.
		r.ops.prop(k.id, p.Key, p.JSONVal)
	}
	r.propAttrs(k, n)
	if n.InnerHTML != nil {
		if !k.hasHTML || k.html != *n.InnerHTML {
			r.freeKids(k)
			r.ops.html(k.id, *n.InnerHTML)
			k.hasHTML, k.html = true, *n.InnerHTML
		}
		return nil
	}
	if k.hasHTML {
		r.ops.html(k.id, "") // the children were markup: clear them
		k.hasHTML, k.html = false, ""
	}
	return r.patchKids(k, c)
}

// patchKids brings k's children up to c.n's, position by position.
func (r *Renderer) patchKids(k *node, c child) error {
	start := len(r.stack)
	var err error
	if r.stack, err = r.expandKids(c, r.stack); err != nil {
		return err
	}
	end := len(r.stack)
	defer func() { r.stack = r.stack[:start] }()
	kids := r.stack[start:end]
	if keyed(kids) && keyedNodes(k.kids) {
		return r.patchKeyed(k, kids, end)
	}
	// Walk both lists. A child that does not match the node in its place
	// is a sibling that came (the node matches a child a little further
	// on) or went (the child matches a node a little further on) before
	// anything is replaced: a banner that appears or goes must not make
	// every panel after it be drawn anew.
	old := k.kids
	same := len(old) == len(kids)
	for i := 0; same && i < len(kids); i++ {
		same = compatible(old[i], kids[i].n)
	}
	if same { // the common case: patch in place
		for i, kc := range kids {
			if err := r.patch(old[i], kc); err != nil {
				return err
			}
			r.stack = r.stack[:end]
		}
		return nil
	}
	next := make([]*node, 0, len(kids))
	i := 0
	for j := 0; j < len(kids); j++ {
		kc := kids[j]
		if i < len(old) && !compatible(old[i], kc.n) {
			if d := findNode(old[i+1:min(len(old), i+1+lookahead)], kc.n); d >= 0 {
				for _, o := range old[i : i+1+d] { // these went
					r.ops.remove(o.id)
					r.release(o, false)
					r.Stats.Removed++
				}
				i += d + 1
			} else if findChild(kids[j+1:min(len(kids), j+1+lookahead)], old[i]) < 0 {
				nk, err := r.create(kc) // neither: replace the node
				if err != nil {
					return err
				}
				r.ops.replace(old[i].id, nk.id)
				r.release(old[i], false)
				next = append(next, nk)
				i++
				r.stack = r.stack[:end]
				continue
			} else {
				nk, err := r.create(kc) // this one came
				if err != nil {
					return err
				}
				r.ops.insertBefore(k.id, nk.id, old[i].id)
				next = append(next, nk)
				r.stack = r.stack[:end]
				continue
			}
		}
		if i < len(old) {
			if err := r.patch(old[i], kc); err != nil {
				return err
			}
			next = append(next, old[i])
			i++
		} else {
			nk, err := r.create(kc)
			if err != nil {
				return err
			}
			r.ops.appendChild(k.id, nk.id)
			next = append(next, nk)
		}
		r.stack = r.stack[:end]
	}
	for _, o := range old[i:] {
		r.ops.remove(o.id)
		r.release(o, false)
		r.Stats.Removed++
	}
	k.kids = next
	return nil
}

// findNode is the index of the first node n can be patched into, or -1.
func findNode(nodes []*node, n *vugu.VGNode) int {
	for i, k := range nodes {
		if compatible(k, n) {
			return i
		}
	}
	return -1
}

// findChild is the index of the first child k can be patched into, or -1.
func findChild(kids []child, k *node) int {
	for i, c := range kids {
		if compatible(k, c.n) {
			return i
		}
	}
	return -1
}

// Key is the attribute that names an element among its siblings: when
// every child of an element has one (a list of lines, of events), the
// children are matched by it rather than by position, so a list that
// drops its first item and gains a last one moves nothing else.
const Key = "data-key"

func keyOf(n *vugu.VGNode) string {
	if n.Type != vugu.ElementNode {
		return ""
	}
	for _, a := range n.Attr {
		if a.Key == Key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

func keyed(kids []child) bool {
	for _, c := range kids {
		if keyOf(c.n) == "" {
			return false
		}
	}
	return len(kids) > 0
}

func keyedNodes(kids []*node) bool {
	for _, k := range kids {
		if k.typ != vugu.ElementNode {
			return false
		}
		if _, ok := attrVal(k.attrs, "", Key); !ok {
			return false
		}
	}
	return true
}

// patchKeyed brings k's children up to kids (all keyed) by key: a child
// whose key is still there is patched where it is, and moved only when
// the order changed; the others are created or removed. end is the
// length of r.stack to restore between children.
func (r *Renderer) patchKeyed(k *node, kids []child, end int) error {
	old := make(map[string]*node, len(k.kids))
	for _, o := range k.kids {
		v, _ := attrVal(o.attrs, "", Key)
		if old[v] == nil {
			old[v] = o
		}
	}
	next := make([]*node, 0, len(kids))
	kept := make(map[*node]bool, len(k.kids))
	for _, kc := range kids {
		if o := old[keyOf(kc.n)]; o != nil && compatible(o, kc.n) && !kept[o] {
			if err := r.patch(o, kc); err != nil {
				return err
			}
			kept[o] = true
			next = append(next, o)
		} else {
			nk, err := r.create(kc)
			if err != nil {
				return err
			}
			next = append(next, nk)
		}
		r.stack = r.stack[:end]
	}
	var cur []*node // the old children still on the page, in page order
	for _, o := range k.kids {
		if kept[o] {
			cur = append(cur, o)
			continue
		}
		r.ops.remove(o.id)
		r.release(o, false)
		r.Stats.Removed++
	}
	// Put next in order: walk the page's children, inserting (or moving)
	// each child that is not already the next one there.
	placed := make(map[*node]bool, len(next))
	j := 0
	for _, nk := range next {
		for j < len(cur) && placed[cur[j]] {
			j++
		}
		if j < len(cur) && cur[j] == nk {
			placed[nk] = true
			j++
			continue
		}
		if j < len(cur) {
			r.ops.insertBefore(k.id, nk.id, cur[j].id)
		} else {
			r.ops.appendChild(k.id, nk.id)
		}
		placed[nk] = true
	}
	k.kids = next
	return nil
}

// expandKids appends the children of c.n as the page shows them:
// templates (vg-template) give their children, components their output.
func (r *Renderer) expandKids(c child, out []child) ([]child, error) {
	var err error
	for n := c.n.FirstChild; n != nil; n = n.NextSibling {
		if out, err = r.expand(child{n, c.bo}, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

func (r *Renderer) expand(c child, out []child) ([]child, error) {
	switch {
	case c.n.Component != nil:
		bo := r.br.ResultFor(c.n.Component)
		if bo == nil || len(bo.Out) != 1 {
			return out, fmt.Errorf("patch: component %T must build exactly one root node", c.n.Component)
		}
		return r.expand(child{bo.Out[0], bo}, out)
	case c.n.IsTemplate():
		return r.expandKids(c, out)
	}
	return append(out, c), nil
}

// create makes the page's node for c.n (and its subtree), detached.
func (r *Renderer) create(c child) (*node, error) {
	n := c.n
	r.Stats.Created++
	k := &node{id: r.alloc(), typ: n.Type, src: n}
	switch n.Type {
	case vugu.TextNode:
		k.data = n.Data
		r.ops.text(k.id, n.Data)
		return k, nil
	case vugu.CommentNode:
		k.data = n.Data
		r.ops.comment(k.id, n.Data)
		return k, nil
	case vugu.ElementNode:
	default:
		return nil, fmt.Errorf("patch: unknown node type %d", n.Type)
	}
	k.tag, k.ns = n.Data, n.Namespace
	r.ops.elem(k.id, n.Namespace, n.Data)
	r.diffAttrs(k, n)
	r.diffListens(k, n)
	for _, p := range n.Prop {
		r.ops.prop(k.id, p.Key, p.JSONVal)
	}
	r.propAttrs(k, n)
	if n.InnerHTML != nil {
		r.ops.html(k.id, *n.InnerHTML)
		k.hasHTML, k.html = true, *n.InnerHTML
		return k, nil
	}
	start := len(r.stack)
	var err error
	if r.stack, err = r.expandKids(c, r.stack); err != nil {
		return nil, err
	}
	end := len(r.stack)
	defer func() { r.stack = r.stack[:start] }()
	for _, kc := range r.stack[start:end] {
		ck, err := r.create(kc)
		if err != nil {
			return nil, err
		}
		r.ops.appendChild(k.id, ck.id)
		k.kids = append(k.kids, ck)
		r.stack = r.stack[:end]
	}
	return k, nil
}

// release frees the ids and listener slots of k's subtree, and tells the
// page to drop its references to them: to k's as well when free is set
// (remove and replace already drop the node they take off the page).
func (r *Renderer) release(k *node, free bool) {
	for _, l := range k.listens {
		r.ops.unlisten(l.slot)
		r.handlers[l.slot] = nil
		r.freeSlots = append(r.freeSlots, l.slot)
	}
	for _, c := range k.kids {
		r.release(c, true)
	}
	if free {
		r.ops.free(k.id)
	}
	r.freeIDs = append(r.freeIDs, k.id)
}

// freeKids forgets k's children (innerHTML is about to replace them).
func (r *Renderer) freeKids(k *node) {
	for _, c := range k.kids {
		r.release(c, true)
	}
	k.kids = nil
}

// skipAttr leaves out what domrender leaves out: an xmlns attribute on a
// namespaced element (createElementNS already set it; setting it again
// throws); and a property written as an attribute (isPropAttr).
func skipAttr(n *vugu.VGNode, a vugu.VGAttribute) bool {
	return n.Namespace != "" && a.Namespace == "" && a.Key == "xmlns" || isPropAttr(a)
}

// isPropAttr reports whether a sets a property rather than an attribute:
// its name is the property's behind a dot (see the package comment).
func isPropAttr(a vugu.VGAttribute) bool {
	return a.Namespace == "" && strings.HasPrefix(a.Key, ".")
}

// propAttrs asserts the properties n sets with attributes, each a string.
func (r *Renderer) propAttrs(k *node, n *vugu.VGNode) {
	for _, a := range n.Attr {
		if isPropAttr(a) {
			r.js = jsonvalue.AppendString(r.js[:0], a.Val)
			r.ops.prop(k.id, a.Key[1:], r.js)
		}
	}
}

// diffAttrs sets the attributes of n that k lacks or has otherwise, and
// removes those n no longer has.
func (r *Renderer) diffAttrs(k *node, n *vugu.VGNode) {
	fast := len(n.Attr) == len(k.attrs)
	for i := 0; fast && i < len(n.Attr); i++ {
		fast = n.Attr[i].Key == k.attrs[i].Key && n.Attr[i].Namespace == k.attrs[i].Namespace
	}
	if fast {
		for i, a := range n.Attr {
			if a.Val != k.attrs[i].Val && !skipAttr(n, a) {
				r.ops.attr(k.id, a.Namespace, a.Key, a.Val)
				k.attrs[i].Val = a.Val
			}
		}
		return
	}
	for _, a := range n.Attr {
		if skipAttr(n, a) {
			continue
		}
		if v, ok := attrVal(k.attrs, a.Namespace, a.Key); !ok || v != a.Val {
			r.ops.attr(k.id, a.Namespace, a.Key, a.Val)
		}
	}
	for _, a := range k.attrs {
		if _, ok := attrVal(n.Attr, a.Namespace, a.Key); !ok && !skipAttr(n, a) {
			r.ops.unattr(k.id, a.Namespace, a.Key)
		}
	}
	k.attrs = append(k.attrs[:0], n.Attr...)
}

func attrVal(as []vugu.VGAttribute, ns, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key && a.Namespace == ns {
			return a.Val, true
		}
	}
	return "", false
}

// diffListens keeps one listener per event type (and capture, passive)
// of n on k, each calling n's current handler.
func (r *Renderer) diffListens(k *node, n *vugu.VGNode) {
	specs := n.DOMEventHandlerSpecList
	fast := len(specs) == len(k.listens)
	for i := 0; fast && i < len(specs); i++ {
		fast = sameListen(k.listens[i], specs[i])
	}
	if fast {
		for i, s := range specs {
			r.handlers[k.listens[i].slot] = s.Func
		}
		return
	}
	kept := k.listens[:0:0]
	for _, l := range k.listens {
		found := false
		for _, s := range specs {
			if sameListen(l, s) {
				found = true
				break
			}
		}
		if !found {
			r.ops.unlisten(l.slot)
			r.handlers[l.slot] = nil
			r.freeSlots = append(r.freeSlots, l.slot)
			continue
		}
		kept = append(kept, l)
	}
	var out []listen
	for _, s := range specs {
		i := -1
		for j, l := range kept {
			if sameListen(l, s) {
				i = j
				break
			}
		}
		if i >= 0 {
			r.handlers[kept[i].slot] = s.Func
			out = append(out, kept[i])
			kept = append(kept[:i], kept[i+1:]...)
			continue
		}
		l := listen{typ: s.EventType, capture: s.Capture, passive: s.Passive}
		l.slot = r.allocSlot(s.Func)
		r.ops.listen(k.id, l.slot, l.typ, l.capture, l.passive)
		out = append(out, l)
	}
	k.listens = out
}

func sameListen(l listen, s vugu.DOMEventHandlerSpec) bool {
	return l.typ == s.EventType && l.capture == s.Capture && l.passive == s.Passive
}
