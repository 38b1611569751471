package console

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"

	"kafkascope/core/client"
	"kafkascope/core/hashing"
	"kafkascope/core/sim"
)

// kafka-producer-perf-test.sh runs org.apache.kafka.tools.ProducerPerformance
// (Kafka 3.8). Unlike the jopt-simple tools, it parses its arguments with
// argparse4j 0.7.0, so this file carries a small argparse4j emulation: the
// usage line, the help screen, the error line and the parse rules (flag
// prefixes, "--flag=value", the mutually exclusive payload group, the order
// in which missing arguments are reported). Help texts are our own words;
// the layout around them is argparse4j's.

// Limits that keep one run bounded. The real tool has none; a browser tab
// holding three replicas of every record does: like the console producer's
// MaxStdinLines, a run may send at most 100000 records, and at most 32 MiB
// of payload.
const (
	perfMaxRecords = 100_000
	perfMaxBytes   = 32 * 1024 * 1024
)

// perfProg is the parser's name, which argparse4j prints in the usage and
// error lines (ProducerPerformance names its parser so, not after the
// script).
const perfProg = "producer-performance"

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

func perfParser() *apParser {
	return &apParser{
		prog:             perfProg,
		description:      "Measure how fast a producer sends records to a topic, and how long each send takes to be acknowledged.",
		groupDescription: "Give the payload either as a size (--record-size) or as a file (--payload-file), never both.",
		args: []*apArg{
			{flags: []string{"-h", "--help"}, action: apHelp, help: "show this help message and exit"},
			{flags: []string{"--topic"}, metavar: "TOPIC", typ: "String", required: true, help: "the topic that receives the records"},
			{flags: []string{"--num-records"}, metavar: "NUM-RECORDS", typ: "Long", required: true, help: "how many records to send"},
			{flags: []string{"--record-size"}, metavar: "RECORD-SIZE", typ: "Integer", grouped: true,
				help: "payload size in bytes; each payload is random capital letters. Use either this or --payload-file."},
			{flags: []string{"--payload-file"}, metavar: "PAYLOAD-FILE", typ: "String", grouped: true,
				help: "a UTF-8 text file split into payloads at --payload-delimiter; each record takes one of them at random. Use either this or --record-size. (In kafkascope: a file written with cat > FILE.)"},
			{flags: []string{"--payload-delimiter"}, metavar: "PAYLOAD-DELIMITER", typ: "String", def: `\n`, hasDef: true,
				help: "what separates the payloads in --payload-file (a line break unless given); ignored without --payload-file."},
			{flags: []string{"--throughput"}, metavar: "THROUGHPUT", typ: "Integer", required: true,
				help: "the target rate in records per second, kept on average by pausing between sends; -1 sends as fast as the producer accepts records."},
			{flags: []string{"--producer-props"}, metavar: "PROP-NAME=PROP-VALUE", typ: "String", many: true,
				help: "producer configs as name=value, for example bootstrap.servers=kafka-1:9092 acks=1; they override --producer.config."},
			{flags: []string{"--producer.config"}, metavar: "CONFIG-FILE", typ: "String", help: "a properties file with producer configs (in kafkascope: written with cat > FILE)."},
			{flags: []string{"--print-metrics"}, action: apStoreTrue, def: "false", hasDef: true, help: "print the producer's metrics when the run ends."},
			{flags: []string{"--transactional-id"}, metavar: "TRANSACTIONAL-ID", typ: "String", def: "performance-producer-default-transactional-id", hasDef: true,
				help: "the transactional.id used when --transaction-duration-ms is positive."},
			{flags: []string{"--transaction-duration-ms"}, metavar: "TRANSACTION-DURATION", typ: "Long", def: "0", hasDef: true,
				help: "commit the open transaction once it is this old; a positive value turns transactions on."},
		},
	}
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

// apWrap is argparse4j's TextHelper.wrap: text is cut at the line-break
// opportunities of java.text.BreakIterator; a piece that would pass the
// width starts a new line, and the line it ends is justified to the width by
// widening its runs of spaces (extra spaces go to the middle runs).
func apWrap(s string, width, initialOffset int, initialIndent, subsequentIndent string) string {
	var res, line strings.Builder
	res.WriteString(initialIndent)
	cur := initialOffset + jlen(initialIndent)
	rs := []rune(s)
	start := 0
	for _, end := range lineBreaks(rs) {
		piece := string(rs[start:end])
		start = end
		w := jlen(piece)
		cur += w
		if cur > width {
			res.WriteString(adjustSpace(line.String(), width, cur-w))
			res.WriteString("\n" + subsequentIndent)
			line.Reset()
			cur = jlen(subsequentIndent) + w
		}
		line.WriteString(piece)
		if strings.HasSuffix(piece, "\n") {
			res.WriteString(line.String() + subsequentIndent)
			line.Reset()
			cur = jlen(subsequentIndent)
		}
	}
	res.WriteString(line.String())
	return res.String()
}

// adjustSpace is TextHelper.adjustSpace: trim the line's outer spaces, then
// spread the missing width over its runs of spaces, one more to the runs in
// the middle when it does not divide evenly.
func adjustSpace(line string, width, curWidth int) string {
	trimmed := strings.Trim(line, " ")
	curWidth -= jlen(line) - jlen(trimmed)
	blocks := 0
	inBlock := false
	for _, r := range trimmed {
		if r == ' ' {
			if !inBlock {
				blocks++
			}
			inBlock = true
		} else {
			inBlock = false
		}
	}
	if blocks == 0 {
		return trimmed
	}
	need := width - curWidth
	each, rem := need/blocks, need%blocks
	remStart := (blocks - rem + 1) / 2
	remEnd := remStart + rem
	var b strings.Builder
	block := 0
	inBlock = false
	for _, r := range trimmed {
		if r == ' ' && !inBlock {
			add := each
			if remStart <= block && block < remEnd {
				add++
			}
			if add > 0 {
				b.WriteString(strings.Repeat(" ", add))
			}
			block++
		}
		inBlock = r == ' '
		b.WriteRune(r)
	}
	return b.String()
}

// Line breaking as the JDK's java.text.BreakIterator.getLineInstance does
// it (its rule-based LineBreakRules). Each character gets a class letter;
// from each position the longest run matching the rule is one piece.
//
//	B break (ETX, tab, LF, FF, LS, PS)  R carriage return  I ignored (Cf, other Cc)
//	E enclosing/non-spacing mark        G glue (no-break spaces)  S space
//	D dash   K kanji   9 digit   A other ("char")   X danda (no class: breaks alone)
//	P pre-word (Sc, Ps, Pi)   Q post-word (Pe, Pf, ! % : ; ? and others)
//	O '(' pre-word and hack1   C ')' post-word and hack2   M '$' pre-word and hack3
//	H '\'' pre-word and hack3  W '"' pre-word and post-word
//	N '.' ',' post-word and mid-number
//
// Digits also count as "char". The rules join a word (pre-words, a core of
// chars, one kanji or a number, then dashes or post-words) to following
// words across glue, a dollar sign or an apostrophe, then take trailing spaces, a "()" pair
// with post-words, and one CR and/or line break. Checked against JDK 17 on
// 40000 random strings; one known difference: after a pre-word and two or
// more dashes the JDK keeps following post-words in the piece (e.g. "$--."),
// these rules do not.
func lbClass(r rune) byte {
	switch r {
	case 0x03, '\t', '\n', '\f', 0x2028, 0x2029:
		return 'B'
	case '\r':
		return 'R'
	case '(':
		return 'O'
	case ')':
		return 'C'
	case '$':
		return 'M'
	case '\'':
		return 'H'
	case '"':
		return 'W'
	case '.', ',':
		return 'N'
	case 0x00a0, 0x0f0c, 0x2007, 0x2011, 0x202f, 0xfeff:
		return 'G'
	case 0x0964, 0x0965:
		return 'X'
	case '!', '%', ':', ';', '?', 0x00a2, 0x00b0, 0x066a, 0x2103, 0x2105, 0x2109, 0x3001, 0x3002, 0x3005,
		0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308e, 0x30a1, 0x30a3, 0x30a5,
		0x30a7, 0x30a9, 0x30c3, 0x30e3, 0x30e5, 0x30e7, 0x30ee, 0x30f5, 0x30f6, 0xff01, 0xff05, 0xff0c, 0xff0e,
		0xff1a, 0xff1b, 0xff1f:
		return 'Q'
	}
	switch {
	case unicode.In(r, unicode.Cf, unicode.Cc):
		return 'I'
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 'E'
	case unicode.Is(unicode.Zs, r):
		return 'S'
	case unicode.Is(unicode.Pd, r):
		return 'D'
	case (r >= 0x2030 && r <= 0x2034) || (r >= 0x3099 && r <= 0x309e) || (r >= 0x30fc && r <= 0x30fe) || unicode.In(r, unicode.Pe, unicode.Pf):
		return 'Q'
	case unicode.In(r, unicode.Sc, unicode.Ps, unicode.Pi):
		return 'P'
	case (r >= 0x4e00 && r <= 0x9fa5) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfa2d) ||
		(r >= 0xfa30 && r <= 0xfa6a) || (r >= 0x3041 && r <= 0x3094) || (r >= 0x30a1 && r <= 0x30fa):
		return 'K'
	case unicode.In(r, unicode.Nd, unicode.No):
		return '9'
	}
	return 'A'
}

var lbRule = func() *regexp.Regexp {
	const (
		pre    = `[POMWH]`
		post   = `[QCNW]`
		number = `[POMWHD]*9+(?:N9+)*`
		core   = `(?:[A9]*|K|` + number + `)`
		suffix = `(?:D+|` + post + `*)`
		word   = `(?:` + pre + `*` + core + suffix + `)`
	)
	re := regexp.MustCompile(`^(?:` + word + `(?:(?:S*G+S?|[MH])` + word + `)*S*E*(?:OC` + post + `*)?E*R?B?|RB)`)
	re.Longest()
	return re
}()

// lineBreaks returns the rune offsets where pieces end (the last is
// len(rs)). Ignored characters stick to what precedes them.
func lineBreaks(rs []rune) []int {
	cls := make([]byte, 0, len(rs))
	idx := make([]int, 0, len(rs))
	for i, r := range rs {
		c := lbClass(r)
		if c == 'I' && len(cls) > 0 {
			continue
		}
		cls = append(cls, c)
		idx = append(idx, i)
	}
	var out []int
	for pos := 0; pos < len(cls); {
		n := len(lbRule.Find(cls[pos:]))
		if n == 0 {
			n = 1
		}
		pos += n
		if pos < len(cls) {
			out = append(out, idx[pos])
		} else {
			out = append(out, len(rs))
		}
	}
	return out
}

// javaFixed formats x as Java's Formatter does for %.Nf: the shortest
// decimal that identifies the double, rounded half-up to prec places (so
// 0.125 gives 0.13, where Go's fmt gives 0.12); NaN and Infinity as words.
func javaFixed(x float64, prec int) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	sign := ""
	if math.Signbit(x) {
		sign, x = "-", -x
	}
	// d.ddddde±XX: digits and the decimal exponent of the first digit.
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expStr)
	point := exp + 1 // digits before the decimal point
	// Work on a digit string with the point at a known place: pad so that
	// both the integer part and prec fraction digits (plus one to round)
	// exist.
	if point < 0 {
		digits = strings.Repeat("0", -point) + digits
		point = 0
	}
	for len(digits) < point+prec+1 {
		digits += "0"
	}
	keep := []byte(digits[:point+prec])
	if digits[point+prec] >= '5' {
		i := len(keep) - 1
		for ; i >= 0; i-- {
			if keep[i] < '9' {
				keep[i]++
				break
			}
			keep[i] = '0'
		}
		if i < 0 {
			keep = append([]byte{'1'}, keep...)
			point++
		}
	}
	intPart := strings.TrimLeft(string(keep[:point]), "0")
	if intPart == "" {
		intPart = "0"
	}
	if prec == 0 {
		return sign + intPart
	}
	return sign + intPart + "." + string(keep[point:])
}

// splitMix is java.util.SplittableRandom created with seed 0, as
// ProducerPerformance creates it, so the payloads are the real tool's
// bytes. (It is seed-independent in the real tool too, and deterministic.)
type splitMix struct{ seed uint64 }

const splitMixGamma = 0x9e3779b97f4a7c15

func (r *splitMix) next() uint64 {
	r.seed += splitMixGamma
	return r.seed
}

func mix32(z uint64) int32 {
	z = (z ^ (z >> 33)) * 0x62a9d9ed799705f5
	return int32(((z ^ (z >> 28)) * 0xcb24d0a5c88c35b3) >> 32)
}

// nextInt is SplittableRandom.nextInt(bound) for bound > 0.
func (r *splitMix) nextInt(bound int32) int32 {
	v := mix32(r.next())
	m := bound - 1
	if bound&m == 0 {
		return v & m
	}
	u := int32(uint32(v) >> 1)
	for {
		v = u % bound
		if u+m-v >= 0 { // Java's int overflow check: a wrapped sum rejects u
			return v
		}
		u = int32(uint32(mix32(r.next())) >> 1)
	}
}

// perfStats is ProducerPerformance.Stats: totals, a latency sample for the
// percentiles, and a window reported every 5 s.
type perfStats struct {
	start, windowStart int64 // ms
	latencies          []int32
	sampling           int64
	iteration          int64
	index              int
	count, bytes       int64
	maxLatency         int32
	totalLatency       int64
	windowCount        int64
	windowMaxLatency   int32
	windowTotalLatency int64
	windowBytes        int64
}

const perfReportIntervalMs = 5000

// record counts one acknowledged record and prints the window line once
// the window is at least 5 s old (only acknowledgements trigger it, so a
// stall prints nothing).
func (s *perfStats) record(t *toolRun, latency int32, bytes int, nowMs int64) {
	s.count++
	s.bytes += int64(bytes)
	s.totalLatency += int64(latency)
	s.maxLatency = max(s.maxLatency, latency)
	s.windowCount++
	s.windowBytes += int64(bytes)
	s.windowTotalLatency += int64(latency)
	s.windowMaxLatency = max(s.windowMaxLatency, latency)
	if s.iteration%s.sampling == 0 && s.index < len(s.latencies) {
		s.latencies[s.index] = latency
		s.index++
	}
	if nowMs-s.windowStart >= perfReportIntervalMs {
		elapsed := float64(nowMs - s.windowStart)
		t.println(fmt.Sprintf("%d records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency.",
			s.windowCount,
			javaFixed(1000.0*float64(s.windowCount)/elapsed, 1),
			javaFixed(1000.0*float64(s.windowBytes)/elapsed/(1024.0*1024.0), 2),
			javaFixed(float64(s.windowTotalLatency)/float64(s.windowCount), 1),
			javaFixed(float64(s.windowMaxLatency), 1)))
		s.windowStart = nowMs
		s.windowCount, s.windowMaxLatency, s.windowTotalLatency, s.windowBytes = 0, 0, 0, 0
	}
}

// total is printTotal's line, or the exception it throws when it has no
// latency sample to read (a negative --num-records).
func (s *perfStats) total(nowMs int64) (string, string) {
	elapsed := float64(nowMs - s.start)
	size := min(s.index, len(s.latencies))
	sorted := slices.Clone(s.latencies[:size])
	slices.Sort(sorted)
	var percs [4]int32
	for i, p := range []float64{0.5, 0.95, 0.99, 0.999} {
		k := int(p * float64(size))
		if k >= len(s.latencies) {
			return "", fmt.Sprintf("java.lang.ArrayIndexOutOfBoundsException: Index %d out of bounds for length %d", k, len(s.latencies))
		}
		if k < size {
			percs[i] = sorted[k]
		} // else: a slot never written, 0 as in Java's fresh array
	}
	return fmt.Sprintf("%d records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.",
		s.count,
		javaFixed(1000.0*float64(s.count)/elapsed, 6),
		javaFixed(1000.0*float64(s.bytes)/elapsed/(1024.0*1024.0), 2),
		javaFixed(float64(s.totalLatency)/float64(s.count), 2),
		javaFixed(float64(s.maxLatency), 2),
		percs[0], percs[1], percs[2], percs[3]), ""
}

// newPerfStats is the Stats constructor, with the exceptions it throws for
// zero (division by zero) and most negative record counts (a negative array
// size: Java truncates the long count to int before adding one).
func newPerfStats(numRecords, nowMs int64) (*perfStats, string) {
	if numRecords == 0 {
		return nil, "java.lang.ArithmeticException: / by zero"
	}
	sampling := numRecords / min(numRecords, 500000)
	n := int32(numRecords/sampling) + 1
	if n < 0 {
		return nil, fmt.Sprintf("java.lang.NegativeArraySizeException: %d", n)
	}
	return &perfStats{start: nowMs, windowStart: nowMs, sampling: sampling, latencies: make([]int32, n)}, ""
}

// javaPropSplit is String.split("="): trailing empty pieces are dropped.
func javaPropSplit(s string) []string {
	parts := strings.Split(s, "=")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// javaPath is how Paths.get(p) prints a path: repeated and trailing
// slashes removed.
func javaPath(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// perfWorkDir is the working directory a relative path is resolved
// against when the tool prints it. The terminal has none of its own; we
// use /opt/kafka, the installation the tools' example paths
// (/opt/kafka/bin/...) come from.
const perfWorkDir = "/opt/kafka"

// absPath is Paths.get(p).toAbsolutePath().
func absPath(p string) string {
	p = javaPath(p)
	switch {
	case strings.HasPrefix(p, "/"):
		return p
	case p == "":
		return perfWorkDir
	}
	return perfWorkDir + "/" + p
}

// readPayloads is readPayloadFile: the file's text split at the delimiter
// (a regular expression, as String.split takes it), trailing empty pieces
// dropped. ok is false when the tool ended.
func (t *toolRun) readPayloads(file, delimiter string) ([][]byte, bool) {
	t.println("Reading payloads from: " + absPath(file))
	text, ok := t.s.readWorkspace(file)
	if !ok || text == "" {
		t.mainException("java.lang.IllegalArgumentException: File does not exist or empty file provided.")
		return nil, false
	}
	// Java decodes the bytes as UTF-8, replacing what is not.
	pieces, err := javaRegexSplit(strings.ToValidUTF8(text, "\uFFFD"), delimiter)
	if err != nil {
		t.println(fmt.Sprintf("kafkascope: --payload-delimiter %q is not a regular expression the simulator can use: %v", delimiter, err))
		t.finish(1)
		return nil, false
	}
	t.println(fmt.Sprintf("Number of messages read: %d", len(pieces)))
	out := make([][]byte, len(pieces))
	for i, pc := range pieces {
		out[i] = []byte(pc)
	}
	return out, true
}

// javaRegexSplit is String.split(regex): pieces between matches, no empty
// first piece for an empty match at the start, trailing empty pieces
// dropped, the whole text when nothing matches. The expression is compiled
// by Go (RE2), which accepts most delimiters the way Java does.
func javaRegexSplit(s, expr string) ([]string, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	var out []string
	start := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[0] == 0 && m[1] == 0 {
			continue
		}
		out = append(out, s[start:m[0]])
		start = m[1]
	}
	if start == 0 && len(out) == 0 {
		return []string{s}, nil
	}
	out = append(out, s[start:])
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out, nil
}

// javaLoadProperties is Properties.load from a file: ISO-8859-1 text,
// '#' and '!' comments, "key=value", "key: value" or "key value",
// backslash escapes and line continuations. It returns the exception a
// malformed \u escape raises.
func javaLoadProperties(text string) (map[string]string, string) {
	// The file's bytes are read as ISO-8859-1: one character per byte.
	latin := make([]rune, len(text))
	for i := 0; i < len(text); i++ {
		latin[i] = rune(text[i])
	}
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\f' }
	var lines [][]rune
	var cur []rune
	continuing := false
	natural := lineEndRe.Split(string(latin), -1)
	for _, nl := range natural {
		l := []rune(nl)
		i := 0
		for i < len(l) && isSpace(l[i]) {
			i++
		}
		l = l[i:]
		if !continuing && (len(l) == 0 || l[0] == '#' || l[0] == '!') {
			continue
		}
		slashes := 0
		for j := len(l) - 1; j >= 0 && l[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 1 {
			cur = append(cur, l[:len(l)-1]...)
			// A continuation of nothing yet starts afresh: the next
			// line may still be blank or a comment.
			continuing = len(cur) > 0
			continue
		}
		cur = append(cur, l...)
		lines = append(lines, cur)
		cur, continuing = nil, false
	}
	if continuing {
		lines = append(lines, cur)
	}
	props := map[string]string{}
	for _, l := range lines {
		keyEnd, valStart := len(l), len(l)
		for i := 0; i < len(l); i++ {
			if l[i] == '\\' {
				i++
				continue
			}
			if l[i] == '=' || l[i] == ':' || isSpace(l[i]) {
				keyEnd = i
				j := i
				for j < len(l) && isSpace(l[j]) {
					j++
				}
				if j < len(l) && (l[j] == '=' || l[j] == ':') && (isSpace(l[i]) || j == i) {
					j++
					for j < len(l) && isSpace(l[j]) {
						j++
					}
				}
				valStart = j
				break
			}
		}
		k, err := javaUnescape(l[:keyEnd])
		if err != "" {
			return nil, err
		}
		v, err := javaUnescape(l[min(valStart, len(l)):])
		if err != "" {
			return nil, err
		}
		props[k] = v
	}
	return props, ""
}

var lineEndRe = regexp.MustCompile(`\r\n|\r|\n`)

// javaUnescape is Properties.loadConvert: \t \n \r \f, \uXXXX, and a
// backslash before any other character keeps that character.
func javaUnescape(rs []rune) (string, string) {
	var b strings.Builder
	for i := 0; i < len(rs); i++ {
		if rs[i] != '\\' || i+1 >= len(rs) {
			b.WriteRune(rs[i])
			continue
		}
		i++
		switch rs[i] {
		case 't':
			b.WriteRune('\t')
		case 'n':
			b.WriteRune('\n')
		case 'r':
			b.WriteRune('\r')
		case 'f':
			b.WriteRune('\f')
		case 'u':
			if i+4 >= len(rs) {
				return "", "java.lang.IllegalArgumentException: Malformed \\uxxxx encoding."
			}
			n, err := strconv.ParseUint(string(rs[i+1:i+5]), 16, 16)
			if err != nil {
				return "", "java.lang.IllegalArgumentException: Malformed \\uxxxx encoding."
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			b.WriteRune(rs[i])
		}
	}
	return b.String(), ""
}

// mainException prints an exception that ends main(), as the JVM reports
// it (without stack frames, as the simulator prints every exception).
func (t *toolRun) mainException(exc string) {
	t.println(`Exception in thread "main" ` + exc)
	t.finish(1)
}

// perfArgs parses the command line as ProducerPerformance does. When the
// tool ends there (help, or an argument error) v is nil and lines and code
// are what it prints and its exit status.
func perfArgs(p *apParser, args []string) (v *apValues, lines []string, code int) {
	v, perr := p.parse(args)
	switch {
	case len(args) == 0:
		// With no arguments the tool prints the help screen and exits 0.
		return nil, p.helpLines(), 0
	case perr != nil && perr.help:
		// -h prints the help screen; the error handler then prints
		// nothing more, but the tool still exits 1.
		return nil, p.helpLines(), 1
	case perr != nil:
		return nil, p.errorLines(perr), 1
	case !v.given(p.arg("--producer-props")) && !v.given(p.arg("--producer.config")):
		return nil, p.errorLines(&apError{msg: "Either --producer-props or --producer.config must be specified."}), 1
	}
	return v, nil, 0
}

// arg finds an argument by its last flag.
func (p *apParser) arg(flag string) *apArg {
	for _, a := range p.args {
		if a.flags[len(a.flags)-1] == flag {
			return a
		}
	}
	panic("perf-test: no argument " + flag)
}

// perfTestTool is kafka-producer-perf-test.sh (ProducerPerformance).
func perfTestTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	p := perfParser()
	v, lines, code := perfArgs(p, args)
	if v == nil {
		t.printLines(lines)
		t.finish(code)
		return nil
	}
	arg := p.arg
	propsList := v.list[arg("--producer-props")]
	configFile, hasConfig := v.str[arg("--producer.config")], v.given(arg("--producer.config"))
	// Files come from the terminal's workspace ("cat > FILE").
	var payloads [][]byte
	if v.given(arg("--payload-file")) {
		delimiter := v.str[arg("--payload-delimiter")]
		if !v.given(arg("--payload-delimiter")) || delimiter == `\n` {
			delimiter = "\n" // the default is shown as \n in the help and means a line break
		}
		var ok bool
		if payloads, ok = t.readPayloads(v.str[arg("--payload-file")], delimiter); !ok {
			return nil
		}
	}
	props := map[string]string{}
	if hasConfig {
		text, ok := t.s.readWorkspace(configFile)
		if !ok {
			t.mainException("java.nio.file.NoSuchFileException: " + javaPath(configFile))
			return nil
		}
		fileProps, err := javaLoadProperties(text)
		if err != "" {
			t.mainException(err)
			return nil
		}
		for k, val := range fileProps {
			props[k] = val
		}
	}
	for _, prop := range propsList {
		kv := javaPropSplit(prop)
		if len(kv) != 2 {
			t.mainException("java.lang.IllegalArgumentException: Invalid property: " + prop)
			return nil
		}
		props[kv[0]] = kv[1]
	}
	props["key.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
	props["value.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
	transactions := v.nums[arg("--transaction-duration-ms")] > 0
	if transactions {
		props["transactional.id"] = v.str[arg("--transactional-id")]
	}
	if _, ok := props["client.id"]; !ok {
		props["client.id"] = "perf-producer-client"
	}
	cfg := client.DefaultProducerConfig()
	warnings, cerr := producerConfig(&cfg, props)
	if cerr == nil {
		cerr = perfLimitsConfig(props)
	}
	if cerr != nil {
		t.mainException("org.apache.kafka.common.config.ConfigException: " + cerr.Error())
		return nil
	}
	bufferMemory, maxRequestSize := int64(32*1024*1024), int64(1024*1024)
	_ = longProp(props, "buffer.memory", 0, func(n int64) { bufferMemory = n })
	_ = intProp(props, "max.request.size", 0, func(n int64) { maxRequestSize = n })
	bootstrap, berr := t.s.resolveBootstrap(props["bootstrap.servers"])
	if berr != nil {
		t.bootstrapFailed(berr, `Exception in thread "main" org.apache.kafka.common.KafkaException: Failed to construct kafka producer`,
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	for _, w := range javaOrderWarnings(warnings) {
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelWarn, w, "org.apache.kafka.clients.producer.ProducerConfig"))
	}
	if _, ok := props["transactional.id"]; ok {
		t.println("kafkascope: transactions are not simulated yet: run without --transaction-duration-ms and without transactional.id")
		t.finish(1)
		return nil
	}
	recordSize := int(v.nums[arg("--record-size")])
	if recordSize < 0 {
		t.mainException(fmt.Sprintf("java.lang.NegativeArraySizeException: %d", recordSize))
		return nil
	}
	numRecords := v.nums[arg("--num-records")]
	if _, exc := newPerfStats(numRecords, 0); exc != "" {
		t.mainException(exc)
		return nil
	}
	largest := recordSize
	for _, pl := range payloads {
		largest = max(largest, len(pl))
	}
	if numRecords > perfMaxRecords || numRecords*int64(largest) > perfMaxBytes {
		t.println(fmt.Sprintf("kafkascope: a perf test may send at most %d records and %d MiB of payload in all (this one: %d records of up to %d bytes)",
			perfMaxRecords, perfMaxBytes>>20, numRecords, largest))
		t.finish(1)
		return nil
	}
	run := &perfRun{
		t: t, topic: v.str[arg("--topic")], numRecords: numRecords, recordSize: recordSize, payloads: payloads,
		throughput: v.nums[arg("--throughput")], printMetrics: v.given(arg("--print-metrics")),
		bufferMemory: bufferMemory, maxRequestSize: maxRequestSize, batchSize: int64(cfg.BatchSize), maxBlock: cfg.MaxBlock,
	}
	return func(host string) sim.Process {
		run.prod = client.NewProducer(sim.Addr(host+":50000"), bootstrap, cfg, t.s.world().Rand("perf-test/"+host), t.logger())
		// ProducerPerformance has no shutdown hook: SIGTERM just ends it,
		// printing nothing.
		return &client.Process{Handlers: []client.Handler{run.prod}, OnStart: run.begin}
	}
}

// perfLimitsConfig checks the two producer configs the tool itself needs
// and producerConfig does not read.
func perfLimitsConfig(props map[string]string) error {
	if err := longProp(props, "buffer.memory", 0, func(int64) {}); err != nil {
		return err
	}
	return intProp(props, "max.request.size", 0, func(int64) {})
}

var unknownConfigRe = regexp.MustCompile(`^The configuration '(.*)' was supplied but isn't a known config\.$`)

// javaOrderWarnings puts the "isn't a known config" warnings in the order
// Kafka logs them: the iteration order of a Java HashSet of their names
// (producerConfig returns them in Go map order).
func javaOrderWarnings(ws []string) []string {
	var out, unknown []string
	for _, w := range ws {
		if unknownConfigRe.MatchString(w) {
			unknown = append(unknown, w)
		} else {
			out = append(out, w)
		}
	}
	sort.Strings(unknown) // a fixed insertion order for equal buckets
	hashes := make([]int32, len(unknown))
	for i, w := range unknown {
		hashes[i] = hashing.JavaStringHashCode(unknownConfigRe.FindStringSubmatch(w)[1])
	}
	for _, i := range hashing.JavaHashOrder(hashes) {
		out = append(out, unknown[i])
	}
	return out
}

// perfRun is the send loop and its callbacks.
//
// Pacing: Kafka's ThroughputThrottler sleeps so that on average one record
// goes out every 1/throughput s, measuring how long the sends themselves
// took. A send costs no virtual time here, so record i is simply sent at
// start + i/throughput s (all at once with a negative throughput). With a
// throughput of 0 the real loop sends two records and then waits forever.
//
// Blocking: KafkaProducer.send first blocks until the topic's metadata is
// known (up to max.block.ms, failing that one record). The tool cannot see
// the producer's metadata, so until one send has been answered it sends one
// record at a time: the second record goes out when the first is
// acknowledged rather than when the metadata arrived, one round trip later
// than in Java (which matters only above a few hundred records/s), and a
// topic that never appears fails one record per max.block.ms as in Java.
// Then KafkaProducer.send blocks while the accumulator's buffer.memory
// is used up, for at most max.block.ms. The simulator's producer does not
// model that pool, so the loop holds back while the unacknowledged records'
// estimated batch bytes would pass buffer.memory (the real pool counts whole
// batch.size buffers, so it fills somewhat earlier).
type perfRun struct {
	t              *toolRun
	prod           *client.Producer
	topic          string
	numRecords     int64
	recordSize     int
	throughput     int64
	printMetrics   bool
	bufferMemory   int64
	maxRequestSize int64
	batchSize      int64
	maxBlock       time.Duration

	payloads      [][]byte // from --payload-file; nil with --record-size
	current       []byte   // the payload drawn for record next, not sent yet
	rng           splitMix
	metadataKnown bool // a send has passed the metadata wait
	stats         *perfStats
	start         sim.Time
	next          int64
	outstanding   int64 // estimated bytes of sent, unacknowledged records
	blockedAt     sim.Time
	blocked       bool
	timer         *sim.Timer
	closing       bool
}

func (r *perfRun) begin(env *sim.Env) {
	r.start = env.Now()
	r.stats, _ = newPerfStats(r.numRecords, env.Now().UnixMilli())
	r.pump(env)
}

// due is when record i is sent; ok is false when it never is (throughput 0
// after the first two).
func (r *perfRun) due(i int64) (sim.Time, bool) {
	switch {
	case r.throughput < 0:
		return r.start, true
	case r.throughput == 0:
		return r.start, i < 2
	}
	return r.start.Add(time.Duration(i * int64(time.Second) / r.throughput)), true
}

// estimate is AbstractRecords.estimateSizeInBytesUpperBound for a record
// with no key and no headers: batch header 61, record overhead 21, the null
// key's length 1, the value's varint length and bytes, the header count 1.
func estimate(valueLen int) int64 {
	n := int64(valueLen)
	return 61 + 21 + 1 + int64(varintSize(n)) + n + 1
}

func varintSize(n int64) int {
	z := uint64(n<<1) ^ uint64(n>>63)
	size := 1
	for z >= 0x80 {
		z >>= 7
		size++
	}
	return size
}

// pump sends every record that is due and fits in the buffer, then waits
// for the next one's time, for memory, or closes the producer.
func (r *perfRun) pump(env *sim.Env) {
	if r.closing {
		return
	}
	for r.next < r.numRecords {
		at, ok := r.due(r.next)
		if !ok {
			return // throughput 0: blocked for good
		}
		if at > env.Now() {
			r.wakeAt(env, at)
			return
		}
		if r.current == nil {
			if r.payloads != nil && len(r.payloads) == 0 {
				// The payload file split into nothing, and there is
				// no --record-size to fall back on.
				r.closing = true
				r.t.mainException("java.lang.IllegalArgumentException: no payload File Path or record Size provided")
				return
			}
			r.current = r.payload()
		}
		if !r.metadataKnown && r.outstanding > 0 {
			return // send blocks until the topic's metadata is known
		}
		size := estimate(len(r.current))
		if r.outstanding > 0 && r.outstanding+size > r.bufferMemory && size <= r.bufferMemory && size <= r.maxRequestSize {
			if !r.blocked {
				r.blocked, r.blockedAt = true, env.Now()
			}
			if env.Now() < r.blockedAt.Add(r.maxBlock) {
				r.wakeAt(env, r.blockedAt.Add(r.maxBlock))
				return // an acknowledgement frees memory and pumps again
			}
			// max.block.ms passed: this send fails through its callback
			// and the loop goes on with the next record.
			r.blocked = false
			r.next++
			r.current = nil
			r.t.println(client.Exception("org.apache.kafka.clients.producer.BufferExhaustedException",
				fmt.Sprintf("Failed to allocate %d bytes within the configured max blocking time %d ms. Total memory: %d bytes. Available memory: %d bytes. Poolable size: %d bytes",
					max(size, r.batchSize), r.maxBlock.Milliseconds(), r.bufferMemory, max(r.bufferMemory-r.outstanding, 0), r.batchSize)))
			continue
		}
		r.blocked = false
		value := r.current
		r.current = nil
		r.sendOne(env, value, size)
		if r.closing {
			return
		}
	}
	r.timer.Stop()
	r.closing = true
	r.prod.Close(env, func(env *sim.Env) {
		line, exc := r.stats.total(env.Now().UnixMilli())
		if exc != "" {
			r.t.mainException(exc)
			return
		}
		r.t.println(line)
		if r.printMetrics {
			r.t.println("kafkascope: --print-metrics: the simulator keeps no client metrics, so there is no metrics table to print")
		}
		r.t.finish(0)
	})
}

func (r *perfRun) wakeAt(env *sim.Env, at sim.Time) {
	if r.timer.Pending() && r.timer.At() == at {
		return
	}
	r.timer.Stop()
	r.timer = env.After(at.Sub(env.Now()), "perf-test-send", r.pump)
}

// payload draws the next record's bytes: one of the file's payloads, or
// recordSize letters A-Z.
func (r *perfRun) payload() []byte {
	if r.payloads != nil {
		return r.payloads[r.rng.nextInt(int32(len(r.payloads)))]
	}
	b := make([]byte, r.recordSize)
	for i := range b {
		b[i] = byte(r.rng.nextInt(26) + 65)
	}
	return b
}

// sendOne sends the next record. Its callback measures the latency from
// this moment, in whole milliseconds as System.currentTimeMillis gives.
func (r *perfRun) sendOne(env *sim.Env, value []byte, size int64) {
	r.next++
	sendMs := env.Now().UnixMilli()
	if size > r.maxRequestSize || size > r.bufferMemory {
		// ensureValidRecordSize fails the send at once, through the
		// callback.
		msg := fmt.Sprintf("The message is %d bytes when serialized which is larger than %d, which is the value of the max.request.size configuration.", size, r.maxRequestSize)
		if size <= r.maxRequestSize {
			msg = fmt.Sprintf("The message is %d bytes when serialized which is larger than the total memory buffer you have configured with the buffer.memory configuration.", size)
		}
		r.t.println(client.Exception("org.apache.kafka.common.errors.RecordTooLargeException", msg))
		return
	}
	if alloc := max(r.batchSize, size); alloc > r.bufferMemory {
		// The accumulator asks the buffer pool for a whole batch, more
		// than it can ever hold: that exception is not an API exception,
		// so send throws it and main() dies.
		r.closing = true
		r.timer.Stop()
		r.t.mainException(fmt.Sprintf("java.lang.IllegalArgumentException: Attempt to allocate %d bytes, but there is a hard limit of %d on memory allocations.", alloc, r.bufferMemory))
		return
	}
	r.outstanding += size
	r.prod.Send(env, client.ProducerRecord{Topic: r.topic, Partition: -1, Value: value}, func(env *sim.Env, _ client.RecordMetadata, err *client.Error) {
		r.outstanding -= size
		nowMs := env.Now().UnixMilli()
		if err == nil || !strings.HasSuffix(err.Message, "not present in metadata after "+strconv.FormatInt(r.maxBlock.Milliseconds(), 10)+" ms.") {
			r.metadataKnown = true // the record reached a batch
		}
		if err != nil {
			r.t.printLines(err.Lines())
		} else {
			r.stats.record(r.t, int32(nowMs-sendMs), len(value), nowMs)
			r.stats.iteration++
		}
		if r.blocked || r.outstanding == 0 {
			r.pump(env)
		}
	})
}
