package raster

import "strings"

// rule is one style rule of a stylesheet: selectors and the declarations
// they apply, in the sheet's order.
type rule struct {
	selectors []selector
	decls     []declaration
	order     int // its place in the sheet: later wins among equals
}

// declaration is "name: value [!important]".
type declaration struct {
	name, value string
	important   bool
}

// parseSheet reads a stylesheet's style rules. At-rules (@media,
// @keyframes, @supports…) are skipped whole: a snapshot is drawn light
// and at rest, which is what the sheet says outside them. A rule whose
// selector list this package cannot read is skipped, as a browser skips
// a rule with an invalid selector.
func parseSheet(css string) []rule {
	css = stripComments(css)
	var rules []rule
	for len(css) > 0 {
		open := strings.IndexByte(css, '{')
		if open < 0 {
			break
		}
		prelude := strings.TrimSpace(css[:open])
		end := closing(css, open, '{', '}')
		if end < 0 {
			end = len(css) // a block the sheet ends inside ends with it
		}
		body := css[open+1 : end]
		css = css[min(end+1, len(css)):]
		if strings.HasPrefix(prelude, "@") {
			continue
		}
		sels, ok := parseSelectorList(prelude)
		if !ok {
			continue
		}
		rules = append(rules, rule{selectors: sels, decls: parseDeclarations(body), order: len(rules)})
	}
	return rules
}

// closing is the index of the closer that closes the opener at open (a
// '{' of a block, a '(' of a function), counting those nested in
// between; -1 if s ends first.
func closing(s string, open int, opener, closer byte) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case opener:
			depth++
		case closer:
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// stripComments removes /* … */ comments.
func stripComments(css string) string {
	var b strings.Builder
	for {
		i := strings.Index(css, "/*")
		if i < 0 {
			b.WriteString(css)
			return b.String()
		}
		b.WriteString(css[:i])
		j := strings.Index(css[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		b.WriteByte(' ')
		css = css[i+2+j+2:]
	}
}

// parseDeclarations reads a block's (or a style attribute's)
// declarations; ';' inside parentheses does not end one.
func parseDeclarations(body string) []declaration {
	var out []declaration
	depth, from := 0, 0
	for i := 0; i <= len(body); i++ {
		if i < len(body) {
			switch body[i] {
			case '(':
				depth++
				continue
			case ')':
				depth--
				continue
			case ';':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if d, ok := parseDeclaration(body[from:i]); ok {
			out = append(out, d)
		}
		from = i + 1
	}
	return out
}

func parseDeclaration(s string) (declaration, bool) {
	name, value, ok := strings.Cut(s, ":")
	if !ok {
		return declaration{}, false
	}
	d := declaration{name: strings.TrimSpace(name), value: strings.TrimSpace(value)}
	if !strings.HasPrefix(d.name, "--") {
		d.name = strings.ToLower(d.name)
	}
	if v, ok := strings.CutSuffix(d.value, "!important"); ok {
		d.value, d.important = strings.TrimSpace(v), true
	}
	return d, d.name != ""
}
