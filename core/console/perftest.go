package console

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/metrics"
	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-producer-perf-test.sh runs org.apache.kafka.tools.ProducerPerformance
// (Kafka 3.8). Unlike the jopt-simple tools, it parses its arguments with
// argparse4j 0.7.0 (emulated by core/javacli). Help texts are our own words;
// the layout around them is argparse4j's.

// Limits that keep one run bounded. The real tool has none; a browser tab
// holding three replicas of every record does: like the console producer's
// MaxStdinLines, a run may send at most 100000 records, and at most 32 MiB
// of payload.
const (
	perfMaxRecords = 100_000
	perfMaxBytes   = 32 * 1024 * 1024
)

// perfProg is the parser's name, which argparse4j prints in the usage and
// error lines (ProducerPerformance names its parser so, not after the
// script).
const perfProg = "producer-performance"

// perfParserFor is the parser in release v (ProducerPerformance.argParser
// of 3.8, 4.1 and 4.3). From 4.0: --payload-monotonic, a Double
// --throughput, and no defaults for the transaction options. 4.3 names the
// parser after the script and adds --bootstrap-server, KIP-1147's
// --command-property and --command-config (the old names deprecated),
// --warmup-records and --reporting-interval.
func perfParserFor(v release.Version) *javacli.Parser {
	p := perfParser()
	if !v.AtLeast(4, 0) {
		return p
	}
	var args []*javacli.Argument
	for _, a := range p.Args {
		c := *a
		switch c.Flags[0] {
		case "--payload-delimiter":
			args = append(args, &javacli.Argument{Flags: []string{"--payload-monotonic"}, Action: javacli.StoreTrue, Grouped: true,
				Help: "each payload is the record's number, counting from 0 in decimal. Use exactly one of this, --record-size or --payload-file."})
		case "--throughput":
			c.Type = "Double"
		case "--transactional-id":
			c.Default, c.HasDefault = "", false
			c.Help = "the transactional.id; giving it turns transactions on."
		case "--transaction-duration-ms":
			c.Default, c.HasDefault = "", false
			c.Help = "commit the open transaction once it is this old (3000 ms when transactions are on and this is not given)."
		}
		args = append(args, &c)
		if v.AtLeast(4, 3) {
			switch c.Flags[0] {
			case "-h":
				args = append(args, &javacli.Argument{Flags: []string{"--bootstrap-server"}, Metavar: "BOOTSTRAP-SERVER", Type: "String",
					Help: "the brokers to connect to; wins over bootstrap.servers from --command-property or --command-config."})
			case "--producer-props":
				c.Help = "(DEPRECATED: use --command-property) producer configs as name=value."
				args = append(args, &javacli.Argument{Flags: []string{"--command-property"}, Metavar: "PROP-NAME=PROP-VALUE", Type: "String", Many: true,
					Help: "producer configs as name=value, for example linger.ms=10 batch.size=32768; they override --command-config."})
			case "--producer.config":
				c.Help = "(DEPRECATED: use --command-config) a properties file with producer configs."
				args = append(args, &javacli.Argument{Flags: []string{"--command-config"}, Metavar: "CONFIG-FILE", Type: "String",
					Help: "a properties file with producer configs (in kafkascope: written with cat > FILE)."})
			}
		}
	}
	if v.AtLeast(4, 3) {
		p.Prog = "kafka-producer-perf-test"
		args = append(args,
			&javacli.Argument{Flags: []string{"--warmup-records"}, Metavar: "WARMUP-RECORDS", Type: "Long", Default: "0", HasDefault: true,
				Help: "how many records to send before the steady state; a second summary line gives the steady state's figures."},
			&javacli.Argument{Flags: []string{"--reporting-interval"}, Metavar: "INTERVAL-MS", Type: "Long", Default: "5000", HasDefault: true,
				Help: "how often, in milliseconds, to print a progress line."})
	}
	p.GroupDescription = "Give the payload as a size (--record-size), a file (--payload-file) or numbers (--payload-monotonic): exactly one of them."
	p.Args = args
	return p
}

func perfParser() *javacli.Parser {
	return &javacli.Parser{
		Prog:             perfProg,
		Description:      "Measure how fast a producer sends records to a topic, and how long each send takes to be acknowledged.",
		GroupDescription: "Give the payload either as a size (--record-size) or as a file (--payload-file), never both.",
		Args: []*javacli.Argument{
			{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
			{Flags: []string{"--topic"}, Metavar: "TOPIC", Type: "String", Required: true, Help: "the topic that receives the records"},
			{Flags: []string{"--num-records"}, Metavar: "NUM-RECORDS", Type: "Long", Required: true, Help: "how many records to send"},
			{Flags: []string{"--record-size"}, Metavar: "RECORD-SIZE", Type: "Integer", Grouped: true,
				Help: "payload size in bytes; each payload is random capital letters. Use either this or --payload-file."},
			{Flags: []string{"--payload-file"}, Metavar: "PAYLOAD-FILE", Type: "String", Grouped: true,
				Help: "a UTF-8 text file split into payloads at --payload-delimiter; each record takes one of them at random. Use either this or --record-size. (In kafkascope: a file written with cat > FILE.)"},
			{Flags: []string{"--payload-delimiter"}, Metavar: "PAYLOAD-DELIMITER", Type: "String", Default: `\n`, HasDefault: true,
				Help: "what separates the payloads in --payload-file (a line break unless given); ignored without --payload-file."},
			{Flags: []string{"--throughput"}, Metavar: "THROUGHPUT", Type: "Integer", Required: true,
				Help: "the target rate in records per second, kept on average by pausing between sends; -1 sends as fast as the producer accepts records."},
			{Flags: []string{"--producer-props"}, Metavar: "PROP-NAME=PROP-VALUE", Type: "String", Many: true,
				Help: "producer configs as name=value, for example bootstrap.servers=kafka-1:9092 acks=1; they override --producer.config."},
			{Flags: []string{"--producer.config"}, Metavar: "CONFIG-FILE", Type: "String", Help: "a properties file with producer configs (in kafkascope: written with cat > FILE)."},
			{Flags: []string{"--print-metrics"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true, Help: "print the producer's metrics when the run ends."},
			{Flags: []string{"--transactional-id"}, Metavar: "TRANSACTIONAL-ID", Type: "String", Default: "performance-producer-default-transactional-id", HasDefault: true,
				Help: "the transactional.id used when --transaction-duration-ms is positive."},
			{Flags: []string{"--transaction-duration-ms"}, Metavar: "TRANSACTION-DURATION", Type: "Long", Default: "0", HasDefault: true,
				Help: "commit the open transaction once it is this old; a positive value turns transactions on."},
		},
	}
}

// perfStats is ProducerPerformance.Stats: totals, a latency sample for the
// percentiles, and a window reported every 5 s.
type perfStats struct {
	start, windowStart int64 // ms
	latencies          []int32
	sampling           int64
	iteration          int64
	index              int
	count, bytes       int64
	maxLatency         int32
	totalLatency       int64
	windowCount        int64
	windowMaxLatency   int32
	windowTotalLatency int64
	windowBytes        int64
	// interval is how often a window line is printed (ms); steadyState
	// marks 4.3's second Stats, counting the records after the warmup;
	// suppress silences the first one's windows once that starts.
	interval    int64
	steadyState bool
	suppress    bool
}

const perfReportIntervalMs = 5000

// record counts one acknowledged record and prints the window line once
// the window is at least 5 s old (only acknowledgements trigger it, so a
// stall prints nothing).
func (s *perfStats) record(t *toolRun, latency int32, bytes int, nowMs int64) {
	s.count++
	s.bytes += int64(bytes)
	s.totalLatency += int64(latency)
	s.maxLatency = max(s.maxLatency, latency)
	s.windowCount++
	s.windowBytes += int64(bytes)
	s.windowTotalLatency += int64(latency)
	s.windowMaxLatency = max(s.windowMaxLatency, latency)
	if s.iteration%s.sampling == 0 && s.index < len(s.latencies) {
		s.latencies[s.index] = latency
		s.index++
	}
	s.iteration++
	if nowMs-s.windowStart < s.interval {
		return
	}
	if s.steadyState && s.count == s.windowCount {
		t.println("In steady state.")
	}
	if !s.suppress {
		elapsed := float64(nowMs - s.windowStart)
		t.println(fmt.Sprintf("%d records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency.",
			s.windowCount,
			jdk.FormatFixed(1000.0*float64(s.windowCount)/elapsed, 1),
			jdk.FormatFixed(1000.0*float64(s.windowBytes)/elapsed/(1024.0*1024.0), 2),
			jdk.FormatFixed(float64(s.windowTotalLatency)/float64(s.windowCount), 1),
			jdk.FormatFixed(float64(s.windowMaxLatency), 1)))
	}
	s.windowStart = nowMs
	s.windowCount, s.windowMaxLatency, s.windowTotalLatency, s.windowBytes = 0, 0, 0, 0
}

// total is printTotal's line, or the exception it throws when it has no
// latency sample to read (a negative --num-records).
func (s *perfStats) total(nowMs int64, rel release.Version) (string, string) {
	elapsed := float64(nowMs - s.start)
	size := min(s.index, len(s.latencies))
	sorted := slices.Clone(s.latencies[:size])
	slices.Sort(sorted)
	var percs [4]int32
	for i, p := range []float64{0.5, 0.95, 0.99, 0.999} {
		k := int(p * float64(size))
		if k >= len(s.latencies) {
			return "", fmt.Sprintf("java.lang.ArrayIndexOutOfBoundsException: Index %d out of bounds for length %d", k, len(s.latencies))
		}
		if k < size {
			percs[i] = sorted[k]
		} // else: a slot never written, 0 as in Java's fresh array
	}
	steady := ""
	if s.steadyState {
		steady = " steady state"
	}
	return fmt.Sprintf("%d%s records sent, %s records/sec (%s MB/sec), %s ms avg latency, %s ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.",
		s.count, steady,
		jdk.FormatFixed(1000.0*float64(s.count)/elapsed, totalRateDigits(rel)),
		jdk.FormatFixed(1000.0*float64(s.bytes)/elapsed/(1024.0*1024.0), 2),
		jdk.FormatFixed(float64(s.totalLatency)/float64(s.count), 2),
		jdk.FormatFixed(float64(s.maxLatency), 2),
		percs[0], percs[1], percs[2], percs[3]), ""
}

// totalRateDigits is the precision of the summary's records/sec: "%f" in
// 3.8, "%.1f" from 4.0, "%f" again in 4.3 (Stats.printTotal).
func totalRateDigits(rel release.Version) int {
	if rel.AtLeast(4, 0) && !rel.AtLeast(4, 3) {
		return 1
	}
	return 6
}

// newPerfStats is the Stats constructor, with the exceptions it throws for
// zero (division by zero) and most negative record counts (a negative array
// size: Java truncates the long count to int before adding one).
func newPerfStats(numRecords, nowMs int64) (*perfStats, string) {
	if numRecords == 0 {
		return nil, "java.lang.ArithmeticException: / by zero"
	}
	sampling := numRecords / min(numRecords, 500000)
	n := int32(numRecords/sampling) + 1
	if n < 0 {
		return nil, fmt.Sprintf("java.lang.NegativeArraySizeException: %d", n)
	}
	return &perfStats{start: nowMs, windowStart: nowMs, sampling: sampling, latencies: make([]int32, n), interval: perfReportIntervalMs}, ""
}

// readPayloads is readPayloadFile: the file's text split at the delimiter
// (a regular expression, as String.split takes it), trailing empty pieces
// dropped. ok is false when the tool ended.
func (t *toolRun) readPayloads(file, delimiter string, rel release.Version) ([][]byte, bool) {
	t.println("Reading payloads from: " + absPath(file))
	text, ok := t.s.readWorkspace(file)
	if !ok || text == "" {
		t.mainException("java.lang.IllegalArgumentException: File does not exist or empty file provided.")
		return nil, false
	}
	// Java decodes the bytes as UTF-8, replacing what is not.
	pieces, err := jdk.SplitRegex(strings.ToValidUTF8(text, "\uFFFD"), delimiter)
	if err != nil {
		t.println(fmt.Sprintf("kafkascope: --payload-delimiter %q is not a regular expression the simulator can use: %v", delimiter, err))
		t.finish(1)
		return nil, false
	}
	if rel.AtLeast(4, 3) {
		t.println(fmt.Sprintf("Number of records read: %d", len(pieces)))
	} else {
		t.println(fmt.Sprintf("Number of messages read: %d", len(pieces)))
	}
	out := make([][]byte, len(pieces))
	for i, pc := range pieces {
		out[i] = []byte(pc)
	}
	return out, true
}

// perfWorkDir is the working directory a relative path is resolved
// against when the tool prints it. The terminal has none of its own; we
// use /opt/kafka, the installation the tools' example paths
// (/opt/kafka/bin/...) come from.
const perfWorkDir = "/opt/kafka"

// absPath is Paths.get(p).toAbsolutePath().
func absPath(p string) string {
	p = jdk.Path(p)
	switch {
	case strings.HasPrefix(p, "/"):
		return p
	case p == "":
		return perfWorkDir
	}
	return perfWorkDir + "/" + p
}

// mainException prints an exception that ends main(), as the JVM reports
// it (without stack frames, as the simulator prints every exception).
func (t *toolRun) mainException(exc string) {
	t.println(`Exception in thread "main" ` + exc)
	t.finish(1)
}

// perfArgs parses the command line as Kafka 3.8's ProducerPerformance does. When the
// tool ends there (help, or an argument error) v is nil and lines and code
// are what it prints and its exit status.
func perfArgs(p *javacli.Parser, args []string) (v *javacli.Namespace, lines []string, code int) {
	return perfArgsFor(p, args, release.Version{Major: 3, Minor: 8})
}

// perfArgsFor is perfArgs in release rel: ConfigPostProcessor's checks,
// in its order. From 4.0 it refuses a non-positive --num-records,
// --record-size or --transaction-duration-ms (4.3 ends the messages with a
// period); 4.3 checks --warmup-records and --reporting-interval, accepts
// --bootstrap-server or its new option names in place of the producer
// configs, and refuses an option together with its deprecated name.
func perfArgsFor(p *javacli.Parser, args []string, rel release.Version) (v *javacli.Namespace, lines []string, code int) {
	v, perr := p.Parse(args)
	switch {
	case len(args) == 0:
		// With no arguments the tool prints the help screen and exits 0.
		return nil, p.HelpLines(), 0
	case perr != nil && perr.Help:
		// -h prints the help screen; the error handler then prints
		// nothing more, but the tool still exits 1.
		return nil, p.HelpLines(), 1
	case perr != nil:
		return nil, p.ErrorLines(perr), 1
	}
	dot := ""
	if rel.AtLeast(4, 3) {
		dot = "."
	}
	fail := func(msg string) (*javacli.Namespace, []string, int) {
		return nil, p.ErrorLines(&javacli.ParseError{Msg: msg}), 1
	}
	given := func(flag string) bool { return hasArg(p, flag) && v.Given(p.Arg(flag)) }
	num := func(flag string) int64 { return v.Num(p.Arg(flag)) }
	switch {
	case rel.AtLeast(4, 0) && num("--num-records") <= 0:
		return fail("--num-records should be greater than zero" + dot)
	case rel.AtLeast(4, 3) && max(num("--warmup-records"), 0) >= num("--num-records"):
		return fail("The value for --warmup-records must be strictly fewer than the number of records in the test, --num-records.")
	case rel.AtLeast(4, 0) && given("--record-size") && num("--record-size") <= 0:
		return fail("--record-size should be greater than zero" + dot)
	case rel.AtLeast(4, 3) && !given("--bootstrap-server") && !given("--command-property") && !given("--producer-props") &&
		!given("--producer.config") && !given("--command-config"):
		return fail("At least one of --bootstrap-server, --command-property, --producer-props, --producer.config or --command-config must be specified.")
	case !rel.AtLeast(4, 3) && !given("--producer-props") && !given("--producer.config"):
		return fail("Either --producer-props or --producer.config must be specified.")
	case given("--command-property") && given("--producer-props"):
		return fail("--command-property and --producer-props cannot be specified together.")
	case given("--command-config") && given("--producer.config"):
		return fail("--command-config and --producer.config cannot be specified together.")
	case rel.AtLeast(4, 0) && given("--transaction-duration-ms") && num("--transaction-duration-ms") <= 0:
		return fail("--transaction-duration-ms should be greater than zero" + dot)
	case given("--reporting-interval") && num("--reporting-interval") <= 0:
		return fail("--reporting-interval should be greater than zero.")
	}
	return v, nil, 0
}

// hasArg: the release's parser has flag.
func hasArg(p *javacli.Parser, flag string) bool {
	for _, a := range p.Args {
		if a.Flags[len(a.Flags)-1] == flag {
			return true
		}
	}
	return false
}

// perfTestTool is kafka-producer-perf-test.sh (ProducerPerformance).
func perfTestTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	p := perfParserFor(rel)
	v, lines, code := perfArgsFor(p, args, rel)
	if v == nil {
		t.printLines(lines)
		t.finish(code)
		return nil
	}
	arg := p.Arg
	propsList := v.List(arg("--producer-props"))
	configFile, hasConfig := v.Str(arg("--producer.config")), v.Given(arg("--producer.config"))
	if rel.AtLeast(4, 3) {
		// KIP-1147's names; the deprecated ones stand in for them.
		if v.Given(arg("--command-property")) {
			propsList = v.List(arg("--command-property"))
		}
		if v.Given(arg("--command-config")) {
			configFile, hasConfig = v.Str(arg("--command-config")), true
		}
	}
	// Files come from the terminal's workspace ("cat > FILE").
	var payloads [][]byte
	if v.Given(arg("--payload-file")) {
		delimiter := v.Str(arg("--payload-delimiter"))
		if !v.Given(arg("--payload-delimiter")) || delimiter == `\n` {
			delimiter = "\n" // the default is shown as \n in the help and means a line break
		}
		var ok bool
		if payloads, ok = t.readPayloads(v.Str(arg("--payload-file")), delimiter, rel); !ok {
			return nil
		}
	}
	if rel.AtLeast(4, 3) {
		// KIP-1147: announced once the payloads are read, before the
		// properties are (ConfigPostProcessor).
		if v.Given(arg("--producer-props")) {
			t.println("Option --producer-props has been deprecated and will be removed in a future version. Use --command-property instead.")
		}
		if v.Given(arg("--producer.config")) {
			t.println("Option --producer.config has been deprecated and will be removed in a future version. Use --command-config instead.")
		}
	}
	props := map[string]string{}
	if hasConfig {
		text, ok := t.s.readWorkspace(configFile)
		if !ok {
			t.mainException("java.nio.file.NoSuchFileException: " + jdk.Path(configFile))
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
	for _, prop := range propsList {
		kv := jdk.Split(prop, "=")
		if len(kv) != 2 {
			t.mainException("java.lang.IllegalArgumentException: Invalid property: " + prop)
			return nil
		}
		props[kv[0]] = kv[1]
	}
	props["key.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
	props["value.serializer"] = "org.apache.kafka.common.serialization.ByteArraySerializer"
	if _, ok := props["client.id"]; !ok {
		props["client.id"] = "perf-producer-client"
	}
	if rel.AtLeast(4, 3) && v.Given(arg("--bootstrap-server")) {
		props["bootstrap.servers"] = v.Str(arg("--bootstrap-server"))
	}
	transactions := v.Num(arg("--transaction-duration-ms")) > 0
	txID := v.Str(arg("--transactional-id"))
	if !v.Given(arg("--transactional-id")) {
		txID = arg("--transactional-id").Default // performance-producer-default-transactional-id
	}
	if rel.AtLeast(4, 0) {
		// From 4.0 either option, or a transactional.id property, turns
		// transactions on; the id is the option's, else the property's,
		// else performance-producer- and a random uuid (ConfigPostProcessor).
		idProp, hasIDProp := props["transactional.id"]
		transactions = v.Given(arg("--transaction-duration-ms")) || v.Given(arg("--transactional-id")) || hasIDProp
		switch {
		case v.Given(arg("--transactional-id")):
		case hasIDProp:
			txID = idProp
		default:
			txID = "performance-producer-" + metadata.RandomUuid(t.s.world().Rand("perf-test/txid").Uint64).String()
		}
	}
	if transactions {
		props["transactional.id"] = txID
	}
	cfg := client.DefaultProducerConfig(t.s.cluster.Release().Version)
	warnings, cerr := producerConfig(&cfg, props, t.rel())
	bootstrap, ok := t.constructProducer(cfg, props, warnings, cerr)
	if !ok {
		return nil
	}
	recordSize := int(v.Num(arg("--record-size")))
	if recordSize < 0 {
		t.mainException(fmt.Sprintf("java.lang.NegativeArraySizeException: %d", recordSize))
		return nil
	}
	numRecords := v.Num(arg("--num-records"))
	if _, exc := newPerfStats(numRecords, 0); exc != "" {
		t.mainException(exc)
		return nil
	}
	largest := recordSize
	for _, pl := range payloads {
		largest = max(largest, len(pl))
	}
	if numRecords > perfMaxRecords || numRecords*int64(largest) > perfMaxBytes {
		t.println(fmt.Sprintf("kafkascope: a perf test may send at most %d records and %d MiB of payload in all (this one: %d records of up to %d bytes)",
			perfMaxRecords, perfMaxBytes>>20, numRecords, largest))
		t.finish(1)
		return nil
	}
	run := &perfRun{
		t: t, topic: v.Str(arg("--topic")), numRecords: numRecords, recordSize: recordSize, payloads: payloads,
		throughput: float64(v.Num(arg("--throughput"))), printMetrics: v.Given(arg("--print-metrics")), interval: perfReportIntervalMs,
		bufferMemory: cfg.BufferMemory, maxRequestSize: int64(cfg.MaxRequestSize), batchSize: int64(cfg.BatchSize), maxBlock: cfg.MaxBlock,
	}
	if transactions {
		// ProducerPerformance commits once the open transaction is this
		// old; 4.x, with transactions on, defaults it to 3000 ms.
		run.txnDuration = v.Num(arg("--transaction-duration-ms"))
		if run.txnDuration <= 0 {
			run.txnDuration = 3000
		}
	}
	if rel.AtLeast(4, 0) {
		run.throughput = v.Float(arg("--throughput"))
		run.monotonic = v.Given(arg("--payload-monotonic"))
	}
	if rel.AtLeast(4, 3) {
		run.warmup = max(v.Num(arg("--warmup-records")), 0)
		if v.Given(arg("--reporting-interval")) {
			run.interval = v.Num(arg("--reporting-interval"))
		}
	}
	return func(host string) sim.Process {
		run.prod = client.NewProducer(sim.Addr(host+":50000"), bootstrap, cfg, t.s.world().Rand("perf-test/"+host), t.logger())
		run.prod.OnUnblock(func(env *sim.Env) {
			if run.blocked {
				run.blocked = false
				run.pump(env)
			}
		})
		// ProducerPerformance has no shutdown hook: SIGTERM just ends it,
		// printing nothing.
		return &client.Process{Handlers: []client.Handler{run.prod}, OnStart: run.begin}
	}
}

// perfRun is the send loop and its callbacks.
//
// Pacing: Kafka's ThroughputThrottler sleeps so that on average one record
// goes out every 1/throughput s, measuring how long the sends themselves
// took. A send costs no virtual time here, so record i is simply sent at
// start + i/throughput s (all at once with a negative throughput). With a
// throughput of 0 the real loop sends two records and then waits forever.
//
// Blocking: KafkaProducer.send first blocks until the topic's metadata is
// known (up to max.block.ms, failing that one record). The tool cannot see
// the producer's metadata, so until one send has been answered it sends one
// record at a time: the second record goes out when the first is
// acknowledged rather than when the metadata arrived, one round trip later
// than in Java (which matters only above a few hundred records/s), and a
// topic that never appears fails one record per max.block.ms as in Java.
// Then KafkaProducer.send blocks while the accumulator's buffer.memory
// is used up, for at most max.block.ms. The simulator's producer does not
// model that pool, so the loop holds back while the unacknowledged records'
// estimated batch bytes would pass buffer.memory (the real pool counts whole
// batch.size buffers, so it fills somewhat earlier).
type perfRun struct {
	t              *toolRun
	prod           *client.Producer
	topic          string
	numRecords     int64
	recordSize     int
	throughput     float64 // records/s; < 0 or NaN: no throttling
	printMetrics   bool
	monotonic      bool  // --payload-monotonic (4.x)
	warmup         int64 // --warmup-records (4.3)
	interval       int64 // --reporting-interval, ms (5000 before 4.3)
	bufferMemory   int64
	maxRequestSize int64
	batchSize      int64
	maxBlock       time.Duration

	payloads [][]byte // from --payload-file; nil with --record-size
	current  []byte   // the payload drawn for record next, not sent yet
	rng      jdk.SplittableRandom
	stats    *perfStats
	// steady counts the records after the warmup (4.3's steadyStateStats),
	// nil until the first of them is sent.
	steady  *perfStats
	start   sim.Time
	next    int64
	blocked bool
	// Transactions (--transaction-duration-ms > 0, or from 4.0 a
	// transactional id): records go in transactions committed once the
	// open one is txnDuration ms old, and at the end; a commit blocks the
	// loop (commitTransaction flushes first).
	txnDuration int64 // ms; 0: no transactions
	txnSize     int   // records in the open transaction
	txnStart    int64
	committing  bool
	timer       *sim.Timer
	closing     bool
}

func (r *perfRun) begin(env *sim.Env) {
	r.start = env.Now()
	if r.warmup > 0 {
		r.t.println(fmt.Sprintf("Warmup first %d records. Steady state results will print after the complete test summary.", r.warmup))
	}
	r.stats, _ = newPerfStats(r.numRecords, env.Now().UnixMilli())
	r.stats.interval = r.interval
	if r.txnDuration > 0 {
		r.committing = true // initTransactions blocks before the loop
		r.prod.InitTransactions(env, r.afterTxnCall)
		return
	}
	r.pump(env)
}

// afterTxnCall resumes the loop after a blocking transactional call, or
// ends the tool with its exception, as main's uncaught one does.
func (r *perfRun) afterTxnCall(env *sim.Env, err *client.Error) {
	r.committing = false
	if err != nil {
		r.closing = true
		r.timer.Stop()
		r.t.mainException(err.Error())
		return
	}
	r.pump(env)
}

// due is when record i is sent; ok is false when it never is (throughput 0
// after the first two).
func (r *perfRun) due(i int64) (sim.Time, bool) {
	switch {
	case r.throughput < 0, math.IsNaN(r.throughput):
		// ThroughputThrottler.shouldThrottle never holds a send back.
		return r.start, true
	case r.throughput == 0:
		return r.start, i < 2
	}
	// Exact for whole rates: i*1e9 is an exact double for every run's
	// record count, and the division rounds correctly.
	return r.start.Add(time.Duration(float64(i) * float64(time.Second) / r.throughput)), true
}

// pump sends every record that is due and fits in the buffer, then waits
// for the next one's time, for memory, or closes the producer.
func (r *perfRun) pump(env *sim.Env) {
	if r.closing || r.committing {
		return
	}
	for r.next < r.numRecords {
		at, ok := r.due(r.next)
		if !ok {
			return // throughput 0: blocked for good
		}
		if at > env.Now() {
			r.wakeAt(env, at)
			return
		}
		if r.current == nil {
			if r.payloads != nil && len(r.payloads) == 0 {
				// The payload file split into nothing, and there is
				// no --record-size to fall back on.
				r.closing = true
				r.t.mainException("java.lang.IllegalArgumentException: " + noPayloadMessage(r.t.rel()))
				return
			}
			r.current = r.payload()
		}
		if r.prod.Blocked() {
			// send blocks: the topic's metadata is not known yet, or
			// buffer.memory is full (the producer fails the record with
			// BufferExhaustedException after max.block.ms). The producer
			// pumps again when it is free.
			r.blocked = true
			return
		}
		size := int64(record.EstimateSizeInBytesUpperBound(nil, r.current, nil))
		value := r.current
		r.current = nil
		if r.txnDuration > 0 && r.txnSize == 0 {
			if err := r.prod.BeginTransaction(); err != nil {
				r.afterTxnCall(env, err)
				return
			}
			r.txnStart = env.Now().UnixMilli()
		}
		r.sendOne(env, value, size)
		if r.closing {
			return
		}
		r.txnSize++
		if r.txnDuration > 0 && r.txnDuration <= env.Now().UnixMilli()-r.txnStart {
			r.commit(env)
			return
		}
	}
	if r.txnDuration > 0 && r.txnSize != 0 {
		r.commit(env)
		return
	}
	r.timer.Stop()
	r.closing = true
	r.prod.Close(env, func(env *sim.Env) {
		line, exc := r.stats.total(env.Now().UnixMilli(), r.t.rel())
		if exc != "" {
			r.t.mainException(exc)
			return
		}
		r.t.println(line)
		if r.steady != nil {
			line, exc := r.steady.total(env.Now().UnixMilli(), r.t.rel())
			if exc != "" {
				r.t.mainException(exc)
				return
			}
			r.t.println(line)
		}
		if r.printMetrics {
			// ToolsUtils.printMetrics(producer.metrics()), after flush and
			// before close: the run's last instant.
			for _, line := range metrics.PrintMetrics(r.prod.Metrics(env.Now())) {
				r.t.println(line)
			}
			r.t.println("kafkascope: the simulator keeps the producer-metrics and producer-topic-metrics above; Kafka's table also lists app-info, kafka-metrics-count, the network's (connection-count, io-ratio, ...) and producer-node-metrics")
		}
		r.t.finish(0)
	})
}

// commit is commitTransaction, which blocks the loop until it is done.
func (r *perfRun) commit(env *sim.Env) {
	r.committing, r.txnSize = true, 0
	r.prod.CommitTransaction(env, r.afterTxnCall)
}

func (r *perfRun) wakeAt(env *sim.Env, at sim.Time) {
	if r.timer.Pending() && r.timer.At() == at {
		return
	}
	r.timer.Stop()
	r.timer = env.After(at.Sub(env.Now()), "perf-test-send", r.pump)
}

// noPayloadMessage is generateRandomPayload's exception when there is
// nothing to send, as each release words it.
func noPayloadMessage(rel release.Version) string {
	switch {
	case rel.AtLeast(4, 3):
		return "No payload file, record size or payload-monotonic option provided."
	case rel.AtLeast(4, 0):
		return "no payload File Path or record Size or payload-monotonic option provided"
	}
	return "no payload File Path or record Size provided"
}

// payload draws the next record's bytes: one of the file's payloads,
// recordSize letters A-Z, or (--payload-monotonic) the record's number.
func (r *perfRun) payload() []byte {
	if r.monotonic {
		return []byte(strconv.FormatInt(r.next, 10))
	}
	if r.payloads != nil {
		return r.payloads[r.rng.NextInt(int32(len(r.payloads)))]
	}
	b := make([]byte, r.recordSize)
	for i := range b {
		b[i] = byte(r.rng.NextInt(26) + 65)
	}
	return b
}

// sendOne sends the next record. Its callback measures the latency from
// this moment, in whole milliseconds as System.currentTimeMillis gives.
func (r *perfRun) sendOne(env *sim.Env, value []byte, size int64) {
	sendMs := env.Now().UnixMilli()
	if r.warmup > 0 && r.next == r.warmup {
		// The first steady-state record: a second Stats counts from
		// here, and the first stops printing its windows.
		r.steady, _ = newPerfStats(r.numRecords-r.warmup, sendMs)
		r.steady.interval, r.steady.steadyState = r.interval, true
		r.stats.suppress = true
	}
	steady := r.steady // the callback counts in the Stats of its send
	r.next++
	// A record above max.request.size or buffer.memory fails in the
	// producer's ensureValidRecordSize, through the callback; one that
	// passes it and needs a batch larger than the whole pool does not.
	if alloc := max(r.batchSize, size); size <= r.maxRequestSize && size <= r.bufferMemory && alloc > r.bufferMemory {
		// The accumulator asks the buffer pool for a whole batch, more
		// than it can ever hold: that exception is not an API exception,
		// so send throws it and main() dies.
		r.closing = true
		r.timer.Stop()
		r.t.mainException(fmt.Sprintf("java.lang.IllegalArgumentException: Attempt to allocate %d bytes, but there is a hard limit of %d on memory allocations.", alloc, r.bufferMemory))
		return
	}
	r.prod.Send(env, client.ProducerRecord{Topic: r.topic, Partition: -1, Value: value}, func(env *sim.Env, _ client.RecordMetadata, err *client.Error) {
		nowMs := env.Now().UnixMilli()
		if err != nil {
			r.t.printLines(err.Lines())
		} else {
			r.stats.record(r.t, int32(nowMs-sendMs), len(value), nowMs)
			if steady != nil {
				steady.record(r.t, int32(nowMs-sendMs), len(value), nowMs)
			}
		}
	})
}
