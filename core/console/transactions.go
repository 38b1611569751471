package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/javacli"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// kafka-transactions.sh runs org.apache.kafka.tools.TransactionsCommand
// (KIP-664, Kafka 3.0; 3.8.0's), parsed with argparse4j: list asks every
// broker's transaction coordinator for its transactional ids, describe one
// id's coordinator for its state, describe-producers a partition's leader
// (or a named replica) for its producer state, abort writes an ABORT
// marker to a partition's leader for a transaction identified by its start
// offset (or its producer, epoch and coordinator epoch), and find-hanging
// finds open transactions older than the longest transaction timeout that
// their coordinator no longer knows of. A failure prints
// "MESSAGE: CAUSE. Enable debug logging for additional detail." and exits 1
// (printErrorAndExit). Kafka 4.x's additions after 4.0 (a force-terminate
// command) are not simulated.

const transactionsProg = "kafka-transactions.sh"

// transactionsParser is TransactionsCommand's parser: the base arguments,
// then the sub-commands under "commands" (metavar COMMAND).
func transactionsParser() *javacli.Parser {
	help := javacli.Argument{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"}
	p := &javacli.Parser{
		Prog:            transactionsProg,
		Description:     "Inspect the transactions of the cluster's producers, and find and abort transactions left hanging.",
		CommandsTitle:   "commands",
		CommandsMetavar: "COMMAND",
		Args: []*javacli.Argument{&help,
			{Flags: []string{"-v", "--version"}, Action: javacli.PrintVersion, Help: "print the Kafka release and exit"},
			{Flags: []string{"--command-config"}, Metavar: "FILE", Type: "String",
				Help: "a properties file of admin client settings (in kafkascope: written with cat > FILE)"},
			{Flags: []string{"--bootstrap-server"}, Metavar: "host:port", Type: "String", Required: true,
				Help: "the broker(s) to connect to, as host:port, several separated by commas"},
		},
	}
	topic := func(h string, required bool) *javacli.Argument {
		return &javacli.Argument{Flags: []string{"--topic"}, Metavar: "TOPIC", Type: "String", Required: required, Help: h}
	}
	partition := func(required bool) *javacli.Argument {
		return &javacli.Argument{Flags: []string{"--partition"}, Metavar: "PARTITION", Type: "Integer", Required: required, Help: "the partition's number"}
	}
	p.AddCommand("list", "list the transactional ids and their states", []*javacli.Argument{&help,
		{Flags: []string{"--duration-filter"}, Metavar: "DURATION_FILTER", Type: "Long",
			Help: "only transactions open longer than this many milliseconds (a negative value: all)"}})
	describe := p.AddCommand("describe", "describe one transactional id's transaction", []*javacli.Argument{&help,
		{Flags: []string{"--transactional-id"}, Metavar: "TRANSACTIONAL_ID", Type: "String", Required: true, Help: "the transactional id"}})
	describe.Description = "Describe one transactional id's transaction as its coordinator holds it."
	p.AddCommand("describe-producers", "describe the producers a partition's log knows", []*javacli.Argument{&help,
		{Flags: []string{"--broker-id"}, Metavar: "BROKER_ID", Type: "Integer", Help: "ask this broker's replica rather than the leader"},
		topic("the topic", true), partition(true)})
	const newer, older = "Brokers on versions 3.0 and above", "Brokers on versions older than 3.0"
	abort := p.AddCommand("abort", "abort a hanging transaction (an administrator's action)", []*javacli.Argument{&help,
		topic("the topic", true), partition(true),
		{Flags: []string{"--start-offset"}, Metavar: "START_OFFSET", Type: "Long", Section: newer, Help: "the first offset of the transaction to abort"},
		{Flags: []string{"--producer-id"}, Metavar: "PRODUCER_ID", Type: "Long", Section: older, Help: "the producer id"},
		{Flags: []string{"--producer-epoch"}, Metavar: "PRODUCER_EPOCH", Type: "Short", Section: older, Help: "the producer epoch"},
		{Flags: []string{"--coordinator-epoch"}, Metavar: "COORDINATOR_EPOCH", Type: "Integer", Section: older, Help: "the coordinator epoch"}})
	abort.SectionDescriptions = map[string]string{
		newer: "The transaction's first offset is enough: the tool reads the rest from the partition's producer state.",
		older: "Older brokers cannot describe producers: give all three.",
	}
	p.AddCommand("find-hanging", "find hanging transactions", []*javacli.Argument{&help,
		{Flags: []string{"--broker-id"}, Metavar: "BROKER_ID", Type: "Integer", Help: "search the partitions this broker holds a replica of"},
		{Flags: []string{"--max-transaction-timeout"}, Metavar: "MAX_TRANSACTION_TIMEOUT", Type: "Integer", Default: "15", HasDefault: true,
			Help: "the longest transaction timeout in minutes: only transactions open longer are candidates"},
		topic("search this topic only (needed with --partition)", false), partition(false)})
	return p
}

// transactionsTool is kafka-transactions.sh.
func transactionsTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	p := transactionsParser()
	v, perr := p.Parse(args)
	switch {
	case perr != nil && perr.Version:
		t.println(t.s.cluster.Release().Tag) // AppInfoParser.getVersion()
		t.finish(0)
		return nil
	case perr != nil:
		// parseArgs, handleError and exit 1: the help screen too.
		if perr.Help {
			t.printLines(perr.Parser.HelpLines())
		} else {
			t.printLines(p.ErrorLines(perr))
		}
		t.finish(1)
		return nil
	}
	props := map[string]string{}
	if cc := p.Arg("--command-config"); v.Given(cc) {
		var exc string
		var ok bool
		if props, exc, ok = t.commandConfigProps(v.Str(cc)); !ok {
			txnFail(t, "Failed to load admin client properties", v.Str(cc)) // NoSuchFileException's message
			return nil
		}
		if exc != "" {
			txnFail(t, "Failed to load admin client properties", exc)
			return nil
		}
	}
	cfg := client.DefaultAdminConfig()
	if !t.applyAdminConfig(&cfg, props) {
		return nil
	}
	bootstrap, berr := t.s.resolveBootstrap(v.Str(p.Arg("--bootstrap-server")))
	if berr != nil {
		// Admin.create throws out of main.
		t.bootstrapFailed(berr, `Exception in thread "main" org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient`,
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}")
		return nil
	}
	cmd := v.Command()
	sub := p.Command(cmd)
	return func(host string) sim.Process {
		admin := client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{admin}, OnStart: func(env *sim.Env) {
			r := &txnRun{t: t, admin: admin, p: sub, v: v}
			switch cmd {
			case "list":
				r.list(env)
			case "describe":
				r.describe(env)
			case "describe-producers":
				r.describeProducers(env)
			case "abort":
				r.abort(env)
			case "find-hanging":
				r.findHanging(env)
			}
		}}
	}
}

// txnFail is printErrorAndExit(message, cause).
func txnFail(t *toolRun, message, cause string) {
	t.println(message + ": " + cause + ". Enable debug logging for additional detail.")
	t.finish(1)
}

// txnRun is one run of a sub-command.
type txnRun struct {
	t     *toolRun
	admin *client.Admin
	p     *javacli.Parser
	v     *javacli.Namespace
}

func (r *txnRun) fail(message string, err *client.Error) { txnFail(r.t, message, err.Message) }

func (r *txnRun) given(flag string) bool { return r.v.Given(r.p.Arg(flag)) }
func (r *txnRun) num(flag string) int64  { return r.v.Num(r.p.Arg(flag)) }

func (r *txnRun) table(headers []string, rows [][]string) {
	r.t.printLines(prettyPrintTable(headers, rows))
	r.t.finish(0)
}

// list is ListTransactionsCommand: a row per id, broker by broker.
func (r *txnRun) list(env *sim.Env) {
	f := client.TxnListFilter{DurationMs: -1}
	if r.given("--duration-filter") {
		f.DurationMs = r.num("--duration-filter")
	}
	r.admin.ListTransactions(env, f, 0, func(env *sim.Env, brokers []int32, byBroker map[int32][]client.TxnListing, err *client.Error) {
		if err != nil {
			r.fail("Failed to list transactions", err)
			return
		}
		var rows [][]string
		for _, b := range brokers {
			for _, l := range byBroker[b] {
				rows = append(rows, []string{l.TransactionalID, strconv.Itoa(int(b)), strconv.FormatInt(l.ProducerID, 10), l.State})
			}
		}
		r.table([]string{"TransactionalId", "Coordinator", "ProducerId", "TransactionState"}, rows)
	})
}

// describe is DescribeTransactionsCommand: one row; the duration is the
// tool's clock less the transaction's start.
func (r *txnRun) describe(env *sim.Env) {
	id := r.v.Str(r.p.Arg("--transactional-id"))
	r.admin.DescribeTransaction(env, id, 0, func(env *sim.Env, d *client.TxnDescription, err *client.Error) {
		if err != nil {
			r.fail("Failed to describe transaction state of transactional-id `"+id+"`", err)
			return
		}
		start, duration := "None", "None"
		if d.StartTimeMs >= 0 {
			start = strconv.FormatInt(d.StartTimeMs, 10)
			duration = strconv.FormatInt(env.Now().UnixMilli()-d.StartTimeMs, 10)
		}
		var tps []string
		for _, tp := range d.TopicPartitions {
			tps = append(tps, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		}
		r.table([]string{"CoordinatorId", "TransactionalId", "ProducerId", "ProducerEpoch", "TransactionState", "TransactionTimeoutMs",
			"CurrentTransactionStartTimeMs", "TransactionDurationMs", "TopicPartitions"},
			[][]string{{strconv.Itoa(int(d.CoordinatorID)), id, strconv.FormatInt(d.ProducerID, 10), strconv.Itoa(int(d.ProducerEpoch)), d.State,
				strconv.Itoa(int(d.TimeoutMs)), start, duration, strings.Join(tps, ",")}})
	})
}

// describeProducers is DescribeProducersCommand.
func (r *txnRun) describeProducers(env *sim.Env) {
	tp := group.TopicPartition{Topic: r.v.Str(r.p.Arg("--topic")), Partition: int32(r.num("--partition"))}
	broker, where := int32(-1), "leader"
	if r.given("--broker-id") {
		broker = int32(r.num("--broker-id"))
		where = fmt.Sprintf("broker %d", broker)
	}
	r.admin.DescribeProducers(env, []group.TopicPartition{tp}, broker, 0, func(env *sim.Env, got map[group.TopicPartition][]protocol.ProducerState, failed map[group.TopicPartition]*client.Error) {
		if err := failed[tp]; err != nil {
			r.fail(fmt.Sprintf("Failed to describe producers for partition %s-%d on %s", tp.Topic, tp.Partition, where), err)
			return
		}
		var rows [][]string
		for _, s := range got[tp] {
			start := "None"
			if s.CurrentTxnStartOffset >= 0 {
				start = strconv.FormatInt(s.CurrentTxnStartOffset, 10)
			}
			rows = append(rows, []string{strconv.FormatInt(s.ProducerID, 10), strconv.Itoa(int(s.ProducerEpoch)), strconv.Itoa(int(max(s.CoordinatorEpoch, -1))),
				strconv.Itoa(int(s.LastSequence)), strconv.FormatInt(s.LastTimestamp, 10), start})
		}
		r.table([]string{"ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch", "LastSequence", "LastTimestamp", "CurrentTransactionStartOffset"}, rows)
	})
}

// abort is AbortTransactionCommand: the spec from the arguments, or from
// the producer whose open transaction starts at --start-offset.
func (r *txnRun) abort(env *sim.Env) {
	tp := group.TopicPartition{Topic: r.v.Str(r.p.Arg("--topic")), Partition: int32(r.num("--partition"))}
	name := fmt.Sprintf("%s-%d", tp.Topic, tp.Partition)
	send := func(env *sim.Env, spec client.AbortSpec) {
		r.admin.AbortTransaction(env, spec, 0, func(env *sim.Env, err *client.Error) {
			if err != nil {
				r.fail("Failed to abort transaction "+spec.String(), err)
				return
			}
			r.t.finish(0)
		})
	}
	switch {
	case !r.given("--start-offset") && !r.given("--producer-id"):
		r.t.println("The transaction to abort must be identified either with --start-offset (for brokers on 3.0 or above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)")
		r.t.finish(1)
	case !r.given("--start-offset") && !r.given("--producer-epoch"):
		r.t.println("Missing required argument --producer-epoch")
		r.t.finish(1)
	case !r.given("--start-offset") && !r.given("--coordinator-epoch"):
		r.t.println("Missing required argument --coordinator-epoch")
		r.t.finish(1)
	case !r.given("--start-offset"):
		// A hanging transaction of a new producer id has no coordinator
		// epoch yet (-1): 0 is at most any real one.
		send(env, client.AbortSpec{TP: tp, ProducerID: r.num("--producer-id"), ProducerEpoch: int16(r.num("--producer-epoch")),
			CoordinatorEpoch: int32(max(r.num("--coordinator-epoch"), 0))})
	default:
		start := r.num("--start-offset")
		r.admin.DescribeProducers(env, []group.TopicPartition{tp}, -1, 0, func(env *sim.Env, got map[group.TopicPartition][]protocol.ProducerState, failed map[group.TopicPartition]*client.Error) {
			if err := failed[tp]; err != nil {
				r.fail("Failed to validate producer state for partition "+name, err)
				return
			}
			i := slices.IndexFunc(got[tp], func(s protocol.ProducerState) bool {
				return s.CurrentTxnStartOffset >= 0 && s.CurrentTxnStartOffset == start
			})
			if i < 0 {
				r.t.println(fmt.Sprintf("Could not find any open transactions starting at offset %d on partition %s", start, name))
				r.t.finish(1)
				return
			}
			s := got[tp][i]
			send(env, client.AbortSpec{TP: tp, ProducerID: s.ProducerID, ProducerEpoch: int16(s.ProducerEpoch), CoordinatorEpoch: max(s.CoordinatorEpoch, 0)})
		})
	}
}
