package javacli

// A small emulation of argparse4j 0.7.0, the parser behind the Java tools that
// do not use jopt-simple (ProducerPerformance, VerifiableProducer,
// VerifiableConsumer, MetadataQuorumCommand): the usage line, the help
// screen, the error line and the parse rules (flag prefixes,
// "--flag=value", mutually exclusive groups, titled argument groups,
// sub-commands, the order in which missing arguments are reported).

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf16"

	"kafkascope/core/jdk"
)

// formatWidth is argparse4j's text width: it detects the terminal's
// columns and subtracts 5, and falls back to 75 without a terminal; both give
// 75 on an 80-column terminal, which is what we emulate.
const formatWidth = 75

// Action is what an argument does when it is given.
type Action uint8

const (
	Store        Action = iota // keep the value (the last one wins)
	StoreTrue                  // a flag: true when present
	PrintHelp                  // print the help screen and stop
	PrintVersion               // print the release and stop (Kafka's PrintVersionAndExitAction)
	Append                     // keep every value given, in order (Arguments.append())
)

// Argument is one argparse4j optional argument.
type Argument struct {
	Flags      []string // e.g. "-h", "--help"; the last one names it (Parser.Arg)
	Metavar    string   // the value's name in the usage and help
	Type       string   // Java type for conversion: String, Long, Integer, Double
	Action     Action   // what giving it does
	Many       bool     // nargs("+")
	Required   bool     // required(true)
	Grouped    bool     // member of the required mutually exclusive group
	Section    string   // title of the (not exclusive) argument group it was added to; "" for none
	Default    string   // default, shown as "(default: ...)" in the help
	HasDefault bool     // the help shows Default
	Help       string   // the help text (the tool's words)
}

func (a *Argument) consumes() bool { return a.Action == Store || a.Action == Append }

// name is argparse4j's textualName: the flags joined with "/".
func (a *Argument) name() string { return strings.Join(a.Flags, "/") }

// metavarText is formatMetavar: empty for flags, "X [X ...]" for nargs("+").
func (a *Argument) metavarText() string {
	switch {
	case !a.consumes():
		return ""
	case a.Many:
		return a.Metavar + " [" + a.Metavar + " ...]"
	}
	return a.Metavar
}

// shortSyntax is the argument in the usage line, bracketed unless required.
func (a *Argument) shortSyntax(brackets bool) string {
	s := a.Flags[0]
	if mv := a.metavarText(); mv != "" {
		s += " " + mv
	}
	if brackets && !a.Required {
		s = "[" + s + "]"
	}
	return s
}

// helpTitle is the left column of the help screen: each flag with its
// metavar, joined by ", ".
func (a *Argument) helpTitle() string {
	parts := make([]string, len(a.Flags))
	for i, f := range a.Flags {
		parts[i] = f
		if mv := a.metavarText(); mv != "" {
			parts[i] += " " + mv
		}
	}
	return strings.Join(parts, ", ")
}

// Parser is an argparse4j ArgumentParser with defaultHelp(true) and one
// required mutually exclusive group (its arguments get their own help
// section when the group has a description), optionally with sub-commands
// (addSubparsers: the first word that is not a flag picks one, whose own
// parser reads the rest).
type Parser struct {
	Prog             string // the program's name in the usage and error lines
	Description      string // the help screen's paragraph under the usage
	GroupDescription string // the exclusive group's description, if it has one
	GroupTitle       string // the exclusive group's title, if it has one
	// GroupOptional: the exclusive group is not required (a group made
	// without .required(true)): the usage brackets it and parsing accepts
	// none of its arguments.
	GroupOptional bool
	// CommandsTitle and CommandsMetavar are addSubparsers().title(...)
	// .metavar(...): the sub-commands get a section of their own, headed
	// by the title, and the usage names them by the metavar.
	CommandsTitle, CommandsMetavar string
	// SectionDescriptions are argument groups' descriptions, by title.
	SectionDescriptions map[string]string
	Args                []*Argument // in the order they were added
	commands            []*subparser
	// parent and command are set on a sub-command's parser: its usage
	// starts with the parent's required arguments and the command name.
	parent  *Parser
	command string
}

// subparser is one sub-command (Subparsers.addParser).
type subparser struct {
	name, help string
	parser     *Parser
}

// AddCommand adds a sub-command with its own parser.
func (p *Parser) AddCommand(name, help string, args []*Argument) *Parser {
	sub := &Parser{Prog: p.Prog, Args: args, parent: p, command: name}
	p.commands = append(p.commands, &subparser{name: name, help: help, parser: sub})
	return sub
}

// CommandNames are the sub-commands AddCommand added, in order.
func (p *Parser) CommandNames() []string {
	names := make([]string, len(p.commands))
	for i, c := range p.commands {
		names[i] = c.name
	}
	return names
}

// Command is the parser of the sub-command name, which AddCommand added
// (nil if there is none).
func (p *Parser) Command(name string) *Parser {
	for _, c := range p.commands {
		if c.name == name {
			return c.parser
		}
	}
	return nil
}

// groupTokens is the required mutually exclusive group in a usage line:
// "(a", "|", "b)".
func (p *Parser) groupTokens() []string {
	var group []*Argument
	for _, a := range p.Args {
		if a.Grouped {
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
	open, closing := "(", ")"
	if p.GroupOptional {
		open, closing = "[", "]"
	}
	out := []string{open + group[0].shortSyntax(false)}
	for _, a := range group[1 : len(group)-1] {
		out = append(out, "|", a.shortSyntax(false))
	}
	return append(out, "|", group[len(group)-1].shortSyntax(false)+closing)
}

// UsageLines is printUsage: "usage: PROG", for a sub-command the parent's
// required arguments and the command name, then each argument's short
// syntax (required group after the others, as "(a | b)"), then the
// sub-commands as "{a,b} ...", wrapped at the format width under the
// program name.
func (p *Parser) UsageLines() []string {
	head := "usage: " + p.Prog
	var opts []string
	if p.parent != nil {
		for _, a := range p.parent.Args {
			if a.Required && !a.Grouped {
				opts = append(opts, a.shortSyntax(true))
			}
		}
		opts = append(opts, p.parent.groupTokens()...)
		opts = append(opts, p.command)
	}
	for _, a := range p.Args {
		if !a.Grouped {
			opts = append(opts, a.shortSyntax(true))
		}
	}
	opts = append(opts, p.groupTokens()...)
	if len(p.commands) > 0 {
		opts = append(opts, p.commandsSyntax(), "...")
	}
	// A program name longer than 30 columns would move the arguments to a
	// new line indented by 6; ours are shorter.
	indent := strings.Repeat(" ", jlen(head))
	var lines []string
	cur, width := head, jlen(head)
	for i, o := range opts {
		if i > 0 && width+jlen(o)+1 > formatWidth {
			lines = append(lines, cur)
			cur, width = indent+" "+o, jlen(indent)+1+jlen(o)
			continue
		}
		cur += " " + o
		width += 1 + jlen(o)
	}
	return append(lines, cur)
}

// commandsSyntax is formatShortSyntax: the metavar, or "{a,b}".
func (p *Parser) commandsSyntax() string {
	if p.CommandsMetavar != "" {
		return p.CommandsMetavar
	}
	names := make([]string, len(p.commands))
	for i, c := range p.commands {
		names[i] = c.name
	}
	return "{" + strings.Join(names, ",") + "}"
}

// commandsHelp is printSubparserHelp: the syntax, then each command.
func (p *Parser) commandsHelp() []string {
	out := []string{"  " + p.commandsSyntax()}
	for _, c := range p.commands {
		out = append(out, apHelpEntry("  "+c.name, c.help)...)
	}
	return out
}

// HelpLines is printHelp: usage, description, the sub-commands under
// "positional arguments:", the arguments of no titled group under
// "optional arguments:", then the exclusive group's description and
// arguments (when it has one), then each titled group.
func (p *Parser) HelpLines() []string {
	out := p.UsageLines()
	if p.Description != "" {
		out = append(out, "")
		out = append(out, splitLines(apWrap(p.Description, formatWidth, 0, "", ""))...)
	}
	if len(p.commands) > 0 && p.CommandsTitle == "" {
		out = append(out, "", "positional arguments:")
		out = append(out, p.commandsHelp()...)
	}
	separate := p.GroupDescription != "" || p.GroupTitle != ""
	out = append(out, "", "optional arguments:")
	for _, a := range p.Args {
		if (!a.Grouped || !separate) && a.Section == "" {
			out = append(out, apArgHelp(a)...)
		}
	}
	if len(p.commands) > 0 && p.CommandsTitle != "" {
		out = append(out, "", p.CommandsTitle+":")
		out = append(out, p.commandsHelp()...)
	}
	if separate {
		out = append(out, "")
		if p.GroupTitle != "" {
			out = append(out, p.GroupTitle+":")
		}
		if p.GroupDescription != "" {
			out = append(out, splitLines("  "+apWrap(p.GroupDescription, formatWidth, 2, "", "  "))...)
			out = append(out, "")
		}
		for _, a := range p.Args {
			if a.Grouped {
				out = append(out, apArgHelp(a)...)
			}
		}
	}
	var sections []string
	for _, a := range p.Args {
		if a.Section != "" && !slices.Contains(sections, a.Section) {
			sections = append(sections, a.Section)
		}
	}
	for _, sec := range sections {
		out = append(out, "", sec+":")
		if d := p.SectionDescriptions[sec]; d != "" {
			out = append(out, splitLines("  "+apWrap(d, formatWidth, 2, "", "  "))...)
			out = append(out, "")
		}
		for _, a := range p.Args {
			if a.Section == sec {
				out = append(out, apArgHelp(a)...)
			}
		}
	}
	return out
}

// apArgHelp is one argument's help entry: the title indented by 2, the text
// from column 25 (on the next line when the title is wider than 21), with
// the default appended.
func apArgHelp(a *Argument) []string {
	help := a.Help
	if a.HasDefault {
		help += " (default: " + a.Default + ")"
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
	return splitLines(head + apWrap(help, formatWidth, indentWidth, "", strings.Repeat(" ", indentWidth)))
}

// ErrorLines is handleError: the usage of the parser that failed,
// "PROG: error: MESSAGE" wrapped at the format width, and for an unknown
// flag or sub-command the closest known ones.
func (p *Parser) ErrorLines(e *ParseError) []string {
	if e.Parser != nil {
		p = e.Parser
	}
	out := p.UsageLines()
	out = append(out, splitLines(apWrap(p.Prog+": error: "+e.Msg+"\n", formatWidth, 0, "", ""))...)
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
func (p *Parser) flagCandidates(body string) []string {
	var subjects, bodies []string
	for _, a := range p.Args {
		for _, f := range a.Flags {
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
		return jdk.Less(cands[i].subj, cands[j].subj)
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

// ParseError is an ArgumentParserException. A tool may make its own (a
// check of its own after parsing) for ErrorLines to print.
type ParseError struct {
	Msg string // the message after "PROG: error: "
	// unknown is set for an UnrecognizedArgumentException, whose flag gets
	// suggestions, or with unknownCommand for an
	// UnrecognizedCommandException.
	unknown        string
	unknownCommand bool
	// Help marks the HelpScreenException the help action throws after
	// printing the help screen: the tool prints Parser's help, no error.
	Help bool
	// Version marks the version action: the tool prints its release and
	// exits 0, whatever else the command line holds.
	Version bool
	// Parser is the parser that raised it, whose usage the error shows
	// (nil: the one whose ErrorLines is called).
	Parser *Parser
}

func apErrorf(a *Argument, format string, args ...any) *ParseError {
	msg := fmt.Sprintf(format, args...)
	if a != nil {
		msg = "argument " + a.name() + ": " + msg
	}
	return &ParseError{Msg: msg}
}

// Namespace holds what was parsed: a string per single-valued argument, a
// list for nargs("+"), true for flags; converted numbers in nums.
type Namespace struct {
	str     map[*Argument]string
	list    map[*Argument][]string
	nums    map[*Argument]int64
	floats  map[*Argument]float64
	set     map[*Argument]bool
	command string // the sub-command chosen, if the parser has any
}

// Given reports whether a was on the command line.
func (v *Namespace) Given(a *Argument) bool { return v.set[a] }

// Str is a single-valued argument's value as typed ("" when not given:
// defaults are shown in the help, not filled in).
func (v *Namespace) Str(a *Argument) string { return v.str[a] }

// List is an nargs("+") argument's values.
func (v *Namespace) List(a *Argument) []string { return v.list[a] }

// Num is an Integer or Long argument's value (0 when not given).
func (v *Namespace) Num(a *Argument) int64 { return v.nums[a] }

// Float is a Double argument's value (0 when not given).
func (v *Namespace) Float(a *Argument) float64 { return v.floats[a] }

// Command is the sub-command chosen ("" for a parser without any).
func (v *Namespace) Command() string { return v.command }

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
func (p *Parser) lookup(flag string) (*Argument, *ParseError) {
	var cands []string
	var found *Argument
	for _, a := range p.Args {
		for _, f := range a.Flags {
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
	sort.Slice(cands, func(i, j int) bool { return jdk.Less(cands[i], cands[j]) })
	return nil, &ParseError{Msg: fmt.Sprintf("ambiguous option: %s could match %s", flag, strings.Join(cands, ", ")), Parser: p}
}

// shortOptsRe is a word that could be concatenated short options ("-hx").
// Only -h exists, so a word like that is one of the few that can both
// prefix-match and be short options: it is reported as ambiguous.
var shortOptsRe = regexp.MustCompile(`^-[^-]`)

// Parse is ArgumentParserImpl.parseArgs for this parser. Conversion errors,
// unknown arguments and sub-command errors stop at once; a missing required
// argument or group is found when the arguments (or the sub-command) are
// reached and reported after everything was read, naming the last one
// missing.
func (p *Parser) Parse(args []string) (*Namespace, *ParseError) {
	v := &Namespace{str: map[*Argument]string{}, list: map[*Argument][]string{}, nums: map[*Argument]int64{}, floats: map[*Argument]float64{}, set: map[*Argument]bool{}}
	var deferred *ParseError
	if err := p.parseFrom(args, 0, v, &deferred); err != nil {
		return nil, err
	}
	if deferred != nil {
		return nil, deferred
	}
	return v, nil
}

func (p *Parser) parseFrom(args []string, i int, v *Namespace, deferred **ParseError) *ParseError {
	var groupUsed *Argument
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
					return &ParseError{Help: true, Parser: p}
				}
				return &ParseError{Msg: fmt.Sprintf("unrecognized arguments: '%s'", w), unknown: w, Parser: p}
			}
			i++
			if a.Grouped {
				if groupUsed != nil && groupUsed != a {
					return p.errorf(a, "not allowed with argument %s", groupUsed.name())
				}
				groupUsed = a
			}
			var err2 *ParseError
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
			return &ParseError{Msg: fmt.Sprintf("unrecognized arguments: '%s'", strings.Join(args[i:], " ")), Parser: p}
		}
	}
	if len(p.commands) > 0 {
		return &ParseError{Msg: "too few arguments", Parser: p}
	}
	p.checkRequired(v, groupUsed, deferred)
	return nil
}

// checkRequired is checkRequiredArgument and checkRequiredMutex: the first
// problem found is kept and reported once the parse ends.
func (p *Parser) checkRequired(v *Namespace, groupUsed *Argument, deferred **ParseError) {
	if *deferred != nil {
		return
	}
	var missing *Argument
	for _, a := range p.Args {
		if a.Required && !v.Given(a) {
			missing = a
		}
	}
	if missing != nil {
		*deferred = &ParseError{Msg: fmt.Sprintf("argument %s is required", missing.name()), Parser: p}
		return
	}
	var names string
	for _, a := range p.Args {
		if a.Grouped {
			names += a.name() + " "
		}
	}
	if groupUsed == nil && names != "" && !p.GroupOptional {
		*deferred = &ParseError{Msg: fmt.Sprintf("one of the arguments %sis required", names), Parser: p}
	}
}

// resolveCommand is resolveNextSubparser: a command name, or the only one
// the word is a prefix of.
func (p *Parser) resolveCommand(w string) (*subparser, *ParseError) {
	var cands []*subparser
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
		return nil, &ParseError{Msg: fmt.Sprintf("invalid choice: '%s' (choose from %s)", w, strings.Join(names, ", ")),
			unknown: w, unknownCommand: true, Parser: p}
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.name
	}
	sort.Slice(names, func(i, j int) bool { return jdk.Less(names[i], names[j]) })
	return nil, &ParseError{Msg: fmt.Sprintf("ambiguous command: %s could match %s", w, strings.Join(names, ", ")), Parser: p}
}

// errorf is apErrorf raised by this parser.
func (p *Parser) errorf(a *Argument, format string, args ...any) *ParseError {
	e := apErrorf(a, format, args...)
	e.Parser = p
	return e
}

// take is processArg: a flag's value comes after "=" or from the next words
// that are not flags.
func (p *Parser) take(v *Namespace, a *Argument, args []string, i int, value string, embedded, afterSep bool) (int, *ParseError) {
	if !a.consumes() {
		if embedded {
			return i, p.errorf(a, "ignore implicit argument '%s'", value)
		}
		if a.Action == PrintHelp {
			return i, &ParseError{Help: true, Parser: p}
		}
		if a.Action == PrintVersion {
			return i, &ParseError{Version: true, Parser: p}
		}
		v.set[a] = true
		return i, nil
	}
	if a.Many {
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
	switch a.Type {
	case "Long", "Integer":
		bits := 64
		if a.Type == "Integer" {
			bits = 32
		}
		n, ok := jdk.ParseInt(value, bits)
		if !ok {
			return i, p.errorf(a, "could not convert '%s' to %s (For input string: \"%s\")", value, a.Type, value)
		}
		v.nums[a] = n
	case "Short":
		// Short.valueOf: Integer.parseInt's message, or its own range check.
		n, ok := jdk.ParseInt(value, 32)
		if !ok {
			return i, p.errorf(a, "could not convert '%s' to Short (For input string: \"%s\")", value, value)
		}
		if n < -32768 || n > 32767 {
			return i, p.errorf(a, "could not convert '%s' to Short (Value out of range. Value:\"%s\" Radix:10)", value, value)
		}
		v.nums[a] = n
	case "Double":
		f, err := jdk.ParseDouble(value)
		if err != nil {
			// argparse4j's ReflectArgumentType: Double.valueOf's
			// NumberFormatException message in parentheses.
			return i, p.errorf(a, "could not convert '%s' to Double (%s)", value, err.Error())
		}
		v.floats[a] = f
	}
	if a.Action == Append {
		v.list[a] = append(v.list[a], value)
	}
	v.str[a], v.set[a] = value, true
	return i, nil
}

// jlen is a string's width as argparse4j counts it: UTF-16 units.
func jlen(s string) int { return jdk.StringLength(s) }

func splitLines(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }

// Arg finds an argument by its last flag.
func (p *Parser) Arg(flag string) *Argument {
	for _, a := range p.Args {
		if a.Flags[len(a.Flags)-1] == flag {
			return a
		}
	}
	panic("javacli: " + p.Prog + " has no argument " + flag)
}
