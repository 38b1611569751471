package console

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-verifiable-producer.sh runs org.apache.kafka.tools.VerifiableProducer
// (Kafka 3.8): it sends the integers 0, 1, 2, ... as string values (with
// --value-prefix "P.0", "P.1", ...) at --throughput per second and prints one
// JSON line per event on stdout, so a test can see which records were
// acknowledged where. It sets retries=0 (so idempotence is off unless a
// --producer.config file turns retries and idempotence back on). Help
// texts are our own words; the layout is argparse4j's.

const verifiableProg = "verifiable-producer"

// verifiableParser is VerifiableProducer's parser in release v: Kafka 4.0
// removed --broker-list, so the connection group holds --bootstrap-server
// alone; 4.3 renamed two metavars and added --command-config, the KIP-1147
// name of --producer.config (VerifiableProducer.argParser).
func verifiableParser(v release.Version) *javacli.Parser {
	p := verifiableParser38()
	if !v.AtLeast(4, 0) {
		return p
	}
	args := p.Args[:0:0]
	for _, a := range p.Args {
		switch a.Flags[0] {
		case "--broker-list":
			continue
		case "--producer.config":
			if v.AtLeast(4, 3) {
				c := *a
				c.Metavar = "CONFIG-FILE"
				a = &c
			}
		case "--message-create-time":
			if v.AtLeast(4, 3) {
				c := *a
				c.Metavar = "CREATE-TIME"
				a = &c
			}
		case "--bootstrap-server":
			if v.AtLeast(4, 3) {
				args = append(args, &javacli.Argument{Flags: []string{"--command-config"}, Metavar: "CONFIG-FILE", Type: "String",
					Help: "a properties file with producer configs (the new name of --producer.config)."})
			}
		}
		args = append(args, a)
	}
	p.Args = args
	return p
}

func verifiableParser38() *javacli.Parser {
	return &javacli.Parser{
		Prog:             verifiableProg,
		Description:      "Send increasing integers to a topic and print a JSON line for every send's outcome, so that which records were acknowledged, at which offsets, is visible from outside.",
		GroupTitle:       "Connection Group",
		GroupDescription: "How to reach the brokers",
		Args: []*javacli.Argument{
			{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
			{Flags: []string{"--topic"}, Metavar: "TOPIC", Type: "String", Required: true, Help: "the topic to send to."},
			{Flags: []string{"--max-messages"}, Metavar: "MAX-MESSAGES", Type: "Integer", Default: "-1", HasDefault: true,
				Help: "how many records to send; -1 sends until the tool is stopped (kill %N)."},
			{Flags: []string{"--throughput"}, Metavar: "THROUGHPUT", Type: "Integer", Default: "-1", HasDefault: true,
				Help: "the highest rate in records per second, kept by pausing between sends; -1 does not pause."},
			{Flags: []string{"--acks"}, Metavar: "ACKS", Type: "Integer", Default: "-1", HasDefault: true,
				Help: "acks for every record: 0, 1 or -1 (all)."},
			{Flags: []string{"--producer.config"}, Metavar: "CONFIG_FILE", Type: "String",
				Help: "a properties file with producer configs (in kafkascope: written with cat > FILE); they override the tool's own."},
			{Flags: []string{"--message-create-time"}, Metavar: "CREATETIME", Type: "Long", Default: "-1", HasDefault: true,
				Help: "give records creation times starting here (ms since the epoch) instead of the clock's."},
			{Flags: []string{"--value-prefix"}, Metavar: "VALUE-PREFIX", Type: "Integer",
				Help: "put this number and a dot before every value."},
			{Flags: []string{"--repeating-keys"}, Metavar: "REPEATING-KEYS", Type: "Integer",
				Help: "give records the keys 0, 1, ... up to this number (exclusive), then 0 again; without it records have no key."},
			{Flags: []string{"--bootstrap-server"}, Metavar: "HOST1:PORT1[,HOST2:PORT2[...]]", Type: "String", Grouped: true,
				Help: "REQUIRED: the brokers to connect to, as host:port pairs separated by commas."},
			{Flags: []string{"--broker-list"}, Metavar: "HOST1:PORT1[,HOST2:PORT2[...]]", Type: "String", Grouped: true,
				Help: "DEPRECATED, use --bootstrap-server; ignored when --bootstrap-server is given."},
		},
	}
}

// verifiableRun is one run of the tool.
type verifiableRun struct {
	t          *toolRun
	prod       *client.Producer
	topic      string
	max        int64 // < 0: until stopped
	throughput int64
	prefix     *int64
	repeating  int64 // 0: no keys
	createTime int64 // -1: the clock's
	keyCounter int64

	start         sim.Time
	next          int64
	numSent       int64
	numAcked      int64
	blocked       bool
	stopProducing bool
	closing       bool
	timer         *sim.Timer
}

func verifiableProducerTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	p := verifiableParser(rel)
	v, perr := p.Parse(args)
	switch {
	case len(args) == 0:
		t.printLines(p.HelpLines())
		t.finish(0)
		return nil
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
	num := func(flag string) int64 { // a number argument, or its default
		if a := arg(flag); v.Given(a) {
			return v.Num(a)
		} else if a.HasDefault {
			n, _ := strconv.ParseInt(a.Default, 10, 64)
			return n
		}
		return 0
	}
	acks := num("--acks")
	if acks != 0 && acks != 1 && acks != -1 {
		t.printLines(p.ErrorLines(&javacli.ParseError{Msg: fmt.Sprintf("argument --acks: invalid choice: '%d' (choose from {0,1,-1})", acks)}))
		t.finish(1)
		return nil
	}
	servers := v.Str(arg("--bootstrap-server"))
	if !v.Given(arg("--bootstrap-server")) && !rel.AtLeast(4, 0) {
		servers = v.Str(arg("--broker-list"))
	}
	props := map[string]string{
		"bootstrap.servers": servers,
		"key.serializer":    "org.apache.kafka.common.serialization.StringSerializer",
		"value.serializer":  "org.apache.kafka.common.serialization.StringSerializer",
		"acks":              strconv.FormatInt(acks, 10),
		"retries":           "0", // the tool's own choice: no retries
	}
	configOpt := "--producer.config"
	if rel.AtLeast(4, 3) {
		// createFromArgs (4.3): the two names are refused together, and
		// the old one is announced before its file is read.
		if v.Given(arg("--producer.config")) && v.Given(arg("--command-config")) {
			t.printLines(p.ErrorLines(&javacli.ParseError{Msg: "Options --producer.config and --command-config are mutually exclusive."}))
			t.finish(1)
			return nil
		}
		if v.Given(arg("--producer.config")) {
			t.println("Option --producer.config has been deprecated and will be removed in a future version. Use --command-config instead.")
		} else {
			configOpt = "--command-config"
		}
	}
	if v.Given(arg(configOpt)) {
		file := v.Str(arg(configOpt))
		text, ok := t.s.readWorkspace(file)
		if !ok {
			// The IOException becomes an ArgumentParserException, which
			// main hands to the parser's error handler.
			t.printLines(p.ErrorLines(&javacli.ParseError{Msg: jdk.Path(file)}))
			t.finish(1)
			return nil
		}
		fileProps, err := jdk.LoadProperties(text)
		if err != "" {
			t.mainException(err)
			return nil
		}
		for k, val := range fileProps {
			props[k] = val
		}
	}
	if _, ok := props["client.id"]; !ok {
		props["client.id"] = "producer-1" // KafkaProducer's generated id, the first in the JVM
	}
	cfg := client.DefaultProducerConfig(t.s.cluster.Release().Version)
	warnings, cerr := producerConfig(&cfg, props, t.rel())
	// A transactional.id is taken, and every send throws (the tool never
	// calls initTransactions): send's catch prints producer_send_error.
	bootstrap, ok := t.constructProducer(cfg, props, warnings, cerr)
	if !ok {
		return nil
	}
	run := &verifiableRun{
		t: t, topic: v.Str(arg("--topic")), max: num("--max-messages"), throughput: num("--throughput"),
		createTime: num("--message-create-time"),
	}
	if v.Given(arg("--value-prefix")) {
		n := v.Num(arg("--value-prefix"))
		run.prefix = &n
	}
	if v.Given(arg("--repeating-keys")) {
		run.repeating = v.Num(arg("--repeating-keys"))
	}
	switch {
	case run.max > perfMaxRecords:
		t.println(fmt.Sprintf("kafkascope: a verifiable producer may send at most %d records", perfMaxRecords))
		t.finish(1)
		return nil
	case run.max < 0:
		// The real tool runs until it is stopped; a browser tab bounds it.
		run.max = perfMaxRecords
	}
	return func(host string) sim.Process {
		run.prod = client.NewProducer(sim.Addr(host+":50000"), bootstrap, cfg, t.s.world().Rand("verifiable-producer/"+host), t.logger())
		run.prod.OnUnblock(func(env *sim.Env) {
			if run.blocked {
				run.blocked = false
				run.pump(env)
			}
		})
		// The shutdown hook: stop producing, close (flush) the producer,
		// print shutdown_complete and the tool_data summary.
		t.terminate = func(env *sim.Env) { run.stopProducing = true; run.shutdown(env, 143) }
		return &client.Process{Handlers: []client.Handler{run.prod}, OnStart: run.begin}
	}
}

func (r *verifiableRun) begin(env *sim.Env) {
	r.start = env.Now()
	r.printEvent(env, "startup_complete", "")
	r.pump(env)
}

// due is when message i is sent (ThroughputThrottler, as the perf test).
func (r *verifiableRun) due(i int64) sim.Time {
	if r.throughput <= 0 {
		return r.start
	}
	return r.start.Add(time.Duration(i * int64(time.Second) / r.throughput))
}

func (r *verifiableRun) pump(env *sim.Env) {
	for !r.closing && !r.stopProducing && r.next < r.max {
		if r.throughput == 0 && r.next >= 1 {
			return // throughput 0 sleeps forever after the first send
		}
		if at := r.due(r.next); at > env.Now() {
			if !(r.timer.Pending() && r.timer.At() == at) {
				r.timer.Stop()
				r.timer = env.After(at.Sub(env.Now()), "verifiable-producer-send", r.pump)
			}
			return
		}
		if r.prod.Blocked() {
			r.blocked = true
			return
		}
		r.sendOne(env)
	}
	if !r.closing && r.next >= r.max {
		r.shutdown(env, 0) // main returned: the JVM runs the shutdown hook
	}
}

func (r *verifiableRun) sendOne(env *sim.Env) {
	i := r.next
	r.next++
	value := strconv.FormatInt(i, 10)
	if r.prefix != nil {
		value = fmt.Sprintf("%d.%d", *r.prefix, i)
	}
	var key *string
	if r.repeating > 0 {
		k := strconv.FormatInt(r.keyCounter, 10)
		key = &k
		r.keyCounter++
		if r.keyCounter == r.repeating {
			r.keyCounter = 0
		}
	}
	rec := client.ProducerRecord{Topic: r.topic, Partition: -1, Value: []byte(value)}
	if key != nil {
		rec.Key = []byte(*key)
	}
	if r.createTime >= 0 {
		rec.Timestamp = r.createTime
		r.createTime += env.Now().UnixMilli() - r.start.UnixMilli()
	}
	r.numSent++
	r.prod.Send(env, rec, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
		kv := `"key":` + jsonStringOrNull(key) + `,"value":` + jsonQuote(value)
		if err != nil {
			r.printEvent(env, "producer_send_error", kv+`,"topic":`+jsonQuote(r.topic)+`,"exception":`+jsonQuote("class "+err.Class)+`,"message":`+jsonQuote(err.Message))
			return
		}
		r.numAcked++
		r.printEvent(env, "producer_send_success", kv+fmt.Sprintf(`,"topic":%s,"partition":%d,"offset":%d`, jsonQuote(md.Topic), md.Partition, md.Offset))
	})
}

// shutdown is the shutdown hook: close the producer (sending what is left),
// then print shutdown_complete and tool_data.
func (r *verifiableRun) shutdown(env *sim.Env, code int) {
	if r.closing {
		return
	}
	r.closing = true
	r.timer.Stop()
	r.prod.Close(env, func(env *sim.Env) {
		r.printEvent(env, "shutdown_complete", "")
		elapsed := float64(env.Now().UnixMilli() - r.start.UnixMilli())
		avg := 1000 * (float64(r.numAcked) / elapsed)
		r.printEvent(env, "tool_data", fmt.Sprintf(`"sent":%d,"acked":%d,"target_throughput":%d,"avg_throughput":%s`, r.numSent, r.numAcked, r.throughput, jacksonDouble(avg)))
		r.t.finish(code)
	})
}

// printEvent prints one JSON line: timestamp and name first
// (@JsonPropertyOrder), then the event's own fields.
func (r *verifiableRun) printEvent(env *sim.Env, name, fields string) {
	line := fmt.Sprintf(`{"timestamp":%d,"name":"%s"`, env.Now().UnixMilli(), name)
	if fields != "" {
		line += "," + fields
	}
	r.t.println(line + "}")
}

func jsonQuote(s string) string {
	var b strings.Builder
	writeJSONString(&b, s)
	return b.String()
}

func jsonStringOrNull(s *string) string {
	if s == nil {
		return "null"
	}
	return jsonQuote(*s)
}

// jacksonDouble is how Jackson writes a double: Java's Double.toString, and
// NaN and the infinities as quoted strings.
func jacksonDouble(x float64) string {
	switch {
	case math.IsNaN(x):
		return `"NaN"`
	case math.IsInf(x, 1):
		return `"Infinity"`
	case math.IsInf(x, -1):
		return `"-Infinity"`
	}
	return jdk.DoubleToString(x)
}
