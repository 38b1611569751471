package console

import (
	"sort"
	"strings"

	"kafkascope/core/javacli"
	"kafkascope/core/release"
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
	"cluster":   {"create"},
	"broker":    {"kill", "start", "stop"},
	"zookeeper": {"kill", "start"},
	"network":   {"corrupt", "cut", "delay", "heal"},
	"time":      {"advance"},
}

// toolSpecs returns a tool's options in release rel (for completion).
func toolSpecs(tool string, rel release.Version) []*javacli.OptionSpec {
	switch tool {
	case "kafka-topics":
		return topicsSpecs(rel)
	case "kafka-console-producer":
		return producerSpecsFor(rel)
	case "kafka-console-consumer":
		return consumerSpecsFor(rel)
	case "kafka-get-offsets":
		return getOffsetsSpecsFor(rel)
	case "kafka-leader-election":
		return electionSpecsFor(rel)
	case "kafka-consumer-groups":
		return consumerGroupsSpecsFor(rel)
	case "kafka-groups":
		return withCommon(groupsSpecList)
	case "kafka-configs":
		return configsSpecs(rel)
	case "kafka-reassign-partitions":
		return reassignSpecsFor(rel)
	case "kafka-consumer-perf-test":
		return consumerPerfSpecsFor(rel)
	case "cluster":
		return clusterCreateSpecs
	}
	return nil
}

// Complete returns the completions of the last word of line in the
// default release (see CompleteFor).
func Complete(line string) []string { return CompleteFor(line, release.Default) }

// CompleteFor returns the completions of the last word of line: a command
// name, a subcommand, or a --flag of the tool being typed as release rel
// has it (the release the terminal's cluster runs), sorted.
func CompleteFor(line string, rel release.Version) []string {
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
	case len(words) == 2 && words[0] == "help":
		cands = helpTopics()
	case argparseTools[toolName(words[0])] != nil:
		cands = argparseCompletions(argparseTools[toolName(words[0])](rel), words[1:len(words)-1], last)
	case strings.HasPrefix(last, "-") || last == "":
		specs := toolSpecs(toolName(words[0]), rel)
		if len(words) >= 3 && takesValue(specs, words[len(words)-2]) && !strings.HasPrefix(last, "-") {
			break // the word is the previous option's value: no flag fits there
		}
		for _, s := range specs {
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

// takesValue: word is one of specs' options that requires an argument.
func takesValue(specs []*javacli.OptionSpec, word string) bool {
	for _, s := range specs {
		if "--"+s.Name == word {
			return s.Arg == javacli.RequiredArg
		}
	}
	return false
}

// argparseTools are the tools parsed with argparse4j, by release.
var argparseTools = map[string]func(release.Version) *javacli.Parser{
	"kafka-metadata-quorum":    quorumParserFor,
	"kafka-features":           featuresParserFor,
	"kafka-producer-perf-test": perfParserFor,
	"kafka-transactions":       func(release.Version) *javacli.Parser { return transactionsParser() },
}

// argparseCompletions completes an argparse4j tool: before a sub-command
// the top-level flags and the sub-commands, after one the sub-command's
// flags.
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
