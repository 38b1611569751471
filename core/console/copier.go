package console

import (
	"fmt"

	"kafkascope/core/client"
	"kafkascope/core/copier"
	"kafkascope/core/javacli"
	"kafkascope/core/sim"
)

// TransactionalMessageCopier (org.apache.kafka.tools, 3.8.0; Kafka's
// system tests run it through kafka-run-class.sh): its command line and
// what it prints, around the copy loop of core/copier. It prints a JSON
// status line at every turn of its loop and from its shutdown hook.

const copierProg = "transactional-message-copier"

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
	cfg := copier.Config{TransactionalID: str("--transactional-id"), InputTopic: str("--input-topic"), OutputTopic: str("--output-topic"),
		InputPartition: int32(v.Num(p.Arg("--input-partition"))), Group: "-1", TransactionSize: num("--transaction-size", 200),
		MaxMessages: num("--max-messages", -1), GroupMode: v.Given(p.Arg("--group-mode")),
		RandomAborts: v.Given(p.Arg("--enable-random-aborts")), UseGroupMetadata: v.Given(p.Arg("--use-group-metadata"))}
	if v.Given(p.Arg("--consumer-group")) {
		cfg.Group = str("--consumer-group")
	}
	out := &copierOutput{t: t, id: cfg.TransactionalID}
	rel := t.rel()
	pcfg := client.DefaultProducerConfig(t.s.cluster.Release().Version)
	pprops := map[string]string{"bootstrap.servers": str("--broker-list"), "transactional.id": cfg.TransactionalID, "batch.size": "512",
		"max.in.flight.requests.per.connection": "5", "transaction.timeout.ms": fmt.Sprint(num("--transaction-timeout", 60000))}
	_, perr := producerConfig(&pcfg, pprops, rel)
	ccfg := client.DefaultConsumerConfig()
	cprops := map[string]string{"group.id": cfg.Group, "isolation.level": "read_committed", "max.poll.records": fmt.Sprint(cfg.TransactionSize),
		"enable.auto.commit": "false", "session.timeout.ms": "10000", "max.poll.interval.ms": "180000", "heartbeat.interval.ms": "3000",
		"auto.offset.reset": "earliest"}
	msg := applyConsumerProps(&ccfg, cprops, rel)
	ccfg.GroupID, ccfg.AutoOffsetReset = cfg.Group, "earliest"
	bootstrap, berr := t.s.resolveBootstrap(str("--broker-list"))
	switch {
	case perr != nil:
		out.fail("KafkaException", "Failed to construct kafka producer")
		return nil
	case msg != "":
		out.fail("KafkaException", "Failed to construct kafka consumer")
		return nil
	case berr != nil:
		t.bootstrapWarnings(berr)
		out.fail("KafkaException", "Failed to construct kafka producer")
		return nil
	}
	return func(host string) sim.Process {
		logger := func(level client.Level, msg, logger string) {
			if level == client.LevelWarn || level == client.LevelError {
				t.println(client.FormatLogLine(t.s.world().Now(), level, msg, logger))
			}
		}
		c := client.NewConsumer(sim.Addr(host+":50000"), bootstrap, ccfg, logger)
		p := client.NewProducer(sim.Addr(host+":50002"), bootstrap, pcfg, t.s.world().Rand("copier/"+host), logger)
		cp := copier.New(cfg, c, sim.Addr(host+":50001"), p, t.s.world().Rand("copier-aborts/"+host))
		cp.OnStatus = out.status
		cp.OnExit = out.exit
		t.terminate = cp.Terminate
		return &client.Process{Handlers: []client.Handler{c, p}, OnStart: cp.Start}
	}
}

// copierOutput is what the tool prints: statusAsJson's lines, main's
// error line, and the exit.
type copierOutput struct {
	t  *toolRun
	id string
}

// status is statusAsJson: a LinkedHashMap written by Jackson, the time in
// the tool's "yyyy/MM/dd HH:mm:ss:SSS" (virtual time, UTC).
func (o *copierOutput) status(env *sim.Env, s copier.Status) {
	now := env.Now().Wall().UTC()
	o.t.println(fmt.Sprintf(`{"transactionalId":%s,"stage":"%s","time":"%s:%03d","totalProcessed":%d,"consumed":%d,"remaining":%d}`,
		jsonQuote(o.id), s.Stage, now.Format("2006/01/02 15:04:05"), now.Nanosecond()/1e6, s.TotalProcessed, s.Consumed, s.Remaining))
}

// fail is main's catch before the clients exist: the error line only.
func (o *copierOutput) fail(class, msg string) {
	o.t.println(fmt.Sprintf("Shutting down after unexpected error %s: %s (see the log for additional detail)", class, msg))
	o.t.finish(1)
}

// exit is main's catch (the error line, if it failed), the shutdown
// hook's status, and the exit code.
func (o *copierOutput) exit(env *sim.Env, code int, err *client.Error, final copier.Status) {
	if err != nil {
		o.t.println(fmt.Sprintf("Shutting down after unexpected error %s: %s (see the log for additional detail)", simpleClassName(err.Class), err.Message))
	}
	o.status(env, final)
	o.t.finish(code)
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
