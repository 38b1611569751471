package raster

import (
	"strconv"
	"strings"
)

// selector is one complex selector: compounds joined by combinators,
// left to right (combinators[i] joins compounds[i] and compounds[i+1]).
type selector struct {
	compounds   []compound
	combinators []byte // ' ' descendant, '>' child, '+' next sibling, '~' later sibling
	specificity specificity
}

// compound is what one element must be: a type, ids, classes, attributes
// and pseudo-classes.
type compound struct {
	tag     string // "" or "*": any
	ids     []string
	classes []string
	attrs   []attrTest
	pseudos []pseudoClass
}

// attrTest is [name], [name=value], [name~=value]…
type attrTest struct {
	name, op, value string
}

// pseudoClass is :name or :name(args).
type pseudoClass struct {
	name string
	args []selector // :is(), :where(), :not()
	nth  int        // :nth-child(n)
}

// specificity is (ids, classes, types), compared in that order.
type specificity [3]int

func (a specificity) less(b specificity) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// parseSelectorList reads "a, b > c, …"; ok is false for a selector this
// package cannot read.
func parseSelectorList(s string) ([]selector, bool) {
	var out []selector
	for _, part := range splitTopLevel(s, ',') {
		sel, ok := parseSelector(strings.TrimSpace(part))
		if !ok {
			return nil, false
		}
		out = append(out, sel)
	}
	return out, len(out) > 0
}

// splitTopLevel splits s at sep outside parentheses and brackets.
func splitTopLevel(s string, sep byte) []string {
	var parts []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case sep:
			if depth == 0 {
				parts = append(parts, s[from:i])
				from = i + 1
			}
		}
	}
	return append(parts, s[from:])
}

// parseSelector reads one complex selector.
func parseSelector(s string) (selector, bool) {
	var sel selector
	p := &selectorParser{s: s}
	for {
		p.spaces()
		if p.done() {
			break
		}
		if len(sel.compounds) > 0 {
			comb := byte(' ')
			if c := p.s[p.i]; c == '>' || c == '+' || c == '~' {
				comb = c
				p.i++
				p.spaces()
			}
			sel.combinators = append(sel.combinators, comb)
		}
		c, ok := p.compound()
		if !ok {
			return selector{}, false
		}
		sel.compounds = append(sel.compounds, c)
	}
	if len(sel.compounds) == 0 || len(sel.combinators) != len(sel.compounds)-1 {
		return selector{}, false
	}
	for _, c := range sel.compounds {
		sel.specificity = sel.specificity.plus(c.specificity())
	}
	return sel, true
}

func (a specificity) plus(b specificity) specificity {
	return specificity{a[0] + b[0], a[1] + b[1], a[2] + b[2]}
}

// specificity of a compound: :is() and :not() count as their most
// specific argument, :where() as nothing.
func (c compound) specificity() specificity {
	sp := specificity{len(c.ids), len(c.classes) + len(c.attrs), 0}
	if c.tag != "" && c.tag != "*" {
		sp[2]++
	}
	for _, pc := range c.pseudos {
		switch pc.name {
		case "where":
		case "is", "not", "matches":
			var most specificity
			for _, a := range pc.args {
				if most.less(a.specificity) {
					most = a.specificity
				}
			}
			sp = sp.plus(most)
		default:
			sp[1]++
		}
	}
	return sp
}

type selectorParser struct {
	s string
	i int
}

func (p *selectorParser) done() bool { return p.i >= len(p.s) }

func (p *selectorParser) spaces() {
	for !p.done() && strings.IndexByte(" \t\n\r\f", p.s[p.i]) >= 0 {
		p.i++
	}
}

// ident reads a name: letters, digits, '-', '_' and non-ASCII.
func (p *selectorParser) ident() string {
	from := p.i
	for !p.done() {
		c := p.s[p.i]
		if c == '-' || c == '_' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			p.i++
			continue
		}
		break
	}
	return p.s[from:p.i]
}

// compound reads a compound selector, up to a combinator or the end.
func (p *selectorParser) compound() (compound, bool) {
	var c compound
	if !p.done() && p.s[p.i] == '*' {
		c.tag = "*"
		p.i++
	} else {
		c.tag = strings.ToLower(p.ident())
	}
	for !p.done() {
		switch p.s[p.i] {
		case '.':
			p.i++
			name := p.ident()
			if name == "" {
				return c, false
			}
			c.classes = append(c.classes, name)
		case '#':
			p.i++
			name := p.ident()
			if name == "" {
				return c, false
			}
			c.ids = append(c.ids, name)
		case '[':
			end := strings.IndexByte(p.s[p.i:], ']')
			if end < 0 {
				return c, false
			}
			t, ok := parseAttrTest(p.s[p.i+1 : p.i+end])
			if !ok {
				return c, false
			}
			c.attrs = append(c.attrs, t)
			p.i += end + 1
		case ':':
			pc, ok := p.pseudo()
			if !ok {
				return c, false
			}
			c.pseudos = append(c.pseudos, pc)
		default:
			ok := c.tag != "" || len(c.ids)+len(c.classes)+len(c.attrs)+len(c.pseudos) > 0
			return c, ok
		}
	}
	return c, c.tag != "" || len(c.ids)+len(c.classes)+len(c.attrs)+len(c.pseudos) > 0
}

// pseudo reads :name, ::name or :name(args).
func (p *selectorParser) pseudo() (pseudoClass, bool) {
	p.i++
	if !p.done() && p.s[p.i] == ':' { // a pseudo-element
		p.i++
	}
	pc := pseudoClass{name: strings.ToLower(p.ident())}
	if pc.name == "" {
		return pc, false
	}
	if p.done() || p.s[p.i] != '(' {
		return pc, true
	}
	depth, from := 0, p.i+1
	for ; !p.done(); p.i++ {
		if p.s[p.i] == '(' {
			depth++
		} else if p.s[p.i] == ')' {
			if depth--; depth == 0 {
				break
			}
		}
	}
	if p.done() {
		return pc, false
	}
	arg := strings.TrimSpace(p.s[from:p.i])
	p.i++
	switch pc.name {
	case "is", "where", "not", "matches":
		args, ok := parseSelectorList(arg)
		pc.args = args
		return pc, ok
	case "nth-child", "nth-of-type":
		n, err := strconv.Atoi(arg)
		pc.nth = n
		if err != nil { // an+b forms: the snapshot's sheet has none; match nothing
			pc.nth = -1
		}
	}
	return pc, true
}

// parseAttrTest reads the inside of [...].
func parseAttrTest(s string) (attrTest, bool) {
	for _, op := range []string{"~=", "|=", "^=", "$=", "*=", "="} {
		if name, value, ok := strings.Cut(s, op); ok {
			value = strings.TrimSpace(value)
			value = strings.TrimSuffix(strings.TrimSuffix(value, " i"), " s")
			if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
				value = value[1 : len(value)-1]
			}
			return attrTest{name: strings.TrimSpace(name), op: op, value: value}, strings.TrimSpace(name) != ""
		}
	}
	name := strings.TrimSpace(s)
	return attrTest{name: name}, name != ""
}

// matches tells whether sel matches e.
func (sel *selector) matches(e *element) bool {
	return sel.matchFrom(len(sel.compounds)-1, e)
}

// matchFrom matches compounds[..i] with compounds[i] on e.
func (sel *selector) matchFrom(i int, e *element) bool {
	if !sel.compounds[i].matches(e) {
		return false
	}
	if i == 0 {
		return true
	}
	switch sel.combinators[i-1] {
	case '>':
		return e.parent != nil && sel.matchFrom(i-1, e.parent)
	case '+':
		prev := e.previousSibling()
		return prev != nil && sel.matchFrom(i-1, prev)
	case '~':
		for prev := e.previousSibling(); prev != nil; prev = prev.previousSibling() {
			if sel.matchFrom(i-1, prev) {
				return true
			}
		}
		return false
	default:
		for a := e.parent; a != nil; a = a.parent {
			if sel.matchFrom(i-1, a) {
				return true
			}
		}
		return false
	}
}

func (e *element) previousSibling() *element {
	if e.parent == nil || e.position <= 1 {
		return nil
	}
	return e.parent.children[e.position-2]
}

// matches tells whether e is what c asks.
func (c *compound) matches(e *element) bool {
	if c.tag != "" && c.tag != "*" && c.tag != e.tag {
		return false
	}
	for _, id := range c.ids {
		if e.attr("id") != id {
			return false
		}
	}
	for _, class := range c.classes {
		if !e.hasClass(class) {
			return false
		}
	}
	for _, t := range c.attrs {
		if !t.matches(e) {
			return false
		}
	}
	for i := range c.pseudos {
		if !c.pseudos[i].matches(e) {
			return false
		}
	}
	return true
}

func (t attrTest) matches(e *element) bool {
	v, ok := e.lookup(t.name)
	if !ok {
		return false
	}
	switch t.op {
	case "":
		return true
	case "=":
		return v == t.value
	case "~=":
		for _, w := range strings.Fields(v) {
			if w == t.value {
				return true
			}
		}
		return false
	case "|=":
		return v == t.value || strings.HasPrefix(v, t.value+"-")
	case "^=":
		return t.value != "" && strings.HasPrefix(v, t.value)
	case "$=":
		return t.value != "" && strings.HasSuffix(v, t.value)
	default: // "*="
		return t.value != "" && strings.Contains(v, t.value)
	}
}

// matches tells whether e is in the state the pseudo-class names. A
// picture is nobody's focus, hover or target; pseudo-elements (::before)
// are boxes of HTML and draw nothing in SVG.
func (pc *pseudoClass) matches(e *element) bool {
	switch pc.name {
	case "root":
		return e.parent == nil
	case "is", "where", "matches":
		return anyMatches(pc.args, e)
	case "not":
		return !anyMatches(pc.args, e)
	case "nth-child":
		return e.position == pc.nth
	case "first-child":
		return e.position == 1
	case "last-child":
		return e.parent == nil || e.position == len(e.parent.children)
	case "enabled":
		return true
	}
	return false
}

func anyMatches(sels []selector, e *element) bool {
	for i := range sels {
		if sels[i].matches(e) {
			return true
		}
	}
	return false
}
