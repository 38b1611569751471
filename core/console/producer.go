package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// producerSpecs are the console producer's options (3.8's, for completion).
func producerSpecs() []*javacli.OptionSpec { return withCommon(producerSpecList) }

// producerSpecsFor are the console producer's options in release v:
// KIP-1147 (Kafka 4.2) added --command-property, --command-config and
// --reader-property, the new names of --producer-property,
// --producer.config and --property (ConsoleProducer.java).
func producerSpecsFor(v release.Version) []*javacli.OptionSpec {
	if !v.AtLeast(3, 0) {
		// 2.8's ConsoleProducer: --request-required-acks defaults to 1
		// (3.0 made it -1 with the producer's own acks=all, KIP-679).
		var out []*javacli.OptionSpec
		for _, sp := range producerSpecs() {
			if sp.Name == "request-required-acks" {
				c := *sp
				c.Default = "1"
				sp = &c
			}
			out = append(out, sp)
		}
		return out
	}
	if !v.AtLeast(4, 2) {
		return producerSpecs()
	}
	return append(producerSpecs(), withKIP1147(producerSpecs42)...)
}

var producerSpecs42 = []javacli.OptionSpec{
	{Name: "command-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "producer_prop", Desc: "A producer config as key=value (the new name of --producer-property)."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Producer config file (the new name of --producer.config; not read by the simulator)."},
	{Name: "reader-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "prop", Desc: "Reader properties (the new name of --property)."},
}

var producerSpecList = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "REQUIRED: the topic to produce to."},
	{Name: "sync", Desc: "Send each message synchronously, waiting for its acknowledgement."},
	{Name: "compression-codec", Arg: javacli.OptionalArg, Type: "String", ArgDesc: "compression-codec", Desc: "Compression codec (only none is simulated)."},
	{Name: "batch-size", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "Bytes per batch (batch.size).", Default: "16384"},
	{Name: "message-send-max-retries", Arg: javacli.RequiredArg, Type: "Integer", Desc: "How many times a failed send is retried (retries).", Default: "3"},
	{Name: "retry-backoff-ms", Arg: javacli.RequiredArg, Type: "Long", Desc: "Wait before a retry (retry.backoff.ms).", Default: "100"},
	{Name: "timeout", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "timeout_ms", Desc: "How long a message may wait for its batch to fill (linger.ms).", Default: "1000"},
	{Name: "request-required-acks", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "request required acks", Desc: "acks for produce requests.", Default: "-1"},
	{Name: "request-timeout-ms", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "request timeout ms", Desc: "request.timeout.ms.", Default: "1500"},
	{Name: "metadata-expiry-ms", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "metadata expiration interval", Desc: "metadata.max.age.ms.", Default: "300000"},
	{Name: "max-block-ms", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "max block on send", Desc: "max.block.ms.", Default: "60000"},
	{Name: "max-memory-bytes", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "total memory in bytes", Desc: "buffer.memory.", Default: "33554432"},
	{Name: "max-partition-memory-bytes", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "memory in bytes per partition", Desc: "batch.size when --batch-size is not given.", Default: "16384"},
	{Name: "socket-buffer-size", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "send.buffer.bytes.", Default: "102400"},
	{Name: "property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "prop", Desc: "Reader properties: parse.key, key.separator, ignore.error, null.marker."},
	{Name: "producer-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "producer_prop", Desc: "A producer config as key=value."},
	{Name: "producer.config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Producer config file (not read by the simulator)."},
	{Name: "reader-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "Reader config file (not read by the simulator)."},
	{Name: "line-reader", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "reader_class", Desc: "Only the default LineMessageReader is simulated.", Default: "org.apache.kafka.tools.LineMessageReader"},
}

// consoleRecord is one parsed stdin line.
type consoleRecord struct {
	key, value []byte
}

// lineReader is LineMessageReader's parsing of stdin lines.
type lineReader struct {
	parseKey    bool
	keySep      string
	ignoreError bool
	nullMarker  *string
}

func (r *lineReader) parse(line string, n int) (consoleRecord, error) {
	var rec consoleRecord
	value := line
	if r.parseKey {
		i := strings.Index(line, r.keySep)
		if i < 0 {
			if !r.ignoreError {
				return rec, fmt.Errorf("No key separator found on line number %d: '%s'", n, line)
			}
		} else {
			k := line[:i]
			rec.key = []byte(k)
			if r.nullMarker != nil && k == *r.nullMarker {
				rec.key = nil
			}
			value = line[i+len(r.keySep):]
		}
	}
	rec.value = []byte(value)
	if r.nullMarker != nil && value == *r.nullMarker {
		rec.value = nil
	}
	return rec, nil
}

func sizeText(b []byte) string {
	if b == nil {
		return "null"
	}
	return fmt.Sprintf("%d bytes", len(b))
}

// producerTool is kafka-console-producer.sh: each stdin line becomes a
// record; sends are asynchronous and batched (linger.ms=1000 unless set);
// at end of input the producer is closed, which sends what is left and waits
// for every acknowledgement.
func producerTool(t *toolRun, args, stdin []string) func(host string) sim.Process {
	rel := t.rel()
	specs := producerSpecsFor(rel)
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		t.usage(err.Error(), specs)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to read data from standard input and publish it to Kafka.", specs) {
		return nil
	}
	if !p.Has("topic") {
		t.usage(`Missing required argument "[topic]"`, specs)
		return nil
	}
	// KIP-1147 (4.2): the old option names still work, with a line on
	// stdout each (ConsoleProducer.checkArgs); old and new together are
	// refused.
	propOpt, readerOpt := "producer-property", "property"
	if rel.AtLeast(4, 2) {
		if t.renamedTogether(p, specs, [][2]string{{"command-config", "producer.config"}, {"command-property", "producer-property"}, {"reader-property", "property"}}) {
			return nil
		}
		if !t.renamedOption(p, "Warning:", "producer-property", "command-property") {
			propOpt = "command-property"
		}
		t.renamedOption(p, "Warning:", "producer.config", "command-config")
		if !t.renamedOption(p, "Warning:", "property", "reader-property") {
			readerOpt = "reader-property"
		}
		if p.Has("max-partition-memory-bytes") {
			t.println("Warning: --max-partition-memory-bytes is deprecated and will be removed in Apache Kafka 5.0. Use --batch-size instead.")
		}
	}
	if p.Has("bootstrap-server") && !validBootstrapSyntax(p.Value("bootstrap-server")) {
		// ToolsUtils.validateBootstrapServer: 3.8's Scala version ends its
		// message with "\n " (a line holding one space), 4.x's Java one
		// with "\n".
		msg := "Please provide valid host:port like host1:9091,host2:9092\n "
		if rel.AtLeast(4, 0) {
			msg = strings.TrimSuffix(msg, " ")
		}
		t.usage(msg, specs)
		return nil
	}
	props, _ := parseKeyValues(p.Values(propOpt))
	cfg := client.DefaultProducerConfig(t.s.cluster.Release().Version)
	cfg.ClientID = "console-producer"
	// Each CLI option (its default included) sets its producer config, unless
	// a --producer-property set that key and the option was not given
	// (CommandLineUtils.maybeMergeOptions).
	rest := map[string]string{}
	for k, v := range props {
		rest[k] = v
	}
	for _, m := range []struct {
		key, opt string
		conv     func(int64)
	}{
		{"linger.ms", "timeout", func(n int64) { cfg.Linger = ms(n) }},
		{"request.timeout.ms", "request-timeout-ms", func(n int64) { cfg.RequestTimeout = ms(n) }},
		{"retries", "message-send-max-retries", func(n int64) { cfg.Retries = int(n) }},
		{"retry.backoff.ms", "retry-backoff-ms", func(n int64) { cfg.RetryBackoff = ms(n) }},
		{"max.block.ms", "max-block-ms", func(n int64) { cfg.MaxBlock = ms(n) }},
		{"batch.size", "batch-size", func(n int64) { cfg.BatchSize = int(n) }},
		{"buffer.memory", "max-memory-bytes", func(n int64) { cfg.BufferMemory = n }},
	} {
		if _, set := props[m.key]; set && !p.Has(m.opt) {
			continue // the property wins over the option's default
		}
		n, err := p.Int(m.opt, 64)
		if err != nil {
			t.println(err.Error())
			t.finish(1)
			return nil
		}
		m.conv(n)
		delete(rest, m.key)
	}
	if _, set := props["acks"]; !set || p.Has("request-required-acks") {
		rest["acks"] = p.Value("request-required-acks")
	}
	warnings, cerr := producerConfig(&cfg, rest, rel)
	if cerr != nil {
		t.println("org.apache.kafka.common.config.ConfigException: " + cerr.Error())
		t.finish(1)
		return nil
	}
	rp, _ := parseKeyValues(p.Values(readerOpt))
	reader := &lineReader{keySep: "\t"}
	reader.parseKey = strings.EqualFold(strings.TrimSpace(rp["parse.key"]), "true")
	reader.ignoreError = strings.EqualFold(strings.TrimSpace(rp["ignore.error"]), "true")
	if v, ok := rp["key.separator"]; ok {
		reader.keySep = v
	}
	if v, ok := rp["null.marker"]; ok {
		reader.nullMarker = &v
		if v == reader.keySep {
			t.println("org.apache.kafka.common.KafkaException: null.marker and key.separator may not be equal")
			t.finish(1)
			return nil
		}
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, "org.apache.kafka.common.KafkaException: Failed to construct kafka producer",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	topic := p.Value("topic")
	sync := p.Has("sync")
	lines := slices.Clone(stdin)
	return func(host string) sim.Process {
		log := t.logger()
		prod := client.NewProducer(sim.Addr(host+":50000"), bootstrap, cfg, t.s.world().Rand("console-producer/"+host), log)
		for _, w := range warnings {
			msg, logger := producerWarning(cfg.ClientID, w)
			log(client.LevelWarn, msg, logger)
		}
		run := &producerRun{t: t, prod: prod, topic: topic, reader: reader, lines: lines, sync: sync}
		// An exception thrown by send (a transactional.id without
		// initTransactions, which ConsoleProducer never calls) ends the
		// loop; producer.close() in the finally block waits for what is
		// in the accumulator, then main prints the trace.
		prod.OnThrow(func(env *sim.Env, err *client.Error) {
			run.prod.AbandonSends()
			run.failed = true
			run.prod.Close(env, func(*sim.Env) {
				run.t.printLines(err.Lines())
				run.t.finish(1)
			})
			run.closed = true
		})
		t.terminate = func(env *sim.Env) { run.eof(env) }
		return &client.Process{Handlers: []client.Handler{prod}, OnStart: run.start}
	}
}

// producerRun feeds stdin lines to the producer.
type producerRun struct {
	t      *toolRun
	prod   *client.Producer
	topic  string
	reader *lineReader
	lines  []string
	next   int
	sync   bool
	failed bool
	closed bool
}

func (r *producerRun) start(env *sim.Env) { r.feed(env) }

// feed sends lines until the input ends (or, with --sync, until a send must
// be waited for).
func (r *producerRun) feed(env *sim.Env) {
	for r.next < len(r.lines) && !r.failed {
		n := r.next + 1
		rec, err := r.reader.parse(r.lines[r.next], n)
		r.next++
		if err != nil {
			r.t.println("org.apache.kafka.common.KafkaException: " + err.Error())
			r.failed = true
			r.closeWith(env, 1)
			return
		}
		key, value := rec.key, rec.value
		cb := func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
			if err != nil {
				if r.sync {
					r.t.println("java.util.concurrent.ExecutionException: " + err.Error())
					r.t.printLines(append([]string{}, "Caused by: "+err.Error()))
					r.failed = true
					r.closeWith(env, 1)
					return
				}
				r.t.logException(client.LevelError,
					fmt.Sprintf("Error when sending message to topic %s with key: %s, value: %s with error:", r.topic, sizeText(key), sizeText(value)),
					"org.apache.kafka.clients.producer.internals.ErrorLoggingCallback", err.Lines())
			}
			if r.sync && !r.failed {
				r.feed(env)
			}
		}
		r.prod.Send(env, client.ProducerRecord{Topic: r.topic, Partition: -1, Key: key, Value: value}, cb)
		if r.sync {
			if r.next == len(r.lines) {
				break
			}
			return
		}
	}
	if r.next >= len(r.lines) && !r.failed {
		r.closeWith(env, 0)
	}
}

// eof ends the input early (SIGTERM): the shutdown hook still closes the
// producer.
func (r *producerRun) eof(env *sim.Env) {
	r.next = len(r.lines)
	r.closeWith(env, 143)
}

func (r *producerRun) closeWith(env *sim.Env, code int) {
	if r.closed {
		return
	}
	r.closed = true
	r.prod.Close(env, func(*sim.Env) { r.t.finish(code) })
}
