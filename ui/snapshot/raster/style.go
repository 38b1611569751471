package raster

import (
	"sort"
	"strconv"
	"strings"
)

// style is an element's computed style: every property that applies to
// it, its own and those it inherits, with var() substituted and
// font-size in px.
type style struct {
	props map[string]string
}

// get is a property's computed value, or "".
func (s *style) get(name string) string { return s.props[name] }

// inherited are the properties an element takes from its parent when it
// does not set them (CSS 2 and SVG 2's property tables); custom
// properties inherit too.
var inherited = setOf("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
	"stroke-opacity", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap",
	"stroke-linejoin", "stroke-miterlimit", "font-family", "font-size", "font-weight",
	"font-style", "text-anchor", "letter-spacing", "word-spacing", "text-transform",
	"visibility", "color", "paint-order", "white-space", "dominant-baseline")

// presentation are the SVG attributes that set a property of the same
// name, below every style rule.
var presentation = setOf("fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity",
	"stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "opacity",
	"font-family", "font-size", "font-weight", "font-style", "text-anchor", "display",
	"visibility", "letter-spacing", "paint-order", "color", "dominant-baseline")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// sheet is a stylesheet with its selectors indexed by what their
// rightmost compound needs most: a class, else a type, else nothing.
type sheet struct {
	rules   []rule
	byClass map[string][]ruleSelector
	byTag   map[string][]ruleSelector
	any     []ruleSelector
}

// ruleSelector is one selector of one rule.
type ruleSelector struct {
	rule, selector int
}

func newSheet(css string) *sheet {
	sh := &sheet{rules: parseSheet(css), byClass: map[string][]ruleSelector{}, byTag: map[string][]ruleSelector{}}
	for ri := range sh.rules {
		for si, sel := range sh.rules[ri].selectors {
			rs := ruleSelector{ri, si}
			last := sel.compounds[len(sel.compounds)-1]
			switch {
			case len(last.classes) > 0:
				sh.byClass[last.classes[0]] = append(sh.byClass[last.classes[0]], rs)
			case last.tag != "" && last.tag != "*":
				sh.byTag[last.tag] = append(sh.byTag[last.tag], rs)
			default:
				sh.any = append(sh.any, rs)
			}
		}
	}
	return sh
}

// applied is one declaration that applies to an element, with what
// ranks it in the cascade.
type applied struct {
	layer       int // 0 presentation attribute, 1 rule, 2 style attribute; +3 when !important
	specificity specificity
	order       int
	decl        declaration
}

func (a applied) less(b applied) bool {
	if a.layer != b.layer {
		return a.layer < b.layer
	}
	if a.specificity != b.specificity {
		return a.specificity.less(b.specificity)
	}
	return a.order < b.order
}

// cascade computes the style of e and of everything under it.
func (sh *sheet) cascade(e *element, parent *style, rootFontSize float64) {
	e.style = sh.compute(e, parent, rootFontSize)
	if parent == nil {
		rootFontSize = e.style.fontSize()
	}
	for _, c := range e.children {
		sh.cascade(c, e.style, rootFontSize)
	}
}

// compute is e's style from the declarations that apply to it and its
// parent's style.
func (sh *sheet) compute(e *element, parent *style, rootFontSize float64) *style {
	var decls []applied
	for _, a := range e.attrs {
		if a.Name.Space == "" && presentation[a.Name.Local] {
			decls = append(decls, applied{layer: 0, decl: declaration{name: a.Name.Local, value: strings.TrimSpace(a.Value)}})
		}
	}
	seen := map[ruleSelector]bool{}
	match := func(list []ruleSelector) {
		for _, rs := range list {
			if seen[rs] {
				continue
			}
			seen[rs] = true
			r := &sh.rules[rs.rule]
			sel := &r.selectors[rs.selector]
			if !sel.matches(e) {
				continue
			}
			for _, d := range r.decls {
				decls = append(decls, applied{layer: importance(1, d), specificity: sel.specificity, order: r.order, decl: d})
			}
		}
	}
	for _, c := range e.classes {
		match(sh.byClass[c])
	}
	match(sh.byTag[e.tag])
	match(sh.any)
	for i, d := range parseDeclarations(e.attr("style")) {
		decls = append(decls, applied{layer: importance(2, d), order: i, decl: d})
	}
	// A declaration that two selectors of one rule both match counts
	// once; the sort keeps the most specific.
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].less(decls[j]) })

	s := &style{props: map[string]string{}}
	if parent != nil {
		for name, v := range parent.props {
			if inherited[name] || strings.HasPrefix(name, "--") {
				s.props[name] = v
			}
		}
	}
	own := map[string]string{}
	var names []string // in cascade order, so that the result is the same each time
	for _, a := range decls {
		if _, ok := own[a.decl.name]; !ok {
			names = append(names, a.decl.name)
		}
		own[a.decl.name] = a.decl.value
	}
	// Custom properties first: the others read them.
	for _, name := range names {
		if strings.HasPrefix(name, "--") {
			s.props[name] = own[name]
		}
	}
	for _, name := range names {
		if strings.HasPrefix(name, "--") {
			s.props[name] = s.substitute(s.props[name], 0)
		}
	}
	for _, name := range names {
		if strings.HasPrefix(name, "--") {
			continue
		}
		v := s.substitute(own[name], 0)
		switch v {
		case "inherit":
			if parent != nil {
				s.set(name, parent.props[name])
			}
			continue
		case "initial", "unset", "revert":
			delete(s.props, name)
			continue
		}
		if name == "font" {
			s.setFont(v)
			continue
		}
		s.set(name, v)
	}
	// font-size is computed to px: em and % against the parent's, rem
	// against the root's.
	parentSize := 16.0 // a browser's medium
	if parent != nil {
		parentSize = parent.fontSize()
	}
	_, sized := own["font-size"]
	if _, font := own["font"]; sized || font || s.props["font-size"] == "" {
		size := parentSize
		if px, ok := length(s.get("font-size"), parentSize, rootFontSizeOr(rootFontSize, parentSize), parentSize); ok {
			size = px
		}
		s.props["font-size"] = strconv.FormatFloat(size, 'f', -1, 64) + "px"
	}
	return s
}

func (s *style) set(name, v string) {
	if v == "" {
		delete(s.props, name)
		return
	}
	s.props[name] = v
}

func importance(layer int, d declaration) int {
	if d.important {
		return layer + 3
	}
	return layer
}

func rootFontSizeOr(root, parent float64) float64 {
	if root > 0 {
		return root
	}
	return parent
}

// fontSize is the computed font-size in px.
func (s *style) fontSize() float64 {
	v, _ := strconv.ParseFloat(strings.TrimSuffix(s.get("font-size"), "px"), 64)
	if v <= 0 {
		return 16
	}
	return v
}

// setFont reads the font shorthand: [style] [weight] size[/line-height]
// family.
func (s *style) setFont(v string) {
	if v == "inherit" {
		return
	}
	fields := strings.Fields(v)
	for i, f := range fields {
		switch {
		case f == "italic" || f == "oblique":
			s.props["font-style"] = f
		case f == "bold" || f == "normal" && i < len(fields)-1:
			if f == "bold" {
				s.props["font-weight"] = "700"
			}
		case len(f) == 3 && f[0] >= '1' && f[0] <= '9' && f[1:] == "00" || f == "650":
			s.props["font-weight"] = f
		default:
			size, _, _ := strings.Cut(f, "/")
			s.props["font-size"] = size
			s.props["font-family"] = strings.Join(fields[i+1:], " ")
			return
		}
	}
}

// maxVarDepth bounds var() inside var(): a cycle or a deep chain stops
// there, as a browser makes a cyclic custom property invalid.
const maxVarDepth = 16

// substitute replaces var(--name[, fallback]) in v with the property's
// value here, or the fallback.
func (s *style) substitute(v string, depth int) string {
	if depth > maxVarDepth {
		return ""
	}
	for {
		i := strings.Index(v, "var(")
		if i < 0 {
			return v
		}
		end := closing(v, i+3, '(', ')')
		if end < 0 {
			return ""
		}
		inner := v[i+4 : end]
		name, fallback, hasFallback := strings.Cut(inner, ",")
		value, ok := s.props[strings.TrimSpace(name)]
		if !ok || value == "" {
			if !hasFallback {
				return "" // invalid at computed-value time: the property is unset
			}
			value = strings.TrimSpace(fallback)
		}
		v = v[:i] + s.substitute(value, depth+1) + v[end+1:]
	}
}

// length reads a CSS length in px: px, em (of fontSize), rem (of
// rootSize), % (of percentOf) or a plain number.
func length(v string, fontSize, rootSize, percentOf float64) (float64, bool) {
	v = strings.TrimSpace(v)
	unit, scale := "", 1.0
	switch {
	case strings.HasSuffix(v, "rem"):
		unit, scale = "rem", rootSize
	case strings.HasSuffix(v, "em"):
		unit, scale = "em", fontSize
	case strings.HasSuffix(v, "px"):
		unit = "px"
	case strings.HasSuffix(v, "%"):
		unit, scale = "%", percentOf/100
	}
	n, err := strconv.ParseFloat(strings.TrimSuffix(v, unit), 64)
	if err != nil {
		return 0, false
	}
	return n * scale, true
}
