package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// consumerSpecs are the console consumer's options (3.8's, for completion).
func consumerSpecs() []*javacli.OptionSpec { return withCommon(consumerSpecList) }

// consumerSpecsFor are the console consumer's options in release v:
// KIP-1147 (Kafka 4.2) added --command-property, --command-config and
// --formatter-property, the new names of --consumer-property,
// --consumer.config and --property (ConsoleConsumerOptions.java).
func consumerSpecsFor(v release.Version) []*javacli.OptionSpec {
	if !v.AtLeast(4, 2) {
		return withCommon(consumerSpecList)
	}
	return append(withCommon(consumerSpecList), withKIP1147(consumerSpecs42)...)
}

var consumerSpecs42 = []javacli.OptionSpec{
	{Name: "command-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "consumer_prop", Desc: "A consumer config as key=value (the new name of --consumer-property)."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Consumer config properties file (the new name of --consumer.config)."},
	{Name: "formatter-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "prop", Desc: "Formatter properties (the new name of --property)."},
}

// withKIP1147 is pointers to a list of options added by KIP-1147.
func withKIP1147(list []javacli.OptionSpec) []*javacli.OptionSpec {
	out := make([]*javacli.OptionSpec, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

var consumerSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "The topic to consume."},
	{Name: "include", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "Java regex (String)", Desc: "Topics to consume, as a regular expression (not simulated yet)."},
	{Name: "partition", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "partition", Desc: "Read only this partition (from the end unless --from-beginning or --offset)."},
	{Name: "offset", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "consume offset", Desc: "With --partition: earliest, latest or an offset.", Default: "latest"},
	{Name: "from-beginning", Desc: "Start with the earliest message when there is no committed offset."},
	{Name: "max-messages", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "num_messages", Desc: "Exit after this many messages."},
	{Name: "timeout-ms", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "timeout_ms", Desc: "Exit when no message arrives for this long."},
	{Name: "group", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "consumer group id", Desc: "The consumer group id of the consumer."},
	{Name: "property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "prop", Desc: "Formatter properties: print.timestamp, print.key, print.value, print.partition, print.offset, print.epoch, print.headers, key.separator, line.separator, null.literal."},
	{Name: "consumer-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "consumer_prop", Desc: "A consumer config as key=value."},
	{Name: "consumer.config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Consumer config properties file (write it with cat > FILE). Simulator-only: kafkascope.record.processing.ms makes the application spend that long on each record between polls."},
	{Name: "formatter", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "class", Desc: "Only the default formatter is simulated.", Default: "org.apache.kafka.tools.consumer.DefaultMessageFormatter"},
	{Name: "formatter-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Formatter config file (not read by the simulator)."},
	{Name: "skip-message-on-error", Desc: "Skip a message that cannot be formatted."},
	{Name: "isolation-level", Arg: javacli.RequiredArg, Type: "String", Desc: "read_uncommitted or read_committed.", Default: "read_uncommitted"},
	{Name: "key-deserializer", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "deserializer for key", Desc: "Accepted; keys print as their bytes."},
	{Name: "value-deserializer", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "deserializer for values", Desc: "Accepted; values print as their bytes."},
	{Name: "enable-systest-events", Desc: "Accepted for compatibility."},
}

// formatter is DefaultMessageFormatter.
type formatter struct {
	timestamp, key, value, partition, offset, headers, delivery, epoch bool
	keySep, lineSep, headersSep, nullLiteral                           string
}

// newFormatter configures the formatter from its properties as release v's
// DefaultMessageFormatter does: print.delivery and print.epoch exist from
// Kafka 4.0 (tools/.../consumer/DefaultMessageFormatter.java); 3.8's
// formatter ignores them.
func newFormatter(props map[string]string, v release.Version) *formatter {
	b := func(name string, def bool) bool {
		v, ok := props[name]
		if !ok {
			return def
		}
		return strings.EqualFold(strings.TrimSpace(v), "true")
	}
	s := func(name, def string) string {
		if v, ok := props[name]; ok {
			return v
		}
		return def
	}
	return &formatter{
		timestamp: b("print.timestamp", false), key: b("print.key", false), value: b("print.value", true),
		partition: b("print.partition", false), offset: b("print.offset", false), headers: b("print.headers", false),
		delivery: v.AtLeast(4, 0) && b("print.delivery", false), epoch: v.AtLeast(4, 0) && b("print.epoch", false),
		keySep: s("key.separator", "\t"), lineSep: s("line.separator", "\n"), headersSep: s("headers.separator", ","),
		nullLiteral: s("null.literal", "null"),
	}
}

// format renders one record: each printed field is followed by the key
// separator if another field follows, else by the line separator.
func (f *formatter) format(r client.ConsumerRecord) string {
	var fields []string
	if f.timestamp {
		fields = append(fields, fmt.Sprintf("%s:%d", r.TimestampType, r.Timestamp))
	}
	if f.partition {
		fields = append(fields, fmt.Sprintf("Partition:%d", r.Partition))
	}
	if f.offset {
		fields = append(fields, fmt.Sprintf("Offset:%d", r.Offset))
	}
	if f.delivery {
		fields = append(fields, "Delivery:NOT_PRESENT") // only share-group records carry a delivery count
	}
	if f.epoch {
		// ConsoleConsumer.process re-wraps each record with an empty
		// leader epoch before formatting it (ConsoleConsumer.java, 4.x), so
		// the field never shows the batch's epoch.
		fields = append(fields, "Epoch:NOT_PRESENT")
	}
	if f.headers {
		if len(r.Headers) == 0 {
			fields = append(fields, "NO_HEADERS")
		} else {
			hs := make([]string, len(r.Headers))
			for i, h := range r.Headers {
				v := f.nullLiteral
				if h.Value != nil {
					v = string(h.Value)
				}
				hs[i] = h.Key + ":" + v
			}
			fields = append(fields, strings.Join(hs, f.headersSep))
		}
	}
	bytesOrNull := func(b []byte) string {
		if b == nil {
			return f.nullLiteral
		}
		return string(b)
	}
	if f.key {
		fields = append(fields, bytesOrNull(r.Key))
	}
	if f.value {
		fields = append(fields, bytesOrNull(r.Value))
	}
	if len(fields) == 0 {
		return ""
	}
	return strings.Join(fields, f.keySep) + f.lineSep
}

// consumerTool is kafka-console-consumer.sh.
func consumerTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	specs := consumerSpecsFor(rel)
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		t.usage(err.Error(), specs)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to read data from Kafka topics and outputs it to standard output.", specs) {
		return nil
	}
	if p.Has("topic") == p.Has("include") {
		if rel.AtLeast(4, 3) {
			// CommandLineUtils.checkOneOfArgs (ConsoleConsumerOptions, 4.3).
			t.usage("Exactly one of the following arguments is required: [topic], [include]", specs)
		} else {
			t.usage("Exactly one of --include/--topic is required. ", specs)
		}
		return nil
	}
	if p.Has("include") {
		t.println("kafka-console-consumer.sh: --include is not simulated yet; use --topic")
		t.finish(1)
		return nil
	}
	partition := int32(-1)
	if p.Has("partition") {
		n, err := p.Int("partition", 32)
		if err != nil {
			t.println(`Exception in thread "main" ` + err.(*javacli.OptionError).Class + ": " + err.Error())
			t.finish(1)
			return nil
		}
		partition = int32(n)
		if p.Has("from-beginning") && p.Has("offset") {
			t.usage("Options from-beginning and offset cannot be specified together.", specs)
			return nil
		}
	} else if p.Has("offset") {
		t.usage("The partition is required when offset is specified.", specs)
		return nil
	}
	if p.Has("bootstrap-server") && !validBootstrapSyntax(p.Value("bootstrap-server")) {
		t.usage("Please provide valid host:port like host1:9091,host2:9092\n", specs)
		return nil
	}
	// KIP-1147 (4.2): the old option names still work, with a line on
	// stdout each (ConsoleConsumerOptions' constructor); old and new
	// together are refused.
	propOpt, configOpt, fmtOpt := "consumer-property", "consumer.config", "property"
	if rel.AtLeast(4, 2) {
		if t.renamedTogether(p, specs, [][2]string{{"consumer-property", "command-property"}, {"consumer.config", "command-config"}}) {
			return nil
		}
		if !t.renamedOption(p, "Option", "consumer-property", "command-property") {
			propOpt = "command-property"
		}
		if !t.renamedOption(p, "Option", "consumer.config", "command-config") {
			configOpt = "command-config"
		}
		if !p.Has("property") {
			fmtOpt = "formatter-property"
		}
	}
	cprops := map[string]string{}
	if p.Has(configOpt) {
		file, exc, ok := t.commandConfigProps(p.Value(configOpt))
		if !ok {
			t.println(`Exception in thread "main" java.nio.file.NoSuchFileException: ` + p.Value(configOpt))
			t.finish(1)
			return nil
		}
		if exc != "" {
			t.println(`Exception in thread "main" ` + exc)
			t.finish(1)
			return nil
		}
		for k, v := range file {
			cprops[k] = v
		}
	}
	extra, _ := parseKeyValues(p.Values(propOpt))
	var groupIDs []string
	if p.Has("group") {
		groupIDs = append(groupIDs, p.Value("group"))
	}
	for _, src := range []map[string]string{cprops, extra} {
		if g, ok := src["group.id"]; ok && !slices.Contains(groupIDs, g) {
			groupIDs = append(groupIDs, g)
		}
	}
	for k, v := range extra {
		cprops[k] = v
	}
	if len(groupIDs) > 1 {
		// Kafka lists them from a HashSet; the simulator in the order given.
		quoted := make([]string, len(groupIDs))
		for i, g := range groupIDs {
			quoted[i] = "'" + g + "'"
		}
		t.usage("The group ids provided in different places (directly using '--group', via '--consumer-property', or via '--consumer.config') do not match. Detected group ids: "+strings.Join(quoted, ", "), specs)
		return nil
	}
	if len(groupIDs) > 0 && partition >= 0 {
		t.usage("Options group and partition cannot be specified together.", specs)
		return nil
	}
	start := client.SeekLatest
	reset := "latest"
	if p.Has("from-beginning") {
		start, reset = client.SeekEarliest, "earliest"
	}
	if v, ok := cprops["auto.offset.reset"]; ok {
		if p.Has("from-beginning") && v != "earliest" {
			t.println(fmt.Sprintf("Can't simultaneously specify --from-beginning and 'auto.offset.reset=%s', please remove one option", v))
			t.finish(1)
			return nil
		}
		switch v {
		case "earliest":
			start, reset = client.SeekEarliest, v
		case "latest":
			start, reset = client.SeekLatest, v
		case "none":
			// Without --offset the consumer has no position and no policy
			// to find one: its first poll fails.
			start, reset = client.SeekNone, v
		default:
			if rel.AtLeast(4, 0) && strings.HasPrefix(strings.ToLower(v), "by_duration:") {
				t.println("kafkascope: auto.offset.reset=" + v + " (KIP-1106) is not simulated yet: use earliest, latest or none")
				t.finish(1)
				return nil
			}
			t.println(client.FormatLogLine(t.s.world().Now(), client.LevelError, "Unknown error when running consumer: ", consoleConsumerLogger(t.rel())))
			t.println("org.apache.kafka.common.config.ConfigException: " + autoOffsetResetInvalid(v, rel))
			t.finish(1)
			return nil
		}
	}
	if p.Has("offset") {
		switch o := strings.ToLower(p.Value("offset")); o {
		case "earliest":
			start = client.SeekEarliest
		case "latest":
			start = client.SeekLatest
		default:
			n, err := strconv.ParseInt(p.Value("offset"), 10, 64)
			if err != nil || n < 0 {
				t.usage(fmt.Sprintf("The provided offset value '%s' is incorrect. Valid values are 'earliest', 'latest', or a non-negative long.", p.Value("offset")), specs)
				return nil
			}
			start = n
		}
	}
	timeout := time.Duration(-1)
	if p.Has("timeout-ms") {
		n, err := p.Int("timeout-ms", 64)
		if err != nil {
			t.println(`Exception in thread "main" ` + err.(*javacli.OptionError).Class + ": " + err.Error())
			t.finish(1)
			return nil
		}
		if n >= 0 {
			timeout = ms(n)
		}
	}
	if rel.AtLeast(4, 2) {
		// buildFormatter, the constructor's last step.
		if p.Has("property") && p.Has("formatter-property") {
			t.usage("Options --property and --formatter-property cannot be specified together.", specs)
			return nil
		}
		if p.Has("property") {
			t.println("Option --property is deprecated and will be removed in a future version. Use --formatter-property instead.")
		}
	}
	maxMessages := int64(-1)
	if p.Has("max-messages") {
		n, err := p.Int("max-messages", 32)
		if err != nil {
			t.println("Processed a total of 0 messages")
			t.println(client.FormatLogLine(t.s.world().Now(), client.LevelError, "Unknown error when running consumer: ", consoleConsumerLogger(t.rel())))
			t.println(err.(*javacli.OptionError).Class + ": " + err.Error())
			t.finish(1)
			return nil
		}
		maxMessages = n
	}
	fprops, _ := parseKeyValues(p.Values(fmtOpt))
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, client.FormatLogLine(t.s.world().Now(), client.LevelError, "Unknown error when running consumer: ", consoleConsumerLogger(t.rel())),
			"org.apache.kafka.common.KafkaException: Failed to construct kafka consumer",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	cfg := client.DefaultConsumerConfigFor(t.rel())
	cfg.ClientID = "console-consumer"
	if v, ok := cprops["client.id"]; ok {
		cfg.ClientID = v
	}
	cfg.AutoOffsetReset = reset
	if len(groupIDs) > 0 {
		cfg.GroupID = groupIDs[0]
	} else {
		// ConsoleConsumerOptions: a random group, which does not commit
		// unless asked to (its offsets are not meant to be used again).
		cfg.GroupID = fmt.Sprintf("console-consumer-%d", t.s.world().Rand(fmt.Sprintf("console-consumer/%d", t.s.tools)).Intn(100000))
		if _, ok := cprops["enable.auto.commit"]; !ok {
			cprops["enable.auto.commit"] = "false"
		}
	}
	t.s.tools++
	// ConsoleConsumerOptions puts --isolation-level over the properties.
	cprops["isolation.level"] = p.Value("isolation-level")
	if msg := applyConsumerProps(&cfg, cprops, rel); msg != "" {
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelError, "Unknown error when running consumer: ", consoleConsumerLogger(t.rel())))
		if !strings.HasPrefix(msg, "org.apache.kafka.common.config.ConfigException") {
			// Parsing ConsumerConfig throws before KafkaConsumer's
			// constructor; what the constructor throws is wrapped.
			t.println("org.apache.kafka.common.KafkaException: Failed to construct kafka consumer")
			msg = "Caused by: " + msg
		}
		t.println(msg)
		t.finish(1)
		return nil
	}
	if rel.AtLeast(4, 0) && cfg.GroupID == "" {
		// Kafka 4.0 removed the empty group id: the consumer's constructor
		// refuses it (ClassicKafkaConsumer.java), before run()'s finally
		// that prints the total.
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelError, "Unknown error when running consumer: ", consoleConsumerLogger(t.rel())))
		t.println("org.apache.kafka.common.KafkaException: Failed to construct kafka consumer")
		t.println("Caused by: org.apache.kafka.common.errors.InvalidGroupIdException: The configured group.id should not be an empty string or whitespace.")
		t.finish(1)
		return nil
	}
	run := &consumerRun{t: t, topic: p.Value("topic"), partition: partition, start: start, max: maxMessages, timeout: timeout, f: newFormatter(fprops, rel)}
	// Kafka 4.3 advertises KIP-848 on stderr once the consumer is built,
	// unless --partition assigns it by hand or group.protocol is not
	// classic (ConsoleConsumer.maybePrintConsumerProtocolMessage); the
	// tools' log4j2 config keeps the INFO line it replaces hidden.
	if rel.AtLeast(4, 3) && partition < 0 {
		if gp, ok := cprops["group.protocol"]; !ok || strings.EqualFold(gp, "classic") {
			t.println("The consumer rebalance protocol (KIP-848) is production-ready! Set group.protocol=consumer to try it out. See https://kafka.apache.org/documentation/#consumer_rebalance_protocol")
		}
	}
	return func(host string) sim.Process {
		run.coordAddr = sim.Addr(host + ":50001")
		run.c = client.NewConsumer(sim.Addr(host+":50000"), bootstrap, cfg, t.logger())
		t.terminate = run.stop
		return &client.Process{Handlers: []client.Handler{run.c}, OnStart: run.begin}
	}
}

// consoleConsumerLogger is ConsoleConsumer's logger: the Java class since
// 3.7 moved it to tools, the Scala object's class (kafka.tools.
// ConsoleConsumer$, Logging's getClass) in 2.8.
func consoleConsumerLogger(rel release.Version) string {
	if !rel.AtLeast(3, 7) {
		return "kafka.tools.ConsoleConsumer$"
	}
	return "org.apache.kafka.tools.consumer.ConsoleConsumer"
}

// consumerRun is one console consumer's loop.
type consumerRun struct {
	t         *toolRun
	c         *client.Consumer
	topic     string
	partition int32
	start     int64
	max       int64
	timeout   time.Duration
	f         *formatter
	count     int64
	timer     *sim.Timer
	assigned  bool
	done      bool
	coordAddr sim.Addr // the consumer's connection to its group coordinator
}

func (r *consumerRun) begin(env *sim.Env) {
	r.c.OnRecords(r.onRecords)
	r.c.OnError(func(env *sim.Env, err *client.Error) {
		r.t.logException(client.LevelError, "Error processing message, terminating consumer process: ", consoleConsumerLogger(r.t.rel()), err.Lines())
		r.end(env, 0)
	})
	if r.max == 0 {
		r.end(env, 0) // the tool's loop runs while count < max-messages
		return
	}
	r.armTimeout(env)
	r.assign(env)
}

// assign waits for the topic's metadata, then assigns the partition(s). The
// console consumer subscribes to the topic; without a group coordinator the
// simulator assigns it every partition, which is what a lone member of a
// group gets.
func (r *consumerRun) assign(env *sim.Env) {
	if r.partition < 0 {
		// --topic without --partition: subscribe(), so the consumer joins
		// its group and gets partitions from the group's assignment.
		r.assigned = true
		r.c.Subscribe(env, r.coordAddr, []string{r.topic})
		return
	}
	md := r.c.Metadata()
	md.Add(r.topic)
	t := md.Topic(r.topic)
	if t == nil {
		md.Await(env, r.assign)
		return
	}
	if r.assigned {
		return
	}
	r.assigned = true
	var parts []int32
	if r.partition >= 0 {
		if int(r.partition) >= len(t.Partitions) {
			return // an absent partition is simply never read
		}
		parts = []int32{r.partition}
	} else {
		for i := range t.Partitions {
			parts = append(parts, int32(i))
		}
	}
	r.c.Assign(env, r.topic, parts, r.start)
}

func (r *consumerRun) armTimeout(env *sim.Env) {
	if r.timeout < 0 {
		return
	}
	r.timer.Stop()
	r.timer = env.After(r.timeout, "console-consumer-timeout", func(env *sim.Env) {
		if r.done {
			return
		}
		r.t.logException(client.LevelError, "Error processing message, terminating consumer process: ", consoleConsumerLogger(r.t.rel()), []string{"org.apache.kafka.common.errors.TimeoutException"})
		r.end(env, 0)
	})
}

func (r *consumerRun) onRecords(env *sim.Env, recs []client.ConsumerRecord) {
	for _, rec := range recs {
		if r.done {
			return
		}
		out := r.f.format(rec)
		r.count++
		if out != "" {
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				r.t.println(l)
			}
		}
		if r.max >= 0 && r.count >= r.max {
			r.end(env, 0)
			return
		}
	}
	r.armTimeout(env)
}

func (r *consumerRun) stop(env *sim.Env) { r.end(env, 143) }

// end closes the consumer (a group member commits, with auto-commit, and
// leaves its group), then prints the total (on stderr, from the tool's
// finally block) and exits.
func (r *consumerRun) end(env *sim.Env, code int) {
	if r.done {
		return
	}
	r.done = true
	r.timer.Stop()
	r.c.Close(env, func(*sim.Env) {
		r.t.println(fmt.Sprintf("Processed a total of %d messages", r.count))
		r.t.finish(code)
	})
}

// autoOffsetResetInvalid is the ConfigException message for an unknown
// auto.offset.reset: ConfigDef's ValidString list in 3.8, and from 4.0
// AutoOffsetResetStrategy.Validator's, which knows by_duration (KIP-1106).
func autoOffsetResetInvalid(v string, rel release.Version) string {
	if rel.AtLeast(4, 0) {
		return "Invalid value " + v + " for configuration auto.offset.reset: Invalid value `" + v + "` for configuration auto.offset.reset. The value must be either 'earliest', 'latest', 'none' or of the format 'by_duration:<PnDTnHnMn.nS.>'."
	}
	return "Invalid value " + v + " for configuration auto.offset.reset: String must be one of: latest, earliest, none"
}
