package patch

import "encoding/binary"

// The operations a render sends to the page's script (Script applies
// them). Each is one opcode byte, then its arguments: ids and slots as
// little-endian uint32, strings as a uint32 byte length and UTF-8 bytes,
// flags as one byte. Nodes are named by ids the Renderer hands out; the
// script keeps them in an array.
const (
	opElem     = 1  // id, namespace, tag: create an element
	opText     = 2  // id, text: create a text node
	opComment  = 3  // id, text: create a comment
	opAttr     = 4  // id, namespace, name, value: set an attribute
	opUnattr   = 5  // id, namespace, name: remove an attribute
	opSetText  = 6  // id, text: change a text node's or comment's data
	opHTML     = 7  // id, html: set an element's innerHTML
	opProp     = 8  // id, name, JSON: set a property (when it differs)
	opAppend   = 9  // parent, child: append a child
	opRemove   = 10 // id: take a node off the page and forget it
	opFree     = 11 // id: forget a node (it left the page with an ancestor)
	opListen   = 12 // id, slot, event type, flags (1 capture, 2 passive): add a listener
	opUnlisten = 13 // slot: remove a listener
	opReplace  = 14 // old, new: put new where old is and forget old
	opMount    = 15 // id, selector: name the element a render draws into
	opInsert   = 16 // parent, child, before: insert (or move) child before another child
)

// ops is an operation list being written.
type ops struct {
	buf   []byte
	count int
}

func (o *ops) reset() { o.buf, o.count = o.buf[:0], 0 }

func (o *ops) op(code byte, id uint32) {
	o.count++
	o.buf = append(o.buf, code)
	o.u32(id)
}

func (o *ops) u32(v uint32) { o.buf = binary.LittleEndian.AppendUint32(o.buf, v) }

func (o *ops) str(s string) {
	o.u32(uint32(len(s)))
	o.buf = append(o.buf, s...)
}

func (o *ops) bytes(b []byte) {
	o.u32(uint32(len(b)))
	o.buf = append(o.buf, b...)
}

func (o *ops) elem(id uint32, ns, tag string)  { o.op(opElem, id); o.str(ns); o.str(tag) }
func (o *ops) text(id uint32, s string)        { o.op(opText, id); o.str(s) }
func (o *ops) comment(id uint32, s string)     { o.op(opComment, id); o.str(s) }
func (o *ops) attr(id uint32, ns, k, v string) { o.op(opAttr, id); o.str(ns); o.str(k); o.str(v) }
func (o *ops) unattr(id uint32, ns, k string)  { o.op(opUnattr, id); o.str(ns); o.str(k) }
func (o *ops) setText(id uint32, s string)     { o.op(opSetText, id); o.str(s) }
func (o *ops) html(id uint32, s string)        { o.op(opHTML, id); o.str(s) }
func (o *ops) prop(id uint32, k string, js []byte) {
	o.op(opProp, id)
	o.str(k)
	o.bytes(js)
}
func (o *ops) appendChild(parent, c uint32) { o.op(opAppend, parent); o.u32(c) }
func (o *ops) insertBefore(parent, c, before uint32) {
	o.op(opInsert, parent)
	o.u32(c)
	o.u32(before)
}
func (o *ops) remove(id uint32) { o.op(opRemove, id) }
func (o *ops) free(id uint32)   { o.op(opFree, id) }
func (o *ops) listen(id, slot uint32, typ string, capture, passive bool) {
	o.op(opListen, id)
	o.u32(slot)
	o.str(typ)
	var flags byte
	if capture {
		flags |= 1
	}
	if passive {
		flags |= 2
	}
	o.buf = append(o.buf, flags)
}
func (o *ops) unlisten(slot uint32)        { o.op(opUnlisten, slot) }
func (o *ops) replace(old, n uint32)       { o.op(opReplace, old); o.u32(n) }
func (o *ops) mount(id uint32, sel string) { o.op(opMount, id); o.str(sel) }
