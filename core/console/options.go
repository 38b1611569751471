package console

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// argKind says whether an option takes an argument.
type argKind uint8

const (
	noArg argKind = iota
	requiredArg
	optionalArg
)

// optSpec describes one option the way jopt-simple (which Kafka's tools
// use) does: a name, whether it takes an argument, the argument's type and
// description for the help table.
type optSpec struct {
	name    string
	arg     argKind
	typ     string // String, Integer, Long: shown in help, used for conversion
	argDesc string
	desc    string // in our own words
	def     string // default shown in help
}

// optionError is a jopt-simple OptionException: its message and class.
type optionError struct {
	class string
	msg   string
}

func (e *optionError) Error() string { return e.msg }

// parsedOpts holds parsed options. Values are kept as strings and converted
// when read, as jopt-simple does (so a bad number is reported only when the
// tool uses it).
type parsedOpts struct {
	specs  map[string]*optSpec
	values map[string][]string
	seen   map[string]bool
	order  []string // option names in command-line order, one per occurrence
	args   []string
}

// parseOptions parses args against specs with jopt-simple's rules:
// "--name value" and "--name=value"; a single dash also works for a known
// long name; abbreviations are not accepted; an option that requires an
// argument always takes the next word; words that are not options are
// collected as non-option arguments; "--" ends option parsing.
func parseOptions(specs []*optSpec, args []string) (*parsedOpts, error) {
	p := &parsedOpts{specs: map[string]*optSpec{}, values: map[string][]string{}, seen: map[string]bool{}}
	for _, s := range specs {
		p.specs[s.name] = s
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.args = append(p.args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.args = append(p.args, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		spec, ok := p.specs[name]
		if !ok {
			bad := name
			if !strings.HasPrefix(a, "--") && len(bad) > 0 {
				bad = bad[:1] // a single dash reads as a cluster of short options
			}
			return nil, &optionError{class: "joptsimple.UnrecognizedOptionException", msg: bad + " is not a recognized option"}
		}
		p.seen[name] = true
		p.order = append(p.order, name)
		switch spec.arg {
		case noArg:
		case requiredArg:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, &optionError{class: "joptsimple.OptionMissingRequiredArgumentException", msg: "Option " + name + " requires an argument"}
				}
				i++
				value = args[i]
			}
			p.values[name] = append(p.values[name], value)
		case optionalArg:
			if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				value, hasValue = args[i], true
			}
			if hasValue {
				p.values[name] = append(p.values[name], value)
			}
		}
	}
	return p, nil
}

func (p *parsedOpts) has(name string) bool { return p.seen[name] }

// str returns the last value of an option, or its default.
func (p *parsedOpts) str(name string) string {
	if v := p.values[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	if s := p.specs[name]; s != nil {
		return s.def
	}
	return ""
}

func (p *parsedOpts) all(name string) []string { return p.values[name] }

// intVal converts an option's value as jopt-simple does when the tool reads
// it; a bad value is an OptionArgumentConversionException.
func (p *parsedOpts) intVal(name string, bits int) (int64, error) {
	v := p.str(name)
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return 0, &optionError{class: "joptsimple.OptionArgumentConversionException", msg: fmt.Sprintf("Cannot parse argument '%s' of option %s", v, name)}
	}
	return n, nil
}

// helpTable renders the options as a two-column table in the style of
// jopt-simple's help formatter, wrapped to 80 columns (the descriptions are
// the simulator's own words).
func helpTable(specs []*optSpec) []string {
	const leftMax, total = 38, 80
	sorted := append([]*optSpec(nil), specs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
	left := make([]string, len(sorted))
	width := len("Option")
	for i, s := range sorted {
		l := "--" + s.name
		if s.arg != noArg {
			open, end := " <", ">"
			if s.arg == optionalArg {
				open, end = " [", "]"
			}
			l += open + s.typ
			if s.argDesc != "" {
				l += ": " + s.argDesc
			}
			l += end
		}
		left[i] = l
		width = max(width, min(len(l), leftMax))
	}
	width += 2
	right := total - width
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(w-len(s), 0)) }
	out := []string{pad("Option", width) + "Description", pad("------", width) + "-----------"}
	for i, s := range sorted {
		d := s.desc
		if s.def != "" {
			d += " (default: " + s.def + ")"
		}
		l, r := wrap(left[i], width-2), wrap(d, right)
		for j := 0; j < max(len(l), len(r)); j++ {
			a, b := "", ""
			if j < len(l) {
				a = l[j]
			}
			if j < len(r) {
				b = r[j]
			}
			out = append(out, strings.TrimRight(pad(a, width)+b, " "))
		}
	}
	return out
}

// wrap breaks text into lines of at most width characters at spaces.
func wrap(text string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(text) {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}
