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
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

const topicCommandLogger = "org.apache.kafka.tools.TopicCommand"

func topicsSpecs() []*javacli.OptionSpec { return withCommon(topicsSpecList) }

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
	specs := topicsSpecs()
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe := err.(*javacli.OptionError)
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
	if action == "describe" && p.Has("if-exists") && !p.Has("topic") && !p.Has("topic-id") {
		t.usage("--topic or --topic-id is required to describe a topic", specs)
		return nil
	}
	if (action == "create" || action == "alter" || action == "delete") && !p.Has("topic") {
		t.usage(`Missing required argument "[topic]"`, specs)
		return nil
	}
	if action == "alter" && !p.Has("partitions") {
		t.usage(`Missing required argument "[partitions]"`, specs)
		return nil
	}
	if msg := topicsInvalidCombination(p, action, !t.rel().AtLeast(4, 0)); msg != "" {
		t.usage(msg, specs)
		return nil
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

// topicsInvalidCombination applies TopicCommand's checkInvalidArgs rules in
// their order.
// checkDeleteConfig is 3.8's rule for --delete-config: invalid with every
// action but --alter, and with --bootstrap-server (which a real 3.8 always
// has, so kafkascope's optional bootstrap counts as given).
func topicsInvalidCombination(p *javacli.OptionSet, action string, checkDeleteConfig bool) string {
	invalidWith := func(opt string, allowed ...string) string {
		if p.Has(opt) && !slices.Contains(allowed, action) {
			return fmt.Sprintf(`Option "[%s]" can't be used with option "[%s]"`, opt, action)
		}
		return ""
	}
	if p.Has("config") && action == "alter" && p.Has("bootstrap-server") {
		return `Option combination "[[bootstrap-server], [config]]" can't be used with option "[alter]" (To alter topic configurations, the kafka-configs tool can be used.)`
	}
	deleteConfig := ""
	if checkDeleteConfig && p.Has("delete-config") {
		deleteConfig = invalidWith("delete-config", "alter")
		if deleteConfig == "" {
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
}

// fail prints an action's error as TopicCommand.printException does: the
// message on stdout, then the exception logged at ERROR (the simulator
// prints no Java stack frames).
func (tc *topicCommand) fail(class, msg string, causes ...string) {
	tc.t.println("Error while executing topic command : " + msg)
	tc.t.println(client.LogPrefix(tc.t.s.world().Now(), client.LevelError) + " " + client.Exception(class, msg))
	tc.t.printLines(causes)
	tc.t.println(" (" + topicCommandLogger + ")")
	tc.t.finish(1)
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
// up to 4.0 it formats the Optional itself ("Topic 'Optional[nope]'"),
// from 4.1 its value (TopicCommand.ensureTopicExists).
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
		name := "Optional[" + tc.p.Value("topic") + "]"
		if tc.t.rel().AtLeast(4, 1) {
			name = tc.p.Value("topic")
		}
		tc.fail("java.lang.IllegalArgumentException", fmt.Sprintf("Topic '%s' does not exist as expected", name))
		return nil, false
	}
	return out, true
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
	if s := p.Value("replica-assignment"); p.Has("replica-assignment") && s != "" {
		asg, class, msg := parseReplicaAssignment(s)
		if msg != "" {
			tc.fail(class, msg)
			return
		}
		topic.Assignments = asg
	}
	for _, kv := range p.Values("config") {
		parts := regexp.MustCompile(`\s*=\s*`).Split(kv, -1)
		if len(parts) != 2 || parts[0] == "" {
			tc.fail("java.lang.IllegalArgumentException", `requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".`)
			return
		}
		if err := config.ValidateTopic(parts[0], parts[1], tc.t.s.cluster.Release().Version); err != nil {
			class := "org.apache.kafka.common.config.ConfigException"
			if strings.HasPrefix(err.Error(), "Unknown topic config name") {
				class = "org.apache.kafka.common.errors.InvalidConfigurationException"
			}
			tc.fail(class, err.Error())
			return
		}
		v := parts[1]
		topic.Configs = append(topic.Configs, protocol.ConfigEntry{Name: parts[0], Value: &v})
	}
	if slices.ContainsFunc(topic.Configs, func(e protocol.ConfigEntry) bool { return e.Name == config.MessageFormatVersion }) {
		// TopicCommand.parseTopicConfigsToBeAdded (3.8) prints this once
		// the configs are valid; a Java string given Scala's ${...}
		// interpolation syntax, it shows the placeholders, not the value.
		// 4.0 removed the key (KIP-724), so only 3.8 gets here.
		tc.t.println("WARNING: The configuration ${TopicConfig.MESSAGE_FORMAT_VERSION_CONFIG}=${props.getProperty(TopicConfig.MESSAGE_FORMAT_VERSION_CONFIG)} is specified. This configuration will be ignored if the version is newer than the inter.broker.protocol.version specified in the broker or if the inter.broker.protocol.version is 3.0 or newer. This configuration is deprecated and it will be removed in Apache Kafka 4.0.")
	}
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
	var asg [][]int32
	if s := tc.p.Value("replica-assignment"); tc.p.Has("replica-assignment") && s != "" {
		all, class, msg := parseReplicaAssignment(s)
		if msg != "" {
			tc.fail(class, msg)
			return
		}
		cur := len(topics[0].Partitions)
		if len(all) > cur {
			asg = all[cur:]
		}
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
