package console

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// configEntityTypes are the entity types of kafka-configs.sh, in the order
// its messages list them: 3.8 lists ConfigType's constants with
// broker-loggers before client-metrics; from 4.1 ConfigType is an enum that
// ends with groups, and BrokerSupportedConfigTypes appends broker-loggers
// (ConfigCommand.scala, ConfigType.java in 4.1).
func configEntityTypes(rel release.Version) []string {
	if rel.AtLeast(4, 1) {
		return []string{"topics", "clients", "users", "brokers", "ips", "client-metrics", "groups", "broker-loggers"}
	}
	return []string{"topics", "clients", "users", "brokers", "ips", "broker-loggers", "client-metrics"}
}

// configShortcuts are the entity flags in the order ConfigCommand collects
// them: the named ones, then the *-defaults flags. 4.1 added --client-metrics
// and --group after --ip.
func configShortcuts(rel release.Version) []struct{ flag, typ string } {
	named := []struct{ flag, typ string }{
		{"topic", "topics"}, {"client", "clients"}, {"user", "users"}, {"broker", "brokers"},
		{"broker-logger", "broker-loggers"}, {"ip", "ips"},
	}
	if rel.AtLeast(4, 1) {
		named = append(named, struct{ flag, typ string }{"client-metrics", "client-metrics"}, struct{ flag, typ string }{"group", "groups"})
	}
	return named
}

var configDefaultShortcuts = []struct{ flag, typ string }{
	{"client-defaults", "clients"}, {"user-defaults", "users"}, {"broker-defaults", "brokers"}, {"ip-defaults", "ips"},
}

// configsSpecs are kafka-configs.sh's options in release rel: 4.0 removed
// --zookeeper and --zk-tls-config-file, 4.1 removed --force and added
// --client-metrics and --group (ConfigCommandOptions).
func configsSpecs(rel release.Version) []*javacli.OptionSpec {
	var list []javacli.OptionSpec
	for _, o := range configsSpecList {
		switch o.Name {
		case "zookeeper", "zk-tls-config-file":
			if rel.AtLeast(4, 0) {
				continue
			}
		case "force":
			if rel.AtLeast(4, 1) {
				continue
			}
		case "client-metrics", "group":
			if !rel.AtLeast(4, 1) {
				continue
			}
		}
		list = append(list, o)
	}
	return withCommon(list)
}

var configsSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "bootstrap-controller", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "controller to connect to", Desc: "The controllers to connect to (not simulated: use --bootstrap-server)."},
	{Name: "zookeeper", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "urls", Desc: "DEPRECATED. ZooKeeper to connect to (kafkascope clusters run in KRaft mode and have none)."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "command config property file", Desc: "Admin client properties file (the simulator has no local files)."},
	{Name: "alter", Desc: "Change the configs of the entity."},
	{Name: "describe", Desc: "Show the configs of the entity (only dynamic ones unless --all)."},
	{Name: "all", Desc: "With --describe: every config of the topic or broker, with where its value comes from."},
	{Name: "entity-type", Arg: javacli.RequiredArg, Type: "String", Desc: "What kind of entity: topics/clients/users/brokers/broker-loggers/ips/client-metrics."},
	{Name: "entity-name", Arg: javacli.RequiredArg, Type: "String", Desc: "The entity's name: a topic name or a broker id, ..."},
	{Name: "entity-default", Desc: "The cluster-wide default entity (for brokers: configs every broker uses unless it has its own)."},
	{Name: "add-config", Arg: javacli.RequiredArg, Type: "String", Desc: "Configs to set, as 'k1=v1,k2=[v1,v2],k3=v3' (square brackets group a value that contains commas)."},
	{Name: "add-config-file", Arg: javacli.RequiredArg, Type: "String", Desc: "A properties file of configs to set (the simulator has no local files)."},
	{Name: "delete-config", Arg: javacli.RequiredArg, Type: "String", Desc: "Config names to remove, as 'k1,k2'."},
	{Name: "force", Desc: "Do not prompt (accepted, has no effect)."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type topics --entity-name <topic>."},
	{Name: "client", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type clients --entity-name <client id>."},
	{Name: "client-defaults", Desc: "Shortcut for the default of all clients."},
	{Name: "user", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type users --entity-name <principal>."},
	{Name: "user-defaults", Desc: "Shortcut for the default of all users."},
	{Name: "broker", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type brokers --entity-name <id>."},
	{Name: "broker-defaults", Desc: "Shortcut for --entity-type brokers --entity-default."},
	{Name: "broker-logger", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type broker-loggers --entity-name <id>."},
	{Name: "ip", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type ips --entity-name <ip>."},
	{Name: "ip-defaults", Desc: "Shortcut for the default of all IPs."},
	{Name: "client-metrics", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type client-metrics --entity-name <name>."},
	{Name: "group", Arg: javacli.RequiredArg, Type: "String", Desc: "Shortcut for --entity-type groups --entity-name <group id>."},
	{Name: "zk-tls-config-file", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "ZooKeeper TLS configuration", Desc: "ZooKeeper TLS settings file (only with --zookeeper)."},
}

// configCommand is one run of kafka-configs.sh.
type configCommand struct {
	t       *toolRun
	p       *javacli.OptionSet
	rawArgs string
	types   []string
	names   []string
	admin   *client.Admin
	// waiting is the pending future.get(30 s): it fires unless the call it
	// waits for has answered.
	waiting *sim.Timer
}

// configsTool is kafka-configs.sh (ConfigCommand), for topics and brokers.
func configsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	specs := configsSpecs(t.rel())
	p, err := javacli.ParseOptions(specs, args)
	if err != nil { // an OptionException: its message alone
		t.println(err.(*javacli.OptionError).Msg)
		t.finish(1)
		return nil
	}
	about := "This tool helps to manipulate and describe entity config for a topic, client, user, broker, ip or client-metrics"
	if t.rel().AtLeast(4, 1) {
		about = "This tool helps to manipulate and describe entity config for a topic, client, user, broker, ip, client-metrics or group"
	}
	if t.helpOrVersion(p, args, about, specs) {
		return nil
	}
	cc := &configCommand{t: t, p: p, rawArgs: strings.Join(args, " ")}
	cc.collectEntities()
	if !cc.checkArgs(specs) {
		return nil
	}
	if p.Has("zookeeper") {
		t.println("Warning: --zookeeper is deprecated and will be removed in a future version of Kafka.")
		t.println("Use --bootstrap-server instead to specify a broker to connect to.")
		return cc.unsupported("this cluster runs in KRaft mode and has no ZooKeeper: use --bootstrap-server")
	}
	if p.Has("bootstrap-controller") {
		return cc.unsupported("--bootstrap-controller is not simulated: use --bootstrap-server")
	}
	if p.Has("command-config") {
		cc.generic("java.nio.file.NoSuchFileException: " + p.Value("command-config"))
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, "Error while executing config command with args '"+cc.rawArgs+"'",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	if p.Has("alter") && len(cc.types) != len(cc.names) {
		cc.fail("An entity name must be specified for every entity type")
		return nil
	}
	switch cc.types[0] {
	case "topics", "brokers":
	default:
		return cc.unsupported(fmt.Sprintf("--entity-type %s is not simulated (quotas, SCRAM users, broker loggers and client metrics are outside the simulator): use topics or brokers", cc.types[0]))
	}
	return func(host string) sim.Process {
		cfg := client.DefaultAdminConfig()
		cc.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		start := func(env *sim.Env) {
			if p.Has("alter") {
				cc.alter(env)
			} else {
				cc.describe(env)
			}
		}
		return &client.Process{Handlers: []client.Handler{cc.admin}, OnStart: start}
	}
}

// collectEntities builds the entity types and names as ConfigCommandOptions
// does: --entity-type values then the shortcut flags' types; names from
// --entity-name/--entity-default in command-line order ("" for the
// default), then the shortcut flags' values, then "" per *-defaults flag.
func (cc *configCommand) collectEntities() {
	p := cc.p
	shortcuts := configShortcuts(cc.t.rel())
	cc.types = append(cc.types, p.Values("entity-type")...)
	for _, s := range shortcuts {
		if p.Has(s.flag) {
			cc.types = append(cc.types, s.typ)
		}
	}
	for _, s := range configDefaultShortcuts {
		if p.Has(s.flag) {
			cc.types = append(cc.types, s.typ)
		}
	}
	names := p.Values("entity-name")
	for _, o := range p.Order {
		switch o {
		case "entity-name":
			cc.names = append(cc.names, names[0])
			names = names[1:]
		case "entity-default":
			cc.names = append(cc.names, "")
		}
	}
	for _, s := range shortcuts {
		if p.Has(s.flag) {
			cc.names = append(cc.names, p.Value(s.flag))
		}
	}
	for _, s := range configDefaultShortcuts {
		if p.Has(s.flag) {
			cc.names = append(cc.names, "")
		}
	}
}

// checkArgs applies ConfigCommandOptions.checkArgs in its order. It reports
// whether the command may go on.
func (cc *configCommand) checkArgs(specs []*javacli.OptionSpec) bool {
	p, t := cc.p, cc.t
	actions := 0
	for _, a := range []string{"alter", "describe"} {
		if p.Has(a) {
			actions++
		}
	}
	if actions != 1 {
		t.usage("Command must include exactly one action: --describe, --alter", specs)
		return false
	}
	if p.Has("describe") {
		for _, o := range []string{"alter", "add-config", "delete-config"} {
			if p.Has(o) {
				t.usage(fmt.Sprintf(`Option "[describe]" can't be used with option "[%s]"`, o), specs)
				return false
			}
		}
	}
	var dups []string
	for i, ty := range cc.types {
		if slices.Contains(cc.types[:i], ty) {
			dups = append(dups, ty)
		}
	}
	if len(dups) > 0 {
		return cc.fail("Duplicate entity type(s) specified: " + strings.Join(dups, ","))
	}
	// The simulator takes a missing --bootstrap-server as "every broker",
	// so the broker-side entity types apply unless --zookeeper (3.8) was
	// given.
	rel := t.rel()
	allowed, connect := configEntityTypes(rel), "--bootstrap-server or --bootstrap-controller"
	if p.Has("zookeeper") && !p.Has("bootstrap-server") && !p.Has("bootstrap-controller") {
		allowed, connect = []string{"users", "brokers"}, "--zookeeper"
	}
	for _, ty := range cc.types {
		if !slices.Contains(allowed, ty) {
			return cc.fail(fmt.Sprintf("Invalid entity type %s, the entity type must be one of %s with a %s argument", ty, strings.Join(allowed, ", "), connect))
		}
	}
	if len(cc.types) == 0 {
		return cc.fail("At least one entity type must be specified")
	}
	if len(cc.types) > 1 && !(len(cc.types) == 2 && slices.Contains(cc.types, "users") && slices.Contains(cc.types, "clients")) {
		return cc.fail("Only 'users' and 'clients' entity types may be specified together")
	}
	shortcut := false
	for _, s := range append(configShortcuts(rel), configDefaultShortcuts...) {
		shortcut = shortcut || p.Has(s.flag)
	}
	if (p.Has("entity-name") || p.Has("entity-type") || p.Has("entity-default")) && shortcut {
		return cc.fail("--entity-{type,name,default} should not be used in conjunction with specific entity flags")
	}
	hasName, hasDefault := false, false
	for _, n := range cc.names {
		hasName = hasName || n != ""
		hasDefault = hasDefault || n == ""
	}
	connects := 0
	for _, o := range []string{"bootstrap-server", "bootstrap-controller", "zookeeper"} {
		if p.Has(o) {
			connects++
		}
	}
	if connects > 1 {
		if rel.AtLeast(4, 0) {
			return cc.fail("Only one of --bootstrap-server or --bootstrap-controller can be specified")
		}
		return cc.fail("Only one of --bootstrap-server, --boostrap-controller, and --zookeeper can be specified")
	}
	if p.Has("all") && p.Has("zookeeper") {
		return cc.fail("--bootstrap-server must be specified for --all")
	}
	if p.Has("zk-tls-config-file") && !p.Has("zookeeper") {
		return cc.fail("Only the --zookeeper option can be used with the --zk-tls-config-file option.")
	}
	if hasName && (slices.Contains(cc.types, "brokers") || slices.Contains(cc.types, "broker-loggers")) {
		for _, o := range []string{"entity-name", "broker", "broker-logger"} {
			if p.Has(o) {
				if _, err := strconv.ParseInt(p.Values(o)[0], 10, 32); err != nil {
					return cc.fail(fmt.Sprintf("The entity name for %s must be a valid integer broker id, but it is: %s", cc.types[0], p.Values(o)[0]))
				}
			}
		}
	}
	// From 4.0 these messages start with a capital letter.
	an := "an"
	if rel.AtLeast(4, 0) {
		an = "An"
	}
	quota := false
	for _, ty := range []string{"users", "clients", "brokers", "ips"} {
		quota = quota || slices.Contains(cc.types, ty)
	}
	if p.Has("describe") {
		// 4.0 refuses --entity-default for the types that have no default
		// entity (ConfigCommandOptions.checkArgs).
		if rel.AtLeast(4, 0) && !quota && p.Has("entity-default") {
			return cc.fail("--entity-default must not be specified with --describe of " + strings.Join(cc.types, ","))
		}
		if slices.Contains(cc.types, "broker-loggers") && !hasName {
			return cc.fail(an + " entity name must be specified with --describe of " + strings.Join(cc.types, ","))
		}
	}
	if p.Has("alter") {
		if quota && !hasName && !hasDefault {
			return cc.fail(an + " entity-name or default entity must be specified with --alter of users, clients, brokers or ips")
		}
		if !quota && !hasName {
			return cc.fail(an + " entity name must be specified with --alter of " + strings.Join(cc.types, ","))
		}
		if p.Has("add-config") && p.Has("add-config-file") {
			return cc.fail("Only one of --add-config or --add-config-file must be specified")
		}
		if !p.Has("add-config") && !p.Has("add-config-file") && !p.Has("delete-config") {
			return cc.fail("At least one of --add-config, --add-config-file, or --delete-config must be specified with --alter")
		}
		if cc.t.s.cluster != nil && cc.t.s.cluster.IsZooKeeper() && cc.types[0] != "topics" && cc.types[0] != "brokers" {
			// A 2.8 broker writes a topic's or a broker's change to
			// /config/topics or /config/brokers and /config/changes, which
			// every broker watches (broker/zkconfigs.go,
			// zkbrokerconfigs.go); quotas and SCRAM credentials
			// (/config/users, /config/clients, /config/ips) are not.
			cc.unsupported("changing " + cc.types[0] + " configs with kafka-configs.sh --alter is not simulated on Kafka 2.8 (ZooKeeper) yet (topics and brokers are)")
			return false
		}
	}
	return true
}

// fail prints an IllegalArgumentException's message, as ConfigCommand's
// main does (no usage, no trace), and ends with status 1.
func (cc *configCommand) fail(msg string) bool {
	cc.t.println(msg)
	cc.t.finish(1)
	return false
}

// generic prints a failure through ConfigCommand's catch-all: the command
// line, then the exception (without Java stack frames).
func (cc *configCommand) generic(lines ...string) {
	cc.t.println("Error while executing config command with args '" + cc.rawArgs + "'")
	cc.t.printLines(lines)
	cc.t.finish(1)
}

// failed reports an admin call's failure as future.get() does: an
// ExecutionException wrapping the cause.
func (cc *configCommand) failed(cause *client.Error) {
	cc.generic(append([]string{"java.util.concurrent.ExecutionException: " + cause.Error()}, cause.CausedBy()...)...)
}

func (cc *configCommand) failedCode(code protocol.ErrorCode, msg string) {
	if msg == "" {
		msg = code.Message()
	}
	cc.failed(&client.Error{Class: code.Exception(), Message: msg})
}

func (cc *configCommand) unsupported(what string) func(string) sim.Process {
	cc.t.println("kafkascope: " + what)
	cc.t.finish(1)
	return nil
}

// await arms the tool's future.get(30 s): if done is not called first, the
// tool fails with java.util.concurrent.TimeoutException (no message).
func (cc *configCommand) await(env *sim.Env) (done func() bool) {
	cc.waiting = env.After(30*time.Second, "kafka-configs get timeout", func(*sim.Env) {
		cc.waiting = nil
		cc.generic("java.util.concurrent.TimeoutException")
	})
	return func() bool {
		if cc.waiting == nil {
			return false // already timed out
		}
		cc.waiting.Stop()
		cc.waiting = nil
		return true
	}
}

// entityLabel is "topic t" / "broker 1": the type without its last letter.
func entityLabel(typ, name string) string { return typ[:len(typ)-1] + " " + name }

// describe prints each entity's configs, fetching them one entity at a
// time as ConfigCommand.describeResourceConfig does.
func (cc *configCommand) describe(env *sim.Env) {
	typ := cc.types[0]
	if len(cc.names) > 0 {
		if cc.t.rel().AtLeast(4, 1) && !cc.p.Has("all") && cc.names[0] != "" {
			cc.describeIfExists(env, typ, cc.names[0])
			return
		}
		cc.describeEach(env, typ, cc.names[:1])
		return
	}
	cc.withMetadata(env, func(env *sim.Env, md *protocol.MetadataResponse) {
		var names []string
		if typ == "topics" {
			// listTopics().names() is a HashSet: Java hash order.
			var all []string
			for _, t := range md.Topics {
				if t.ErrorCode == protocol.NONE {
					all = append(all, t.Name)
				}
			}
			names = jdk.HashSetOrder(all)
		} else {
			ids := make([]int, 0, len(md.Brokers))
			for _, b := range md.Brokers {
				ids = append(ids, int(b.NodeID))
			}
			slices.Sort(ids) // a HashMap of small ints iterates in ascending order
			for _, id := range ids {
				names = append(names, strconv.Itoa(id))
			}
			names = append(names, "")
		}
		cc.describeEach(env, typ, names)
	})
}

// withMetadata runs then on the answer to the Metadata request behind the
// admin client's listTopics and describeCluster; a failure ends the tool.
func (cc *configCommand) withMetadata(env *sim.Env, then func(env *sim.Env, md *protocol.MetadataResponse)) {
	cc.admin.Call(env, "listTopics", func() protocol.Request { return &protocol.MetadataRequest{} }, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			cc.failed(err)
			return
		}
		then(env, resp.(*protocol.MetadataResponse))
	})
}

// describeIfExists is 4.1's check before describing one named entity
// without --all (ConfigCommand.describeResourceConfig): a topic name is
// validated first, then a topic that listTopics does not return, or a broker
// that describeCluster does not, is reported in one line and the tool ends
// with status 0.
func (cc *configCommand) describeIfExists(env *sim.Env, typ, name string) {
	if typ == "topics" {
		if msg := metadata.TopicNameProblem(name); msg != "" {
			// From 4.1 InvalidTopicException is an InvalidConfigurationException,
			// which ConfigCommand.main prints alone.
			cc.fail("Topic name is invalid: " + msg)
			return
		}
	}
	cc.withMetadata(env, func(env *sim.Env, md *protocol.MetadataResponse) {
		found := false
		if typ == "topics" {
			for _, t := range md.Topics {
				found = found || (t.ErrorCode == protocol.NONE && t.Name == name)
			}
		} else {
			for _, b := range md.Brokers {
				found = found || strconv.Itoa(int(b.NodeID)) == name
			}
		}
		if !found {
			cc.t.println("The " + typ[:len(typ)-1] + " '" + name + "' doesn't exist and doesn't have dynamic config.")
			cc.t.finish(0)
			return
		}
		cc.describeEach(env, typ, []string{name})
	})
}

func (cc *configCommand) describeEach(env *sim.Env, typ string, names []string) {
	if len(names) == 0 {
		cc.t.finish(0)
		return
	}
	name := names[0]
	switch {
	case name == "":
		cc.t.println("Default configs for " + typ + " in the cluster are:")
	case cc.p.Has("all"):
		cc.t.println("All configs for " + entityLabel(typ, name) + " are:")
	default:
		cc.t.println("Dynamic configs for " + entityLabel(typ, name) + " are:")
	}
	cc.resourceConfig(env, typ, name, cc.p.Has("all"), func(env *sim.Env, entries []protocol.DescribedConfig) {
		for _, e := range entries {
			syns := make([]string, len(e.Synonyms))
			for i, s := range e.Synonyms {
				syns[i] = sourceName(s.Source) + ":" + s.Name + "=" + s.Value
			}
			cc.t.println(fmt.Sprintf("  %s=%s sensitive=%t synonyms={%s}", e.Name, valueText(e), e.Sensitive, strings.Join(syns, ", ")))
		}
		cc.describeEach(env, typ, names[1:])
	})
}

func valueText(e protocol.DescribedConfig) string {
	if e.Null || e.Sensitive {
		return "null"
	}
	return e.Value
}

// sourceName is ConfigEntry.ConfigSource's name for a wire source.
func sourceName(s int8) string {
	switch s {
	case protocol.SourceDynamicTopicConfig:
		return "DYNAMIC_TOPIC_CONFIG"
	case protocol.SourceDynamicBrokerConfig:
		return "DYNAMIC_BROKER_CONFIG"
	case protocol.SourceDynamicDefaultBroker:
		return "DYNAMIC_DEFAULT_BROKER_CONFIG"
	case protocol.SourceStaticBrokerConfig:
		return "STATIC_BROKER_CONFIG"
	case protocol.SourceDefaultConfig:
		return "DEFAULT_CONFIG"
	}
	return "UNKNOWN"
}

// resourceConfig is ConfigCommand.getResourceConfig: one DescribeConfigs
// (with synonyms) for the entity, waited for 30 s, filtered to the dynamic
// source of the entity unless all, sorted by name.
func (cc *configCommand) resourceConfig(env *sim.Env, typ, name string, all bool, next func(*sim.Env, []protocol.DescribedConfig)) {
	resType, keep := metadata.ResourceTopic, protocol.SourceDynamicTopicConfig
	if typ == "topics" {
		if msg := metadata.TopicNameProblem(name); msg != "" {
			if cc.t.rel().AtLeast(4, 1) {
				cc.fail("Topic name is invalid: " + msg) // an InvalidConfigurationException from 4.1
				return
			}
			cc.generic("org.apache.kafka.common.errors.InvalidTopicException: Topic name is invalid: " + msg)
			return
		}
	} else {
		resType, keep = metadata.ResourceBroker, protocol.SourceDynamicBrokerConfig
		if name == "" {
			keep = protocol.SourceDynamicDefaultBroker
		}
	}
	done := cc.await(env)
	build := func() protocol.Request {
		return &protocol.DescribeConfigsRequest{IncludeSynonyms: true, Resources: []protocol.DescribeConfigsResource{{ResourceType: resType, ResourceName: name}}}
	}
	answer := func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if !done() {
			return
		}
		if err != nil {
			cc.failed(err)
			return
		}
		r := resp.(*protocol.DescribeConfigsResponse).Results[0]
		if r.ErrorCode != protocol.NONE {
			cc.failedCode(r.ErrorCode, r.ErrorMessage)
			return
		}
		var out []protocol.DescribedConfig
		for _, e := range r.Configs {
			if all || e.Source == keep {
				out = append(out, e)
			}
		}
		sorts.Func(out, func(a, b protocol.DescribedConfig) int { return strings.Compare(a.Name, b.Name) })
		next(env, out)
	}
	if resType == metadata.ResourceBroker && name != "" {
		// A broker's own configs come from that broker (the admin client's
		// ConstantNodeIdProvider: it waits while the metadata lacks the
		// broker, and the tool's 30 s get then expires).
		id, _ := strconv.ParseInt(name, 10, 32)
		cc.admin.CallNode(env, "describeConfigs", int32(id), build, answer)
		return
	}
	cc.admin.Call(env, "describeConfigs", build, answer)
}

// alter runs --alter for a topic or a broker. Up to 4.2 it first checks
// that every --delete-config key is currently set (Invalid config(s));
// 4.3 drops the check, so deleting an unset key does nothing (KAFKA-20506).
// Topics change through IncrementalAlterConfigs; brokers too from 4.0
// (KIP-1011), while 3.8 sent them the legacy AlterConfigs with the full
// new set.
func (cc *configCommand) alter(env *sim.Env) {
	typ, name := cc.types[0], cc.names[0]
	rel := cc.t.rel()
	added := map[string]string{}
	var addedKeys []string
	if cc.p.Has("add-config-file") {
		cc.generic("java.nio.file.NoSuchFileException: " + cc.p.Value("add-config-file"))
		return
	}
	if cc.p.Has("add-config") {
		var msg string
		if addedKeys, added, msg = parseAddConfig(cc.p.Value("add-config"), rel); msg != "" {
			cc.fail(msg)
			return
		}
		if v, ok := added["message.format.version"]; ok && !rel.AtLeast(4, 0) {
			cc.t.println("WARNING: The configuration message.format.version=" + v + " is specified. This configuration will be ignored if the version is newer than the inter.broker.protocol.version specified in the broker or if the inter.broker.protocol.version is 3.0 or newer. This configuration is deprecated and it will be removed in Apache Kafka 4.0.")
		}
	}
	var deleted []string
	for _, v := range cc.p.Values("delete-config") {
		for _, k := range strings.Split(v, ",") {
			deleted = append(deleted, strings.TrimSpace(k))
		}
	}
	finish := func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			cc.failed(err)
			return
		}
		rs := protocol.AlterConfigsResults(resp)
		for _, r := range rs {
			if r.ErrorCode != protocol.NONE {
				cc.failedCode(r.ErrorCode, r.ErrorMessage)
				return
			}
		}
		if name == "" {
			cc.t.println("Completed updating default config for " + typ + " in the cluster.")
		} else {
			cc.t.println("Completed updating config for " + entityLabel(typ, name) + ".")
		}
		cc.t.finish(0)
	}
	target := client.BrokerOrActiveController()
	if typ == "brokers" && name != "" {
		id, _ := strconv.ParseInt(name, 10, 32)
		target = client.BrokerNode(int32(id))
	}
	incremental := func(env *sim.Env) {
		resType := metadata.ResourceTopic
		if typ == "brokers" {
			resType = metadata.ResourceBroker
		}
		res := protocol.AlterConfigsResource{ResourceType: resType, ResourceName: name}
		set := func() {
			for _, k := range addedKeys {
				v := added[k]
				res.Configs = append(res.Configs, protocol.AlterableConfig{Name: k, ConfigOperation: protocol.OpSet, Value: &v})
			}
		}
		del := func() {
			for _, k := range deleted {
				empty := ""
				res.Configs = append(res.Configs, protocol.AlterableConfig{Name: k, ConfigOperation: protocol.OpDelete, Value: &empty})
			}
		}
		if rel.AtLeast(4, 0) {
			del() // (deleteEntries ++ addEntries)
			set()
		} else {
			set()
			del()
		}
		cc.admin.CallTarget(env, "incrementalAlterConfigs", target, 30*time.Second, func(int32) protocol.Request {
			return &protocol.IncrementalAlterConfigsRequest{Resources: []protocol.AlterConfigsResource{res}}
		}, finish)
	}
	if rel.AtLeast(4, 3) {
		incremental(env)
		return
	}
	cc.resourceConfig(env, typ, name, false, func(env *sim.Env, current []protocol.DescribedConfig) {
		old := map[string]string{}
		for _, e := range current {
			old[e.Name] = e.Value
		}
		var invalid []string
		for _, k := range deleted {
			if _, ok := old[k]; !ok {
				invalid = append(invalid, k)
			}
		}
		if len(invalid) > 0 {
			cc.fail("Invalid config(s): " + strings.Join(invalid, ","))
			return
		}
		if typ == "topics" || rel.AtLeast(4, 0) {
			incremental(env)
			return
		}
		// 3.8 brokers: old ++ added -- deleted, sent whole.
		merged := map[string]string{}
		for k, v := range old {
			merged[k] = v
		}
		for k, v := range added {
			merged[k] = v
		}
		for _, k := range deleted {
			delete(merged, k)
		}
		res := protocol.LegacyAlterConfigsResource{ResourceType: metadata.ResourceBroker, ResourceName: name}
		for _, k := range slices.Sorted(maps.Keys(merged)) {
			v := merged[k]
			res.Configs = append(res.Configs, protocol.ConfigEntry{Name: k, Value: &v})
		}
		build := func() protocol.Request {
			return &protocol.AlterConfigsRequest{Resources: []protocol.LegacyAlterConfigsResource{res}}
		}
		cc.admin.CallTarget(env, "alterConfigs", target, 30*time.Second, func(int32) protocol.Request { return build() }, finish)
	})
}
