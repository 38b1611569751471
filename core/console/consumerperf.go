package console

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/metrics"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-consumer-perf-test.sh runs org.apache.kafka.tools.ConsumerPerformance:
// one consumer subscribes to a topic in a group, polls until it has read
// --messages records (or none came for --timeout ms), and prints how fast
// it read them; --print-metrics adds the consumer's metrics. Options per
// release (ConsumerPerformance.java): 3.8 has the deprecated --broker-list,
// --threads and --num-fetch-threads, which 4.0 removed (KAFKA-17386); 4.2
// (KIP-1147) renamed --messages to --num-records and --consumer.config to
// --command-config, added --command-property and --include, and prints the
// statistics and metrics before closing the consumer, where earlier
// releases closed it first. Help texts are our own words.

var consumerPerfSpecs38 = []javacli.OptionSpec{
	{Name: "bootstrap-server", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "server to connect to", Desc: "The brokers to connect to (optional in kafkascope: every broker)."},
	{Name: "broker-list", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "broker-list", Desc: "DEPRECATED: the old name of --bootstrap-server, used only without it."},
	{Name: "topic", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "topic", Desc: "REQUIRED: the topic to read."},
	{Name: "group", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "gid", Desc: "The consumer group to read in (default: perf-consumer- and a random number)."},
	{Name: "fetch-size", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "max.partition.fetch.bytes: the most a fetch returns of one partition.", Default: "1048576"},
	{Name: "from-latest", Desc: "Without a committed offset, start at the end of the log instead of its start."},
	{Name: "socket-buffer-size", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "size", Desc: "receive.buffer.bytes (accepted; the simulated network has no socket buffers).", Default: "2097152"},
	{Name: "threads", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "count", Desc: "DEPRECATED AND IGNORED.", Default: "10"},
	{Name: "num-fetch-threads", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "count", Desc: "DEPRECATED AND IGNORED.", Default: "1"},
	{Name: "consumer.config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "A consumer config properties file (write it with cat > FILE)."},
	{Name: "print-metrics", Desc: "Print the consumer's metrics at the end."},
	{Name: "show-detailed-stats", Desc: "Print a line of statistics every --reporting-interval instead of the totals."},
	{Name: "timeout", Arg: javacli.OptionalArg, Type: "Long", ArgDesc: "milliseconds", Desc: "Stop when no record came for this long.", Default: "10000"},
	{Name: "messages", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "count", Desc: "REQUIRED: how many records to read."},
	{Name: "reporting-interval", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "interval_ms", Desc: "How often --show-detailed-stats prints, in ms.", Default: "5000"},
	{Name: "date-format", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "date format", Desc: "The java.text.SimpleDateFormat pattern of the times printed.", Default: "yyyy-MM-dd HH:mm:ss:SSS"},
	{Name: "hide-header", Desc: "Do not print the statistics' header line."},
}

// consumerPerfSpecs42 are 4.2's additions (KIP-1147 and --include).
var consumerPerfSpecs42 = []javacli.OptionSpec{
	{Name: "include", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "Java regex (String)", Desc: "Topics to read, as a regular expression (not simulated yet)."},
	{Name: "command-property", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "prop1=val1", Desc: "A consumer config as key=value, over the config file's."},
	{Name: "command-config", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "config file", Desc: "A config properties file (the new name of --consumer.config)."},
	{Name: "num-records", Arg: javacli.RequiredArg, Type: "Long", ArgDesc: "count", Desc: "REQUIRED: how many records to read (the new name of --messages)."},
}

// consumerPerfSpecsFor are the tool's options in release v.
func consumerPerfSpecsFor(v release.Version) []*javacli.OptionSpec {
	all := withCommon(consumerPerfSpecs38)
	out := all[:0:0]
	for _, s := range all {
		if v.AtLeast(4, 0) && (s.Name == "broker-list" || s.Name == "threads" || s.Name == "num-fetch-threads") {
			continue
		}
		out = append(out, s)
	}
	if v.AtLeast(4, 2) {
		out = append(out, withKIP1147(consumerPerfSpecs42)...)
	}
	return out
}

const consumerPerfHelp = "This tool is used to verify the consumer performance."

// consumerPerfTool is kafka-consumer-perf-test.sh.
func consumerPerfTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	specs := consumerPerfSpecsFor(rel)
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		t.usage(err.Error(), specs)
		return nil
	}
	if !rel.AtLeast(4, 0) && (p.Has("threads") || p.Has("num-fetch-threads")) {
		t.println("WARNING: option [threads] and [num-fetch-threads] have been deprecated and will be ignored by the test")
	}
	if t.helpOrVersion(p, args, consumerPerfHelp, specs) {
		return nil
	}
	countOpt, configOpt := "messages", "consumer.config"
	if !rel.AtLeast(4, 2) {
		for _, r := range []string{"topic", "messages"} {
			if !p.Has(r) {
				t.usage(fmt.Sprintf(`Missing required argument "[%s]"`, r), specs)
				return nil
			}
		}
	} else {
		// 4.2's checks, in its order.
		switch {
		case p.Has("topic") == p.Has("include"):
			t.usage("Exactly one of the following arguments is required: [topic], [include]", specs)
			return nil
		case p.Has("messages") == p.Has("num-records"):
			t.usage("Exactly one of the following arguments is required: [messages], [num-records]", specs)
			return nil
		case p.Has("consumer.config") && p.Has("command-config"):
			t.usage(`Option "[consumer.config]" can't be used with option "[command-config]"`, specs)
			return nil
		}
		if p.Has("messages") {
			t.println("Warning: --messages is deprecated. Use --num-records instead.")
		} else {
			countOpt = "num-records"
		}
		if p.Has("consumer.config") {
			t.println("Warning: --consumer.config is deprecated. Use --command-config instead.")
		} else {
			configOpt = "command-config"
		}
		if p.Has("include") {
			t.println("kafkascope: kafka-consumer-perf-test.sh: --include is not simulated yet; use --topic")
			t.finish(1)
			return nil
		}
	}
	// main's catch prints a Throwable's message and its trace (here its
	// first line) on stderr, and exits with 1.
	fail := func(msg, exc string) func(host string) sim.Process {
		t.println(msg)
		t.println(exc)
		t.finish(1)
		return nil
	}
	props := map[string]string{}
	if p.Has(configOpt) {
		file, exc, ok := t.commandConfigProps(p.Value(configOpt))
		if !ok {
			msg := p.Value(configOpt) + " (No such file or directory)"
			return fail(msg, "java.io.FileNotFoundException: "+msg)
		}
		if exc != "" {
			return fail(exc, exc)
		}
		for k, v := range file {
			props[k] = v
		}
	}
	if rel.AtLeast(4, 2) {
		extra, _ := parseKeyValues(p.Values("command-property"))
		for k, v := range extra {
			props[k] = v
		}
	}
	groupID := p.Value("group")
	if !p.Has("group") {
		groupID = fmt.Sprintf("perf-consumer-%d", t.s.world().Rand(fmt.Sprintf("consumer-perf/%d", t.s.tools)).Intn(100000))
	}
	t.s.tools++
	props["group.id"] = groupID
	props["auto.offset.reset"] = "earliest"
	if p.Has("from-latest") {
		props["auto.offset.reset"] = "latest"
	}
	fetchSize := p.Value("fetch-size")
	if _, err := p.Int("fetch-size", 32); err != nil {
		oe := err.(*javacli.OptionError)
		return fail(oe.Msg, oe.Class+": "+oe.Msg)
	}
	props["max.partition.fetch.bytes"] = fetchSize
	if _, ok := props["client.id"]; !ok {
		props["client.id"] = "perf-consumer-client"
	}
	bootstrap, berr := t.s.resolveBootstrap(p.Value("bootstrap-server"))
	if berr == nil && p.Value("bootstrap-server") == "" && !rel.AtLeast(4, 0) && p.Has("broker-list") {
		bootstrap, berr = t.s.resolveBootstrap(p.Value("broker-list"))
	}
	if berr != nil {
		t.bootstrapFailed(berr, "Failed to construct kafka consumer",
			"org.apache.kafka.common.KafkaException: Failed to construct kafka consumer",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	cfg := client.DefaultConsumerConfigFor(rel)
	if msg := applyConsumerProps(&cfg, props, rel); msg != "" {
		return fail(strings.TrimPrefix(msg, "org.apache.kafka.common.config.ConfigException: "), msg)
	}
	cfg.ClientID, cfg.GroupID, cfg.AutoOffsetReset = props["client.id"], groupID, props["auto.offset.reset"]
	num, err := p.Int(countOpt, 64)
	if err != nil {
		oe := err.(*javacli.OptionError)
		return fail(oe.Msg, oe.Class+": "+oe.Msg)
	}
	timeout, err := p.Int("timeout", 64)
	if err != nil {
		oe := err.(*javacli.OptionError)
		return fail(oe.Msg, oe.Class+": "+oe.Msg)
	}
	interval, err := p.Int("reporting-interval", 64)
	if err != nil || !isDigits(p.Value("reporting-interval")) {
		msg := fmt.Sprintf(`Value [%s] did not match regex [^\d+$]`, p.Value("reporting-interval"))
		return fail(msg, "joptsimple.util.RegexMatcher: "+msg)
	}
	format, illegal, unsupported := jdk.SimpleDateFormat(p.Value("date-format"))
	switch {
	case unsupported != "":
		t.println("kafkascope: --date-format: the pattern letters " + unsupported + " are not simulated yet (numeric fields y M d H h m s S are)")
		t.finish(1)
		return nil
	case illegal != nil:
		return fail(illegal.Error(), "java.lang.IllegalArgumentException: "+illegal.Error())
	}
	run := &consumerPerfRun{
		t: t, topic: p.Value("topic"), num: num, timeout: ms(timeout), interval: interval, format: format,
		detailed: p.Has("show-detailed-stats"), printMetrics: p.Has("print-metrics"), kafka42: rel.AtLeast(4, 2),
	}
	if !p.Has("hide-header") {
		// printHeader, before the consumer is made.
		fields := "start.time, end.time"
		if run.detailed {
			fields = "time, threadId"
		}
		t.println(fields + ", data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec")
	}
	if interval <= 0 {
		// reportingIntervalMs(), read once the consumer is made.
		return fail("Reporting interval must be greater than 0.", "java.lang.IllegalArgumentException: Reporting interval must be greater than 0.")
	}
	return func(host string) sim.Process {
		run.coordAddr = sim.Addr(host + ":50001")
		run.c = client.NewConsumer(sim.Addr(host+":50000"), bootstrap, cfg, t.logger())
		t.terminate = run.stop
		return &client.Process{Handlers: []client.Handler{run.c}, OnStart: run.begin}
	}
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// consumerPerfRun is ConsumerPerformance's poll loop. The simulated
// consumer hands records over as they arrive, which is when Kafka's
// poll(100 ms) returns them; a poll that returns nothing takes its 100 ms,
// so after the last records at L the loop sees the timeout passed at the
// first L + k·100 ms beyond L + --timeout.
type consumerPerfRun struct {
	t         *toolRun
	c         *client.Consumer
	coordAddr sim.Addr
	topic     string
	num       int64
	timeout   time.Duration
	interval  int64
	format    func(ms int64) string
	detailed  bool

	printMetrics bool
	// kafka42: Kafka 4.2's tool (KIP-1147): statistics and metrics before
	// the close, the listener's join time counted only while nothing is
	// assigned, "records" in the timeout warning.
	kafka42 bool

	start, lastReport, lastConsumed int64 // ms
	records, bytes                  int64
	lastRecords, lastBytes          int64
	joinStart, joinTime, joinRound  int64
	assigned                        int
	timer                           *sim.Timer
	done                            bool
}

func (r *consumerPerfRun) begin(env *sim.Env) {
	now := env.Now().UnixMilli()
	r.start, r.lastReport, r.lastConsumed, r.joinStart = now, now, now, now
	r.c.OnRecords(r.onRecords)
	r.c.OnError(func(env *sim.Env, err *client.Error) {
		lines := err.Lines()
		r.t.println(err.Message)
		r.t.printLines(lines)
		r.done = true
		r.timer.Stop()
		r.c.Close(env, func(*sim.Env) { r.t.finish(1) })
	})
	// ConsumerPerfRebListener: the time from a revocation (or the start)
	// to the next assignment is rebalance time.
	r.c.OnRebalance(func(env *sim.Env, tps []group.TopicPartition) {
		r.assigned -= len(tps)
		if !r.kafka42 || r.assigned <= 0 {
			r.joinStart = env.Now().UnixMilli()
		}
	}, func(env *sim.Env, tps []group.TopicPartition) {
		if !r.kafka42 || r.assigned <= 0 {
			d := env.Now().UnixMilli() - r.joinStart
			r.joinTime += d
			r.joinRound += d
		}
		r.assigned += len(tps)
	}, nil)
	if bad := r.c.Subscribe(env, r.coordAddr, []string{r.topic}); bad != "" {
		r.t.println("org.apache.kafka.common.KafkaException: " + bad + " ClassNotFoundException exception occurred")
		r.t.finish(1)
		return
	}
	if r.num <= 0 {
		// The loop's condition fails at once: no poll at all.
		r.end(env)
		return
	}
	r.armTimeout(env)
}

// armTimeout schedules the poll that finds --timeout passed since the
// last records.
func (r *consumerPerfRun) armTimeout(env *sim.Env) {
	polls := r.timeout.Milliseconds()/100 + 1
	at := sim.FromUnixMilli(r.lastConsumed).Add(time.Duration(polls) * 100 * time.Millisecond)
	r.timer.Stop()
	r.timer = env.After(at.Sub(env.Now()), "consumer-perf-timeout", func(env *sim.Env) {
		if r.done {
			return
		}
		r.t.println(fmt.Sprintf("WARNING: Exiting before consuming the expected number of %s: timeout (%d ms) exceeded. You can use the --timeout option to increase the timeout.", r.warnWord(), r.timeout.Milliseconds()))
		r.end(env)
	})
}

// onRecords is one poll's records, counted one by one (the last poll's
// are all counted, so the total may pass --messages).
func (r *consumerPerfRun) onRecords(env *sim.Env, recs []client.ConsumerRecord) {
	if r.done {
		return
	}
	now := env.Now().UnixMilli()
	r.lastConsumed = now
	for _, rec := range recs {
		r.records++
		r.bytes += int64(len(rec.Key) + len(rec.Value))
		if now-r.lastReport >= r.interval {
			if r.detailed {
				r.progress(now)
			}
			r.joinRound = 0
			r.lastReport, r.lastRecords, r.lastBytes = now, r.records, r.bytes
		}
	}
	if r.records >= r.num {
		r.end(env)
		return
	}
	r.armTimeout(env)
}

// progress is printConsumerProgress: the interval's basic and extended
// figures.
func (r *consumerPerfRun) progress(now int64) {
	f := func(x float64) string { return jdk.FormatFixed(x, 4) }
	elapsed := float64(now - r.lastReport)
	mb := float64(r.bytes) / (1024 * 1024)
	intervalMB := float64(r.bytes-r.lastBytes) / (1024 * 1024)
	fetchMs := now - r.lastReport - r.joinRound
	fetchMBs, fetchRecs := 0.0, 0.0
	if fetchMs > 0 {
		fetchMBs, fetchRecs = 1000*intervalMB/float64(fetchMs), 1000*float64(r.records-r.lastRecords)/float64(fetchMs)
	}
	r.t.println(fmt.Sprintf("%s, %d, %s, %s, %d, %s, %d, %d, %s, %s", r.format(now), 0, f(mb), f(1000*intervalMB/elapsed), r.records,
		f(float64(r.records-r.lastRecords)/elapsed*1000), r.joinRound, fetchMs, f(fetchMBs), f(fetchRecs)))
}

// end leaves the loop: the totals (unless detailed), the metrics, and
// the consumer's close, in the release's order.
func (r *consumerPerfRun) end(env *sim.Env) {
	if r.done {
		return
	}
	r.done = true
	r.timer.Stop()
	endMs := env.Now().UnixMilli()
	report := func(env *sim.Env) {
		if !r.detailed {
			f := func(x float64) string { return jdk.FormatFixed(x, 4) }
			elapsed := float64(endMs-r.start) / 1000
			fetchMs := endMs - r.start - r.joinTime
			mb := float64(r.bytes) / (1024 * 1024)
			r.t.println(fmt.Sprintf("%s, %s, %s, %s, %d, %s, %d, %d, %s, %s", r.format(r.start), r.format(endMs), f(mb), f(mb/elapsed),
				r.records, f(float64(r.records)/elapsed), r.joinTime, fetchMs, f(mb/(float64(fetchMs)/1000)), f(float64(r.records)/(float64(fetchMs)/1000))))
		}
		if r.printMetrics {
			for _, line := range metrics.PrintMetrics(r.c.Metrics(env.Now())) {
				r.t.println(line)
			}
			r.t.println("kafkascope: the simulator keeps the consumer-fetch-manager-metrics and consumer-coordinator-metrics above; Kafka's table also lists app-info, kafka-metrics-count, consumer-metrics (poll timing), the network's and consumer-node-metrics")
		}
	}
	if r.kafka42 {
		report(env)
		r.c.Close(env, func(*sim.Env) { r.t.finish(0) })
		return
	}
	// 3.8 to 4.1 close the consumer first, then print: the metrics are
	// read after the close (its commit and its revocation included).
	r.c.Close(env, func(env *sim.Env) {
		report(env)
		r.t.finish(0)
	})
}

// stop is a SIGTERM: ConsumerPerformance has no shutdown hook.
func (r *consumerPerfRun) stop(env *sim.Env) {
	r.done = true
	r.timer.Stop()
	r.c.Stop()
	r.t.finish(143)
}

// warnWord is what the timeout warning counts: messages, records from 4.2.
func (r *consumerPerfRun) warnWord() string {
	if r.kafka42 {
		return "records"
	}
	return "messages"
}
