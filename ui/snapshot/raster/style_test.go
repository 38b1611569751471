package raster

import (
	"strings"
	"testing"
)

// styled parses a document and runs its cascade.
func styled(t *testing.T, doc string) *element {
	t.Helper()
	root, err := parseSVG([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var css strings.Builder
	collectStyles(root, &css)
	newSheet(css.String()).cascade(root, nil, 0)
	return root
}

// byID finds the element with id.
func byID(e *element, id string) *element {
	if e.attr("id") == id {
		return e
	}
	for _, c := range e.children {
		if f := byID(c, id); f != nil {
			return f
		}
	}
	return nil
}

// The cascade as CSS says: specificity over order, order among equals,
// !important over both, presentation attributes under every rule, the
// style attribute over rules, inheritance, and :is/:not/:nth-child/
// combinators; at-rules and comments are skipped.
func TestCascade(t *testing.T) {
	root := styled(t, `<svg xmlns="http://www.w3.org/2000/svg" class="kd" width="10" height="10"><style><![CDATA[
		svg.kd { --a: #111111; --b: var(--a); font-size: 14px; fill: blue }
		/* a comment { fill: red } */
		.x { fill: #222222 }
		rect { fill: #333333 }
		.kd .y.z { fill: #444444 }
		.y { fill: #555555 !important; stroke: var(--missing, #666666) }
		.w { fill: var(--b); stroke: var(--nope) }
		@media (prefers-color-scheme: dark) { .x { fill: #ffffff } }
		g > .c:nth-child(2) { fill: #777777 }
		.card:is(.killed, .off) :is(.t) { opacity: 0.5 }
		.t:not(.u) { font-size: 0.5em }
		.u + .t { stroke-width: 3 }
		.t:hover, .t::before { fill: red }
		.v { fill: #888888; fill: #999999 }
	]]></style>
	<rect id="x" class="x" fill="#000000"/>
	<rect id="plain" fill="#abcdef"/>
	<rect id="yz" class="y z"/>
	<rect id="w" class="w"/>
	<rect id="inline" class="x" style="fill: #121212"/>
	<g class="card killed"><rect id="c1" class="c u"/><text id="c2" class="c t">a</text></g>
	<rect id="v" class="v"/>
	</svg>`)
	for _, c := range []struct{ id, prop, want string }{
		{"x", "fill", "#222222"},      // a rule over the presentation attribute
		{"plain", "fill", "#333333"},  // a type rule too
		{"yz", "fill", "#555555"},     // !important over a more specific rule
		{"yz", "stroke", "#666666"},   // var()'s fallback
		{"w", "fill", "#111111"},      // var() through var()
		{"w", "stroke", ""},           // var() of nothing, no fallback: unset
		{"inline", "fill", "#121212"}, // the style attribute over rules
		{"c2", "fill", "#777777"},     // :nth-child(2) under g >, and :hover never matches
		{"c1", "fill", "#333333"},
		{"c2", "opacity", "0.5"},    // :is() on both sides of a descendant combinator
		{"c2", "font-size", "7px"},  // em of the inherited 14px, under :not()
		{"c1", "font-size", "14px"}, // inherited, computed in px
		{"c2", "stroke-width", "3"}, // next-sibling combinator
		{"v", "fill", "#999999"},    // the later of two declarations
		{"c1", "--b", "#111111"},    // custom properties inherit, substituted
	} {
		e := byID(root, c.id)
		if got := e.style.get(c.prop); got != c.want {
			t.Errorf("#%s %s = %q, want %q", c.id, c.prop, got, c.want)
		}
	}
}

// A custom property that refers to itself is invalid, not a hang.
func TestVarCycle(t *testing.T) {
	root := styled(t, `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><style>svg { --a: var(--b); --b: var(--a) } rect { fill: var(--a, green) }</style><rect id="r"/></svg>`)
	if got := byID(root, "r").style.get("fill"); got != "" && got != "green" {
		t.Errorf("fill = %q", got)
	}
}

// Selectors this package cannot read make their rule skipped, not the
// sheet.
func TestBadSelectorSkipsItsRule(t *testing.T) {
	rules := parseSheet(`.a[ { fill: red } .b { fill: blue } .c::: { fill: red } .d:is() { fill: red } .e {fill:green}`)
	var got []string
	for _, r := range rules {
		got = append(got, r.selectors[0].compounds[0].classes[0]+"="+r.decls[0].value)
	}
	if strings.Join(got, " ") != "b=blue e=green" {
		t.Errorf("rules = %v", got)
	}
}

func TestColors(t *testing.T) {
	for in, want := range map[string][4]uint8{
		"#fff": {255, 255, 255, 255}, "#1d2330": {0x1d, 0x23, 0x30, 255}, "#11223344": {0x11, 0x22, 0x33, 0x44},
		"rgba(242,183,5,0.12)": {242, 183, 5, 31}, "rgb(47 111 222 / 50%)": {47, 111, 222, 128}, "white": {255, 255, 255, 255},
		"transparent": {},
	} {
		c, ok := parseColor(in)
		if !ok || [4]uint8{c.R, c.G, c.B, c.A} != want {
			t.Errorf("%s = %v %v, want %v", in, c, ok, want)
		}
	}
	for _, bad := range []string{"none", "#12", "rgb(1,2)", "color-mix(in srgb, red, blue)", "url(#g)"} {
		if _, ok := parseColor(bad); ok {
			t.Errorf("%s read as a colour", bad)
		}
	}
}
