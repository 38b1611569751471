package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/sim"
)

func producerSpecs() []*optSpec { return withCommon(producerSpecList) }

var producerSpecList = []optSpec{
	{name: "bootstrap-server", arg: requiredArg, typ: "String", argDesc: "server to connect to", desc: "The Kafka server to connect to (optional in kafkascope: every broker)."},
	{name: "topic", arg: requiredArg, typ: "String", argDesc: "topic", desc: "REQUIRED: the topic to produce to."},
	{name: "sync", desc: "Send each message synchronously, waiting for its acknowledgement."},
	{name: "compression-codec", arg: optionalArg, typ: "String", argDesc: "compression-codec", desc: "Compression codec (only none is simulated)."},
	{name: "batch-size", arg: requiredArg, typ: "Integer", argDesc: "size", desc: "Bytes per batch (batch.size).", def: "16384"},
	{name: "message-send-max-retries", arg: requiredArg, typ: "Integer", desc: "How many times a failed send is retried (retries).", def: "3"},
	{name: "retry-backoff-ms", arg: requiredArg, typ: "Long", desc: "Wait before a retry (retry.backoff.ms).", def: "100"},
	{name: "timeout", arg: requiredArg, typ: "Long", argDesc: "timeout_ms", desc: "How long a message may wait for its batch to fill (linger.ms).", def: "1000"},
	{name: "request-required-acks", arg: requiredArg, typ: "String", argDesc: "request required acks", desc: "acks for produce requests.", def: "-1"},
	{name: "request-timeout-ms", arg: requiredArg, typ: "Integer", argDesc: "request timeout ms", desc: "request.timeout.ms.", def: "1500"},
	{name: "metadata-expiry-ms", arg: requiredArg, typ: "Long", argDesc: "metadata expiration interval", desc: "metadata.max.age.ms.", def: "300000"},
	{name: "max-block-ms", arg: requiredArg, typ: "Long", argDesc: "max block on send", desc: "max.block.ms.", def: "60000"},
	{name: "max-memory-bytes", arg: requiredArg, typ: "Long", argDesc: "total memory in bytes", desc: "buffer.memory.", def: "33554432"},
	{name: "max-partition-memory-bytes", arg: requiredArg, typ: "Integer", argDesc: "memory in bytes per partition", desc: "batch.size when --batch-size is not given.", def: "16384"},
	{name: "socket-buffer-size", arg: requiredArg, typ: "Integer", argDesc: "size", desc: "send.buffer.bytes.", def: "102400"},
	{name: "property", arg: requiredArg, typ: "String", argDesc: "prop", desc: "Reader properties: parse.key, key.separator, ignore.error, null.marker."},
	{name: "producer-property", arg: requiredArg, typ: "String", argDesc: "producer_prop", desc: "A producer config as key=value."},
	{name: "producer.config", arg: requiredArg, typ: "String", argDesc: "config file", desc: "Producer config file (not read by the simulator)."},
	{name: "reader-config", arg: requiredArg, typ: "String", argDesc: "config file", desc: "Reader config file (not read by the simulator)."},
	{name: "line-reader", arg: requiredArg, typ: "String", argDesc: "reader_class", desc: "Only the default LineMessageReader is simulated.", def: "org.apache.kafka.tools.LineMessageReader"},
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
	specs := producerSpecs()
	p, err := parseOptions(specs, args)
	if err != nil {
		t.usage(err.Error(), specs)
		return nil
	}
	if t.helpOrVersion(p, args, "This tool helps to read data from standard input and publish it to Kafka.", specs) {
		return nil
	}
	if !p.has("topic") {
		t.usage(`Missing required argument "[topic]"`, specs)
		return nil
	}
	if p.has("bootstrap-server") && !validBootstrapSyntax(p.str("bootstrap-server")) {
		t.usage("Please provide valid host:port like host1:9091,host2:9092\n", specs)
		return nil
	}
	props, _ := parseKeyValues(p.all("producer-property"))
	cfg := client.DefaultProducerConfig()
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
		if _, set := props[m.key]; set && !p.has(m.opt) {
			continue // the property wins over the option's default
		}
		n, err := p.intVal(m.opt, 64)
		if err != nil {
			t.println(err.Error())
			t.finish(1)
			return nil
		}
		m.conv(n)
		delete(rest, m.key)
	}
	if _, set := props["acks"]; !set || p.has("request-required-acks") {
		rest["acks"] = p.str("request-required-acks")
	}
	warnings, cerr := producerConfig(&cfg, rest)
	if cerr != nil {
		t.println("org.apache.kafka.common.config.ConfigException: " + cerr.Error())
		t.finish(1)
		return nil
	}
	if _, ok := rest["transactional.id"]; ok {
		t.println("kafkascope: transactions are not simulated yet: run without transactional.id")
		t.finish(1)
		return nil
	}
	rp, _ := parseKeyValues(p.all("property"))
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
	bootstrap, berr := t.s.resolveBootstrap(p.str("bootstrap-server"))
	if berr != nil {
		t.bootstrapFailed(berr, "org.apache.kafka.common.KafkaException: Failed to construct kafka producer",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	topic := p.str("topic")
	sync := p.has("sync")
	lines := slices.Clone(stdin)
	return func(host string) sim.Process {
		log := t.logger()
		prod := client.NewProducer(sim.Addr(host+":50000"), bootstrap, cfg, t.s.world().Rand("console-producer/"+host), log)
		for _, w := range warnings {
			msg, logger := producerWarning(cfg.ClientID, w)
			log(client.LevelWarn, msg, logger)
		}
		run := &producerRun{t: t, prod: prod, topic: topic, reader: reader, lines: lines, sync: sync}
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
