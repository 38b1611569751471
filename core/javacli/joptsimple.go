package javacli

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ArgKind says whether an option takes an argument.
type ArgKind uint8

const (
	NoArg       ArgKind = iota // a flag (OptionParser.accepts)
	RequiredArg                // withRequiredArg: always takes the next word
	OptionalArg                // withOptionalArg: takes the next word unless it starts with '-'
)

// OptionSpec describes one option the way jopt-simple (which Kafka's tools
// use) does: a name, whether it takes an argument, the argument's type and
// description for the help table.
type OptionSpec struct {
	Name    string  // the long name, without dashes
	Arg     ArgKind // whether it takes an argument
	Type    string  // String, Integer, Long: shown in the help table (Int converts)
	ArgDesc string  // describedAs: the argument's name in the help table
	Desc    string  // the help text (the tool's words)
	Default string  // default shown in help, and the value when not given
	// Required marks an option declared required(): the help table
	// prefixes it with "* " and titles its first column "Option (* =
	// required)". The tool checks its presence (jopt-simple skips the
	// check when a help option was given).
	Required bool
}

// OptionError is a jopt-simple OptionException: its message and class.
type OptionError struct {
	Class string // e.g. joptsimple.UnrecognizedOptionException
	Msg   string // the exception's message
}

// Error is the exception's message.
func (e *OptionError) Error() string { return e.Msg }

// OptionSet holds parsed options. Values are kept as strings and converted
// when read, as jopt-simple does (so a bad number is reported only when the
// tool uses it).
type OptionSet struct {
	specs  map[string]*OptionSpec
	values map[string][]string
	seen   map[string]bool
	Order  []string // option names in command-line order, one per occurrence
	Args   []string // the non-option arguments, in order
}

// ParseOptions parses args against specs with jopt-simple's rules:
// "--name value" and "--name=value"; a single dash also works for a known
// long name; abbreviations are not accepted; an option that requires an
// argument always takes the next word; words that are not options are
// collected as non-option arguments; "--" ends option parsing.
func ParseOptions(specs []*OptionSpec, args []string) (*OptionSet, error) {
	p := &OptionSet{specs: map[string]*OptionSpec{}, values: map[string][]string{}, seen: map[string]bool{}}
	for _, s := range specs {
		p.specs[s.Name] = s
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.Args = append(p.Args, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.Args = append(p.Args, a)
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
			return nil, &OptionError{Class: "joptsimple.UnrecognizedOptionException", Msg: bad + " is not a recognized option"}
		}
		p.seen[name] = true
		p.Order = append(p.Order, name)
		switch spec.Arg {
		case NoArg:
		case RequiredArg:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, &OptionError{Class: "joptsimple.OptionMissingRequiredArgumentException", Msg: "Option " + name + " requires an argument"}
				}
				i++
				value = args[i]
			}
			p.values[name] = append(p.values[name], value)
		case OptionalArg:
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

// Has reports whether the option was on the command line.
func (p *OptionSet) Has(name string) bool { return p.seen[name] }

// Value returns the last value of an option, or its default.
func (p *OptionSet) Value(name string) string {
	if v := p.values[name]; len(v) > 0 {
		return v[len(v)-1]
	}
	if s := p.specs[name]; s != nil {
		return s.Default
	}
	return ""
}

// Values returns every value given to an option, in order (none for a
// flag).
func (p *OptionSet) Values(name string) []string { return p.values[name] }

// Int converts an option's value as jopt-simple does when the tool reads
// it; a bad value is an OptionArgumentConversionException.
func (p *OptionSet) Int(name string, bits int) (int64, error) {
	v := p.Value(name)
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return 0, &OptionError{Class: "joptsimple.OptionArgumentConversionException", Msg: fmt.Sprintf("Cannot parse argument '%s' of option %s", v, name)}
	}
	return n, nil
}

// HelpTable renders the options as a two-column table in the style of
// jopt-simple's BuiltinHelpFormatter, sorted by name and wrapped to 80
// columns (the descriptions are the caller's words).
func HelpTable(specs []*OptionSpec) []string {
	const leftMax, total = 38, 80
	sorted := append([]*OptionSpec(nil), specs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	left := make([]string, len(sorted))
	header, divider := "Option", "------"
	for _, s := range sorted {
		if s.Required {
			header, divider = "Option (* = required)", "---------------------"
		}
	}
	width := len(header)
	for i, s := range sorted {
		l := "--" + s.Name
		if s.Required {
			l = "* " + l
		}
		if s.Arg != NoArg {
			open, end := " <", ">"
			if s.Arg == OptionalArg {
				open, end = " [", "]"
			}
			l += open + s.Type
			if s.ArgDesc != "" {
				l += ": " + s.ArgDesc
			}
			l += end
		}
		left[i] = l
		width = max(width, min(len(l), leftMax))
	}
	width += 2
	right := total - width
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(w-len(s), 0)) }
	out := []string{pad(header, width) + "Description", pad(divider, width) + "-----------"}
	for i, s := range sorted {
		d := s.Desc
		if s.Default != "" {
			d += " (default: " + s.Default + ")"
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
