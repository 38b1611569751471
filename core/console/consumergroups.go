package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-consumer-groups.sh: Kafka's ConsumerGroupCommand and
// ConsumerGroupCommandOptions as 3.8, 4.1 and 4.3 print them (the tool
// follows the cluster's release, t.rel()). Parse errors escape main (an
// uncaught joptsimple exception, exit 1); checkArgs' errors print the usage
// (exit 1); errors while running print "Error: ..." on a line of their own
// after an empty one and exit 0, as the real tool does.

const consumerGroupCommandLogger = "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"

const consumerGroupsHelp = "This tool helps to list all consumer groups, describe a consumer group, delete consumer group info, or reset consumer group offsets."

func consumerGroupsSpecs() []*javacli.OptionSpec { return withCommon(consumerGroupsSpecList) }

// consumerGroupsSpecsFor is the option table of a release: --timeout
// defaults to 30000 ms from Kafka 4.1 (ConsumerGroupCommandOptions.java,
// 5000 in 3.8 and 4.0).
func consumerGroupsSpecsFor(rel release.Version) []*javacli.OptionSpec {
	if !rel.AtLeast(4, 1) {
		return consumerGroupsSpecs()
	}
	list := slices.Clone(consumerGroupsSpecList)
	for i := range list {
		if list[i].Name == "timeout" {
			list[i].Default = "30000"
		}
	}
	return withCommon(list)
}

var consumerGroupsSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The broker(s) to connect to (optional in kafkascope: every broker)."},
	{Name: "group", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "consumer group", Desc: "A consumer group to act on (repeatable)."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "A topic for --reset-offsets or --delete-offsets; topic:0,1 names partitions (repeatable)."},
	{Name: "all-topics", Desc: "With --reset-offsets: every topic the group has committed offsets for."},
	{Name: "list", Desc: "List the consumer groups."},
	{Name: "describe", Desc: "Describe groups: their partitions with committed offset, log end offset and lag."},
	{Name: "all-groups", Desc: "Act on every consumer group."},
	{Name: "delete", Desc: "Delete groups (they must have no members) with their committed offsets."},
	{Name: "timeout", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "timeout (ms)", Desc: "How long each admin request may take.", Default: "5000"},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "command config property file", Desc: "Admin client properties file (in kafkascope: a file written with cat > FILE)."},
	{Name: "reset-offsets", Desc: "Reset a group's committed offsets while it has no members: --dry-run (the default) shows the plan, --execute commits it. Choose one of --to-earliest, --to-latest, --to-offset, --shift-by, --to-current, --to-datetime, --by-duration, --from-file, and --topic or --all-topics."},
	{Name: "delete-offsets", Desc: "Delete a group's committed offsets for the given topics."},
	{Name: "dry-run", Desc: "With --reset-offsets: only show the new offsets."},
	{Name: "execute", Desc: "With --reset-offsets: commit the new offsets."},
	{Name: "export", Desc: "With --reset-offsets: print the plan as CSV."},
	{Name: "to-offset", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "offset", Desc: "Reset to this offset."},
	{Name: "from-file", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "path to CSV file", Desc: "Reset to the offsets in a CSV file."},
	{Name: "to-datetime", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "datetime", Desc: "Reset to the first offset at or after a time, YYYY-MM-DDTHH:mm:SS.sss."},
	{Name: "by-duration", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "duration", Desc: "Reset to the first offset at or after now minus a duration, PnDTnHnMnS."},
	{Name: "to-earliest", Desc: "Reset to the log start offset."},
	{Name: "to-latest", Desc: "Reset to the log end offset."},
	{Name: "to-current", Desc: "Reset to the committed offset (the log end offset where none)."},
	{Name: "shift-by", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "number-of-offsets", Desc: "Move the committed offset by n (negative goes back)."},
	{Name: "members", Desc: "With --describe: the members and how many partitions each has."},
	{Name: "verbose", Desc: "With --describe --members: also each member's partitions."},
	{Name: "offsets", Desc: "With --describe: the partitions with offsets and lag (the default)."},
	{Name: "state", Arg: javacli.OptionalArg, Type: "String", Desc: "With --describe: the group's coordinator, assignor, state and member count. With --list: each group's state, optionally only groups in the given states (e.g. stable,empty)."},
	{Name: "type", Arg: javacli.OptionalArg, Type: "String", Desc: "With --list: each group's type, optionally only the given types (classic,consumer)."},
}

// joptSetOrder lists option names in the iteration order of a
// java.util.HashSet of their OptionSpecs (whose hashCode is that of the
// one-element list of the name), each as jopt prints a spec: [name].
func joptSetOrder(names ...string) []string {
	hashes := make([]int32, len(names))
	for i, n := range names {
		hashes[i] = 31 + jdk.StringHashCode(n)
	}
	var out []string
	for _, i := range jdk.HashOrder(hashes) {
		out = append(out, "["+names[i]+"]")
	}
	return out
}

var resetScenarios = []string{"to-offset", "to-datetime", "by-duration", "to-earliest", "to-latest", "to-current", "shift-by", "from-file"}

func minus(all []string, drop ...string) []string {
	var out []string
	for _, a := range all {
		keep := true
		for _, d := range drop {
			keep = keep && a != d
		}
		if keep {
			out = append(out, a)
		}
	}
	return out
}

// consumerGroupsCheck applies jopt-simple's availableIf rules and
// ConsumerGroupCommandOptions.checkArgs, then main's one-action rule. It
// returns the usage message to print ("" when the arguments are good), or
// unavailable: the options jopt refuses before checkArgs runs. warn is
// the stderr warning a reset without --dry-run or --execute prints.
//
// From Kafka 4.2 the option sets below are Set.of(...), whose iteration
// order changes from one JVM run to the next (ConsumerGroupCommandOptions
// .java@4.2); kafkascope prints the order of 4.1's HashSets, one of the
// orders a 4.2+ JVM can print.
func consumerGroupsCheck(p *javacli.OptionSet, rel release.Version) (usage string, unavailable []string, warn string) {
	for _, name := range p.Order {
		ok := true
		switch name {
		case "members", "verbose", "offsets":
			ok = p.Has("describe")
		case "state":
			ok = p.Has("describe") || p.Has("list")
		case "type":
			ok = p.Has("list")
		}
		if !ok && !contains(unavailable, name) {
			unavailable = append(unavailable, name)
		}
	}
	if len(unavailable) > 0 {
		return "", unavailable, ""
	}
	groupScope := strings.Join(joptSetOrder("group", "all-groups"), ", ")
	levels := []string{"list", "describe", "delete", "reset-offsets"}
	if p.Has("describe") {
		if !p.Has("group") && !p.Has("all-groups") {
			// Kafka 3.8 names the wrong set here, the actions; 4.0 the
			// group scopes.
			scope := joptSetOrder(levels...)
			if rel.AtLeast(4, 0) {
				scope = joptSetOrder("group", "all-groups")
			}
			return "Option [describe] takes one of these options: " + strings.Join(scope, ", "), nil, ""
		}
		n := 0
		for _, o := range []string{"members", "offsets", "state"} {
			if p.Has(o) {
				n++
			}
		}
		if n > 1 {
			return "Option [describe] takes at most one of these options: [members], [offsets], [state]", nil, ""
		}
		if p.Has("state") && len(p.Values("state")) > 0 {
			return "Option [describe] does not take a value for [state]", nil, ""
		}
	}
	if p.Has("delete") {
		if !p.Has("group") && !p.Has("all-groups") {
			return "Option [delete] takes one of these options: " + groupScope, nil, ""
		}
		if p.Has("topic") {
			return "The consumer does not support topic-specific offset deletion from a consumer group.", nil, ""
		}
	}
	if p.Has("delete-offsets") && (!p.Has("group") || !p.Has("topic")) {
		// 3.8 names the group scopes; 4.0 the options it needs.
		need := groupScope
		if rel.AtLeast(4, 0) {
			need = strings.Join(joptSetOrder("group", "topic"), ", ")
		}
		return "Option [delete-offsets] takes the following options: " + need, nil, ""
	}
	if p.Has("reset-offsets") {
		if p.Has("dry-run") && p.Has("execute") {
			return "Option [reset-offsets] only accepts one of [execute] and [dry-run]", nil, ""
		}
		if !p.Has("dry-run") && !p.Has("execute") {
			warn = resetWarning(rel)
		}
		if !p.Has("group") && !p.Has("all-groups") {
			return "Option [reset-offsets] takes one of these options: " + groupScope, nil, warn
		}
		for _, used := range resetScenarios {
			if msg := invalidWithSet(p, used, minus(resetScenarios, used)); msg != "" {
				return msg, nil, warn
			}
		}
	}
	if msg := invalidWithSet(p, "group", []string{"all-groups"}); msg != "" {
		return msg, nil, warn
	}
	if msg := invalidWithSet(p, "group", minus(levels, "describe", "delete", "reset-offsets")); msg != "" {
		return msg, nil, warn
	}
	if msg := invalidWithSet(p, "topic", minus(levels, "delete", "reset-offsets")); msg != "" {
		return msg, nil, warn
	}
	actions := 0
	for _, a := range []string{"list", "describe", "delete", "reset-offsets", "delete-offsets"} {
		if p.Has(a) {
			actions++
		}
	}
	if actions != 1 {
		msg := "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets"
		if rel.AtLeast(4, 0) {
			// Kafka 4.0 added the --validate-regex action (KIP-848's
			// regular expression subscriptions), which kafkascope does
			// not offer.
			msg += ", --validate-regex"
		}
		return msg, nil, warn
	}
	return "", nil, warn
}

// resetWarning is what a reset without --dry-run or --execute prints on
// stderr: 3.8 runs two sentences together ("missing.In"), 4.0 adds the
// space, 4.2 announces 5.0 (ConsumerGroupCommandOptions.java).
func resetWarning(rel release.Version) string {
	const tail = "You should add the --dry-run option explicitly if you are scripting this command and want to keep the current default behavior without prompting."
	switch {
	case rel.AtLeast(4, 2):
		return "WARN: No action will be performed as the --execute option is missing. In version 5.0, this command will require either --dry-run or --execute to be specified. " + tail
	case rel.AtLeast(4, 0):
		return "WARN: No action will be performed as the --execute option is missing. In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. " + tail
	}
	return "WARN: No action will be performed as the --execute option is missing.In a future major release, the default behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. " + tail
}

// invalidWithSet is CommandLineUtils.checkInvalidArgs with a HashSet of
// invalid options: the first present one in the set's order.
func invalidWithSet(p *javacli.OptionSet, used string, invalid []string) string {
	if !p.Has(used) {
		return ""
	}
	for _, o := range joptSetOrder(invalid...) {
		if p.Has(strings.Trim(o, "[]")) {
			return fmt.Sprintf(`Option "[%s]" can't be used with option "%s"`, used, o)
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// consumerGroupsTool is kafka-consumer-groups.sh.
func consumerGroupsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	specs := consumerGroupsSpecsFor(t.rel())
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe := err.(*javacli.OptionError)
		t.mainException(oe.Class + ": " + oe.Msg)
		return nil
	}
	usage, unavailable, warn := consumerGroupsCheck(p, t.rel())
	if len(unavailable) > 0 {
		t.mainException("joptsimple.UnavailableOptionException: Option(s) [" + strings.Join(unavailable, ", ") + "] are unavailable given other options on the command line")
		return nil
	}
	if t.helpOrVersion(p, args, consumerGroupsHelp, specs) {
		return nil
	}
	if warn != "" {
		t.println(warn)
	}
	if usage != "" {
		t.usage(usage, specs)
		return nil
	}
	cfg := client.DefaultAdminConfig()
	cfg.ConsumerGroupDescribe = t.rel().AtLeast(4, 0)
	if p.Has("command-config") {
		path := p.Value("command-config")
		props, exc, ok := t.commandConfigProps(path)
		switch {
		case !ok:
			t.cgError("Executing consumer group command failed due to java.nio.file.NoSuchFileException: "+jdk.Path(path), "java.nio.file.NoSuchFileException: "+jdk.Path(path))
			return nil
		case exc != "":
			_, msg, _ := strings.Cut(exc, ": ")
			t.cgError("Executing consumer group command failed due to "+msg, exc)
			return nil
		case !t.applyAdminConfig(&cfg, props):
			return nil
		}
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapWarnings(berr)
		t.cgError("Executing consumer group command failed due to Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: "+berr.cause)
		return nil
	}
	c := &consumerGroupCommand{t: t, p: p, specs: specs}
	return func(host string) sim.Process {
		c.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{c.admin}, OnStart: c.run}
	}
}

// cgError is ConsumerGroupCommand.printError: an empty line and "Error:
// msg" on stdout, then the exception's trace (on stderr). The tool exits
// 0.
func (t *toolRun) cgError(msg string, trace ...string) {
	t.println("")
	t.println("Error: " + msg)
	t.printLines(trace)
	t.finish(0)
}

// consumerGroupCommand runs one action.
type consumerGroupCommand struct {
	t       *toolRun
	p       *javacli.OptionSet
	specs   []*javacli.OptionSpec
	admin   *client.Admin
	timeout time.Duration
}

// longOpt reads a Long option as jopt converts it when the tool first
// uses it.
func (c *consumerGroupCommand) longOpt(name string) (int64, bool) {
	v := c.p.Value(name)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		c.failed("Cannot parse argument '"+v+"' of option "+name,
			"joptsimple.OptionArgumentConversionException: Cannot parse argument '"+v+"' of option "+name,
			`Caused by: joptsimple.internal.ReflectionException: java.lang.NumberFormatException: For input string: "`+v+`"`,
			`Caused by: java.lang.NumberFormatException: For input string: "`+v+`"`)
		return 0, false
	}
	return n, true
}

// failed is run's catch (Throwable): "Executing consumer group command
// failed due to" the exception's message.
func (c *consumerGroupCommand) failed(msg string, trace ...string) {
	c.t.cgError("Executing consumer group command failed due to "+msg, trace...)
}

// failedCall reports an admin future's failure: future.get() throws an
// ExecutionException whose message is its cause's toString.
func (c *consumerGroupCommand) failedCall(err *client.Error) {
	c.failed(err.Error(), append([]string{"java.util.concurrent.ExecutionException: " + err.Error()}, causedBy(err)...)...)
}

// failedWrapped reports a failure the tool wraps in a RuntimeException
// (new RuntimeException(executionException)): its message is the
// ExecutionException's toString.
func (c *consumerGroupCommand) failedWrapped(err *client.Error) {
	ee := "java.util.concurrent.ExecutionException: " + err.Error()
	c.failed(ee, append([]string{"java.lang.RuntimeException: " + ee, "Caused by: " + ee}, causedBy(err)...)...)
}

// causedBy is err as the cause of another exception: "Caused by: " err,
// then its own causes.
func causedBy(err *client.Error) []string {
	lines := err.Lines()
	lines[0] = "Caused by: " + lines[0]
	return lines
}

// illegalArgument is run's catch (IllegalArgumentException): the usage.
func (c *consumerGroupCommand) illegalArgument(msg string) { c.t.usage(msg, c.specs) }

func (c *consumerGroupCommand) run(env *sim.Env) {
	ms, ok := c.longOpt("timeout")
	if !ok {
		return
	}
	// withTimeoutMs takes the value's int part.
	c.timeout = time.Duration(int32(ms)) * time.Millisecond
	switch {
	case c.p.Has("list"):
		c.list(env)
	case c.p.Has("describe"):
		c.describe(env)
	case c.p.Has("delete"):
		c.deleteGroups(env)
	case c.p.Has("reset-offsets"):
		c.resetOffsets(env)
	case c.p.Has("delete-offsets"):
		c.deleteOffsets(env)
	}
}
