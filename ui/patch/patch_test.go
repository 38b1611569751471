package patch

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vugu/vugu"
)

// want serialises a build as the page must show it (as mnode.html does):
// components give their output, templates their children.
func want(br *vugu.BuildResults) string {
	var b strings.Builder
	var walk func(n *vugu.VGNode)
	walk = func(n *vugu.VGNode) {
		switch {
		case n.Component != nil:
			walk(br.ResultFor(n.Component).Out[0])
			return
		case n.IsTemplate():
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
			return
		case n.Type == vugu.TextNode:
			b.WriteString(n.Data)
			return
		case n.Type == vugu.CommentNode:
			b.WriteString("<!--" + n.Data + "-->")
			return
		}
		b.WriteString("<" + n.Namespace + ":" + n.Data)
		var keys []string
		vals := map[string]string{}
		for _, a := range n.Attr {
			if skipAttr(n, a) {
				continue
			}
			k := a.Namespace + "|" + a.Key
			if _, dup := vals[k]; !dup {
				keys = append(keys, k)
			}
			vals[k] = a.Val
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%q", k, vals[k])
		}
		var ls []string
		for _, s := range n.DOMEventHandlerSpecList {
			var f byte
			if s.Capture {
				f |= 1
			}
			if s.Passive {
				f |= 2
			}
			ls = append(ls, fmt.Sprintf("%s/%d", s.EventType, f))
		}
		sort.Strings(ls)
		for _, l := range ls {
			b.WriteString(" @" + l)
		}
		var pk []string
		props := map[string]any{}
		for _, p := range n.Prop {
			var v any
			_ = json.Unmarshal(p.JSONVal, &v)
			props[p.Key] = v
			pk = append(pk, p.Key)
		}
		for _, a := range n.Attr {
			if isPropAttr(a) {
				props[a.Key[1:]] = a.Val
				pk = append(pk, a.Key[1:])
			}
		}
		sort.Strings(pk)
		for _, k := range pk {
			fmt.Fprintf(&b, " .%s=%v", k, props[k])
		}
		b.WriteString(">")
		if n.InnerHTML != nil {
			b.WriteString(*n.InnerHTML)
		} else {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		b.WriteString("</" + n.Data + ">")
	}
	walk(br.Out.Out[0])
	return b.String()
}

// checkHandlers checks that every listener on the page calls the handler
// the build gives its element for that event (each handler records its
// token in fired).
func checkHandlers(t *testing.T, r *Renderer, m *domModel, br *vugu.BuildResults, fired *string) {
	t.Helper()
	var walk func(mn *mnode, n *vugu.VGNode)
	var flat func(n *vugu.VGNode, out []*vugu.VGNode) []*vugu.VGNode
	flat = func(n *vugu.VGNode, out []*vugu.VGNode) []*vugu.VGNode {
		switch {
		case n.Component != nil:
			return flat(br.ResultFor(n.Component).Out[0], out)
		case n.IsTemplate():
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				out = flat(c, out)
			}
			return out
		}
		return append(out, n)
	}
	walk = func(mn *mnode, n *vugu.VGNode) {
		for slot, l := range mn.listens {
			var spec *vugu.DOMEventHandlerSpec
			for i := range n.DOMEventHandlerSpecList {
				if n.DOMEventHandlerSpecList[i].EventType == l.typ {
					spec = &n.DOMEventHandlerSpecList[i]
				}
			}
			h := r.Handler(slot)
			if spec == nil || h == nil {
				t.Fatalf("slot %d (%s) has no handler", slot, l.typ)
			}
			*fired = ""
			spec.Func(nil)
			wantTok := *fired
			*fired = ""
			h(nil)
			if *fired != wantTok {
				t.Fatalf("slot %d (%s) calls %q, want %q", slot, l.typ, *fired, wantTok)
			}
		}
		if n.InnerHTML != nil {
			return
		}
		var kids []*vugu.VGNode
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			kids = flat(c, kids)
		}
		for i, c := range kids {
			if c.Type == vugu.ElementNode {
				walk(mn.kids[i], c)
			}
		}
	}
	walk(m.mounted["#app"], br.Out.Out[0])
}

// fakeComp is a component whose build is set beforehand.
type fakeComp struct {
	name string
	out  *vugu.BuildOut
}

func (c *fakeComp) Build(*vugu.BuildIn) *vugu.BuildOut { return c.out }

// gen builds random trees: elements (HTML and SVG), text, comments,
// templates, components (with outputs of their own), innerHTML,
// attributes, properties and listeners, drawn from small sets so that
// successive trees share much and differ somewhat; a component keeps its
// last output (the same *vugu.BuildOut) half the time.
type gen struct {
	rng   *rand.Rand
	env   *vugu.BuildEnv
	used  map[string]bool // components used in this build
	comps map[string]*fakeComp
	fired *string
	seq   int
}

func (g *gen) text() string {
	return []string{"", "a", "b", "hello", "한국어", "x < y & z"}[g.rng.IntN(6)]
}

// claim marks a component's output (and those nested in it) used in this
// build, if none of them is yet.
func (g *gen) claim(bo *vugu.BuildOut) bool {
	var names []string
	var walk func(bo *vugu.BuildOut) bool
	walk = func(bo *vugu.BuildOut) bool {
		for _, c := range bo.Components {
			fc := c.(*fakeComp)
			if g.used[fc.name] || slices.Contains(names, fc.name) {
				return false
			}
			names = append(names, fc.name)
			if !walk(fc.out) {
				return false
			}
		}
		return true
	}
	if !walk(bo) {
		return false
	}
	for _, n := range names {
		g.used[n] = true
	}
	// A component nested in a reused output may build anew.
	for _, n := range names {
		if fc := g.comps[n]; g.rng.IntN(2) == 0 {
			out := &vugu.BuildOut{}
			out.Out = []*vugu.VGNode{g.element(3, false, out)}
			fc.out = out
		}
	}
	return true
}

func (g *gen) node(depth int, svg bool, bo *vugu.BuildOut) *vugu.VGNode {
	switch k := g.rng.IntN(12); {
	case k < 2 || depth > 4:
		return &vugu.VGNode{Type: vugu.TextNode, Data: g.text()}
	case k == 2:
		return &vugu.VGNode{Type: vugu.CommentNode, Data: g.text()}
	case k == 3 && depth < 4:
		t := &vugu.VGNode{Type: vugu.ElementNode} // a template
		for i := g.rng.IntN(3); i > 0; i-- {
			t.AppendChild(g.node(depth+1, svg, bo))
		}
		return t
	case k == 4 && depth < 4:
		name := fmt.Sprintf("c%d", g.rng.IntN(4))
		if g.used[name] {
			break // one use per component per build
		}
		c := g.comps[name]
		if c == nil {
			c = &fakeComp{name: name}
			g.comps[name] = c
		}
		g.used[name] = true
		if c.out == nil || g.rng.IntN(2) == 0 || !g.claim(c.out) {
			out := &vugu.BuildOut{}
			out.Out = []*vugu.VGNode{g.element(depth+1, svg, out)}
			c.out = out
		}
		bo.Components = append(bo.Components, c)
		return &vugu.VGNode{Type: vugu.ElementNode, Data: "c", Component: c}
	}
	return g.element(depth, svg, bo)
}

func (g *gen) element(depth int, svg bool, bo *vugu.BuildOut) *vugu.VGNode {
	tags := []string{"div", "span", "p", "svg"}
	tag := tags[g.rng.IntN(len(tags))]
	if svg {
		tag = []string{"g", "rect", "text"}[g.rng.IntN(3)]
	}
	n := &vugu.VGNode{Type: vugu.ElementNode, Data: tag}
	if svg || tag == "svg" {
		n.Namespace = "svg"
		svg = true
		if tag == "svg" {
			n.Attr = append(n.Attr, vugu.VGAttribute{Key: "xmlns", Val: "http://www.w3.org/2000/svg"})
		}
	}
	keys := []string{"class", "id", "title", "viewBox", "data-x"}
	for _, i := range g.rng.Perm(len(keys))[:g.rng.IntN(4)] {
		n.Attr = append(n.Attr, vugu.VGAttribute{Key: keys[i], Val: g.text()})
	}
	if tag == "p" {
		n.Prop = append(n.Prop, vugu.VGProperty{Key: "value", JSONVal: []byte(`"v"`)})
	}
	if tag == "span" { // always: a property left out stays in the DOM
		n.Attr = append(n.Attr, vugu.VGAttribute{Key: ".title", Val: g.text() + "<\"\u2028>"})
	}
	for _, ev := range []string{"click", "keydown", "input"} {
		if g.rng.IntN(3) == 0 {
			g.seq++
			tok := fmt.Sprintf("%s#%d", ev, g.seq)
			fired := g.fired
			n.DOMEventHandlerSpecList = append(n.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{
				EventType: ev, Capture: ev == "input", Func: func(vugu.DOMEvent) { *fired = tok }})
		}
	}
	if !svg && g.rng.IntN(10) == 0 {
		h := []string{"", "<b>raw</b>", "text"}[g.rng.IntN(3)]
		n.InnerHTML = &h
		return n
	}
	for i := g.rng.IntN(5); i > 0; i-- {
		n.AppendChild(g.node(depth+1, svg, bo))
	}
	return n
}

// build makes a random build whose root is a div.
func (g *gen) build() *vugu.BuildResults {
	g.used = map[string]bool{}
	rootOut := &vugu.BuildOut{}
	root := &vugu.VGNode{Type: vugu.ElementNode, Data: "div", Attr: []vugu.VGAttribute{{Key: "id", Val: "app"}}}
	// A keyed list: items come, go and move; now and then one has no key
	// (the list is then matched by position).
	list := &vugu.VGNode{Type: vugu.ElementNode, Data: "ol"}
	for _, i := range g.rng.Perm(8)[:g.rng.IntN(8)] {
		li := &vugu.VGNode{Type: vugu.ElementNode, Data: "li"}
		if g.rng.IntN(20) > 0 {
			li.Attr = append(li.Attr, vugu.VGAttribute{Key: Key, Val: fmt.Sprint("k", i)})
		}
		if g.rng.IntN(6) == 0 {
			li.Data = "p" // the same key on another element
		}
		li.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: g.text()})
		list.AppendChild(li)
	}
	root.AppendChild(list)
	// Two components in fixed places, so that reused outputs meet
	// themselves on the page; the rest varies.
	for _, name := range []string{"c0", "c1"} {
		c := g.comps[name]
		if c == nil {
			c = &fakeComp{name: name}
			g.comps[name] = c
		}
		if g.used[name] {
			continue
		}
		g.used[name] = true
		if c.out == nil || g.rng.IntN(3) == 0 || !g.claim(c.out) {
			out := &vugu.BuildOut{}
			out.Out = []*vugu.VGNode{g.element(2, false, out)}
			c.out = out
		}
		rootOut.Components = append(rootOut.Components, c)
		root.AppendChild(&vugu.VGNode{Type: vugu.ElementNode, Data: "c", Component: c})
	}
	for i := g.rng.IntN(6); i > 0; i-- {
		root.AppendChild(g.node(1, false, rootOut))
	}
	rootOut.Out = []*vugu.VGNode{root}
	return g.env.RunBuild(&fakeComp{name: "root", out: rootOut})
}

// TestRenderMatchesBuilds renders random successive builds and checks,
// after each, that the page (the DOM model) shows exactly the build, with
// every listener calling its current handler, and that unchanged
// component outputs were skipped.
func TestRenderMatchesBuilds(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		fired := ""
		env, err := vugu.NewBuildEnv()
		if err != nil {
			t.Fatal(err)
		}
		g := &gen{rng: rand.New(rand.NewPCG(seed, 7)), env: env, comps: map[string]*fakeComp{}, fired: &fired}
		r := New("#app")
		m := newModel()
		for step := 0; step < 12; step++ {
			br := g.build()
			ops, err := r.Render(br)
			if err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
			m.apply(ops)
			got := m.mounted["#app"].String()
			if w := want(br); got != w {
				t.Fatalf("seed %d step %d:\n got %s\nwant %s", seed, step, got, w)
			}
			checkHandlers(t, r, m, br, &fired)
			if len(m.nodes) != countShadow(r.root) {
				t.Fatalf("seed %d step %d: the page holds %d nodes, the renderer %d", seed, step, len(m.nodes), countShadow(r.root))
			}
		}
	}
}

func countShadow(k *node) int {
	n := 1
	for _, c := range k.kids {
		n += countShadow(c)
	}
	return n
}

// A second render of the same build sends nothing but the properties it
// asserts, and a reused component output is not walked.
func TestUnchangedSendsNothing(t *testing.T) {
	comp := &fakeComp{name: "list"}
	list := &vugu.VGNode{Type: vugu.ElementNode, Data: "ul"}
	for i := 0; i < 100; i++ {
		li := &vugu.VGNode{Type: vugu.ElementNode, Data: "li"}
		li.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: fmt.Sprint(i)})
		list.AppendChild(li)
	}
	comp.out = &vugu.BuildOut{Out: []*vugu.VGNode{list}}
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	mk := func(clock string) *vugu.BuildResults {
		root := &vugu.VGNode{Type: vugu.ElementNode, Data: "div"}
		root.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: clock})
		root.AppendChild(&vugu.VGNode{Type: vugu.ElementNode, Data: "x", Component: comp})
		return env.RunBuild(&fakeComp{name: "root", out: &vugu.BuildOut{Out: []*vugu.VGNode{root}, Components: []vugu.Builder{comp}}})
	}
	r := New("#app")
	m := newModel()
	ops, err := r.Render(mk("T+1s"))
	if err != nil {
		t.Fatal(err)
	}
	m.apply(ops)
	if r.Stats.Created != 202 {
		t.Errorf("first render created %d nodes, want 202", r.Stats.Created)
	}
	ops, _ = r.Render(mk("T+2s"))
	m.apply(ops)
	if r.Stats.Ops != 1 || r.Stats.Skipped != 1 || r.Stats.Visited != 3 {
		t.Errorf("a clock tick: %+v, want one operation and the list skipped", r.Stats)
	}
	if got := m.mounted["#app"].String(); !strings.HasPrefix(got, "<:div>T+2s<:ul><:li>0</li>") {
		t.Errorf("page: %.60s", got)
	}
}

// A property set with an attribute (:.value="expr" in a component) is sent
// as a property, on every render as a Vugu .prop is (the user may have
// moved the control since), and never as an attribute.
func TestPropAttr(t *testing.T) {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	mk := func(v string) *vugu.BuildResults {
		in := &vugu.VGNode{Type: vugu.ElementNode, Data: "input", Attr: []vugu.VGAttribute{{Key: "type", Val: "range"}, {Key: ".value", Val: v}}}
		return env.RunBuild(&fakeComp{name: "root", out: &vugu.BuildOut{Out: []*vugu.VGNode{in}}})
	}
	r := New("#app")
	m := newModel()
	for _, v := range []string{"12", "12", "a \"quoted\" <value>"} {
		ops, err := r.Render(mk(v))
		if err != nil {
			t.Fatal(err)
		}
		m.apply(ops)
		in := m.mounted["#app"]
		if got := in.props["value"]; got != v {
			t.Errorf("value property %q, want %q", got, v)
		}
		if _, ok := in.attrs["|.value"]; ok || r.Stats.Ops == 0 {
			t.Errorf("render of %q: attributes %v, %d operations", v, in.attrs, r.Stats.Ops)
		}
	}
}

// A sibling that comes or goes (a banner shown with vg-if) does not make
// the render draw its later siblings anew: they keep their DOM nodes (and
// with them the state the page holds in them, such as a list's scroll
// position), and nothing is created but the banner.
func TestSiblingComesAndGoes(t *testing.T) {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		t.Fatal(err)
	}
	el := func(tag, id string, kids ...*vugu.VGNode) *vugu.VGNode {
		n := &vugu.VGNode{Type: vugu.ElementNode, Data: tag}
		if id != "" {
			n.Attr = []vugu.VGAttribute{{Key: "id", Val: id}}
		}
		for _, k := range kids {
			n.AppendChild(k)
		}
		return n
	}
	mk := func(banner bool) *vugu.BuildResults {
		root := el("div", "app")
		root.AppendChild(el("header", ""))
		if banner {
			root.AppendChild(el("div", "error-banner", &vugu.VGNode{Type: vugu.TextNode, Data: "bad link"}))
		}
		root.AppendChild(el("main", "", el("ol", "feed-list", el("li", ""), el("li", ""))))
		root.AppendChild(el("div", "dock"))
		return env.RunBuild(&fakeComp{name: "root", out: &vugu.BuildOut{Out: []*vugu.VGNode{root}}})
	}
	r := New("#app")
	m := newModel()
	render := func(banner bool) {
		t.Helper()
		br := mk(banner)
		ops, err := r.Render(br)
		if err != nil {
			t.Fatal(err)
		}
		m.apply(ops)
		if got, w := m.mounted["#app"].String(), want(br); got != w {
			t.Fatalf("page %s, want %s", got, w)
		}
	}
	render(true)
	main := m.mounted["#app"].kids[2]
	render(false)
	if r.Stats.Created != 0 || r.Stats.Removed != 1 {
		t.Errorf("the banner went: %+v, want one removal and nothing created", r.Stats)
	}
	render(true)
	if r.Stats.Created != 2 || r.Stats.Removed != 0 {
		t.Errorf("the banner came: %+v, want the banner and its text created", r.Stats)
	}
	if m.mounted["#app"].kids[2] != main {
		t.Error("the workspace was drawn anew")
	}
}
