package console

import "strings"

// The argument parser of ZooKeeper 3.5.9's CLI commands: each command
// parses its words with commons-cli's PosixParser (cli/*Command.java,
// release-3.5.9). Kafka 2.8 ships commons-cli 1.4 (gradle/dependencies.gradle
// and core's compile libs.commonsCli in build.gradle, tag 2.8.0), which
// wins over ZooKeeper's 1.2, so this follows 1.4's PosixParser.flatten,
// burstToken and Parser.parse, processOption and processArgs. No command
// has long options or stops at a non-option, which leaves these rules.

// cliOptions are a command's Options: a letter and whether it takes a
// value (Option.hasArg).
type cliOptions map[string]bool

// has is Options.hasOption: the token without its leading hyphens ("--"
// or "-", Util.stripLeadingHyphens) is a known letter.
func (o cliOptions) has(token string) bool {
	_, ok := o[stripLeadingHyphens(token)]
	return ok
}

func stripLeadingHyphens(s string) string {
	if strings.HasPrefix(s, "--") {
		return s[2:]
	}
	return strings.TrimPrefix(s, "-")
}

// cliLine is a CommandLine: the options seen with their first value, and
// the other words (getArgs), the command's name first.
type cliLine struct {
	opts map[string]string
	args []string
}

func (l *cliLine) hasOption(letter string) bool {
	_, ok := l.opts[letter]
	return ok
}

// flatten is PosixParser.flatten with stopAtNonOption false: a word of a
// known option or of two characters stays whole, any other word starting
// with "-" is burst into its letters (burstToken), up to a letter that is
// not an option (the word then stays whole) or one that takes a value (the
// rest of the word is its value).
func (o cliOptions) flatten(words []string) []string {
	var tokens []string
	for _, w := range words {
		switch {
		case w == "-" || w == "--":
			tokens = append(tokens, w)
		case strings.HasPrefix(w, "--"):
			// getMatchingOptions finds no long option: a non-option token.
			tokens = append(tokens, w)
		case strings.HasPrefix(w, "-"):
			if len(w) == 2 || o.has(w) {
				tokens = append(tokens, w)
				continue
			}
			for i := 1; i < len(w); i++ {
				ch := w[i : i+1]
				hasArg, ok := o[ch]
				if !ok {
					tokens = append(tokens, w)
					break
				}
				tokens = append(tokens, "-"+ch)
				if hasArg && i+1 != len(w) {
					tokens = append(tokens, w[i+1:])
					break
				}
			}
		default:
			tokens = append(tokens, w)
		}
	}
	return tokens
}

// parse is Parser.parse: "--" makes every later word an argument, an
// unknown option fails with UnrecognizedOptionException, an option with a
// value takes the next token unless it is an option (processArgs; a
// value's surrounding double quotes are stripped,
// Util.stripLeadingAndTrailingQuotes), or fails with
// MissingArgumentException. The error is the exception's toString, as
// CliParseException (new CliException(cause)) reports it.
func (o cliOptions) parse(words []string) (*cliLine, string) {
	tokens := o.flatten(words)
	l := &cliLine{opts: map[string]string{}}
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		switch {
		case t == "--":
			for _, r := range tokens[i+1:] {
				if r != "--" {
					l.args = append(l.args, r)
				}
			}
			return l, ""
		case t == "-":
			l.args = append(l.args, t)
		case strings.HasPrefix(t, "-"):
			if !o.has(t) {
				return nil, "org.apache.commons.cli.UnrecognizedOptionException: Unrecognized option: " + t
			}
			letter := stripLeadingHyphens(t)
			value := ""
			if o[letter] {
				if i+1 >= len(tokens) || (o.has(tokens[i+1]) && strings.HasPrefix(tokens[i+1], "-")) {
					return nil, "org.apache.commons.cli.MissingArgumentException: Missing argument for option: " + letter
				}
				i++
				value = stripQuotes(tokens[i])
			}
			// CommandLine.getOptionValue answers with the first value.
			if _, seen := l.opts[letter]; !seen {
				l.opts[letter] = value
			}
		default:
			l.args = append(l.args, t)
		}
	}
	return l, ""
}

// stripQuotes is Util.stripLeadingAndTrailingQuotes (commons-cli 1.4).
func stripQuotes(s string) string {
	if n := len(s); n > 1 && s[0] == '"' && s[n-1] == '"' && !strings.Contains(s[1:n-1], `"`) {
		return s[1 : n-1]
	}
	return s
}
