package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-verifiable-consumer.sh: Kafka 3.8's VerifiableConsumer, the system
// tests' consumer. It subscribes to one topic in a group and prints one JSON
// object per event on stdout: startup_complete, partitions_revoked and
// partitions_assigned around each rebalance, records_consumed after each
// poll (record_data per record with --verbose), offsets_committed after
// each commit (it commits synchronously after every poll unless
// --enable-autocommit), and shutdown_complete. Run it in the background
// with & and stop it with kill %N, or give it --max-messages.

const verifiableConsumerProg = "verifiable-consumer"

// verifiableConsumerParser is VerifiableConsumer's parser in release v:
// Kafka 4.0 removed --broker-list and --session-timeout's default (the
// consumer's own, 45 s, applies); 4.3 writes its metavars with hyphens
// and adds --command-config, the KIP-1147 name of --consumer.config
// (VerifiableConsumer.argParser).
func verifiableConsumerParser(v release.Version) *javacli.Parser {
	p := verifiableConsumerParser38()
	if !v.AtLeast(4, 0) {
		return p
	}
	var args []*javacli.Argument
	for _, a := range p.Args {
		if a.Flags[0] == "--broker-list" {
			continue
		}
		c := *a
		if c.Flags[0] == "--session-timeout" {
			c.Default, c.HasDefault = "", false
		}
		if v.AtLeast(4, 3) && c.Flags[0] != "--bootstrap-server" {
			c.Metavar = strings.ReplaceAll(c.Metavar, "_", "-")
		}
		args = append(args, &c)
	}
	if v.AtLeast(4, 3) {
		args = append(args, &javacli.Argument{Flags: []string{"--command-config"}, Metavar: "CONFIG-FILE", Type: "String",
			Help: "a consumer properties file (the new name of --consumer.config)."})
	}
	p.Args = args
	return p
}

func verifiableConsumerParser38() *javacli.Parser {
	return &javacli.Parser{
		Prog:             verifiableConsumerProg,
		Description:      "Consume a topic in a consumer group and print each consumer event (rebalances, records received, offsets committed) as a JSON object on stdout.",
		GroupDescription: "How to reach the brokers (one of the two).",
		Args: []*javacli.Argument{
			{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
			{Flags: []string{"--bootstrap-server"}, Metavar: "HOST1:PORT1[,HOST2:PORT2[...]]", Type: "String", Grouped: true,
				Help: "the brokers to connect to, comma-separated (in kafkascope kafka-N:9092; may be omitted: every broker)."},
			{Flags: []string{"--broker-list"}, Metavar: "HOST1:PORT1[,HOST2:PORT2[...]]", Type: "String", Grouped: true,
				Help: "the old name of --bootstrap-server, used only when --bootstrap-server is not given."},
			{Flags: []string{"--topic"}, Metavar: "TOPIC", Type: "String", Required: true, Help: "the topic to consume."},
			{Flags: []string{"--group-protocol"}, Metavar: "GROUP_PROTOCOL", Type: "String", Default: "classic", HasDefault: true,
				Help: "group.protocol: classic or consumer (KIP-848)."},
			{Flags: []string{"--group-remote-assignor"}, Metavar: "GROUP_REMOTE_ASSIGNOR", Type: "String",
				Help: "group.remote.assignor, the server-side assignor of the consumer group protocol (uniform or range; not used with classic)."},
			{Flags: []string{"--group-id"}, Metavar: "GROUP_ID", Type: "String", Required: true, Help: "the group.id the consumers of the group share."},
			{Flags: []string{"--group-instance-id"}, Metavar: "GROUP_INSTANCE_ID", Type: "String", Help: "group.instance.id, which makes the consumer a static member."},
			{Flags: []string{"--max-messages"}, Metavar: "MAX-MESSAGES", Type: "Integer", Default: "-1", HasDefault: true,
				Help: "stop after this many records; -1 consumes until the process is stopped."},
			{Flags: []string{"--session-timeout"}, Metavar: "TIMEOUT_MS", Type: "Integer", Default: "30000", HasDefault: true, Help: "session.timeout.ms."},
			{Flags: []string{"--verbose"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true, Help: "also print each record as a record_data event."},
			{Flags: []string{"--enable-autocommit"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true,
				Help: "let the consumer commit automatically instead of committing after every poll."},
			{Flags: []string{"--reset-policy"}, Metavar: "RESET_POLICY", Type: "String", Default: "earliest", HasDefault: true,
				Help: "auto.offset.reset: earliest, latest or none."},
			{Flags: []string{"--assignment-strategy"}, Metavar: "ASSIGNMENT_STRATEGY", Type: "String", Default: "org.apache.kafka.clients.consumer.RangeAssignor", HasDefault: true,
				Help: "partition.assignment.strategy, a class name such as org.apache.kafka.clients.consumer.RoundRobinAssignor."},
			{Flags: []string{"--consumer.config"}, Metavar: "CONFIG_FILE", Type: "String",
				Help: "a consumer properties file (in kafkascope: written with cat > FILE); the options above win over it."},
		},
	}
}

// verifiableConsumerTool is kafka-verifiable-consumer.sh.
func verifiableConsumerTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	p := verifiableConsumerParser(rel)
	if len(args) == 0 {
		t.printLines(p.HelpLines())
		t.finish(0)
		return nil
	}
	// The connection group is required; kafkascope lets the bootstrap be
	// omitted, as for every tool, meaning every broker.
	if !slices.Contains(args, "--bootstrap-server") && (rel.AtLeast(4, 0) || !slices.Contains(args, "--broker-list")) &&
		!slices.ContainsFunc(args, func(a string) bool {
			return strings.HasPrefix(a, "--bootstrap-server=") || !rel.AtLeast(4, 0) && strings.HasPrefix(a, "--broker-list=")
		}) {
		args = append([]string{"--bootstrap-server", ""}, args...)
	}
	v, perr := p.Parse(args)
	switch {
	case perr != nil && perr.Help:
		t.printLines(p.HelpLines())
		t.finish(1)
		return nil
	case perr != nil:
		t.printLines(p.ErrorLines(perr))
		t.finish(1)
		return nil
	}
	arg := p.Arg
	// Defaults apply to options not given.
	str := func(flag string) string {
		a := arg(flag)
		if v.Given(a) {
			return v.Str(a)
		}
		return a.Default
	}
	num := func(flag string) int64 {
		a := arg(flag)
		if v.Given(a) {
			return v.Num(a)
		}
		n, _ := strconv.ParseInt(a.Default, 10, 64)
		return n
	}
	props := map[string]string{}
	configOpt := "--consumer.config"
	if rel.AtLeast(4, 3) {
		// createFromArgs (4.3): the two names are refused together, and
		// the old one is announced before its file is read.
		if v.Given(arg("--consumer.config")) && v.Given(arg("--command-config")) {
			t.printLines(p.ErrorLines(&javacli.ParseError{Msg: "Options --consumer.config and --command-config are mutually exclusive.", Parser: p}))
			t.finish(1)
			return nil
		}
		if v.Given(arg("--consumer.config")) {
			t.println("Option --consumer.config has been deprecated and will be removed in a future version. Use --command-config instead.")
		} else {
			configOpt = "--command-config"
		}
	}
	if v.Given(arg(configOpt)) {
		path := v.Str(arg(configOpt))
		text, ok := t.s.readWorkspace(path)
		if !ok {
			t.printLines(p.ErrorLines(&javacli.ParseError{Msg: jdk.Path(path), Parser: p}))
			t.finish(1)
			return nil
		}
		fileProps, err := jdk.LoadProperties(text)
		if err != "" {
			t.printLines(p.ErrorLines(&javacli.ParseError{Msg: err, Parser: p}))
			t.finish(1)
			return nil
		}
		for k, val := range fileProps {
			props[k] = val
		}
	}
	// The protocol decides which of --group-remote-assignor (default
	// null) and --assignment-strategy reach the config. 4.x parses the
	// name with GroupProtocol.of, which throws for any other name, and
	// puts the enum's name (VerifiableConsumer.java@4.3:668-684); 3.8
	// takes anything but "consumer" for classic and sets group.protocol
	// only for consumer (@3.8:642-657).
	proto := str("--group-protocol")
	consumerProto := strings.EqualFold(proto, "consumer")
	if rel.AtLeast(4, 0) {
		if !consumerProto && !strings.EqualFold(proto, "classic") {
			t.println(`Exception in thread "main" java.lang.IllegalArgumentException: No enum constant org.apache.kafka.clients.consumer.GroupProtocol.` + strings.ToUpper(proto))
			t.finish(1)
			return nil
		}
		props["group.protocol"] = strings.ToUpper(proto)
	} else if consumerProto {
		props["group.protocol"] = proto
	}
	if consumerProto {
		if v.Given(arg("--group-remote-assignor")) {
			props["group.remote.assignor"] = str("--group-remote-assignor")
		}
	} else {
		props["partition.assignment.strategy"] = str("--assignment-strategy")
	}
	groupID := str("--group-id")
	props["group.id"] = groupID
	if v.Given(arg("--group-instance-id")) {
		props["group.instance.id"] = str("--group-instance-id")
	}
	bootstrapList := v.Str(arg("--bootstrap-server"))
	if !rel.AtLeast(4, 0) && (!v.Given(arg("--bootstrap-server")) || bootstrapList == "" && v.Given(arg("--broker-list"))) {
		bootstrapList = v.Str(arg("--broker-list"))
	}
	useAutoCommit := v.Given(arg("--enable-autocommit"))
	props["enable.auto.commit"] = strconv.FormatBool(useAutoCommit)
	props["auto.offset.reset"] = str("--reset-policy")
	if v.Given(arg("--session-timeout")) || !rel.AtLeast(4, 0) {
		props["session.timeout.ms"] = strconv.FormatInt(num("--session-timeout"), 10)
	}

	cfg := client.DefaultConsumerConfigFor(rel)
	// KafkaConsumer's generated client.id: consumer-<group>-<n>, n counting
	// the JVM's consumers from 1.
	cfg.ClientID = "consumer-" + groupID + "-1"
	if id, ok := props["client.id"]; ok {
		cfg.ClientID = id
	}
	cfg.GroupID = groupID
	switch r := props["auto.offset.reset"]; r {
	case "earliest", "latest", "none":
		cfg.AutoOffsetReset = r
	default:
		t.println(`Exception in thread "main" org.apache.kafka.common.config.ConfigException: ` + autoOffsetResetInvalid(r, rel))
		t.finish(1)
		return nil
	}
	if msg := applyConsumerProps(&cfg, props, rel); msg != "" {
		// new ConsumerConfig runs before KafkaConsumer's constructor, so a
		// ConfigException is not wrapped (KafkaConsumer.java's
		// KafkaConsumer(Properties, Deserializer, Deserializer)).
		if strings.HasPrefix(msg, "org.apache.kafka.common.config.ConfigException") {
			t.println(`Exception in thread "main" ` + msg)
			t.finish(1)
			return nil
		}
		t.println(`Exception in thread "main" org.apache.kafka.common.KafkaException: Failed to construct kafka consumer`)
		t.println("Caused by: " + msg)
		t.finish(1)
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(bootstrapList)
	if berr != nil {
		t.bootstrapFailed(berr, `Exception in thread "main" org.apache.kafka.common.KafkaException: Failed to construct kafka consumer`,
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	vc := &verifiableConsumer{t: t, rel: rel, topic: str("--topic"), maxMessages: num("--max-messages"),
		useAutoCommit: useAutoCommit, verbose: v.Given(arg("--verbose"))}
	return func(host string) sim.Process {
		vc.c = client.NewConsumer(sim.Addr(host+":50000"), bootstrap, cfg, func(level client.Level, msg, logger string) {
			// tools-log4j.properties: WARN and above, on stderr.
			if level == client.LevelWarn || level == client.LevelError {
				t.println(client.FormatLogLine(t.s.world().Now(), level, msg, logger))
			}
		})
		vc.coordAddr = sim.Addr(host + ":50001")
		t.terminate = vc.close
		return &client.Process{Handlers: []client.Handler{vc.c}, OnStart: vc.run}
	}
}

type verifiableConsumer struct {
	t             *toolRun
	c             *client.Consumer
	coordAddr     sim.Addr
	rel           release.Version
	topic         string
	maxMessages   int64
	useAutoCommit bool
	verbose       bool

	consumed   int64
	closing    bool
	requested  bool // shutdown_requested was printed
	committing bool
	pending    [][]client.ConsumerRecord // polls waiting for a commit to finish (commitSync blocks the loop)

}

func (vc *verifiableConsumer) event(name string, fields ...string) {
	s := fmt.Sprintf(`{"timestamp":%d,"name":"%s"`, vc.t.s.world().Now().UnixMilli(), name)
	for _, f := range fields {
		s += "," + f
	}
	vc.t.println(s + "}")
}

func jsonPartitions(tps []group.TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = fmt.Sprintf(`{"topic":%s,"partition":%d}`, jsonQuote(tp.Topic), tp.Partition)
	}
	return `"partitions":[` + strings.Join(parts, ",") + "]"
}

func (vc *verifiableConsumer) run(env *sim.Env) {
	vc.event("startup_complete")
	if vc.maxMessages >= 0 && vc.consumed >= vc.maxMessages {
		vc.shutdown(env, 0)
		return
	}
	vc.c.OnRecords(vc.onRecords)
	vc.c.OnError(func(env *sim.Env, err *client.Error) {
		vc.t.logException(client.LevelError, "Error during processing, terminating consumer process: ", "org.apache.kafka.tools.VerifiableConsumer", err.Lines())
		vc.shutdown(env, 0)
	})
	// VerifiableConsumer's ConsumerRebalanceListener (it does not
	// override onPartitionsLost, whose default calls onPartitionsRevoked).
	vc.c.OnRebalance(func(env *sim.Env, tps []group.TopicPartition) {
		vc.event("partitions_revoked", jsonPartitions(tps))
	}, func(env *sim.Env, tps []group.TopicPartition) {
		vc.event("partitions_assigned", jsonPartitions(tps))
	}, nil)
	if bad := vc.c.Subscribe(env, vc.coordAddr, []string{vc.topic}); bad != "" {
		vc.t.println("org.apache.kafka.common.KafkaException: " + bad + " ClassNotFoundException exception occurred")
		vc.shutdown(env, 1)
	}
}

// onRecords is one poll's records: summarised per partition (cut at
// --max-messages), then committed unless auto-commit is on. commitSync
// blocks the poll loop, so records of a later poll wait for it.
func (vc *verifiableConsumer) onRecords(env *sim.Env, recs []client.ConsumerRecord) {
	if vc.closing {
		return
	}
	if vc.committing {
		vc.pending = append(vc.pending, recs)
		return
	}
	var order []group.TopicPartition
	byTP := map[group.TopicPartition][]client.ConsumerRecord{}
	for _, r := range recs {
		tp := group.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		if _, ok := byTP[tp]; !ok {
			order = append(order, tp)
		}
		byTP[tp] = append(byTP[tp], r)
	}
	// ConsumerRecords keeps a poll's records in a HashMap by partition.
	order = javaTPOrder(order)
	offsets := map[group.TopicPartition]int64{}
	var commitOrder []group.TopicPartition
	var summaries []string
	for _, tp := range order {
		part := byTP[tp]
		if vc.maxMessages >= 0 && vc.consumed+int64(len(part)) > vc.maxMessages {
			part = part[:vc.maxMessages-vc.consumed]
		}
		if len(part) == 0 {
			continue
		}
		minOff, maxOff := part[0].Offset, part[len(part)-1].Offset
		offsets[tp] = maxOff + 1
		commitOrder = append(commitOrder, tp)
		summaries = append(summaries, fmt.Sprintf(`{"topic":%s,"partition":%d,"count":%d,"minOffset":%d,"maxOffset":%d}`,
			jsonQuote(tp.Topic), tp.Partition, len(part), minOff, maxOff))
		if vc.verbose {
			for _, r := range part {
				key := "null"
				if r.Key != nil {
					key = jsonQuote(string(r.Key))
				}
				value := "null"
				if r.Value != nil {
					value = jsonQuote(string(r.Value))
				}
				vc.event("record_data", `"key":`+key, `"value":`+value, `"topic":`+jsonQuote(r.Topic),
					fmt.Sprintf(`"partition":%d`, r.Partition), fmt.Sprintf(`"offset":%d`, r.Offset))
			}
		}
		vc.consumed += int64(len(part))
		if vc.finished() {
			break
		}
	}
	vc.event("records_consumed", fmt.Sprintf(`"count":%d`, len(recs)), `"partitions":[`+strings.Join(summaries, ",")+"]")
	next := func(env *sim.Env) {
		if vc.finished() {
			vc.shutdown(env, 0)
			return
		}
		if len(vc.pending) > 0 {
			recs := vc.pending[0]
			vc.pending = vc.pending[1:]
			vc.onRecords(env, recs)
		}
	}
	if vc.useAutoCommit {
		next(env)
		return
	}
	vc.committing = true
	vc.c.CommitSync(env, offsets, func(env *sim.Env, err *client.Error) {
		vc.committing = false
		if err != nil && err.Class == "org.apache.kafka.common.errors.FencedInstanceIdException" {
			// VerifiableConsumer.commitSync rethrows it: run() logs it and
			// shuts down, with no offsets_committed event.
			vc.t.logException(client.LevelError, "Error during processing, terminating consumer process: ", "org.apache.kafka.tools.VerifiableConsumer", err.Lines())
			vc.shutdown(env, 0)
			return
		}
		var list []string
		for _, tp := range javaTPOrder(commitOrder) {
			list = append(list, fmt.Sprintf(`{"topic":%s,"partition":%d,"offset":%d}`, jsonQuote(tp.Topic), tp.Partition, offsets[tp]))
		}
		fields := []string{`"offsets":[` + strings.Join(list, ",") + "]"}
		if err != nil {
			fields = append(fields, `"error":`+jsonQuote(err.Message))
		}
		fields = append(fields, fmt.Sprintf(`"success":%t`, err == nil))
		vc.event("offsets_committed", fields...)
		next(env)
	})
}

func (vc *verifiableConsumer) finished() bool {
	return vc.maxMessages >= 0 && vc.consumed >= vc.maxMessages
}

// close is the shutdown hook (SIGTERM): wake the loop, which closes the
// consumer. From Kafka 4.3 the hook first prints shutdown_requested
// (VerifiableConsumer.close).
func (vc *verifiableConsumer) close(env *sim.Env) {
	vc.requestShutdown()
	vc.shutdown(env, 143)
}

// requestShutdown prints 4.3's shutdown_requested, once: the JVM runs the
// hook once, on SIGTERM or when main returns.
func (vc *verifiableConsumer) requestShutdown() {
	if vc.rel.AtLeast(4, 3) && !vc.requested {
		vc.requested = true
		vc.event("shutdown_requested")
	}
}

// shutdown closes the consumer (with auto-commit it commits, and it leaves
// the group), then prints shutdown_complete.
func (vc *verifiableConsumer) shutdown(env *sim.Env, code int) {
	if vc.closing {
		return
	}
	vc.closing = true
	vc.c.Close(env, func(env *sim.Env) {
		vc.event("shutdown_complete")
		// main returns, and the JVM's exit runs the shutdown hook.
		vc.requestShutdown()
		vc.t.finish(code)
	})
}

func compareTP(x, y group.TopicPartition) int {
	if x.Topic != y.Topic {
		return strings.Compare(x.Topic, y.Topic)
	}
	return int(x.Partition - y.Partition)
}
