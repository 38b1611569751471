package console

import (
	"sort"
	"strings"

	"kafkascope/core/javacli"
)

// commandNames are the first words the terminal completes.
func commandNames() []string {
	var out []string
	for name := range simCommands {
		out = append(out, name)
	}
	for name := range tools {
		out = append(out, name+".sh")
	}
	out = append(out, "clear")
	sort.Strings(out)
	return out
}

// subcommands completes the second word of simulator commands.
var subcommands = map[string][]string{
	"cluster": {"create"},
	"broker":  {"kill", "start", "stop"},
	"network": {"corrupt", "cut", "delay", "heal"},
	"time":    {"advance"},
}

// toolSpecs returns a tool's options (for completion).
func toolSpecs(tool string) []*javacli.OptionSpec {
	switch tool {
	case "kafka-topics":
		return topicsSpecs()
	case "kafka-console-producer":
		return producerSpecs()
	case "kafka-console-consumer":
		return consumerSpecs()
	case "kafka-get-offsets":
		return getOffsetsSpecs()
	case "kafka-leader-election":
		return electionSpecs()
	case "kafka-consumer-groups":
		return consumerGroupsSpecs()
	case "cluster":
		return clusterCreateSpecs
	}
	return nil
}

// Complete returns the completions of the last word of line: a command name,
// a subcommand, or a --flag of the tool being typed, sorted.
func Complete(line string) []string {
	words := strings.Fields(line)
	if strings.HasSuffix(line, " ") || len(words) == 0 {
		words = append(words, "")
	}
	last := words[len(words)-1]
	var cands []string
	switch {
	case len(words) == 1:
		cands = commandNames()
	case len(words) == 2 && subcommands[words[0]] != nil && !strings.HasPrefix(last, "-"):
		cands = subcommands[words[0]]
	case argparseTools[toolName(words[0])] != nil:
		cands = argparseCompletions(argparseTools[toolName(words[0])](), words[1:len(words)-1], last)
	case strings.HasPrefix(last, "-") || last == "":
		for _, s := range toolSpecs(toolName(words[0])) {
			cands = append(cands, "--"+s.Name)
		}
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, last) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// argparseTools are the tools parsed with argparse4j, with sub-commands.
var argparseTools = map[string]func() *javacli.Parser{
	"kafka-metadata-quorum": quorumParser,
	"kafka-features":        featuresParser,
}

// argparseCompletions completes an argparse4j tool with sub-commands:
// before one the top-level flags and the sub-commands, after it the
// sub-command's flags.
func argparseCompletions(p *javacli.Parser, before []string, last string) []string {
	top := true
	for _, w := range before {
		if sub := p.Command(w); sub != nil {
			p, top = sub, false
			break
		}
	}
	commands := p.CommandNames()
	var out []string
	for _, a := range p.Args {
		if f := a.Flags[len(a.Flags)-1]; strings.HasPrefix(f, "--") {
			out = append(out, f)
		}
	}
	if top && !strings.HasPrefix(last, "-") {
		out = append(out, commands...)
	}
	return out
}
