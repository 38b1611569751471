package console

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/hashing"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

func electionSpecs() []*javacli.OptionSpec { return withCommon(electionSpecList) }

// electionSpecsFor are the options in release v: KIP-1147 (Kafka 4.2)
// added --command-config, the new name of --admin.config
// (LeaderElectionCommand.java).
func electionSpecsFor(v release.Version) []*javacli.OptionSpec {
	if !v.AtLeast(4, 2) {
		return electionSpecs()
	}
	return append(electionSpecs(), withKIP1147(electionSpecs42)...)
}

var electionSpecs42 = []javacli.OptionSpec{
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Admin client properties file (the new name of --admin.config; not read by the simulator)."},
}

var electionSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "host:port", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "admin.config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Admin client properties file (not read by the simulator)."},
	{Name: "path-to-json-file", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "Path to JSON file", Desc: "Partitions to elect, as JSON (not read by the simulator: use --topic or --all-topic-partitions)."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic name", Desc: "The topic whose partition gets the election (needs --partition)."},
	{Name: "partition", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "partition id", Desc: "The partition that gets the election."},
	{Name: "all-topic-partitions", Desc: "Run the election for every partition."},
	{Name: "election-type", Arg: javacli.RequiredArg, Type: "[PREFERRED,UNCLEAN]", ArgDesc: "election type", Desc: "PREFERRED: move leadership to the first replica; UNCLEAN: give a leaderless partition any live replica, even one not in the ISR."},
}

// electionTool is kafka-leader-election.sh.
func electionTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	specs := electionSpecsFor(rel)
	fail := func(class, msg string) func(string) sim.Process {
		t.println(msg)
		t.println(client.Exception(class, msg))
		t.println("")
		t.finish(1)
		return nil
	}
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe := err.(*javacli.OptionError)
		return fail(oe.Class, oe.Msg)
	}
	if t.helpOrVersion(p, args, "This tool attempts to elect a new leader for a set of topic partitions. The type of elections supported are preferred replicas and unclean replicas.", specs) {
		return nil
	}
	const cmdFailed = "org.apache.kafka.server.common.AdminCommandFailedException"
	if !p.Has("election-type") { // (--bootstrap-server may be omitted in the simulator)
		return fail(cmdFailed, "Missing required option(s): election-type")
	}
	if rel.AtLeast(4, 2) && p.Has("admin.config") && p.Has("command-config") {
		// CommandLineUtils.checkInvalidArgs in validate().
		t.usage(`Option "[admin.config]" can't be used with option "[command-config]"`, specs)
		return nil
	}
	sources := 0
	for _, o := range []string{"topic", "all-topic-partitions", "path-to-json-file"} {
		if p.Has(o) {
			sources++
		}
	}
	switch {
	case sources != 1:
		return fail(cmdFailed, "One and only one of the following options is required: topic, all-topic-partitions, path-to-json-file")
	case p.Has("topic") && !p.Has("partition"):
		return fail(cmdFailed, "Missing required option(s): partition")
	case p.Has("partition") && !p.Has("topic"):
		return fail(cmdFailed, "Option partition is only allowed if topic is used")
	}
	var etype int8
	var typeName string
	switch strings.ToUpper(p.Value("election-type")) {
	case "PREFERRED":
		etype, typeName = protocol.ElectPreferred, "PREFERRED"
	case "UNCLEAN":
		etype, typeName = protocol.ElectUnclean, "UNCLEAN"
	default:
		return fail("joptsimple.OptionArgumentConversionException", fmt.Sprintf("Cannot parse argument '%s' of option election-type", p.Value("election-type")))
	}
	if p.Has("path-to-json-file") {
		return fail("java.io.IOException", "Unable to read file "+p.Value("path-to-json-file")+" (the simulator has no local files: use --topic and --partition, or --all-topic-partitions)")
	}
	var targets []protocol.ElectTopicPartitions
	if p.Has("topic") {
		n, err := p.Int("partition", 32)
		if err != nil {
			return fail("joptsimple.OptionArgumentConversionException", err.Error())
		}
		targets = []protocol.ElectTopicPartitions{{Topic: p.Value("topic"), Partitions: []int32{int32(n)}}}
	}
	if rel.AtLeast(4, 2) && p.Has("admin.config") {
		// KIP-1147: printed just before the config file is read.
		t.println("Option --admin.config has been deprecated and will be removed in a future version. Use --command-config instead.")
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, "Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}", "")
		return nil
	}
	return func(host string) sim.Process {
		cfg := client.DefaultAdminConfig()
		cfg.DefaultAPITimeout, cfg.RequestTimeout = 30*time.Second, 15*time.Second // the tool's own timeouts
		admin := client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		start := func(env *sim.Env) {
			admin.Call(env, "electLeaders", func() protocol.Request {
				return &protocol.ElectLeadersRequest{ElectionType: etype, TopicPartitions: targets, TimeoutMs: 30000}
			}, func(env *sim.Env, resp protocol.Response, cerr *client.Error) {
				if cerr != nil {
					t.println("Timeout waiting for election results")
					t.println("Timeout waiting for election results")
					t.println(client.Exception(cmdFailed, "Timeout waiting for election results"))
					t.printLines(cerr.CausedBy())
					t.println("")
					t.finish(1)
					return
				}
				printElection(t, typeName, resp.(*protocol.ElectLeadersResponse))
			})
		}
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: start}
	}
}

// printElection prints the results as LeaderElectionCommand does: the
// elected partitions, those that needed no election, then each failure;
// lists come in Java hash-set order.
func printElection(t *toolRun, typeName string, r *protocol.ElectLeadersResponse) {
	type result struct {
		tp   string
		hash int32
		err  protocol.ErrorCode
		msg  string
	}
	var all []result
	for _, tr := range r.Results {
		for _, pr := range tr.Partitions {
			all = append(all, result{fmt.Sprintf("%s-%d", tr.Topic, pr.PartitionID), hashing.TopicPartitionHashCode(tr.Topic, pr.PartitionID), pr.ErrorCode, pr.ErrorMessage})
		}
	}
	// inHashOrder is the order of a HashMap/HashSet filled with rs.
	inHashOrder := func(rs []result) []result {
		hashes := make([]int32, len(rs))
		for i, x := range rs {
			hashes[i] = x.hash
		}
		var out []result
		for _, i := range jdk.HashOrder(hashes) {
			out = append(out, rs[i])
		}
		return out
	}
	mapOrder := inHashOrder(all)
	group := func(keep func(result) bool) []result {
		var in []result
		for _, x := range mapOrder {
			if keep(x) {
				in = append(in, x)
			}
		}
		return inHashOrder(in)
	}
	names := func(rs []result) string {
		s := make([]string, len(rs))
		for i, x := range rs {
			s[i] = x.tp
		}
		return strings.Join(s, ", ")
	}
	succeeded := group(func(x result) bool { return x.err == protocol.NONE })
	noop := group(func(x result) bool { return x.err == protocol.ELECTION_NOT_NEEDED })
	var failed []result
	for _, x := range mapOrder {
		if x.err != protocol.NONE && x.err != protocol.ELECTION_NOT_NEEDED {
			failed = append(failed, x)
		}
	}
	if len(succeeded) > 0 {
		t.println(fmt.Sprintf("Successfully completed leader election (%s) for partitions %s", typeName, names(succeeded)))
	}
	if len(noop) > 0 {
		t.println(fmt.Sprintf("Valid replica already elected for partitions %s", names(noop)))
	}
	if len(failed) == 0 {
		t.finish(0)
		return
	}
	var suppressed []string
	for _, x := range failed {
		msg := x.msg
		if msg == "" {
			msg = x.err.Message()
		}
		exc := client.Exception(x.err.Exception(), msg)
		t.println(fmt.Sprintf("Error completing leader election (%s) for partition: %s: %s", typeName, x.tp, exc))
		suppressed = append(suppressed, "\tSuppressed: "+exc)
	}
	msg := fmt.Sprintf("%d replica(s) could not be elected", len(failed))
	t.println(msg)
	t.println(client.Exception("org.apache.kafka.server.common.AdminCommandFailedException", msg))
	t.printLines(suppressed)
	t.println("")
	t.finish(1)
}
