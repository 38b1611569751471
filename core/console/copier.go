package console

import (
	"fmt"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/javacli"
	"kafkascope/core/sim"
)

// TransactionalMessageCopier (org.apache.kafka.tools, 3.8.0; Kafka's
// system tests run it through kafka-run-class.sh) copies an input
// partition to an output topic exactly once: a read_committed consumer
// polls up to --transaction-size records, a transactional producer sends
// them to the same partition number of the output topic and sends the
// consumer's positions to the transaction, then commits. A failed
// transaction is aborted and the consumer goes back to the committed
// offsets; a fenced producer ends the tool. It prints a JSON status line
// at every turn of its loop and from its shutdown hook.

const copierProg = "transactional-message-copier"

// copierPositionTimeout is the consumer's default.api.timeout.ms, which
// position() waits for.
const copierPositionTimeout = 60 * time.Second

func copierParser() *javacli.Parser {
	p := &javacli.Parser{Prog: copierProg,
		Description: "Copy the records of one input partition to an output topic in transactions, the consumed offsets committed with the records they produced.",
		Args: []*javacli.Argument{
			{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
			{Flags: []string{"--input-topic"}, Metavar: "INPUT-TOPIC", Type: "String", Required: true, Help: "the topic to read"},
			{Flags: []string{"--input-partition"}, Metavar: "INPUT-PARTITION", Type: "Integer", Required: true, Help: "the partition of the input topic to read"},
			{Flags: []string{"--output-topic"}, Metavar: "OUTPUT-TOPIC", Type: "String", Required: true, Help: "the topic to write"},
			{Flags: []string{"--broker-list"}, Metavar: "HOST1:PORT1[,HOST2:PORT2[...]]", Type: "String", Required: true, Help: "the brokers to bootstrap from, comma-separated"},
			{Flags: []string{"--max-messages"}, Metavar: "MAX-MESSAGES", Type: "Integer", Default: "-1", HasDefault: true,
				Help: "copy at most this many records of those present at launch; -1 copies them all"},
			{Flags: []string{"--consumer-group"}, Metavar: "CONSUMER-GROUP", Type: "String", Default: "-1", HasDefault: true, Help: "the group whose offsets the transactions commit"},
			{Flags: []string{"--transaction-size"}, Metavar: "TRANSACTION-SIZE", Type: "Integer", Default: "200", HasDefault: true, Help: "records per transaction (the consumer's max.poll.records)"},
			{Flags: []string{"--transaction-timeout"}, Metavar: "TRANSACTION-TIMEOUT", Type: "Integer", Default: "60000", HasDefault: true, Help: "the producer's transaction.timeout.ms"},
			{Flags: []string{"--transactional-id"}, Metavar: "TRANSACTIONAL-ID", Type: "String", Required: true, Help: "the producer's transactional.id"},
			{Flags: []string{"--enable-random-aborts"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true, Help: "abort about one transaction in three (for testing)"},
			{Flags: []string{"--group-mode"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true,
				Help: "subscribe to the input topic in the group instead of assigning the input partition (which is then ignored)"},
			{Flags: []string{"--use-group-metadata"}, Action: javacli.StoreTrue, Default: "false", HasDefault: true,
				Help: "send the consumer's group metadata (member and generation) with the offsets, not only the group id"},
		},
	}
	return p
}

// copierTool is `kafka-run-class.sh org.apache.kafka.tools.TransactionalMessageCopier`.
func copierTool(t *toolRun, args []string) func(host string) sim.Process {
	p := copierParser()
	v, ok := t.parseArgsOrFail(p, args)
	if !ok {
		return nil
	}
	str := func(flag string) string { return v.Str(p.Arg(flag)) }
	num := func(flag string, def int64) int64 {
		if !v.Given(p.Arg(flag)) {
			return def
		}
		return v.Num(p.Arg(flag))
	}
	cp := &copier{t: t, id: str("--transactional-id"), in: str("--input-topic"), out: str("--output-topic"), partition: int32(v.Num(p.Arg("--input-partition"))),
		group: "-1", size: num("--transaction-size", 200), groupMode: v.Given(p.Arg("--group-mode")),
		randomAborts: v.Given(p.Arg("--enable-random-aborts")), useGroupMetadata: v.Given(p.Arg("--use-group-metadata"))}
	if v.Given(p.Arg("--consumer-group")) {
		cp.group = str("--consumer-group")
	}
	cp.remaining = num("--max-messages", -1)
	if cp.remaining == -1 {
		cp.remaining = 1<<63 - 1
	}
	rel := t.rel()
	pcfg := client.DefaultProducerConfig(t.s.cluster.Release().Version)
	pprops := map[string]string{"bootstrap.servers": str("--broker-list"), "transactional.id": cp.id, "batch.size": "512",
		"max.in.flight.requests.per.connection": "5", "transaction.timeout.ms": fmt.Sprint(num("--transaction-timeout", 60000))}
	_, perr := producerConfig(&pcfg, pprops, rel)
	ccfg := client.DefaultConsumerConfig()
	cprops := map[string]string{"group.id": cp.group, "isolation.level": "read_committed", "max.poll.records": fmt.Sprint(cp.size),
		"enable.auto.commit": "false", "session.timeout.ms": "10000", "max.poll.interval.ms": "180000", "heartbeat.interval.ms": "3000",
		"auto.offset.reset": "earliest"}
	msg := applyConsumerProps(&ccfg, cprops, rel)
	ccfg.GroupID, ccfg.AutoOffsetReset = cp.group, "earliest"
	bootstrap, berr := t.s.resolveBootstrap(str("--broker-list"))
	switch {
	case perr != nil:
		cp.fail("KafkaException", "Failed to construct kafka producer")
		return nil
	case msg != "":
		cp.fail("KafkaException", "Failed to construct kafka consumer")
		return nil
	case berr != nil:
		t.bootstrapWarnings(berr)
		cp.fail("KafkaException", "Failed to construct kafka producer")
		return nil
	}
	return func(host string) sim.Process {
		logger := func(level client.Level, msg, logger string) {
			if level == client.LevelWarn || level == client.LevelError {
				t.println(client.FormatLogLine(t.s.world().Now(), level, msg, logger))
			}
		}
		cp.c = client.NewConsumer(sim.Addr(host+":50000"), bootstrap, ccfg, logger)
		cp.coordAddr = sim.Addr(host + ":50001")
		cp.p = client.NewProducer(sim.Addr(host+":50002"), bootstrap, pcfg, t.s.world().Rand("copier/"+host), logger)
		cp.rand = t.s.world().Rand("copier-aborts/" + host)
		t.terminate = cp.sigterm
		return &client.Process{Handlers: []client.Handler{cp.c, cp.p}, OnStart: cp.start}
	}
}

// copier is one run of the copier.
type copier struct {
	t                   *toolRun
	c                   *client.Consumer
	p                   *client.Producer
	coordAddr           sim.Addr
	rand                *sim.Rand
	id, in, out, group  string
	partition           int32
	size                int64
	groupMode           bool
	randomAborts        bool
	useGroupMetadata    bool
	remaining           int64
	total, consumed     int64
	polling, rebalacing bool
	pollTimer           *sim.Timer
	done                bool
}

// status is statusAsJson: a LinkedHashMap written by Jackson, the time in
// the tool's "yyyy/MM/dd HH:mm:ss:SSS" (virtual time, UTC).
func (cp *copier) status(stage string) {
	now := cp.t.s.world().Now().Wall().UTC()
	cp.t.println(fmt.Sprintf(`{"transactionalId":%s,"stage":"%s","time":"%s:%03d","totalProcessed":%d,"consumed":%d,"remaining":%d}`,
		jsonQuote(cp.id), stage, now.Format("2006/01/02 15:04:05"), now.Nanosecond()/1e6, cp.total, cp.consumed, cp.remaining))
}

// fail is main's catch: the error line, then the shutdown hook's status.
func (cp *copier) fail(class, msg string) {
	cp.t.println(fmt.Sprintf("Shutting down after unexpected error %s: %s (see the log for additional detail)", class, msg))
	if cp.c != nil {
		cp.status("ShutdownComplete")
	}
	cp.t.finish(1)
}

func (cp *copier) start(env *sim.Env) {
	cp.c.Hold()
	cp.c.OnRecords(cp.onRecords)
	cp.c.OnError(func(env *sim.Env, err *client.Error) { cp.exit(env, 1, err) })
	if cp.groupMode {
		cp.c.OnRebalance(nil, cp.onAssigned, nil)
		cp.c.Subscribe(env, cp.coordAddr, []string{cp.in})
		cp.p.InitTransactions(env, cp.afterInit)
		return
	}
	tp := group.TopicPartition{Topic: cp.in, Partition: cp.partition}
	cp.c.AssignCommitted(env, cp.coordAddr, cp.in, []int32{cp.partition})
	cp.remainingOf(env, []group.TopicPartition{tp}, func(env *sim.Env, n int64) {
		cp.remaining = min(n, cp.remaining)
		cp.p.InitTransactions(env, cp.afterInit)
	})
}

// remainingOf is messagesRemaining summed: each partition's end offset
// (the LSO: the consumer reads committed) less its position, once known.
// position() gives up after default.api.timeout.ms (60 s): a read_committed
// consumer's committed offset stays unknown while a transaction holds a
// pending offset commit for it (UNSTABLE_OFFSET_COMMIT), and the copier
// then fails.
func (cp *copier) remainingOf(env *sim.Env, tps []group.TopicPartition, done func(env *sim.Env, n int64)) {
	var total int64
	var next func(env *sim.Env, i int)
	deadline := env.Now().Add(copierPositionTimeout)
	next = func(env *sim.Env, i int) {
		if cp.done {
			return
		}
		if i == len(tps) {
			done(env, total)
			return
		}
		pos, ok := cp.c.Position(tps[i])
		if !ok && env.Now() >= deadline {
			cp.exit(env, 1, &client.Error{Class: "org.apache.kafka.common.errors.TimeoutException",
				Message: fmt.Sprintf("Timeout of %dms expired before the position for partition %s-%d could be determined", copierPositionTimeout.Milliseconds(), tps[i].Topic, tps[i].Partition)})
			return
		}
		if !ok {
			env.After(10*time.Millisecond, "copier-position", func(env *sim.Env) { next(env, i) })
			return
		}
		cp.c.EndOffset(env, tps[i], func(env *sim.Env, end int64) {
			total += end - pos
			next(env, i+1)
		})
	}
	next(env, 0)
}

// onAssigned is the group-mode listener: the remaining count is what the
// new partitions hold, and the loop waits (inside poll) until it is known.
func (cp *copier) onAssigned(env *sim.Env, tps []group.TopicPartition) {
	cp.rebalacing = true
	cp.c.Hold()
	cp.remainingOf(env, tps, func(env *sim.Env, n int64) {
		cp.remaining, cp.consumed, cp.rebalacing = n, 0, false
		cp.status("RebalanceComplete")
		if cp.polling {
			cp.c.Release(env)
		}
	})
}

func (cp *copier) afterInit(env *sim.Env, err *client.Error) {
	if err != nil {
		cp.exit(env, 1, err)
		return
	}
	cp.loop(env)
}

// loop is one turn of runEventLoop's while: the status, then poll(200 ms).
func (cp *copier) loop(env *sim.Env) {
	if cp.done {
		return
	}
	if cp.remaining <= 0 {
		cp.exit(env, 0, nil)
		return
	}
	cp.status("ProcessLoop")
	cp.polling = true
	cp.pollTimer = env.After(200*time.Millisecond, "copier-poll", func(env *sim.Env) {
		if cp.polling {
			cp.polling = false
			cp.c.Hold()
			cp.loop(env)
		}
	})
	if !cp.rebalacing {
		cp.c.Release(env)
	}
}

// onRecords is what a poll returned: one transaction.
func (cp *copier) onRecords(env *sim.Env, recs []client.ConsumerRecord) {
	if !cp.polling || cp.done {
		return
	}
	cp.polling = false
	cp.pollTimer.Stop()
	cp.c.Hold()
	if err := cp.p.BeginTransaction(); err != nil {
		cp.failed(env, err)
		return
	}
	for _, r := range recs {
		cp.p.Send(env, client.ProducerRecord{Topic: cp.out, Partition: r.Partition, Key: r.Key, Value: r.Value}, nil)
	}
	n := int64(len(recs))
	md := client.ConsumerGroupMetadata{GroupID: cp.group, GenerationID: -1}
	if cp.useGroupMetadata {
		md = cp.c.GroupMetadata()
	}
	var offsets []client.TxnOffset
	for _, tp := range cp.c.AssignedPartitions() {
		if pos, ok := cp.c.Position(tp); ok {
			offsets = append(offsets, client.TxnOffset{TP: tp, Offset: pos, LeaderEpoch: -1})
		}
	}
	cp.p.SendOffsetsToTransaction(env, offsets, md, func(env *sim.Env, err *client.Error) {
		if err != nil {
			cp.failed(env, err)
			return
		}
		if cp.randomAborts && javaMod(int32(cp.rand.Uint64()), 3) == 0 {
			cp.abort(env)
			return
		}
		cp.p.CommitTransaction(env, func(env *sim.Env, err *client.Error) {
			if err != nil {
				cp.failed(env, err)
				return
			}
			cp.remaining -= n
			cp.consumed += n
			cp.total += n
			cp.loop(env)
		})
	})
}

// javaMod is Java's %: the sign of the dividend.
func javaMod(a, b int32) int32 { return a % b }

// failed is the loop's catch: a fenced producer ends the tool, anything
// else aborts the transaction and rewinds the consumer.
func (cp *copier) failed(env *sim.Env, err *client.Error) {
	if err.Class == "org.apache.kafka.common.errors.ProducerFencedException" {
		cp.exit(env, 1, &client.Error{Class: "org.apache.kafka.common.KafkaException", Message: fmt.Sprintf("The transactional.id %s has been claimed by another process", cp.id)})
		return
	}
	cp.abort(env)
}

// abort is abortTransactionAndResetPosition.
func (cp *copier) abort(env *sim.Env) {
	cp.p.AbortTransaction(env, func(env *sim.Env, err *client.Error) {
		if err != nil {
			cp.exit(env, 1, err) // abortTransaction threw out of the loop
			return
		}
		cp.c.SeekToCommitted(env, cp.loop)
	})
}

// exit ends the tool: main's error line if it failed, the shutdown hook's
// status, and the exit code.
func (cp *copier) exit(env *sim.Env, code int, err *client.Error) {
	if cp.done {
		return
	}
	cp.done = true
	cp.c.Stop()
	if err != nil {
		cp.t.println(fmt.Sprintf("Shutting down after unexpected error %s: %s (see the log for additional detail)", simpleClassName(err.Class), err.Message))
	}
	cp.status("ShutdownComplete")
	cp.t.finish(code)
}

// sigterm runs the shutdown hook: the status, and the JVM exits.
func (cp *copier) sigterm(env *sim.Env) {
	if cp.done {
		return
	}
	cp.done = true
	cp.c.Stop()
	cp.status("ShutdownComplete")
	cp.t.finish(143)
}

// simpleClassName is Class.getSimpleName.
func simpleClassName(class string) string {
	for i := len(class) - 1; i >= 0; i-- {
		if class[i] == '.' {
			return class[i+1:]
		}
	}
	return class
}
