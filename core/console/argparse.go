package console

// A small emulation of argparse4j 0.7.0, the parser behind the Java tools that
// do not use jopt-simple (ProducerPerformance, MetadataQuorumCommand): the
// usage line, the help screen, the error line and the parse rules (flag
// prefixes, "--flag=value", mutually exclusive groups, the order in which
// missing arguments are reported).

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
)

// apFormatWidth is argparse4j's text width: it detects the terminal's
// columns and subtracts 5, and falls back to 75 without a terminal; both give
// 75 on an 80-column terminal, which is what we emulate.
const apFormatWidth = 75

// apAction is what an argument does when it is given.
type apAction uint8

const (
	apStore     apAction = iota // keep the value (the last one wins)
	apStoreTrue                 // a flag: true when present
	apHelp                      // print the help screen and stop
)

// apArg is one argparse4j optional argument.
type apArg struct {
	flags    []string
	metavar  string
	typ      string // Java type for conversion: String, Long, Integer
	action   apAction
	many     bool // nargs("+")
	required bool
	grouped  bool   // member of the required mutually exclusive group
	def      string // default, shown as "(default: ...)" in the help
	hasDef   bool
	help     string // our own words
}

func (a *apArg) consumes() bool { return a.action == apStore }

// name is argparse4j's textualName: the flags joined with "/".
func (a *apArg) name() string { return strings.Join(a.flags, "/") }

// metavarText is formatMetavar: empty for flags, "X [X ...]" for nargs("+").
func (a *apArg) metavarText() string {
	switch {
	case !a.consumes():
		return ""
	case a.many:
		return a.metavar + " [" + a.metavar + " ...]"
	}
	return a.metavar
}

// shortSyntax is the argument in the usage line, bracketed unless required.
func (a *apArg) shortSyntax(brackets bool) string {
	s := a.flags[0]
	if mv := a.metavarText(); mv != "" {
		s += " " + mv
	}
	if brackets && !a.required {
		s = "[" + s + "]"
	}
	return s
}

// helpTitle is the left column of the help screen: each flag with its
// metavar, joined by ", ".
func (a *apArg) helpTitle() string {
	parts := make([]string, len(a.flags))
	for i, f := range a.flags {
		parts[i] = f
		if mv := a.metavarText(); mv != "" {
			parts[i] += " " + mv
		}
	}
	return strings.Join(parts, ", ")
}

// apParser is an argparse4j ArgumentParser with defaultHelp(true) and one
// required mutually exclusive group that has a description (so its
// arguments get their own help section).
type apParser struct {
	prog, description, groupDescription string
	args                                []*apArg // in the order they were added
}

// usageLines is printUsage: "usage: PROG" then each argument's short
// syntax (required group last, as "(a | b)"), wrapped at the format width
// under the program name.
func (p *apParser) usageLines() []string {
	head := "usage: " + p.prog
	var opts []string
	var group []*apArg
	for _, a := range p.args {
		if a.grouped {
			group = append(group, a)
			continue
		}
		opts = append(opts, a.shortSyntax(true))
	}
	if len(group) > 1 {
		opts = append(opts, "("+group[0].shortSyntax(false))
		for _, a := range group[1 : len(group)-1] {
			opts = append(opts, "|", a.shortSyntax(false))
		}
		opts = append(opts, "|", group[len(group)-1].shortSyntax(false)+")")
	}
	// A program name longer than 30 columns would move the arguments to a
	// new line indented by 6; ours is shorter.
	indent := strings.Repeat(" ", jlen(head))
	var lines []string
	cur, width := head, jlen(head)
	for i, o := range opts {
		if i > 0 && width+jlen(o)+1 > apFormatWidth {
			lines = append(lines, cur)
			cur, width = indent+" "+o, jlen(indent)+1+jlen(o)
			continue
		}
		cur += " " + o
		width += 1 + jlen(o)
	}
	return append(lines, cur)
}

// helpLines is printHelp: usage, description, the ungrouped arguments
// under "optional arguments:", then the group's description and arguments.
func (p *apParser) helpLines() []string {
	out := p.usageLines()
	out = append(out, "")
	out = append(out, splitLines(apWrap(p.description, apFormatWidth, 0, "", ""))...)
	out = append(out, "", "optional arguments:")
	for _, a := range p.args {
		if !a.grouped {
			out = append(out, apArgHelp(a)...)
		}
	}
	out = append(out, "")
	out = append(out, splitLines("  "+apWrap(p.groupDescription, apFormatWidth, 2, "", "  "))...)
	out = append(out, "")
	for _, a := range p.args {
		if a.grouped {
			out = append(out, apArgHelp(a)...)
		}
	}
	return out
}

// apArgHelp is one argument's help entry: the title indented by 2, the text
// from column 25 (on the next line when the title is wider than 21), with
// the default appended.
func apArgHelp(a *apArg) []string {
	const indentWidth = 25
	help := a.help
	if a.hasDef {
		help += " (default: " + a.def + ")"
	}
	title := a.helpTitle()
	head := "  " + title
	if jlen(title) <= 21 {
		head += strings.Repeat(" ", indentWidth-jlen(title)-2)
	} else {
		head += "\n" + strings.Repeat(" ", indentWidth)
	}
	return splitLines(head + apWrap(help, apFormatWidth, indentWidth, "", strings.Repeat(" ", indentWidth)))
}

// errorLines is handleError: the usage, "PROG: error: MESSAGE" wrapped at
// the format width, and for an unknown flag the closest known flags.
func (p *apParser) errorLines(e *apError) []string {
	out := p.usageLines()
	out = append(out, splitLines(apWrap(p.prog+": error: "+e.msg+"\n", apFormatWidth, 0, "", ""))...)
	if e.unknown != "" {
		body := strings.TrimLeft(e.unknown, "-")
		if body != "" && jlen(body) >= 2 {
			out = append(out, p.flagCandidates(body)...)
		}
	}
	return out
}

// flagCandidates is printFlagCandidates: flags starting with what was typed
// score 0, others their edit distance with git's costs (swap 0,
// substitution 2, insertion 1, deletion 4); the best score is shown unless it
// is 7 or worse.
func (p *apParser) flagCandidates(body string) []string {
	type cand struct {
		score int
		flag  string
	}
	var cands []cand
	for _, a := range p.args {
		for _, f := range a.flags {
			fb := strings.TrimLeft(f, "-")
			if jlen(fb) <= 1 {
				continue
			}
			score := 0
			if !strings.HasPrefix(fb, body) {
				score = gitLevenshtein(body, fb)
			}
			cands = append(cands, cand{score, f})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return javaLess(cands[i].flag, cands[j].flag)
	})
	best := cands[0].score
	if best >= 7 {
		return nil
	}
	out := []string{"", "Did you mean:"}
	for _, c := range cands {
		if c.score > best {
			break
		}
		out = append(out, "\t"+c.flag)
	}
	return out
}

// gitLevenshtein is the Damerau-style distance argparse4j borrowed from git
// (help.c), over UTF-16 units as Java strings are.
func gitLevenshtein(a, b string) int {
	const swap, sub, add, del = 0, 2, 1, 4
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	rows := [3][]int{make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(x); i++ {
		rows[0][0] = i
		for j := 1; j <= len(y); j++ {
			v := rows[1][j-1]
			if x[i-1] != y[j-1] {
				v += sub
			}
			if i >= 2 && j >= 2 && x[i-1] != y[j-1] && x[i-2] == y[j-1] && x[i-1] == y[j-2] {
				v = min(v, rows[2][j-2]+swap)
			}
			rows[0][j] = min(v, rows[1][j]+del, rows[0][j-1]+add)
		}
		rows[0], rows[1], rows[2] = rows[2], rows[0], rows[1]
	}
	return rows[1][len(y)]
}

// apError is an ArgumentParserException (help is the HelpScreenException
// the help action throws after printing the help screen; unknown is set for
// an UnrecognizedArgumentException, whose flag gets suggestions).
type apError struct {
	msg     string
	unknown string
	help    bool
}

func apErrorf(a *apArg, format string, args ...any) *apError {
	msg := fmt.Sprintf(format, args...)
	if a != nil {
		msg = "argument " + a.name() + ": " + msg
	}
	return &apError{msg: msg}
}

// apValues holds what was parsed: a string per single-valued argument, a
// list for nargs("+"), true for flags; converted numbers in nums.
type apValues struct {
	str  map[*apArg]string
	list map[*apArg][]string
	nums map[*apArg]int64
	set  map[*apArg]bool
}

func (v *apValues) given(a *apArg) bool { return v.set[a] }

var negNumberRe = regexp.MustCompile(`^-\d+$`)

// isFlag is flagFound: a word starting with '-' that is not only dashes nor
// a negative integer (no flag of this parser looks like a number), until
// "--" has been seen.
func isFlag(w string, afterSeparator bool) bool {
	if afterSeparator {
		return false
	}
	if w == "--" {
		return true
	}
	return strings.HasPrefix(w, "-") && strings.Trim(w, "-") != "" && !negNumberRe.MatchString(w)
}

// lookup is resolveNextFlag: an exact flag, or the only flag the word is a
// prefix of; several make the option ambiguous.
func (p *apParser) lookup(flag string) (*apArg, *apError) {
	var cands []string
	var found *apArg
	for _, a := range p.args {
		for _, f := range a.flags {
			if f == flag {
				return a, nil
			}
			if strings.HasPrefix(f, flag) {
				cands = append(cands, f)
				found = a
			}
		}
	}
	switch {
	case len(cands) == 0:
		return nil, nil
	case len(cands) == 1 && !shortOptsRe.MatchString(flag):
		return found, nil
	}
	if shortOptsRe.MatchString(flag) {
		cands = append(cands, flag[:2])
	}
	sort.Slice(cands, func(i, j int) bool { return javaLess(cands[i], cands[j]) })
	return nil, &apError{msg: fmt.Sprintf("ambiguous option: %s could match %s", flag, strings.Join(cands, ", "))}
}

// shortOptsRe is a word that could be concatenated short options ("-hx").
// Only -h exists, so a word like that is one of the few that can both
// prefix-match and be short options: it is reported as ambiguous.
var shortOptsRe = regexp.MustCompile(`^-[^-]`)

// parse is ArgumentParserImpl.parseArgs for this parser. Conversion errors
// and unknown arguments stop at once; a missing required argument is
// reported after everything was read, naming the last one missing.
func (p *apParser) parse(args []string) (*apValues, *apError) {
	v := &apValues{str: map[*apArg]string{}, list: map[*apArg][]string{}, nums: map[*apArg]int64{}, set: map[*apArg]bool{}}
	var groupUsed *apArg
	afterSep := false
	for i := 0; i < len(args); {
		w := args[i]
		switch {
		case isFlag(w, afterSep) && w != "--":
			flag, value, embedded := strings.Cut(w, "=")
			a, err := p.lookup(flag)
			if err != nil {
				return nil, err
			}
			if a == nil {
				// Concatenated short options: only -h exists, and it
				// takes no value, so "-h..." shows the help.
				if len(w) > 1 && w[1] == 'h' {
					return nil, &apError{help: true}
				}
				return nil, &apError{msg: fmt.Sprintf("unrecognized arguments: '%s'", w), unknown: w}
			}
			i++
			if a.grouped {
				if groupUsed != nil && groupUsed != a {
					return nil, apErrorf(a, "not allowed with argument %s", groupUsed.name())
				}
				groupUsed = a
			}
			var err2 *apError
			i, err2 = p.take(v, a, args, i, value, embedded, afterSep)
			if err2 != nil {
				return nil, err2
			}
		case w == "--" && !afterSep:
			afterSep = true
			i++
		default:
			// No positional arguments: everything left is unrecognized.
			return nil, &apError{msg: fmt.Sprintf("unrecognized arguments: '%s'", strings.Join(args[i:], " "))}
		}
	}
	var missing *apArg
	for _, a := range p.args {
		if a.required && !v.given(a) {
			missing = a
		}
	}
	if missing != nil {
		return nil, &apError{msg: fmt.Sprintf("argument %s is required", missing.name())}
	}
	if groupUsed == nil {
		var names string
		for _, a := range p.args {
			if a.grouped {
				names += a.name() + " "
			}
		}
		return nil, &apError{msg: fmt.Sprintf("one of the arguments %sis required", names)}
	}
	return v, nil
}

// take is processArg: a flag's value comes after "=" or from the next words
// that are not flags.
func (p *apParser) take(v *apValues, a *apArg, args []string, i int, value string, embedded, afterSep bool) (int, *apError) {
	if !a.consumes() {
		if embedded {
			return i, apErrorf(a, "ignore implicit argument '%s'", value)
		}
		if a.action == apHelp {
			return i, &apError{help: true}
		}
		v.set[a] = true
		return i, nil
	}
	if a.many {
		var list []string
		if embedded {
			list = []string{value}
		} else {
			for ; i < len(args) && !isFlag(args[i], afterSep); i++ {
				list = append(list, args[i])
			}
		}
		if len(list) < 1 {
			return i, apErrorf(a, "expected 1 argument(s)")
		}
		v.list[a], v.set[a] = list, true
		return i, nil
	}
	if !embedded {
		if i >= len(args) || isFlag(args[i], afterSep) {
			return i, apErrorf(a, "expected one argument")
		}
		value = args[i]
		i++
	}
	switch a.typ {
	case "Long", "Integer":
		bits := 64
		if a.typ == "Integer" {
			bits = 32
		}
		n, ok := javaParseInt(value, bits)
		if !ok {
			return i, apErrorf(a, "could not convert '%s' to %s (For input string: \"%s\")", value, a.typ, value)
		}
		v.nums[a] = n
	}
	v.str[a], v.set[a] = value, true
	return i, nil
}

// javaParseInt is Long.parseLong / Integer.parseInt in base 10: an optional
// sign, then decimal digits of any script in the Basic Multilingual Plane,
// within range.
func javaParseInt(s string, bits int) (int64, bool) {
	rs := []rune(s)
	if len(rs) == 0 {
		return 0, false
	}
	neg := false
	if rs[0] == '-' || rs[0] == '+' {
		neg = rs[0] == '-'
		rs = rs[1:]
		if len(rs) == 0 {
			return 0, false
		}
	}
	limit := uint64(1)<<(bits-1) - 1
	if neg {
		limit++
	}
	var n uint64
	for _, r := range rs {
		d, ok := decimalDigit(r)
		if !ok {
			return 0, false
		}
		if n > (limit-uint64(d))/10 {
			return 0, false
		}
		n = n*10 + uint64(d)
	}
	if neg {
		return -int64(n-1) - 1, true
	}
	return int64(n), true
}

// decimalDigit is Character.digit(ch, 10): the value of a decimal digit
// (Unicode category Nd) in the BMP. Nd digits come in runs of ten from 0.
func decimalDigit(r rune) (int, bool) {
	if r > 0xFFFF || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	k := 0
	for k < 100 && unicode.Is(unicode.Nd, r-rune(k)-1) {
		k++
	}
	return k % 10, true
}

// javaLess is String.compareTo: UTF-16 code unit order.
func javaLess(a, b string) bool {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b))) < 0
}

// jlen is a string's width as argparse4j counts it: UTF-16 units.
func jlen(s string) int { return len(utf16.Encode([]rune(s))) }

func splitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// arg finds an argument by its last flag.
func (p *apParser) arg(flag string) *apArg {
	for _, a := range p.args {
		if a.flags[len(a.flags)-1] == flag {
			return a
		}
	}
	panic("perf-test: no argument " + flag)
}
