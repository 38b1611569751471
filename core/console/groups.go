package console

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/sim"
)

// kafka-groups.sh runs org.apache.kafka.tools.GroupsCommand (Kafka 4.0,
// KIP-1043): it lists the groups of every type — classic, consumer (KIP-848),
// share and streams — with their type and protocol type, optionally
// filtered. Its options are jopt-simple's (--bootstrap-server is required);
// a bad command line prints the message and the usage and exits 1
// (CommandLineUtils.printUsageAndExit). 3.8 has no such tool. The help
// texts are our own words.

var groupsSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Required: true,
		Desc: "The broker(s) to connect to."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "command config property file",
		Desc: "Admin client properties file (in kafkascope: a file written with cat > FILE)."},
	{Name: "list", Desc: "List the groups."},
	{Name: "group-type", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "type",
		Desc: "Only groups of this type: classic, consumer, share or streams."},
	{Name: "protocol", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "protocol",
		Desc: "Only groups with this protocol type (such as consumer)."},
	{Name: "consumer", Desc: "Only consumer groups of either kind: type consumer, or classic with protocol type consumer or none (offsets only)."},
	{Name: "share", Desc: "Only share groups."},
	{Name: "streams", Desc: "Only streams groups."},
}

// groupsHelp is what --help and an empty command line print above the
// options.
const groupsHelp = "This tool helps to list groups of all types."

// groupTypeNames are GroupType's names as toString prints them.
var groupTypeNames = []string{"Consumer", "Classic", "Share", "Streams"}

// groupsListTimeout is listGroups().all().get(30, SECONDS).
const groupsListTimeout = 30 * time.Second

func groupsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	specs := withCommon(groupsSpecList)
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		t.usage(err.(*javacli.OptionError).Msg, specs)
		return nil
	}
	if !p.Has("help") && !p.Has("version") && !p.Has("bootstrap-server") {
		// jopt-simple checks required options unless a help option
		// (CommandDefaultOptions' --help and --version) was given.
		t.usage("Missing required option(s) [bootstrap-server]", specs)
		return nil
	}
	if t.helpOrVersion(p, args, groupsHelp, specs) {
		return nil
	}
	if !p.Has("list") {
		t.usage("Command must include exactly one action: --list.", specs)
		return nil
	}
	var typeFilter string
	if p.Has("group-type") {
		if typeFilter = enumName(p.Value("group-type"), groupTypeNames); typeFilter == "Unknown" {
			// Thrown from GroupsCommandOptions, so mainNoExit prints the
			// message and the trace.
			t.catchAll("java.lang.IllegalArgumentException: --group-type must be a valid group type.")
			return nil
		}
	}
	for _, used := range []string{"consumer", "share", "streams"} {
		if !p.Has(used) {
			continue
		}
		for _, other := range []string{"consumer", "group-type", "protocol", "share", "streams"} {
			if other != used && p.Has(other) {
				t.usage(fmt.Sprintf(`Option "[%s]" can't be used with option "[%s]"`, used, other), specs)
				return nil
			}
		}
	}
	cfg := client.DefaultAdminConfig()
	if !t.adminCommandConfig(p, &cfg) {
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapWarnings(berr)
		t.groupsError("org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: "+berr.cause)
		return nil
	}
	f := groupsFilter{groupType: typeFilter, protocol: p.Value("protocol"), hasProtocol: p.Has("protocol"),
		consumer: p.Has("consumer"), share: p.Has("share"), streams: p.Has("streams")}
	return func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		list := func(env *sim.Env) {
			answered := false
			// all().get(30, SECONDS): the tool stops waiting before the
			// admin call's own deadline; the TimeoutException has no
			// message.
			timer := env.After(groupsListTimeout, "kafka-groups-timeout", func(env *sim.Env) {
				if !answered {
					answered = true
					t.groupsError("java.util.concurrent.TimeoutException")
				}
			})
			admin.ListGroups(env, 0, func(env *sim.Env, groups []client.GroupListing, err *client.Error) {
				if answered {
					return
				}
				answered = true
				timer.Stop()
				if err != nil {
					t.groupsError(err.Error())
					return
				}
				t.printLines(groupsTable(groups, f))
				t.finish(0)
			})
		}
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: list}
	}
}

// groupsError is GroupsCommand.printException: "Error while executing
// groups command : MSG" on stdout, the exception's trace logged at ERROR,
// and exit status 1. exc is "class: message" or a bare class (a null
// message prints as "null"); causes are the trace's further lines.
func (t *toolRun) groupsError(exc string, causes ...string) {
	_, msg, ok := strings.Cut(exc, ": ")
	if !ok {
		msg = "null"
	}
	t.println("Error while executing groups command : " + msg)
	t.logException(client.LevelError, exc, "org.apache.kafka.tools.GroupsCommand", causes)
	t.finish(1)
}

// groupsFilter is the tool's filter options (GroupsService.combinedFilter).
type groupsFilter struct {
	groupType                string // "" for none, else a GroupType name
	protocol                 string
	hasProtocol              bool
	consumer, share, streams bool
}

// pass is combinedFilter: a type filter (with the protocol, if given),
// else a protocol filter, else one of --consumer, --share, --streams.
func (f groupsFilter) pass(g client.GroupListing) bool {
	typ := groupTypeName(g.Type)
	switch {
	case f.groupType != "":
		return typ == f.groupType && (!f.hasProtocol || g.ProtocolType == f.protocol)
	case f.hasProtocol:
		return g.ProtocolType == f.protocol
	case f.consumer:
		return g.ProtocolType == "consumer" || g.ProtocolType == "" || typ == "Consumer"
	case f.share:
		return typ == "Share"
	case f.streams:
		return typ == "Streams"
	}
	return true
}

// groupTypeName is GroupListing.type() as printed: GroupType.parse of the
// broker's word, "" when the broker gave none.
func groupTypeName(s string) string {
	if s == "" {
		return ""
	}
	return enumName(s, groupTypeNames)
}

// groupsTable is printGroupDetails: GROUP, TYPE and PROTOCOL in columns
// as wide as the longest value (at least 20), each row's values followed
// by a space.
func groupsTable(groups []client.GroupListing, f groupsFilter) []string {
	width := 20
	var rows [][3]string
	for _, g := range groups {
		if !f.pass(g) {
			continue
		}
		row := [3]string{g.GroupID, groupTypeName(g.Type), g.ProtocolType}
		for _, v := range row {
			width = max(width, jdk.StringLength(v))
		}
		rows = append(rows, row)
	}
	out := []string{padRight("GROUP", width) + " " + padRight("TYPE", width) + " " + padRight("PROTOCOL", width)}
	for _, r := range rows {
		out = append(out, padRight(r[0], width)+" "+padRight(r[1], width)+" "+padRight(r[2], width)+" ")
	}
	return out
}
