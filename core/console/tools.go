package console

import (
	"fmt"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// toolFunc checks a tool's arguments (printing what the real tool prints
// when they are wrong) and returns the program to run, or nil if the tool
// already ended.
type toolFunc func(t *toolRun, args, stdin []string) func(host string) sim.Process

var tools map[string]toolFunc

func init() {
	tools = map[string]toolFunc{
		"kafka-topics":              topicsTool,
		"kafka-console-producer":    producerTool,
		"kafka-console-consumer":    consumerTool,
		"kafka-get-offsets":         getOffsetsTool,
		"kafka-leader-election":     electionTool,
		"kafka-configs":             configsTool,
		"kafka-producer-perf-test":  perfTestTool,
		"kafka-consumer-perf-test":  consumerPerfTool,
		"kafka-verifiable-producer": verifiableProducerTool,
		"kafka-reassign-partitions": reassignTool,
		"kafka-dump-log":            dumpLogTool,
		"kafka-metadata-quorum":     quorumTool,
		"kafka-features":            featuresTool,
		"kafka-consumer-groups":     consumerGroupsTool,
		"kafka-verifiable-consumer": verifiableConsumerTool,
		"kafka-groups":              groupsTool,
		"kafka-transactions":        transactionsTool,
		"kafka-run-class":           runClassTool,
		"zookeeper-shell":           zkShellTool,
	}
}

// toolSince is the first release that ships a tool's script, for tools
// newer than the oldest release kafkascope runs; on an older cluster the
// shell does not find it.
var toolSince = map[string]release.Version{
	"kafka-groups":          {Major: 4, Minor: 0}, // GroupsCommand, KIP-1043
	"kafka-metadata-quorum": {Major: 3, Minor: 3}, // bin/ at tag 3.3.0, KIP-836
	"kafka-get-offsets":     {Major: 3, Minor: 0}, // bin/ at tag 3.0.0, KIP-635
	"kafka-transactions":    {Major: 3, Minor: 0}, // bin/ at tag 3.0.0, KIP-664
}

// toolInRelease reports whether the session's release (the default one
// before any cluster exists) ships tool.
func (s *Session) toolInRelease(tool string) bool {
	since, ok := toolSince[tool]
	if !ok {
		return true
	}
	rel := release.Default
	if s.cluster != nil {
		rel = s.cluster.Release().Version
	}
	return rel.AtLeast(since.Major, since.Minor)
}

// kafkaVersion is the version the tools report (--version): the cluster's
// release, or the default one's before there is a cluster.
// rel is the Kafka release the tool is: the cluster's (the default
// release before any cluster exists). A tool's output follows it.
func (t *toolRun) rel() release.Version {
	if t.s.cluster != nil {
		return t.s.cluster.Release().Version
	}
	return release.Default
}

func (t *toolRun) kafkaVersion() string {
	if t.s.cluster != nil {
		return t.s.cluster.Release().Tag
	}
	r, _ := release.Lookup(release.Default)
	return r.Tag
}

// logger returns what the tool's clients log through: each line is printed
// on the terminal, among the tool's output, in the tools' log4j layout
// ("[time] LEVEL message (logger)", client.FormatLogLine) at the
// simulation's current time.
func (t *toolRun) logger() func(level client.Level, msg, logger string) {
	return func(level client.Level, msg, logger string) {
		t.println(client.FormatLogLine(t.s.world().Now(), level, msg, logger))
	}
}

// logException prints an ERROR/WARN line followed by an exception's lines.
func (t *toolRun) logException(level client.Level, msg, logger string, exc []string) {
	t.println(client.FormatLogLine(t.s.world().Now(), level, msg, logger))
	t.printLines(exc)
}

// usage prints a message and the help table, as CommandLineUtils
// .printUsageAndExit does, and ends the tool with status 1.
func (t *toolRun) usage(msg string, specs []*javacli.OptionSpec) {
	for _, l := range strings.Split(msg, "\n") {
		t.println(l)
	}
	t.printLines(javacli.HelpTable(specs))
	t.finish(1)
}

// commonSpecs are the two options every Kafka tool has.
func commonSpecs() []*javacli.OptionSpec {
	return []*javacli.OptionSpec{
		{Name: "help", Desc: "Print usage information."},
		{Name: "version", Desc: "Display Kafka version."},
	}
}

// withCommon is commonSpecs followed by pointers to a tool's specs. A
// tool's list is a package-level slice of OptionSpec values, which is
// static data: as &javacli.OptionSpec{...} literals, the nine lists were
// 35 KB of code that built every spec on each call (as data, main.wasm is
// 16 KB smaller raw, 2.8 KB in brotli). No spec is modified after it is
// made, so every call shares them.
func withCommon(list []javacli.OptionSpec) []*javacli.OptionSpec {
	out := commonSpecs()
	for i := range list {
		out = append(out, &list[i])
	}
	return out
}

// helpOrVersion handles --help and --version; it reports whether the tool
// ended.
func (t *toolRun) helpOrVersion(p *javacli.OptionSet, args []string, helpMsg string, specs []*javacli.OptionSpec) bool {
	if len(args) == 0 || p.Has("help") {
		t.usage(helpMsg, specs)
		return true
	}
	if p.Has("version") {
		t.println(t.kafkaVersion())
		t.finish(0)
		return true
	}
	return false
}

// renamedTogether ends the tool with its usage when an option KIP-1147
// renamed (Kafka 4.2) is given under both names, checking pairs in the
// tool's order; it reports whether the tool ended.
func (t *toolRun) renamedTogether(p *javacli.OptionSet, specs []*javacli.OptionSpec, pairs [][2]string) bool {
	for _, pair := range pairs {
		if p.Has(pair[0]) && p.Has(pair[1]) {
			t.usage(fmt.Sprintf("Options --%s and --%s cannot be specified together.", pair[0], pair[1]), specs)
			return true
		}
	}
	return false
}

// renamedOption prints the deprecation line of an old option name
// KIP-1147 replaced, if it was used ("Option" or "Warning:" first, as the
// tool words it), and reports whether it was.
func (t *toolRun) renamedOption(p *javacli.OptionSet, lead, old, replacement string) bool {
	if !p.Has(old) {
		return false
	}
	t.println(fmt.Sprintf("%s --%s is deprecated and will be removed in a future version. Use --%s instead.", lead, old, replacement))
	return true
}
