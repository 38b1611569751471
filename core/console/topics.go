package console

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/javacli"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// topicCommandLogger is the logger TopicCommand logs its errors to: 3.x
// and 4.x's Java class, or in 2.8 the Scala object's class
// (kafka.utils.Logging's loggerName is getClass.getName, tag 2.8.0).
func topicCommandLogger(rel release.Version) string {
	if !rel.AtLeast(3, 0) {
		return "kafka.admin.TopicCommand$"
	}
	return "org.apache.kafka.tools.TopicCommand"
}

// topicsSpecs are kafka-topics.sh's options in release rel. 2.8's
// TopicCommandOptions (TopicCommand.scala:612-689, tag 2.8.0) has
// --zookeeper (3.0 removed it, KIP-604), --disable-rack-aware and --force,
// and not yet --topic-id or --partition-size-limit-per-response.
func topicsSpecs(rel release.Version) []*javacli.OptionSpec {
	specs := withCommon(topicsSpecList)
	if !rel.AtLeast(3, 0) {
		specs = slices.DeleteFunc(specs, func(s *javacli.OptionSpec) bool {
			return s.Name == "topic-id" || s.Name == "partition-size-limit-per-response"
		})
		for i := range topicsSpecList28 {
			specs = append(specs, &topicsSpecList28[i])
		}
	}
	return specs
}

// topicsSpecList28 are the options only 2.8 has. --force is kept for
// compatibility and does nothing, in 2.8 already.
var topicsSpecList28 = []javacli.OptionSpec{
	{Name: "zookeeper", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "hosts",
		Desc: "DEPRECATED, The connection string for the zookeeper connection in the form host:port. Multiple hosts can be given to allow fail-over."},
	{Name: "disable-rack-aware", Desc: "Disable rack aware replica assignment"},
	{Name: "force", Desc: "Suppress console prompts"},
}

var topicsSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "command config property file", Desc: "Admin client properties file (in kafkascope: a file written with cat > FILE)."},
	{Name: "list", Desc: "List all available topics."},
	{Name: "create", Desc: "Create a new topic."},
	{Name: "delete", Desc: "Delete a topic."},
	{Name: "alter", Desc: "Alter the number of partitions of a topic."},
	{Name: "describe", Desc: "List details for the given topics."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "The topic to create, alter, describe or delete (a regular expression for --list, --describe and --delete)."},
	{Name: "topic-id", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic-id", Desc: "The topic id to describe."},
	{Name: "config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "name=value", Desc: "A topic config override for the topic being created."},
	{Name: "delete-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "name", Desc: "Not supported any more: use kafka-configs.sh."},
	{Name: "partitions", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "# of partitions", Desc: "The number of partitions for the topic being created or altered."},
	{Name: "replication-factor", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "replication factor", Desc: "The replication factor of each partition of the topic being created."},
	{Name: "replica-assignment", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "broker_id_for_part1_replica1 : broker_id_for_part1_replica2 , broker_id_for_part2_replica1 : broker_id_for_part2_replica2 , ...", Desc: "Manual replica assignment, partitions separated by commas and replicas by colons."},
	{Name: "topics-with-overrides", Desc: "With --describe: only topics that override configs."},
	{Name: "unavailable-partitions", Desc: "With --describe: only partitions whose leader is not available."},
	{Name: "under-replicated-partitions", Desc: "With --describe: only partitions whose ISR is smaller than the replica set."},
	{Name: "under-min-isr-partitions", Desc: "With --describe: only partitions whose ISR is below min.insync.replicas."},
	{Name: "at-min-isr-partitions", Desc: "With --describe: only partitions whose ISR equals min.insync.replicas."},
	{Name: "if-exists", Desc: "With --alter, --delete or --describe: do nothing if the topic does not exist."},
	{Name: "if-not-exists", Desc: "With --create: do nothing if the topic already exists."},
	{Name: "exclude-internal", Desc: "Leave internal topics out of --list and --describe."},
	{Name: "partition-size-limit-per-response", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "maximum number of partitions in one response", Desc: "Accepted for compatibility."},
}

// topicsTool is kafka-topics.sh.
func topicsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	specs := topicsSpecs(t.rel())
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe := err.(*javacli.OptionError)
		if !t.rel().AtLeast(3, 0) {
			// 2.8 parses in TopicCommandOptions' constructor, before
			// main's try (TopicCommand.scala:52, tag 2.8.0).
			t.mainException(oe.Class + ": " + oe.Msg)
			return nil
		}
		t.println(oe.Msg)
		t.println(oe.Class + ": " + oe.Msg)
		t.println("")
		t.finish(1)
		return nil
	}
	if len(args) == 0 {
		t.usage("Create, delete, describe, or change a topic.", specs)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to create, delete, describe, or change a topic.", specs) {
		return nil
	}
	actions := 0
	action := ""
	for _, a := range []string{"list", "describe", "create", "alter", "delete"} {
		if p.Has(a) {
			actions++
			action = a
		}
	}
	if actions != 1 {
		t.usage("Command must include exactly one action: --list, --describe, --create, --alter or --delete", specs)
		return nil
	}
	// 4.0 dropped --delete-config: it only prints a line to stderr
	// (TopicCommand.checkArgs, 4.1/4.3). 3.8 refuses it with its action
	// or with --bootstrap-server (checkInvalidArgs, below).
	if p.Has("delete-config") && t.rel().AtLeast(4, 0) {
		t.println("delete-config option is no longer supported and deprecated since version 4.0. The config will be fully removed in future releases.")
	}
	// 2.8's checkArgs: exactly one of the two connections, refused by an
	// exception thrown before main's try (TopicCommand.scala:742-743, tag
	// 2.8.0). kafkascope's --bootstrap-server is optional: without either
	// the tool talks to the brokers.
	zk := p.Has("zookeeper")
	if zk && p.Has("bootstrap-server") {
		t.mainException("java.lang.IllegalArgumentException: Only one of --bootstrap-server or --zookeeper must be specified")
		return nil
	}
	if action == "describe" && p.Has("if-exists") && !p.Has("topic") && !p.Has("topic-id") {
		msg := "--topic or --topic-id is required to describe a topic"
		if !t.rel().AtLeast(3, 0) {
			// 2.8: checkRequiredArgs(topicOpt) (TopicCommand.scala:747-748).
			msg = `Missing required argument "[topic]"`
		}
		t.usage(msg, specs)
		return nil
	}
	if (action == "create" || action == "alter" || action == "delete") && !p.Has("topic") {
		t.usage(`Missing required argument "[topic]"`, specs)
		return nil
	}
	// 2.8 requires --partitions and --replication-factor to create on
	// ZooKeeper (no broker defaults there) unless the replicas are given,
	// and --partitions to alter only with --bootstrap-server (2.8.0
	// TopicCommand.scala:751-757).
	if zk && action == "create" && !p.Has("replica-assignment") {
		for _, o := range []string{"partitions", "replication-factor"} {
			if !p.Has(o) {
				t.usage(`Missing required argument "[`+o+`]"`, specs)
				return nil
			}
		}
	}
	if action == "alter" && !zk {
		// checkInvalidArgsSet on --bootstrap-server and --config comes
		// first (2.8.0 TopicCommand.scala:753-757; 3.8.0
		// TopicCommand.java:985-990).
		if msg := topicsAlterConfigCombination(p, t.rel()); msg != "" {
			t.usage(msg, specs)
			return nil
		}
		if !p.Has("partitions") {
			t.usage(`Missing required argument "[partitions]"`, specs)
			return nil
		}
	}
	if msg := topicsInvalidCombination(p, action, t.rel()); msg != "" {
		t.usage(msg, specs)
		return nil
	}
	if zk {
		return zkTopicsTool(t, p, action)
	}
	// TopicService reads --command-config and creates the admin client
	// before anything else can fail.
	cfg := client.DefaultAdminConfig()
	if !t.adminCommandConfig(p, &cfg) {
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, "Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}", "")
		return nil
	}
	tc := &topicCommand{t: t, p: p}
	return func(host string) sim.Process {
		tc.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{tc.admin}, OnStart: func(env *sim.Env) { tc.run(env, action) }}
	}
}

// topicsAlterConfigCombination refuses --config to --alter with an
// explicit --bootstrap-server. 2.8's Scala CommandLineUtils.checkInvalidArgsSet
// joins the options itself, and TopicCommand gives another trailing
// message (TopicCommand.scala:639-640, 753-755, tag 2.8.0).
func topicsAlterConfigCombination(p *javacli.OptionSet, rel release.Version) string {
	switch {
	case !p.Has("config") || !p.Has("alter") || !p.Has("bootstrap-server"):
		return ""
	case !rel.AtLeast(3, 0):
		return `Option combination "[bootstrap-server],[config]" can't be used with option "[alter]" (the kafka-configs CLI supports altering topic configs with a --bootstrap-server option)`
	}
	return `Option combination "[[bootstrap-server], [config]]" can't be used with option "[alter]" (To alter topic configurations, the kafka-configs tool can be used.)`
}

// topicsInvalidCombination applies TopicCommand's checkInvalidArgs rules in
// their order, for release rel.
// checkDeleteConfig is 2.8's and 3.8's rule for --delete-config: invalid
// with every action but --alter, and with --bootstrap-server (which a real
// 3.8 always has, so kafkascope's optional bootstrap counts as given
// unless 2.8's --zookeeper is).
func topicsInvalidCombination(p *javacli.OptionSet, action string, rel release.Version) string {
	checkDeleteConfig := !rel.AtLeast(4, 0)
	invalidWith := func(opt string, allowed ...string) string {
		if p.Has(opt) && !slices.Contains(allowed, action) {
			return fmt.Sprintf(`Option "[%s]" can't be used with option "[%s]"`, opt, action)
		}
		return ""
	}
	zk := p.Has("zookeeper")
	if msg := topicsAlterConfigCombination(p, rel); msg != "" {
		return msg
	}
	deleteConfig := ""
	if checkDeleteConfig && p.Has("delete-config") {
		deleteConfig = invalidWith("delete-config", "alter")
		if deleteConfig == "" && !zk {
			deleteConfig = `Option "[delete-config]" can't be used with option "[bootstrap-server]"`
		}
	}
	checks := []string{
		invalidWith("config", "create", "alter"),
		deleteConfig,
		invalidWith("partitions", "alter", "create"),
		invalidWith("replication-factor", "create"),
		invalidWith("replica-assignment", "alter", "create"),
	}
	for _, c := range checks {
		if c != "" {
			return c
		}
	}
	if action == "create" && p.Has("replica-assignment") {
		for _, o := range []string{"partitions", "replication-factor"} {
			if p.Has(o) {
				return fmt.Sprintf(`Option "[replica-assignment]" can't be used with option "[%s]"`, o)
			}
		}
	}
	reports := []string{"under-replicated-partitions", "under-min-isr-partitions", "at-min-isr-partitions", "unavailable-partitions"}
	for _, r := range reports {
		if p.Has(r) {
			if action != "describe" {
				return fmt.Sprintf(`Option "[%s]" can't be used with option "[%s]"`, r, action)
			}
			if p.Has("topics-with-overrides") {
				return fmt.Sprintf(`Option "[%s]" can't be used with option "[topics-with-overrides]"`, r)
			}
			// 2.8: the ISR reports that need a topic's min.insync.replicas
			// are not offered on ZooKeeper (TopicCommand.scala:769-772).
			if zk && (r == "under-min-isr-partitions" || r == "at-min-isr-partitions") {
				return fmt.Sprintf(`Option "[%s]" can't be used with option "[zookeeper]"`, r)
			}
		}
	}
	more := []string{
		invalidWith("topics-with-overrides", "describe"),
		invalidWith("if-exists", "alter", "delete", "describe"),
		invalidWith("if-not-exists", "create"),
		invalidWith("exclude-internal", "list", "describe"),
	}
	for _, c := range more {
		if c != "" {
			return c
		}
	}
	return ""
}

// topicCommand runs one kafka-topics.sh action against the cluster.
type topicCommand struct {
	t     *toolRun
	p     *javacli.OptionSet
	admin *client.Admin
	exit  func(code int) // nil: tc.t.finish
}

// fail prints an action's error as TopicCommand.printException does: the
// message on stdout, then the exception logged at ERROR (the simulator
// prints no Java stack frames).
func (tc *topicCommand) fail(class, msg string, causes ...string) {
	tc.t.println("Error while executing topic command : " + msg)
	tc.t.println(client.LogPrefix(tc.t.s.world().Now(), client.LevelError) + " " + client.Exception(class, msg))
	tc.t.printLines(causes)
	tc.t.println(" (" + topicCommandLogger(tc.t.rel()) + ")")
	tc.finish(1)
}

// finish ends the tool: at once, or through exit when the tool has to
// close a client first (TopicCommand's finally: topicService.close()).
func (tc *topicCommand) finish(code int) {
	if tc.exit != nil {
		tc.exit(code)
		return
	}
	tc.t.finish(code)
}

func (tc *topicCommand) failCode(code protocol.ErrorCode, msg string) {
	if msg == "" {
		msg = code.Message()
	}
	tc.fail(code.Exception(), msg)
}

// failClient reports an admin call's failure: TopicCommand unwraps the
// ExecutionException and prints its cause, with the cause's own causes
// ("Caused by: ...") in the logged trace.
func (tc *topicCommand) failClient(err *client.Error) {
	var causes []string
	if err.Cause != nil {
		causes = err.Cause.CausedBy()
	}
	tc.fail(err.Class, err.Message, causes...)
}

func (tc *topicCommand) run(env *sim.Env, action string) {
	switch action {
	case "create":
		tc.create(env)
	case "list":
		tc.withTopics(env, func(env *sim.Env, md *protocol.MetadataResponse) { tc.list(md) })
	case "describe":
		tc.withTopics(env, tc.describe)
	case "alter":
		tc.withTopics(env, tc.alter)
	case "delete":
		tc.withTopics(env, tc.delete)
	}
}

// topicFilter compiles --topic as TopicCommand's include list: commas mean
// "or", spaces and surrounding quotes are dropped, and the whole name must
// match.
func topicFilter(s string) (*regexp.Regexp, error) {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, ",", "|")
	s = strings.ReplaceAll(s, " ", "")
	s = strings.Trim(s, `"'`)
	re, err := regexp.Compile("^(?:" + s + ")$")
	if err != nil {
		return nil, fmt.Errorf("%s is an invalid regex.", s)
	}
	return re, nil
}

// withTopics fetches the cluster's metadata (every topic) and passes it on.
func (tc *topicCommand) withTopics(env *sim.Env, next func(env *sim.Env, md *protocol.MetadataResponse)) {
	tc.admin.Call(env, "listTopics", func() protocol.Request { return &protocol.MetadataRequest{} }, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			tc.failClient(err)
			return
		}
		next(env, resp.(*protocol.MetadataResponse))
	})
}

// matchTopics applies --topic and --exclude-internal; with a --topic that
// matches nothing it fails (unless --if-exists) with TopicCommand's message:
// 3.x and 4.0's Java formats the Optional itself ("Topic 'Optional[nope]'"),
// 2.8's Scala (requestedTopic.get) and 4.1's the value
// (TopicCommand.ensureTopicExists).
func (tc *topicCommand) matchTopics(md *protocol.MetadataResponse, required bool) ([]protocol.MetadataTopic, bool) {
	var re *regexp.Regexp
	if tc.p.Has("topic") {
		var err error
		if re, err = topicFilter(tc.p.Value("topic")); err != nil {
			tc.fail("java.lang.RuntimeException", err.Error())
			return nil, false
		}
	}
	var out []protocol.MetadataTopic
	for _, t := range md.Topics {
		if t.ErrorCode != protocol.NONE || (re != nil && !re.MatchString(t.Name)) {
			continue
		}
		if tc.p.Has("exclude-internal") && metadata.IsInternalTopic(t.Name) {
			continue
		}
		out = append(out, t)
	}
	sorts.Func(out, func(a, b protocol.MetadataTopic) int { return strings.Compare(a.Name, b.Name) })
	if len(out) == 0 && required && tc.p.Has("topic") && !tc.p.Has("if-exists") {
		tc.topicMissing()
		return nil, false
	}
	return out, true
}

// topicMissing is ensureTopicExists failing for --topic.
func (tc *topicCommand) topicMissing() {
	name := "Optional[" + tc.p.Value("topic") + "]"
	if rel := tc.t.rel(); rel.AtLeast(4, 1) || !rel.AtLeast(3, 0) {
		name = tc.p.Value("topic")
	}
	tc.fail("java.lang.IllegalArgumentException", fmt.Sprintf("Topic '%s' does not exist as expected", name))
}

func (tc *topicCommand) list(md *protocol.MetadataResponse) {
	topics, ok := tc.matchTopics(md, false)
	if !ok {
		return
	}
	if len(topics) == 0 {
		tc.t.println("")
	}
	for _, t := range topics {
		tc.t.println(t.Name)
	}
	tc.t.finish(0)
}

// create validates on the client side as TopicCommand does, then asks the
// cluster to create the topic.
func (tc *topicCommand) create(env *sim.Env) {
	p := tc.p
	name := p.Value("topic")
	topic := protocol.CreatableTopic{Name: name, NumPartitions: -1, ReplicationFactor: -1}
	if p.Has("partitions") {
		n, err := p.Int("partitions", 32)
		if err != nil {
			tc.fail(err.(*javacli.OptionError).Class, err.Error())
			return
		}
		topic.NumPartitions = int32(n)
	}
	rf := int64(-1)
	if p.Has("replication-factor") {
		n, err := p.Int("replication-factor", 32)
		if err != nil {
			tc.fail(err.(*javacli.OptionError).Class, err.Error())
			return
		}
		rf = n
	}
	asg, ok := tc.replicaAssignment(env)
	if !ok {
		return
	}
	topic.Assignments = asg
	configs, ok := tc.parseTopicConfigs()
	if !ok {
		return
	}
	topic.Configs = configs
	if metadata.HasCollisionChars(name) {
		tc.t.println("WARNING: Due to limitations in metric names, topics with a period ('.') or underscore ('_') could collide. To avoid issues it is best to use either, but not both.")
	}
	if p.Has("replication-factor") {
		if rf < 1 || rf > 32767 {
			tc.fail("java.lang.IllegalArgumentException", "The replication factor must be between 1 and 32767 inclusive")
			return
		}
		topic.ReplicationFactor = int16(rf)
	}
	if p.Has("partitions") && topic.NumPartitions < 1 {
		tc.fail("java.lang.IllegalArgumentException", "The partitions must be greater than 0")
		return
	}
	if name == "" {
		tc.fail("org.apache.kafka.common.errors.InvalidTopicException", "The given topic name '' cannot be represented in a request.")
		return
	}
	tc.admin.CallTarget(env, "createTopics", client.ControllerTarget(), 0, func(timeoutMs int32) protocol.Request {
		return &protocol.CreateTopicsRequest{Topics: []protocol.CreatableTopic{topic}, TimeoutMs: timeoutMs}
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			tc.failClient(err)
			return
		}
		r := resp.(*protocol.CreateTopicsResponse).Topics[0]
		switch {
		case r.ErrorCode == protocol.NONE:
			tc.t.println("Created topic " + name + ".")
			tc.t.finish(0)
		case r.ErrorCode == protocol.TOPIC_ALREADY_EXISTS && p.Has("if-not-exists"):
			tc.t.finish(0)
		default:
			tc.failCode(r.ErrorCode, r.ErrorMessage)
		}
	})
}

// replicaAssignment is --replica-assignment parsed as
// TopicCommandOptions.replicaAssignment does: nil when it is absent or
// empty.
func (tc *topicCommand) replicaAssignment(env *sim.Env) ([][]int32, bool) {
	s := tc.p.Value("replica-assignment")
	if !tc.p.Has("replica-assignment") || s == "" {
		return nil, true
	}
	asg, class, msg := parseReplicaAssignment(s)
	if msg == "" {
		return asg, true
	}
	if !tc.t.rel().AtLeast(3, 0) {
		class, msg = replicaAssignmentError28(class, msg, env.Rand("kafka-topics/identity-hash").Uint64())
	}
	tc.fail(class, msg)
	return nil, false
}

// replicaAssignmentError28 is how 2.8's Scala parseReplicaAssignment
// (TopicCommand.scala:577-590, tag 2.8.0) words parseReplicaAssignment's
// errors: its exceptions are kafka.common's and kafka.admin's, and it
// concatenates the uneven partition's Array[Int] itself, whose toString
// is "[I@" and an identity hash code (here drawn from the run's
// randomness, hash).
func replicaAssignmentError28(class, msg string, hash uint64) (string, string) {
	switch class {
	case "org.apache.kafka.server.common.AdminCommandFailedException":
		class = "kafka.common.AdminCommandFailedException"
	case "org.apache.kafka.server.common.AdminOperationException":
		class = "kafka.admin.AdminOperationException"
		if i := strings.LastIndex(msg, ": ["); i >= 0 {
			msg = msg[:i] + ": [I@" + strconv.FormatUint(hash&0x7fffffff, 16)
		}
	}
	return class, msg
}

// parseReplicaAssignment reads "1:2,2:3" as TopicCommand does.
func parseReplicaAssignment(s string) ([][]int32, string, string) {
	parts := strings.Split(s, ",")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // Java's split drops trailing empty strings
	}
	var out [][]int32
	for i, part := range parts {
		var ids []int32
		for _, x := range strings.Split(part, ":") {
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 32)
			if err != nil {
				return nil, "java.lang.NumberFormatException", fmt.Sprintf("For input string: \"%s\"", strings.TrimSpace(x))
			}
			ids = append(ids, int32(n))
		}
		var dups []string
		seen := map[int32]bool{}
		for _, id := range ids {
			if seen[id] && !slices.Contains(dups, fmt.Sprint(id)) {
				dups = append(dups, fmt.Sprint(id))
			}
			seen[id] = true
		}
		if len(dups) > 0 {
			slices.Sort(dups)
			return nil, "org.apache.kafka.server.common.AdminCommandFailedException", "Partition replica lists may not contain duplicate entries: " + strings.Join(dups, ",")
		}
		if i > 0 && len(ids) != len(out[0]) {
			s := make([]string, len(ids))
			for j, id := range ids {
				s[j] = fmt.Sprint(id)
			}
			return nil, "org.apache.kafka.server.common.AdminOperationException", fmt.Sprintf("Partition %d has different replication factor: [%s]", i, strings.Join(s, ", "))
		}
		out = append(out, ids)
	}
	return out, "", ""
}

func (tc *topicCommand) alter(env *sim.Env, md *protocol.MetadataResponse) {
	topics, ok := tc.matchTopics(md, true)
	if !ok {
		return
	}
	if len(topics) == 0 {
		tc.t.finish(0)
		return
	}
	n, err := tc.p.Int("partitions", 32)
	if err != nil {
		tc.fail(err.(*javacli.OptionError).Class, err.Error())
		return
	}
	all, ok := tc.replicaAssignment(env)
	if !ok {
		return
	}
	var asg [][]int32
	if cur := len(topics[0].Partitions); len(all) > cur {
		asg = all[cur:]
	}
	req := func() protocol.Request {
		r := &protocol.CreatePartitionsRequest{TimeoutMs: 30000}
		for _, t := range topics {
			r.Topics = append(r.Topics, protocol.CreatePartitionsTopic{Name: t.Name, Count: int32(n), Assignments: asg})
		}
		return r
	}
	tc.callAndFinish(env, "createPartitions", req, func(resp protocol.Response) (protocol.ErrorCode, string) {
		for _, r := range resp.(*protocol.CreatePartitionsResponse).Results {
			if r.ErrorCode != protocol.NONE {
				return r.ErrorCode, r.ErrorMessage
			}
		}
		return protocol.NONE, ""
	})
}

// callAndFinish runs an admin call and ends the tool: with the first error
// firstError finds in the response, or successfully.
func (tc *topicCommand) callAndFinish(env *sim.Env, name string, build func() protocol.Request, firstError func(protocol.Response) (protocol.ErrorCode, string)) {
	tc.admin.Call(env, name, build, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			tc.failClient(err)
			return
		}
		if code, msg := firstError(resp); code != protocol.NONE {
			tc.failCode(code, msg)
			return
		}
		tc.t.finish(0)
	})
}

func (tc *topicCommand) delete(env *sim.Env, md *protocol.MetadataResponse) {
	topics, ok := tc.matchTopics(md, true)
	if !ok {
		return
	}
	if len(topics) == 0 {
		tc.t.finish(0)
		return
	}
	tc.callAndFinish(env, "deleteTopics", func() protocol.Request {
		r := &protocol.DeleteTopicsRequest{TimeoutMs: 30000}
		for _, t := range topics {
			r.TopicNames = append(r.TopicNames, t.Name)
		}
		return r
	}, func(resp protocol.Response) (protocol.ErrorCode, string) {
		for _, r := range resp.(*protocol.DeleteTopicsResponse).Responses {
			if r.ErrorCode != protocol.NONE {
				return r.ErrorCode, r.ErrorMessage
			}
		}
		return protocol.NONE, ""
	})
}

// parseTopicConfigs is parseTopicConfigsToBeAdded: each --config as
// name=value, validated, then the message.format.version warning.
func (tc *topicCommand) parseTopicConfigs() ([]protocol.ConfigEntry, bool) {
	var out []protocol.ConfigEntry
	for _, kv := range tc.p.Values("config") {
		parts := regexp.MustCompile(`\s*=\s*`).Split(kv, -1)
		if len(parts) != 2 || parts[0] == "" {
			tc.fail("java.lang.IllegalArgumentException", `requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".`)
			return nil, false
		}
		if err := config.ValidateTopic(parts[0], parts[1], tc.t.rel()); err != nil {
			class := "org.apache.kafka.common.config.ConfigException"
			if strings.HasPrefix(err.Error(), "Unknown topic config name") {
				class = "org.apache.kafka.common.errors.InvalidConfigurationException"
			}
			tc.fail(class, err.Error())
			return nil, false
		}
		v := parts[1]
		out = append(out, protocol.ConfigEntry{Name: parts[0], Value: &v})
	}
	i := -1 // the last setting of message.format.version, as getProperty sees it
	for j, e := range out {
		if e.Name == config.MessageFormatVersion {
			i = j
		}
	}
	switch {
	case i < 0:
	case !tc.t.rel().AtLeast(3, 0):
		// 2.8's is a Scala string: it shows the value
		// (TopicCommand.scala:562-565, tag 2.8.0).
		tc.t.println("WARNING: The configuration message.format.version=" + *out[i].Value + " is specified. This configuration will be ignored if the version is newer than the inter.broker.protocol.version specified in the broker.")
	default:
		// TopicCommand.parseTopicConfigsToBeAdded (3.8) prints this once
		// the configs are valid; a Java string given Scala's ${...}
		// interpolation syntax, it shows the placeholders, not the value.
		// 4.0 removed the key (KIP-724), so only 3.8 gets here.
		tc.t.println("WARNING: The configuration ${TopicConfig.MESSAGE_FORMAT_VERSION_CONFIG}=${props.getProperty(TopicConfig.MESSAGE_FORMAT_VERSION_CONFIG)} is specified. This configuration will be ignored if the version is newer than the inter.broker.protocol.version specified in the broker or if the inter.broker.protocol.version is 3.0 or newer. This configuration is deprecated and it will be removed in Apache Kafka 4.0.")
	}
	return out, true
}
