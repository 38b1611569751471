package console

// A small emulation of argparse4j 0.7.0, the parser behind the Java tools that
// do not use jopt-simple (ProducerPerformance, MetadataQuorumCommand): the
// usage line, the help screen, the error line and the parse rules (flag
// prefixes, "--flag=value", mutually exclusive groups, titled argument
// groups, sub-commands, the order in which missing arguments are reported).

import (
	"fmt"
	"kafkascope/core/hashing"
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
	section  string // title of the (not exclusive) argument group it was added to; "" for none
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
// required mutually exclusive group (its arguments get their own help
// section when the group has a description), optionally with sub-commands
// (addSubparsers: the first word that is not a flag picks one, whose own
// parser reads the rest).
type apParser struct {
	prog, description, groupDescription string
	groupTitle                          string   // the exclusive group's title, if it has one
	args                                []*apArg // in the order they were added
	commands                            []*apCommand
	// parent and command are set on a sub-command's parser: its usage
	// starts with the parent's required arguments and the command name.
	parent  *apParser
	command string
}

// apCommand is one sub-command (Subparsers.addParser).
type apCommand struct {
	name, help string
	parser     *apParser
}

// addCommand adds a sub-command with its own parser.
func (p *apParser) addCommand(name, help string, args []*apArg) *apParser {
	sub := &apParser{prog: p.prog, args: args, parent: p, command: name}
	p.commands = append(p.commands, &apCommand{name: name, help: help, parser: sub})
	return sub
}

// groupTokens is the required mutually exclusive group in a usage line:
// "(a", "|", "b)".
func (p *apParser) groupTokens() []string {
	var group []*apArg
	for _, a := range p.args {
		if a.grouped {
			group = append(group, a)
		}
	}
	if len(group) < 2 {
		var out []string
		for _, a := range group {
			out = append(out, a.shortSyntax(false))
		}
		return out
	}
	out := []string{"(" + group[0].shortSyntax(false)}
	for _, a := range group[1 : len(group)-1] {
		out = append(out, "|", a.shortSyntax(false))
	}
	return append(out, "|", group[len(group)-1].shortSyntax(false)+")")
}

// usageLines is printUsage: "usage: PROG", for a sub-command the parent's
// required arguments and the command name, then each argument's short
// syntax (required group after the others, as "(a | b)"), then the
// sub-commands as "{a,b} ...", wrapped at the format width under the
// program name.
func (p *apParser) usageLines() []string {
	head := "usage: " + p.prog
	var opts []string
	if p.parent != nil {
		for _, a := range p.parent.args {
			if a.required && !a.grouped {
				opts = append(opts, a.shortSyntax(true))
			}
		}
		opts = append(opts, p.parent.groupTokens()...)
		opts = append(opts, p.command)
	}
	for _, a := range p.args {
		if !a.grouped {
			opts = append(opts, a.shortSyntax(true))
		}
	}
	opts = append(opts, p.groupTokens()...)
	if len(p.commands) > 0 {
		names := make([]string, len(p.commands))
		for i, c := range p.commands {
			names[i] = c.name
		}
		opts = append(opts, "{"+strings.Join(names, ",")+"}", "...")
	}
	// A program name longer than 30 columns would move the arguments to a
	// new line indented by 6; ours are shorter.
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

// helpLines is printHelp: usage, description, the sub-commands under
// "positional arguments:", the arguments of no titled group under
// "optional arguments:", then the exclusive group's description and
// arguments (when it has one), then each titled group.
func (p *apParser) helpLines() []string {
	out := p.usageLines()
	if p.description != "" {
		out = append(out, "")
		out = append(out, splitLines(apWrap(p.description, apFormatWidth, 0, "", ""))...)
	}
	if len(p.commands) > 0 {
		names := make([]string, len(p.commands))
		for i, c := range p.commands {
			names[i] = c.name
		}
		out = append(out, "", "positional arguments:", "  {"+strings.Join(names, ",")+"}")
		for _, c := range p.commands {
			out = append(out, apHelpEntry("  "+c.name, c.help)...)
		}
	}
	separate := p.groupDescription != "" || p.groupTitle != ""
	out = append(out, "", "optional arguments:")
	for _, a := range p.args {
		if (!a.grouped || !separate) && a.section == "" {
			out = append(out, apArgHelp(a)...)
		}
	}
	if separate {
		out = append(out, "")
		if p.groupTitle != "" {
			out = append(out, p.groupTitle+":")
		}
		if p.groupDescription != "" {
			out = append(out, splitLines("  "+apWrap(p.groupDescription, apFormatWidth, 2, "", "  "))...)
			out = append(out, "")
		}
		for _, a := range p.args {
			if a.grouped {
				out = append(out, apArgHelp(a)...)
			}
		}
	}
	var sections []string
	for _, a := range p.args {
		if a.section != "" && !slices.Contains(sections, a.section) {
			sections = append(sections, a.section)
		}
	}
	for _, sec := range sections {
		out = append(out, "", sec+":")
		for _, a := range p.args {
			if a.section == sec {
				out = append(out, apArgHelp(a)...)
			}
		}
	}
	return out
}

// apArgHelp is one argument's help entry: the title indented by 2, the text
// from column 25 (on the next line when the title is wider than 21), with
// the default appended.
func apArgHelp(a *apArg) []string {
	help := a.help
	if a.hasDef {
		help += " (default: " + a.def + ")"
	}
	return apHelpEntry(a.helpTitle(), help)
}

// apHelpEntry is TextHelper.printHelp: "  " and the title, then the help
// text from column 25 (on the next line when the title is wider than 21).
func apHelpEntry(title, help string) []string {
	const indentWidth = 25
	head := "  " + title
	if jlen(title) <= 21 {
		head += strings.Repeat(" ", indentWidth-jlen(title)-2)
	} else {
		head += "\n" + strings.Repeat(" ", indentWidth)
	}
	return splitLines(head + apWrap(help, apFormatWidth, indentWidth, "", strings.Repeat(" ", indentWidth)))
}

// errorLines is handleError: the usage of the parser that failed,
// "PROG: error: MESSAGE" wrapped at the format width, and for an unknown
// flag or sub-command the closest known ones.
func (p *apParser) errorLines(e *apError) []string {
	if e.parser != nil {
		p = e.parser
	}
	out := p.usageLines()
	out = append(out, splitLines(apWrap(p.prog+": error: "+e.msg+"\n", apFormatWidth, 0, "", ""))...)
	switch {
	case e.unknownCommand:
		names := make([]string, len(p.commands))
		for i, c := range p.commands {
			names[i] = c.name
		}
		out = append(out, apCandidates(e.unknown, names, names)...)
	case e.unknown != "":
		body := strings.TrimLeft(e.unknown, "-")
		if body != "" && jlen(body) >= 2 {
			out = append(out, p.flagCandidates(body)...)
		}
	}
	return out
}

// flagCandidates is printFlagCandidates: the flags of this parser whose
// body (without dashes) is longer than one character.
func (p *apParser) flagCandidates(body string) []string {
	var subjects, bodies []string
	for _, a := range p.args {
		for _, f := range a.flags {
			fb := strings.TrimLeft(f, "-")
			if jlen(fb) <= 1 {
				continue
			}
			subjects, bodies = append(subjects, f), append(bodies, fb)
		}
	}
	return apCandidates(body, subjects, bodies)
}

// apCandidates is printCandidates: subjects whose body starts with what was
// typed score 0, others their edit distance with git's costs (swap 0,
// substitution 2, insertion 1, deletion 4); the best score is shown unless
// it is 7 or worse.
func apCandidates(typed string, subjects, bodies []string) []string {
	type cand struct {
		score int
		subj  string
	}
	var cands []cand
	for i, subj := range subjects {
		score := 0
		if !strings.HasPrefix(bodies[i], typed) {
			score = gitLevenshtein(typed, bodies[i])
		}
		cands = append(cands, cand{score, subj})
	}
	if len(cands) == 0 {
		return nil
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score < cands[j].score
		}
		return javaLess(cands[i].subj, cands[j].subj)
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
		out = append(out, "\t"+c.subj)
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
// an UnrecognizedArgumentException, whose flag gets suggestions, or with
// unknownCommand for an UnrecognizedCommandException). parser is the parser
// that raised it, whose usage the error shows (nil: the one called).
type apError struct {
	msg            string
	unknown        string
	unknownCommand bool
	help           bool
	parser         *apParser
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
	str     map[*apArg]string
	list    map[*apArg][]string
	nums    map[*apArg]int64
	set     map[*apArg]bool
	command string // the sub-command chosen, if the parser has any
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
	return nil, &apError{msg: fmt.Sprintf("ambiguous option: %s could match %s", flag, strings.Join(cands, ", ")), parser: p}
}

// shortOptsRe is a word that could be concatenated short options ("-hx").
// Only -h exists, so a word like that is one of the few that can both
// prefix-match and be short options: it is reported as ambiguous.
var shortOptsRe = regexp.MustCompile(`^-[^-]`)

// parse is ArgumentParserImpl.parseArgs for this parser. Conversion errors,
// unknown arguments and sub-command errors stop at once; a missing required
// argument or group is found when the arguments (or the sub-command) are
// reached and reported after everything was read, naming the last one
// missing.
func (p *apParser) parse(args []string) (*apValues, *apError) {
	v := &apValues{str: map[*apArg]string{}, list: map[*apArg][]string{}, nums: map[*apArg]int64{}, set: map[*apArg]bool{}}
	var deferred *apError
	if err := p.parseFrom(args, 0, v, &deferred); err != nil {
		return nil, err
	}
	if deferred != nil {
		return nil, deferred
	}
	return v, nil
}

func (p *apParser) parseFrom(args []string, i int, v *apValues, deferred **apError) *apError {
	var groupUsed *apArg
	afterSep := false
	for i < len(args) {
		w := args[i]
		switch {
		case isFlag(w, afterSep) && w != "--":
			flag, value, embedded := strings.Cut(w, "=")
			a, err := p.lookup(flag)
			if err != nil {
				return err
			}
			if a == nil {
				// Concatenated short options: only -h exists, and it
				// takes no value, so "-h..." shows the help.
				if len(w) > 1 && w[1] == 'h' {
					return &apError{help: true, parser: p}
				}
				return &apError{msg: fmt.Sprintf("unrecognized arguments: '%s'", w), unknown: w, parser: p}
			}
			i++
			if a.grouped {
				if groupUsed != nil && groupUsed != a {
					return p.errorf(a, "not allowed with argument %s", groupUsed.name())
				}
				groupUsed = a
			}
			var err2 *apError
			i, err2 = p.take(v, a, args, i, value, embedded, afterSep)
			if err2 != nil {
				return err2
			}
		case w == "--" && !afterSep:
			afterSep = true
			i++
		case !afterSep && len(p.commands) > 0:
			p.checkRequired(v, groupUsed, deferred)
			cmd, err := p.resolveCommand(w)
			if err != nil {
				return err
			}
			v.command = cmd.name
			return cmd.parser.parseFrom(args, i+1, v, deferred)
		default:
			// No positional arguments: everything left is unrecognized.
			return &apError{msg: fmt.Sprintf("unrecognized arguments: '%s'", strings.Join(args[i:], " ")), parser: p}
		}
	}
	if len(p.commands) > 0 {
		return &apError{msg: "too few arguments", parser: p}
	}
	p.checkRequired(v, groupUsed, deferred)
	return nil
}

// checkRequired is checkRequiredArgument and checkRequiredMutex: the first
// problem found is kept and reported once the parse ends.
func (p *apParser) checkRequired(v *apValues, groupUsed *apArg, deferred **apError) {
	if *deferred != nil {
		return
	}
	var missing *apArg
	for _, a := range p.args {
		if a.required && !v.given(a) {
			missing = a
		}
	}
	if missing != nil {
		*deferred = &apError{msg: fmt.Sprintf("argument %s is required", missing.name()), parser: p}
		return
	}
	var names string
	for _, a := range p.args {
		if a.grouped {
			names += a.name() + " "
		}
	}
	if groupUsed == nil && names != "" {
		*deferred = &apError{msg: fmt.Sprintf("one of the arguments %sis required", names), parser: p}
	}
}

// resolveCommand is resolveNextSubparser: a command name, or the only one
// the word is a prefix of.
func (p *apParser) resolveCommand(w string) (*apCommand, *apError) {
	var cands []*apCommand
	for _, c := range p.commands {
		if c.name == w {
			return c, nil
		}
		if w != "" && strings.HasPrefix(c.name, w) {
			cands = append(cands, c)
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		names := make([]string, len(p.commands))
		for i, c := range p.commands {
			names[i] = "'" + c.name + "'"
		}
		return nil, &apError{msg: fmt.Sprintf("invalid choice: '%s' (choose from %s)", w, strings.Join(names, ", ")),
			unknown: w, unknownCommand: true, parser: p}
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	sort.Slice(names, func(i, j int) bool { return javaLess(names[i], names[j]) })
	return nil, &apError{msg: fmt.Sprintf("ambiguous command: %s could match %s", w, strings.Join(names, ", ")), parser: p}
}

// errorf is apErrorf raised by this parser.
func (p *apParser) errorf(a *apArg, format string, args ...any) *apError {
	e := apErrorf(a, format, args...)
	e.parser = p
	return e
}

// take is processArg: a flag's value comes after "=" or from the next words
// that are not flags.
func (p *apParser) take(v *apValues, a *apArg, args []string, i int, value string, embedded, afterSep bool) (int, *apError) {
	if !a.consumes() {
		if embedded {
			return i, p.errorf(a, "ignore implicit argument '%s'", value)
		}
		if a.action == apHelp {
			return i, &apError{help: true, parser: p}
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
			return i, p.errorf(a, "expected 1 argument(s)")
		}
		v.list[a], v.set[a] = list, true
		return i, nil
	}
	if !embedded {
		if i >= len(args) || isFlag(args[i], afterSep) {
			return i, p.errorf(a, "expected one argument")
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
			return i, p.errorf(a, "could not convert '%s' to %s (For input string: \"%s\")", value, a.typ, value)
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
func jlen(s string) int { return hashing.JavaStringLength(s) }

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
