package snapshot

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/vugu/vugu"

	"kafkascope/core/player"
	"kafkascope/ui"
)

// bottomMargin is the panel's colour below the drawings, in px.
const bottomMargin = 12

// Options are what a snapshot draws beyond the diagram.
type Options struct {
	// Dashboard adds the on-call dashboard under the diagram (a link's
	// panel=metrics), when the session keeps one.
	Dashboard bool
}

// Size is a picture's width and height in CSS pixels.
type Size struct{ Width, Height float64 }

// SVG writes the diagram of p's moment (its scenario step, or its
// session's moment, in its language) as a standalone SVG document, and
// answers its size. style is the CSS it carries (Style), as character
// data. panelWidth lays the diagram out as the page does in a panel that
// many CSS px wide (narrower lanes, and under 600 px the touch layout's
// short labels); 0 is the page's default layout.
func SVG(w io.Writer, p *player.Player, style string, panelWidth float64, opts Options) (Size, error) {
	env, err := vugu.NewBuildEnv()
	if err != nil {
		return Size{}, err
	}
	x := &svgWriter{results: env.RunBuild(&ui.Diagram{Player: p, Width: panelWidth})}
	x.find(x.results.Out)
	if len(x.drawings) == 0 {
		return Size{}, fmt.Errorf("ui: the diagram drew no SVG")
	}
	// The drawings one under the other, each at its own size.
	width, height := 0.0, 0.0
	for _, d := range x.drawings {
		var vw, vh float64
		if _, err := fmt.Sscanf(vgAttrOf(d, "viewBox"), "0 0 %g %g", &vw, &vh); err != nil {
			return Size{}, fmt.Errorf("ui: a diagram drawing has no viewBox: %w", err)
		}
		x.element(d, fmt.Sprintf(` y="%s" width="%s" height="%s"`, num(height), num(vw), num(vh)))
		width, height = max(width, vw), height+vh
	}
	// The last drawing's lanes run to its bottom edge, where the page's
	// panel goes on: a margin keeps them from looking cut off.
	height += bottomMargin
	if opts.Dashboard {
		h, err := dashboard(x, p, height, width)
		if err != nil {
			return Size{}, err
		}
		if h > 0 {
			height += h + bottomMargin
			style += dashboardCSS
		}
	}
	_, err = fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" class="kd" lang="%s" width="%s" height="%s" viewBox="0 0 %s %s"><style><![CDATA[%s]]></style><rect width="100%%" height="100%%" fill="var(--kd-panel)"/>%s</svg>`,
		html.EscapeString(string(p.Lang)), num(width), num(height), num(width), num(height), strings.ReplaceAll(style, "]]>", ""), x.b.String())
	return Size{width, height}, err
}

// svgWriter writes a build's nodes as XML, each component's where the
// component stands.
type svgWriter struct {
	results  *vugu.BuildResults
	drawings []*vugu.VGNode // the outermost <svg> elements, in order
	b        bytes.Buffer
}

// find collects the outermost <svg> elements under the output.
func (x *svgWriter) find(out *vugu.BuildOut) {
	for _, n := range out.Out {
		x.findIn(n)
	}
}

func (x *svgWriter) findIn(n *vugu.VGNode) {
	switch {
	case n.Component != nil:
		x.find(x.results.ResultFor(n.Component))
	case n.Type == vugu.ElementNode && n.Data == "svg":
		x.drawings = append(x.drawings, n)
	default:
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			x.findIn(c)
		}
	}
}

// node writes n: a component's output, a template's children, text, or
// an element.
func (x *svgWriter) node(n *vugu.VGNode) {
	switch {
	case n.Component != nil:
		for _, c := range x.results.ResultFor(n.Component).Out {
			x.node(c)
		}
	case n.IsTemplate():
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			x.node(c)
		}
	case n.Type == vugu.TextNode:
		x.b.WriteString(html.EscapeString(n.Data))
	case n.Type == vugu.ElementNode:
		x.element(n, "")
	}
}

// element writes element n with its attributes (but for its size,
// position and style when extra replaces them) and its content: its
// InnerHTML (text the build escaped already) or its children.
func (x *svgWriter) element(n *vugu.VGNode, extra string) {
	x.b.WriteString("<" + n.Data)
	for _, a := range n.Attr {
		if extra != "" {
			switch a.Key {
			case "style", "width", "height", "xmlns", "y":
				continue
			}
		}
		x.b.WriteString(" " + a.Key + `="` + html.EscapeString(a.Val) + `"`)
	}
	x.b.WriteString(extra + ">")
	if n.InnerHTML != nil {
		x.b.WriteString(*n.InnerHTML)
	} else {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			x.node(c)
		}
	}
	x.b.WriteString("</" + n.Data + ">")
}

// vgAttrOf is n's attribute key ("" if it has none).
func vgAttrOf(n *vugu.VGNode, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// Style is the CSS a snapshot carries: the page's diagram rules
// (public/diagram.css) and the page's theme variables they read
// (public/style.css: the font stacks, and the colours diagram.css takes
// with var(--panel, fallback) and the like), as the light theme declares
// them first. A snapshot is drawn light: the dark rules of diagram.css
// apply to a .kd inside the page's root, and the snapshot's root is the
// .kd itself.
//
// A declaration ends at a ';' or, the last of its block, at the '}': the
// site's minified CSS drops the last ';' of each block.
func Style(styleCSS, diagramCSS string) string {
	decls := []string{pageFontSize}
	for _, name := range pageVars(diagramCSS) {
		if d := firstDeclaration(styleCSS, name); d != "" {
			decls = append(decls, d)
		}
	}
	return "svg.kd{" + strings.Join(decls, ";") + "}" + diagramCSS
}

// pageVars are the custom properties that css reads and does not set
// itself (var(--NAME…) without a "--NAME:"), each once, in order.
func pageVars(css string) []string {
	var names []string
	seen := map[string]bool{}
	for rest := css; ; {
		i := strings.Index(rest, "var(--")
		if i < 0 {
			return names
		}
		rest = rest[i+len("var("):]
		end := strings.IndexFunc(rest, func(r rune) bool { return r == ',' || r == ')' || r == ' ' })
		if end < 0 {
			return names
		}
		name := rest[:end]
		if !seen[name] && firstDeclaration(css, name) == "" {
			names = append(names, name)
		}
		seen[name] = true
	}
}

// firstDeclaration is css's first "NAME: value" of a custom property
// (without its ';'), or "".
func firstDeclaration(css, name string) string {
	for from := 0; ; {
		i := strings.Index(css[from:], name+":")
		if i < 0 {
			return ""
		}
		i += from
		if i == 0 || strings.ContainsRune("{; \t\n", rune(css[i-1])) {
			if j := strings.IndexAny(css[i:], ";}"); j >= 0 {
				return css[i : i+j]
			}
			return ""
		}
		from = i + len(name)
	}
}

// pageFontSize is the text size the page's diagram inherits from its body
// (public/style.css: body's font, 14px), which text without a size of its
// own takes. scripts/e2e's TestWorker compares every element's computed
// size in the page and in a snapshot.
const pageFontSize = "font-size:14px"

// num is a length as SVG takes it: the shortest decimal that reads back.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
