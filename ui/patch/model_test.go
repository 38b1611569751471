package patch

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// domModel applies a render's operations as Script does, to a model of the
// DOM, so that tests can check what the page would show.
type domModel struct {
	nodes     map[uint32]*mnode
	listeners map[uint32]*mlisten
	mounted   map[string]*mnode // by selector
	ops       int
}

type mnode struct {
	text     bool
	comment  bool
	ns, tag  string
	data     string
	attrs    map[string]string // "ns|name" → value
	props    map[string]any
	html     *string
	kids     []*mnode
	parent   *mnode
	listens  map[uint32]*mlisten
	detached bool
}

type mlisten struct {
	el    *mnode
	typ   string
	flags byte
}

func newModel() *domModel {
	return &domModel{nodes: map[uint32]*mnode{}, listeners: map[uint32]*mlisten{}, mounted: map[string]*mnode{}}
}

func (m *domModel) node(id uint32) *mnode {
	n := m.nodes[id]
	if n == nil {
		panic(fmt.Sprintf("op %d: no node %d", m.ops, id))
	}
	return n
}

func (n *mnode) detach() {
	if p := n.parent; p != nil {
		for i, c := range p.kids {
			if c == n {
				p.kids = append(p.kids[:i], p.kids[i+1:]...)
				break
			}
		}
		n.parent = nil
	}
}

func (n *mnode) clearKids() {
	for _, c := range n.kids {
		c.parent = nil
	}
	n.kids = nil
}

// apply runs one render's operations.
func (m *domModel) apply(b []byte) {
	off := 0
	u32 := func() uint32 { v := binary.LittleEndian.Uint32(b[off:]); off += 4; return v }
	str := func() string { n := int(u32()); s := string(b[off : off+n]); off += n; return s }
	for off < len(b) {
		m.ops++
		op := b[off]
		off++
		id := u32()
		switch op {
		case opElem:
			ns, tag := str(), str()
			m.nodes[id] = &mnode{ns: ns, tag: tag, attrs: map[string]string{}, props: map[string]any{}, listens: map[uint32]*mlisten{}}
		case opText:
			m.nodes[id] = &mnode{text: true, data: str()}
		case opComment:
			m.nodes[id] = &mnode{comment: true, data: str()}
		case opAttr:
			ns, k, v := str(), str(), str()
			m.node(id).attrs[ns+"|"+k] = v
		case opUnattr:
			ns, k := str(), str()
			delete(m.node(id).attrs, ns+"|"+k)
		case opSetText:
			m.node(id).data = str()
		case opHTML:
			h := str()
			n := m.node(id)
			n.clearKids()
			n.html = &h
			if h == "" {
				n.html = nil
			}
		case opProp:
			k := str()
			var v any
			if err := json.Unmarshal([]byte(str()), &v); err != nil {
				panic(err)
			}
			m.node(id).props[k] = v
		case opAppend:
			p, c := m.node(id), m.node(u32())
			c.detach()
			p.html = nil
			p.kids = append(p.kids, c)
			c.parent = p
		case opInsert:
			p, c, before := m.node(id), m.node(u32()), m.node(u32())
			if before.parent != p {
				panic("insert before a node of another parent")
			}
			c.detach()
			for i, k := range p.kids {
				if k == before {
					p.kids = append(p.kids[:i], append([]*mnode{c}, p.kids[i:]...)...)
					break
				}
			}
			c.parent = p
		case opRemove:
			m.node(id).detach()
			delete(m.nodes, id)
		case opFree:
			m.node(id)
			delete(m.nodes, id)
		case opListen:
			slot, typ, flags := u32(), str(), b[off]
			off++
			if m.listeners[slot] != nil {
				panic(fmt.Sprintf("slot %d in use", slot))
			}
			l := &mlisten{el: m.node(id), typ: typ, flags: flags}
			m.listeners[slot] = l
			l.el.listens[slot] = l
		case opUnlisten:
			l := m.listeners[id]
			if l == nil {
				panic(fmt.Sprintf("unlisten of unknown slot %d", id))
			}
			delete(l.el.listens, id)
			delete(m.listeners, id)
		case opReplace:
			old, nw := m.node(id), m.node(u32())
			p := old.parent
			if p == nil {
				panic("replace of a detached node")
			}
			nw.detach()
			for i, c := range p.kids {
				if c == old {
					p.kids[i] = nw
				}
			}
			nw.parent, old.parent = p, nil
			delete(m.nodes, id)
		case opMount:
			sel := str()
			n := m.mounted[sel]
			if n == nil {
				n = &mnode{tag: "div", attrs: map[string]string{}, props: map[string]any{}, listens: map[uint32]*mlisten{}}
				m.mounted[sel] = n
			}
			m.nodes[id] = n
		default:
			panic(fmt.Sprintf("unknown op %d", op))
		}
	}
}

// html serialises a model node: the tag, attributes sorted, listeners
// (by type) and properties, then children.
func (n *mnode) write(b *strings.Builder) {
	switch {
	case n.text:
		b.WriteString(n.data)
		return
	case n.comment:
		b.WriteString("<!--" + n.data + "-->")
		return
	}
	b.WriteString("<" + n.ns + ":" + n.tag)
	keys := make([]string, 0, len(n.attrs))
	for k := range n.attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, " %s=%q", k, n.attrs[k])
	}
	var ls []string
	for _, l := range n.listens {
		ls = append(ls, fmt.Sprintf("%s/%d", l.typ, l.flags))
	}
	sort.Strings(ls)
	for _, l := range ls {
		b.WriteString(" @" + l)
	}
	pk := make([]string, 0, len(n.props))
	for k := range n.props {
		pk = append(pk, k)
	}
	sort.Strings(pk)
	for _, k := range pk {
		fmt.Fprintf(b, " .%s=%v", k, n.props[k])
	}
	b.WriteString(">")
	if n.html != nil {
		b.WriteString(*n.html)
	}
	for _, c := range n.kids {
		c.write(b)
	}
	b.WriteString("</" + n.tag + ">")
}

func (n *mnode) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}
