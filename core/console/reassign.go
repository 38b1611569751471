package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Exception classes kafka-reassign-partitions.sh reports.
const (
	adminCommandFailed = "org.apache.kafka.server.common.AdminCommandFailedException"
	adminOperation     = "org.apache.kafka.server.common.AdminOperationException"
	jsonMapping        = "com.fasterxml.jackson.databind.JsonMappingException"
)

func reassignSpecs() []*javacli.OptionSpec { return withCommon(reassignSpecList) }

// reassignSpecsFor are the tool's options in release v. From 4.0
// --bootstrap-server takes an optional argument and --bootstrap-controller
// joins it (KAFKA-17374); 4.1 adds --disallow-replication-factor-change
// (KIP-860, KAFKA-14121). ReassignPartitionsCommandOptions.java.
func reassignSpecsFor(v release.Version) []*javacli.OptionSpec {
	specs := reassignSpecs()
	if !v.AtLeast(3, 0) {
		return append(specs, &reassignZooKeeperSpec) // 2.8 (KIP-455 deprecated it)
	}
	if !v.AtLeast(4, 0) {
		return specs
	}
	for i, s := range specs {
		if s.Name == "bootstrap-server" {
			c := *s
			c.Arg = javacli.OptionalArg
			specs[i] = &c
		}
	}
	specs = append(specs, &reassignControllerSpec)
	if v.AtLeast(4, 1) {
		specs = append(specs, &reassignDisallowRFSpec)
	}
	return specs
}

var (
	reassignZooKeeperSpec = javacli.OptionSpec{Name: "zookeeper", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "urls",
		Desc: "DEPRECATED: the ZooKeeper connect string (host:port); the tool reads and writes the znodes itself (--execute, --verify, --generate)."}
	reassignControllerSpec = javacli.OptionSpec{Name: "bootstrap-controller", Arg: javacli.OptionalArg, Type: "String", ArgDesc: "bootstrap controller to connect to",
		Desc: "Talk to the controllers' listeners instead of a broker (for --cancel and --list only)."}
	reassignDisallowRFSpec = javacli.OptionSpec{Name: "disallow-replication-factor-change",
		Desc: "For --execute: the controller refuses any partition whose number of replicas the plan would change."}
)

var reassignSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "Server(s) to use for bootstrapping", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "Admin client property file", Desc: "Admin client properties file (a file written with cat > FILE)."},
	{Name: "generate", Desc: "Propose a reassignment of the topics in --topics-to-move-json-file onto --broker-list (it only prints the plan)."},
	{Name: "execute", Desc: "Start the reassignment in --reassignment-json-file."},
	{Name: "verify", Desc: "Report whether the reassignment in --reassignment-json-file has completed."},
	{Name: "cancel", Desc: "Cancel a reassignment in progress."},
	{Name: "list", Desc: "List the reassignments in progress."},
	{Name: "reassignment-json-file", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "manual assignment json file path", Desc: `The plan, as JSON: {"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2,3]}]} (write it with cat > FILE).`},
	{Name: "topics-to-move-json-file", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topics to reassign json file path", Desc: `For --generate: the topics, as JSON: {"topics":[{"topic":"foo"}],"version":1}.`},
	{Name: "broker-list", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "brokerlist", Desc: `For --generate: the brokers to place replicas on, as "1,2,3".`},
	{Name: "disable-rack-aware", Desc: "For --generate: ignore racks."},
	{Name: "throttle", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "throttle", Desc: "Replication throttle in B/s (replication quotas are not simulated).", Default: "-1"},
	{Name: "replica-alter-log-dirs-throttle", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "replicaAlterLogDirsThrottle", Desc: "Throttle for moves between log directories (not simulated).", Default: "-1"},
	{Name: "timeout", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "timeout", Desc: "How long --execute waits for log directory moves to start, in ms.", Default: "10000"},
	{Name: "additional", Desc: "Start this reassignment even though others are in progress."},
	{Name: "preserve-throttles", Desc: "Leave broker and topic throttles as they are."},
}

// reassignActions are the actions, in the order the tool lists them.
var reassignActions = []string{"generate", "execute", "verify", "cancel", "list"}

// reassignRequired and reassignPermitted are ReassignPartitionsCommand's
// per-action option rules.
var reassignRequired = map[string][]string{
	"verify": {"reassignment-json-file"}, "generate": {"topics-to-move-json-file", "broker-list"},
	"execute": {"reassignment-json-file"}, "cancel": {"reassignment-json-file"}, "list": nil,
}
var reassignPermitted = map[string][]string{
	"verify":   {"bootstrap-server", "command-config", "preserve-throttles"},
	"generate": {"bootstrap-server", "broker-list", "command-config", "disable-rack-aware"},
	"execute":  {"additional", "bootstrap-server", "command-config", "throttle", "replica-alter-log-dirs-throttle", "timeout"},
	"cancel":   {"bootstrap-server", "command-config", "preserve-throttles", "timeout"},
	"list":     {"bootstrap-server", "command-config"},
}

// reassignTool is kafka-reassign-partitions.sh.
func reassignTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	specs := reassignSpecsFor(rel)
	p, err := javacli.ParseOptions(specs, args)
	if err != nil { // not caught by the tool: the JVM reports it
		oe := err.(*javacli.OptionError)
		t.println(`Exception in thread "main" ` + oe.Class + ": " + oe.Msg)
		t.finish(1)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to move topic partitions between replicas.", specs) {
		return nil
	}
	var actions []string
	for _, a := range reassignActions {
		if p.Has(a) {
			actions = append(actions, a)
		}
	}
	if len(actions) != 1 {
		t.usage("Command must include exactly one action: --generate, --execute, --verify, --cancel, --list", specs)
		return nil
	}
	action := actions[0]
	// (The real tool requires --bootstrap-server, or from 4.0 one of it and
	// --bootstrap-controller; the simulator takes the absence of both as
	// "every broker", as its other tools do.)
	controllers := p.Has("bootstrap-controller")
	if controllers && p.Has("bootstrap-server") {
		t.usage("Please don't specify both --bootstrap-server and --bootstrap-controller", specs)
		return nil
	}
	for _, r := range reassignRequired[action] {
		if !p.Has(r) {
			t.usage(fmt.Sprintf(`Missing required argument "[%s]"`, r), specs)
			return nil
		}
	}
	permitted := reassignPermitted[action]
	if rel.AtLeast(4, 0) && controllers && (action == "cancel" || action == "list") {
		// isBootstrapServer ? bootstrapServerOpt : bootstrapControllerOpt
		permitted = append([]string{"bootstrap-controller"}, permitted[1:]...)
	}
	if rel.AtLeast(4, 1) && action == "execute" {
		permitted = append(slices.Clone(permitted), "disallow-replication-factor-change")
	}
	if !rel.AtLeast(3, 0) && action != "cancel" && action != "list" {
		permitted = append(slices.Clone(permitted), "zookeeper")
	}
	for _, o := range p.Order {
		if o != action && !slices.Contains(reassignRequired[action], o) && !slices.Contains(permitted, o) {
			t.usage(fmt.Sprintf(`Option "[%s]" can't be used with action "[%s]"`, o, action), specs)
			return nil
		}
	}
	// 2.8: without --bootstrap-server (the ZooKeeper path) these options
	// are refused, before main's try (validateAndParseArgs).
	zkPath := !rel.AtLeast(3, 0) && p.Has("zookeeper") && !p.Has("bootstrap-server")
	if zkPath {
		for _, o := range []string{"additional", "cancel", "command-config", "replica-alter-log-dirs-throttle", "list", "timeout"} {
			if p.Has(o) {
				t.mainException(`java.lang.RuntimeException: You must specify --bootstrap-server when using "[` + o + `]"`)
				return nil
			}
		}
	}
	rc := &reassignCommand{t: t, p: p, action: action, rel: rel, controllers: controllers}
	if zkPath {
		t.println("Warning: --zookeeper is deprecated, and will be removed in a future version of Kafka.")
		return reassignZkTool(rc)
	}
	if !rel.AtLeast(3, 0) && p.Has("zookeeper") {
		t.println("Warning: ignoring deprecated --zookeeper option because --bootstrap-server was specified.  The --zookeeper option will be removed in a future version of Kafka.")
	}
	if p.Has("command-config") {
		if _, ok := t.s.readWorkspace(p.Value("command-config")); !ok {
			rc.fail("java.nio.file.NoSuchFileException", p.Value("command-config"))
			return nil
		}
	}
	// From 4.0 both bootstrap options take an optional argument: given
	// without one, main puts a null into the admin client's Properties,
	// whose ConcurrentHashMap throws a NullPointerException without a
	// message.
	bootstrapOpt := "bootstrap-server"
	if controllers {
		bootstrapOpt = "bootstrap-controller"
	}
	if rel.AtLeast(4, 0) && p.Has(bootstrapOpt) && len(p.Values(bootstrapOpt)) == 0 {
		t.println("Error: null")
		t.println("java.lang.NullPointerException")
		t.println("")
		t.finish(1)
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value(bootstrapOpt))
	if berr != nil {
		t.bootstrapFailed(berr, "Error: Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}", "")
		return nil
	}
	if !rc.prepare() {
		return nil
	}
	return func(host string) sim.Process {
		cfg := client.DefaultAdminConfig()
		cfg.ClientID = "reassign-partitions-tool"
		if controllers {
			// bootstrap.controllers: the admin client talks to the
			// controllers' listeners only (see kafka-metadata-quorum).
			t.useBootstrapControllers(&cfg)
		}
		rc.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{rc.admin}, OnStart: rc.run}
	}
}

// reassignCommand is one run of the tool.
type reassignCommand struct {
	t      *toolRun
	p      *javacli.OptionSet
	action string
	admin  *client.Admin
	rel    release.Version
	// controllers: --bootstrap-controller (4.0+, --cancel and --list).
	controllers bool
	// live are the brokers the last describeTopics' metadata listed: a
	// replica elsewhere comes back as an empty Node, which 4.2's
	// getReplicaToLogDir skips.
	live []int32

	// zk: the --zookeeper path (2.8); exit ends the tool after closing
	// its ZooKeeper client, nil: the tool ends at once.
	zk   bool
	exit func(code int)

	plan    []reassignTarget // --execute, --verify, --cancel
	topics  []string         // --generate
	brokers []int32          // --generate
	// racks are the live brokers' broker.rack as the cluster described
	// them (--generate's getBrokerMetadata; "" or absent: none).
	racks map[int32]string
}

// reassignTarget is one partition of a plan.
type reassignTarget struct {
	topic     string
	partition int32
	replicas  []int32
	logDirs   []string
}

func (r reassignTarget) tp() string { return fmt.Sprintf("%s-%d", r.topic, r.partition) }

// finish ends the tool with code (main's finally closes its client).
func (rc *reassignCommand) finish(code int) {
	if rc.exit != nil {
		rc.exit(code)
		return
	}
	rc.t.finish(code)
}

// fail prints an error as the tool's catch-all does: "Error: <message>",
// the exception (the simulator prints no Java stack frames) and an empty
// line, and exits 1.
func (rc *reassignCommand) fail(class, msg string, causes ...string) {
	rc.t.println("Error: " + msg)
	rc.t.println(client.Exception(rc.exceptionClass(class), msg))
	for _, c := range causes {
		rc.t.println("Caused by: " + c)
	}
	rc.t.println("")
	rc.finish(1)
}

// terse prints a TerseException: its message alone.
func (rc *reassignCommand) terse(msg string) {
	rc.t.printLines(strings.Split(msg, "\n"))
	rc.finish(1)
}

// failErr reports a parse error of the JSON plan.
func (rc *reassignCommand) failErr(err error) {
	switch e := err.(type) {
	case *jsonMappingError:
		if rc.scalaTool() {
			rc.fail(jsonMapping, scalaDecodeMessage(e.msg))
			return
		}
		rc.fail(jsonMapping, e.msg)
	case *toolError:
		rc.fail(e.class, e.msg)
	default:
		rc.fail(adminOperation, err.Error())
	}
}

// toolError is an exception of a given class.
type toolError struct{ class, msg string }

func (e *toolError) Error() string { return e.msg }

// readFile reads a JSON file argument as Utils.readFileAsString does.
func (rc *reassignCommand) readFile(opt string) (string, bool) {
	path := rc.p.Value(opt)
	data, ok := rc.t.s.readWorkspace(path)
	if !ok {
		rc.fail("java.io.IOException", "Unable to read file "+path, "java.nio.file.NoSuchFileException: "+path)
		return "", false
	}
	return data, true
}

// prepare reads and checks the files and numbers the action needs, before
// any request is sent. It reports whether the command may go on.
func (rc *reassignCommand) prepare() bool {
	switch rc.action {
	case "generate":
		text, ok := rc.readFile("topics-to-move-json-file")
		if !ok {
			return false
		}
		for _, piece := range strings.Split(rc.p.Value("broker-list"), ",") {
			n, err := strconv.ParseInt(piece, 10, 32)
			if err != nil {
				rc.fail("java.lang.NumberFormatException", fmt.Sprintf("For input string: %q", piece))
				return false
			}
			rc.brokers = append(rc.brokers, int32(n))
		}
		if d := duplicateInts(rc.brokers); len(d) > 0 {
			list := javaIntSet(d)
			if rc.scalaTool() {
				list = joinInts(scalaDuplicateInts(rc.brokers), ",")
			}
			rc.fail(adminCommandFailed, "Broker list contains duplicate entries: "+list)
			return false
		}
		topics, err := parseTopicsJSON(text)
		if err != nil {
			rc.failErr(err)
			return false
		}
		if d := duplicateStrings(topics); len(d) > 0 {
			list := javaStringSet(d)
			if rc.scalaTool() {
				list = strings.Join(scalaDuplicateStrings(topics), ",")
			}
			rc.fail(adminCommandFailed, "List of topics to reassign contains duplicate entries: "+list)
			return false
		}
		rc.topics = topics
	case "execute", "verify", "cancel":
		text, ok := rc.readFile("reassignment-json-file")
		if !ok {
			return false
		}
		plan, err := parseReassignmentJSON(text, rc.scalaTool())
		if err != nil {
			rc.failErr(err)
			return false
		}
		if rc.action == "execute" {
			if err := checkExecutePlan(plan, rc.scalaTool()); err != nil {
				rc.failErr(err)
				return false
			}
			for _, opt := range []string{"throttle", "replica-alter-log-dirs-throttle", "timeout"} {
				if _, err := rc.p.Int(opt, 64); err != nil {
					rc.fail("joptsimple.OptionArgumentConversionException", err.Error())
					return false
				}
			}
			if n, _ := rc.p.Int("throttle", 64); n >= 0 {
				rc.t.println("kafkascope: --throttle is not simulated (replication quotas are outside the simulator); run without it")
				rc.finish(1)
				return false
			}
			if n, _ := rc.p.Int("replica-alter-log-dirs-throttle", 64); n >= 0 {
				rc.t.println("kafkascope: --replica-alter-log-dirs-throttle is not simulated (each broker has one log directory)")
				rc.finish(1)
				return false
			}
		}
		for _, r := range plan {
			for _, d := range r.logDirs {
				if d != "any" && rc.zk {
					rc.fail(adminCommandFailed, "bootstrap-server needs to be provided when replica reassignments are present.")
					return false
				}
				if d != "any" {
					rc.t.println(`kafkascope: moving a replica between log directories ("log_dirs") is not simulated: each broker has one log directory; use "any"`)
					rc.finish(1)
					return false
				}
			}
		}
		rc.plan = plan
	}
	return true
}

func (rc *reassignCommand) run(env *sim.Env) {
	switch rc.action {
	case "list":
		rc.list(env)
	case "generate":
		rc.generate(env)
	case "execute":
		rc.execute(env)
	case "verify":
		rc.verify(env)
	case "cancel":
		rc.cancel(env)
	}
}

func duplicateInts(xs []int32) []int32 {
	var d []int32
	for i, x := range xs {
		if slices.Contains(xs[:i], x) && !slices.Contains(d, x) {
			d = append(d, x)
		}
	}
	return d
}

func duplicateStrings(xs []string) []string {
	var d []string
	for i, x := range xs {
		if slices.Contains(xs[:i], x) && !slices.Contains(d, x) {
			d = append(d, x)
		}
	}
	return d
}

// javaIntSet prints a HashSet<Integer> as Java does: small non-negative
// ints in ascending order (their hash is their value).
func javaIntSet(xs []int32) string { return "[" + javaIntSetString(xs, ", ") + "]" }

// javaStringSet prints a HashSet<String> in Java's hash order.
func javaStringSet(xs []string) string {
	return "[" + strings.Join(jdk.HashSetOrder(xs), ", ") + "]"
}

func joinInts(xs []int32, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(int(x))
	}
	return strings.Join(parts, sep)
}
