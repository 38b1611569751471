package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/cluster"
	"kafkascope/core/config"
	"kafkascope/core/javacli"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

type simCommand func(s *Session, args []string)

var simCommands map[string]simCommand

func init() {
	simCommands = map[string]simCommand{
		"cluster":   (*Session).cmdCluster,
		"broker":    (*Session).cmdBroker,
		"network":   (*Session).cmdNetwork,
		"time":      (*Session).cmdTime,
		"jobs":      (*Session).cmdJobs,
		"kill":      (*Session).cmdKill,
		"help":      (*Session).cmdHelp,
		"ls":        (*Session).cmdLs,
		"cat":       (*Session).cmdCat,
		"xxd":       (*Session).cmdXxd,
		"replicas":  (*Session).cmdReplicas,
		"downtime":  (*Session).cmdDowntime,
		"lost":      (*Session).cmdLost,
		"pagecache": (*Session).cmdPagecache,
		"zookeeper": (*Session).cmdZooKeeper,
	}
}

// laterTools are Kafka tools a student meets that this build does not
// implement yet, with why.
var laterTools = map[string]string{
	"kafka-share-groups":           "share groups (KIP-932, Kafka 4.2 and later) are not simulated yet",
	"kafka-console-share-consumer": "share groups (KIP-932, Kafka 4.2 and later) are not simulated yet",
}

const helpText = `kafkascope: a simulated Kafka cluster. Commands:
  cluster create [--version V] [--brokers N] [--controllers N | --zookeepers N] [--seed S]
                 [--racks R1,R2,...] [--config key=value]... [--page-cache-bytes N]
                                 (sets offsets.topic.replication.factor=min(3, brokers) unless --config sets it;
                                 --page-cache-bytes: each machine's memory for caching files, default 64 MiB;
                                 --version: the Kafka release it runs: @RELEASES@;
                                 --zookeepers: the ZooKeeper ensemble of a 2.8 cluster, 1 or 3, default 1;
                                 --racks: each broker's broker.rack, the names handed out round-robin)
  broker kill N [--power-loss]   crash broker N (with --power-loss, unflushed writes are lost)
  broker stop N                  graceful shutdown (controlled shutdown, flush, clean exit)
  broker start N                 restart broker N; waits until it serves again
  zookeeper kill N | start N     crash ZooKeeper server N of a 2.8 cluster's 3-server ensemble
                                 (its disk is kept), or start it again; waits until it serves
  network cut A B | A->B         drop traffic between two brokers (both ways, or one way);
                                 on 2.8, A or B may be a ZooKeeper server (zookeeper-1)
  network cut --rack R           cut every link between rack R's brokers and the others:
                                 an availability zone lost (network heal --rack R undoes it)
  network heal [A B]             undo cuts (all, or between A and B); delays and pending
                                 corruptions stay (network delay N 0, network corrupt N 0)
  network delay N DURATION       add latency to every message to and from broker N (0 removes it)
  network corrupt N [COUNT]      flip a bit in the record data of the next COUNT (default 1)
                                 produce requests that reach broker N: the batch CRC fails and
                                 the leader answers CORRUPT_MESSAGE (retriable) without appending
  time advance DURATION          let time pass (500ms, 30s, 5m, 7d)
  jobs, kill [-9] %N [%N ...]    list and stop background commands (started with a trailing &; -9: no shutdown hooks)
  ls, cat, xxd [--broker N] PATH look at a broker's disk (default: the first running broker)
  replicas TOPIC-PARTITION       every replica of a partition: LEO, HW, epochs and records
  downtime [--summary] [--topic T] | reset
                                 how long each partition has been without a serving leader
                                 (--summary: how many went down, shortest, median, longest)
  lost                           committed records the cluster lost, and when
  pagecache                      each broker's page cache: used, dirty, hits and misses of the
                                 fetches it answered, bytes they sent with sendfile (zero-copy)
Kafka tools: kafka-topics.sh, kafka-console-producer.sh, kafka-console-consumer.sh, kafka-get-offsets.sh,
  kafka-consumer-groups.sh, kafka-configs.sh, kafka-leader-election.sh, kafka-reassign-partitions.sh,
  kafka-producer-perf-test.sh, kafka-consumer-perf-test.sh, kafka-verifiable-producer.sh,
  kafka-verifiable-consumer.sh, kafka-transactions.sh, kafka-dump-log.sh, kafka-metadata-quorum.sh,
  kafka-features.sh, kafka-groups.sh (4.x)`

// helpLines is the help; a cluster with ZooKeeper also lists
// zookeeper-shell.sh among the tools.
func helpLines(zookeeper bool) []string {
	text := strings.Split(strings.Replace(helpText, "@RELEASES@", releasesHelp(), 1), "\n")
	if zookeeper {
		text[len(text)-1] += ", zookeeper-shell.sh"
	}
	return text
}

// releasesHelp names the releases cluster create runs, its default, and
// the ones it knows and refuses, from the release table.
func releasesHelp() string {
	var run, refused []string
	for _, r := range release.Known() {
		if r.Refused != "" {
			refused = append(refused, r.Version.String())
		} else {
			run = append(run, r.Version.String())
		}
	}
	out := strings.Join(run, ", ") + " (default " + release.Default.String() + ")"
	switch len(refused) {
	case 0:
	case 1:
		out += ";\n                                 " + refused[0] + " is known and not simulated yet"
	default:
		out += "; " + strings.Join(refused[:len(refused)-1], ", ") + " and " + refused[len(refused)-1] + " are known\n                                 and not simulated yet"
	}
	return out
}

// cmdHelp prints the help, or with arguments the part of it about one
// command: help network, help network heal, help kill.
func (s *Session) cmdHelp(args []string) {
	text := helpLines(s.cluster != nil && len(s.cluster.ZooKeeperServers()) > 0)
	if len(args) == 0 {
		for _, l := range text {
			s.print(l)
		}
		return
	}
	entries := helpEntries(text)
	topic := strings.Join(args, " ")
	found := false
	for _, e := range entries {
		if slices.Contains(e.topics, args[0]) && (len(args) == 1 || strings.HasPrefix(e.lines[0][2:], topic+" ") || e.lines[0][2:] == topic) {
			for _, l := range e.lines {
				s.print(l)
			}
			found = true
		}
	}
	switch {
	case found:
	case toolName(args[0]) == "zookeeper-shell":
		// No --help: the script alone prints its usage, and an unknown
		// command lists the commands.
		s.print("help: zookeeper-shell.sh connects to a cluster's ZooKeeper (Kafka 2.8 clusters): zookeeper-shell.sh alone prints its usage, zookeeper-shell.sh zookeeper-1:2181 help lists its commands")
	case tools[toolName(args[0])] != nil:
		s.printf("help: %s is one of Kafka's tools: %s.sh --help lists its options", args[0], toolName(args[0]))
	default:
		s.printf("help: no help for %q; try help alone, or help with one of: %s", topic, strings.Join(helpTopics(), ", "))
	}
}

// helpTopics are the words help takes, in the help's order.
func helpTopics() []string {
	var topics []string
	for _, e := range helpEntries(strings.Split(helpText, "\n")) {
		for _, t := range e.topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	return topics
}

// helpColumn is where the help's descriptions start.
const helpColumn = 33

// helpEntry is one command's lines in the help, and the command names
// that ask for it.
type helpEntry struct {
	topics []string
	lines  []string
}

// helpEntries reads the help's command list: an entry is a line indented
// by two spaces, with the lines indented further below it; its topics are
// the first word of each command it lists ("jobs, kill [-9] %N" lists
// jobs and kill).
func helpEntries(text []string) []helpEntry {
	var out []helpEntry
	for _, l := range text {
		switch {
		case strings.HasPrefix(l, "   ") && len(out) > 0:
			e := &out[len(out)-1]
			e.lines = append(e.lines, l)
		case strings.HasPrefix(l, "  "):
			cmd := l[2:min(len(l), helpColumn)]
			var topics []string
			for _, c := range strings.Split(cmd, ", ") {
				if f := strings.Fields(c); len(f) > 0 {
					topics = append(topics, f[0])
				}
			}
			out = append(out, helpEntry{topics: topics, lines: []string{l}})
		default:
			if len(out) > 0 && !strings.HasPrefix(l, " ") {
				return out // the Kafka tools' list
			}
		}
	}
	return out
}

func (s *Session) needCluster(cmd string) bool {
	if s.cluster == nil {
		s.printf("%s: there is no cluster yet; create one with: cluster create", cmd)
		return false
	}
	return true
}

func (s *Session) cmdCluster(args []string) {
	if len(args) == 0 || args[0] != "create" {
		s.print("usage: cluster create [--version V] [--brokers N] [--controllers N | --zookeepers N] [--seed S] [--racks R1,R2,...] [--config key=value]... [--page-cache-bytes N]")
		return
	}
	cfg := cluster.Config{Brokers: 3, Seed: 1, Static: config.Static{}, TraceContent: s.TraceContent, Stepped: s.Stepped}
	p, err := javacli.ParseOptions(clusterCreateSpecs, args[1:])
	if err != nil {
		s.printf("cluster create: %v", err)
		return
	}
	if len(p.Args) > 0 {
		s.printf("cluster create: unexpected argument %q", p.Args[0])
		return
	}
	for _, o := range []struct {
		name string
		dst  *int
	}{{"brokers", &cfg.Brokers}, {"controllers", &cfg.Controllers}, {"zookeepers", &cfg.ZooKeepers}} {
		if p.Has(o.name) {
			n, err := strconv.Atoi(p.Value(o.name))
			if err != nil {
				s.printf("cluster create: --%s expects a number, got %q", o.name, p.Value(o.name))
				return
			}
			*o.dst = n
		}
	}
	if p.Has("seed") {
		n, err := strconv.ParseUint(p.Value("seed"), 10, 64)
		if err != nil {
			s.printf("cluster create: --seed expects a non-negative number, got %q", p.Value("seed"))
			return
		}
		cfg.Seed = n
	}
	if p.Has("version") {
		v, err := release.Runnable(p.Value("version"))
		if err != nil {
			s.printf("cluster create: --version: %v", err)
			return
		}
		cfg.Version = v
	}
	if p.Has("page-cache-bytes") {
		n, err := strconv.ParseInt(p.Value("page-cache-bytes"), 10, 64)
		if err != nil || n < storage.MinPageCacheBytes || n > storage.MaxPageCacheBytes {
			s.printf("cluster create: --page-cache-bytes must be a number of bytes from %d to %d, not %q", storage.MinPageCacheBytes, storage.MaxPageCacheBytes, p.Value("page-cache-bytes"))
			return
		}
		cfg.PageCacheBytes = n
	}
	for _, kv := range p.Values("config") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			s.printf("cluster create: --config expects key=value, got %q", kv)
			return
		}
		cfg.Static[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	if cfg.Brokers < 1 || cfg.Brokers > cluster.MaxBrokers {
		s.printf("cluster create: --brokers must be between 1 and %d", cluster.MaxBrokers)
		return
	}
	if p.Has("racks") {
		racks, msg := brokerRacks(p.Value("racks"), cfg.Brokers)
		if msg != "" {
			s.print("cluster create: " + msg)
			return
		}
		cfg.Racks = racks
	}
	if _, ok := cfg.Static["broker.rack"]; ok {
		s.print("cluster create: broker.rack differs from broker to broker: set it with --racks")
		return
	}
	zkEra := false
	if rel, err := release.Lookup(cfg.Version); err == nil && rel.ZooKeeper {
		zkEra = true
	}
	switch {
	case zkEra && p.Has("controllers"):
		s.printf("cluster create: --controllers sets the KRaft controller quorum; Kafka %s has none: its controller is one of the brokers, elected through ZooKeeper (--zookeepers sets the ensemble)", cfg.Version)
		return
	case !zkEra && p.Has("zookeepers"):
		s.print("cluster create: --zookeepers needs a ZooKeeper-era release (--version 2.8); later releases run in KRaft mode")
		return
	case zkEra && p.Has("zookeepers") && cfg.ZooKeepers != 1 && cfg.ZooKeepers != cluster.MaxZooKeepers:
		s.printf("cluster create: --zookeepers must be 1 (a standalone server, as Kafka's config/zookeeper.properties runs it) or %d", cluster.MaxZooKeepers)
		return
	}
	if !p.Has("controllers") {
		cfg.Controllers = min(3, cfg.Brokers) // every node, at most 3 (as cluster.New)
	}
	if _, ok := cfg.Static["offsets.topic.replication.factor"]; !ok {
		// Kafka's default (3) makes __consumer_offsets impossible to create
		// on a smaller cluster; deployments set it to what they have, as the
		// stock server.properties sets 1. The simulator does the same.
		cfg.Static["offsets.topic.replication.factor"] = strconv.Itoa(min(3, cfg.Brokers))
	}
	if cfg.Controllers < 1 || cfg.Controllers > cfg.Brokers {
		s.printf("cluster create: --controllers must be between 1 and the number of brokers (%d)", cfg.Brokers)
		return
	}
	cfg.Dashboard = true
	c, err := cluster.New(cfg)
	if err != nil {
		s.printf("cluster create: %v", err)
		return
	}
	var replaced string
	if s.cluster != nil {
		replaced = replacedClusterNote(s.cluster, len(s.jobs), c)
	}
	s.stopAllJobs()
	s.ops = nil
	if s.cluster != nil {
		s.cluster.Close() // replaced: let its goroutines go
	}
	s.cluster = c
	if replaced != "" {
		// Typed into a terminal with a cluster running, cluster create
		// throws that cluster away with everything on it: say so, naming
		// what was lost, rather than replace it silently.
		s.print(replaced)
	}
	if note := preKRaftProtocolNote(cfg.Static); note != "" && !zkEra {
		s.print(note)
	}
	if note := oldMessageFormatNote(cfg.Static); note != "" && zkEra {
		s.print(note)
	}
}

// oldMessageFormatNote says when a 2.8 cluster's log.message.format.version
// is older than 0.11: Kafka would write message sets of that format, with
// no producer ids or leader epochs; the simulator writes record batches
// (format v2) whatever the version, and keeps its replication rules with
// inter.broker.protocol.version.
func oldMessageFormatNote(static config.Static) string {
	raw, ok := static["log.message.format.version"]
	if !ok {
		return ""
	}
	v, err := config.ParseProtocolVersion(raw)
	if err != nil || config.RecordVersion(v) == 2 {
		return ""
	}
	return "cluster create: note: Kafka 2.8 with log.message.format.version=" + raw +
		" writes message format v" + strconv.Itoa(config.RecordVersion(v)) +
		" (no leader epochs in the log); kafkascope writes record batches (v2) whatever the version, and follows inter.broker.protocol.version's replication rules"
}

// preKRaftProtocolNote says when the cluster runs an
// inter.broker.protocol.version that a real KRaft broker refuses: Kafka
// 3.8's KafkaConfig fails at startup with "A non-KRaft version V given for
// inter.broker.protocol.version. The minimum version is 3.0-IV1". kafkascope
// keeps such versions as a teaching knob (the replication rules of
// KIP-101's era on a KRaft cluster) and says that it does.
func preKRaftProtocolNote(static config.Static) string {
	raw, ok := static["inter.broker.protocol.version"]
	if !ok {
		return ""
	}
	v, err := config.ParseProtocolVersion(raw)
	// 3.0 means 3.0-IV1, the first KRaft version; only 3.0-IV0 is older.
	if err != nil || v.AtLeast(3, 0) && !strings.EqualFold(strings.TrimSpace(raw), "3.0-IV0") {
		return ""
	}
	return "cluster create: note: a real Kafka broker in KRaft mode refuses inter.broker.protocol.version=" + raw +
		" (the minimum is 3.0-IV1); kafkascope runs it on KRaft to show that version's replication rules"
}

// replacedClusterNote is what cluster create says when it replaces a
// running cluster old (with jobs background jobs) by c.
func replacedClusterNote(old *cluster.Cluster, jobs int, c *cluster.Cluster) string {
	what := "the running cluster (" + clusterSummary(old) + ")"
	switch jobs {
	case 0:
	case 1:
		what += " and its background job"
	default:
		what += " and its " + strconv.Itoa(jobs) + " background jobs"
	}
	if jobs > 0 {
		what += ","
	}
	return "cluster create: stopped " + what + " and replaced it with a new one (" + clusterSummary(c) + ")"
}

// clusterSummary names a cluster's release and size: "Kafka 4.3, 3 brokers".
func clusterSummary(c *cluster.Cluster) string {
	n := len(c.NodeIDs())
	out := "Kafka " + c.Release().Version.String() + ", " + strconv.Itoa(n) + " broker"
	if n != 1 {
		out += "s"
	}
	return out
}

// PinClusterVersion returns a cluster create line that makes release v
// when the line names no --version itself: a link saved when v was the
// default must keep opening the cluster it showed after the default moved
// on. Lines that do not parse are returned as they are (replaying them
// reports the error).
func PinClusterVersion(line string, v release.Version) string {
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "cluster" || f[1] != "create" {
		return line
	}
	p, err := javacli.ParseOptions(clusterCreateSpecs, f[2:])
	if err != nil || p.Has("version") {
		return line
	}
	return strings.TrimRight(line, " \t") + " --version " + v.String()
}

// clusterCreateSpecs are cluster create's options (the parser's and the
// terminal's completion).
var clusterCreateSpecs = []*javacli.OptionSpec{
	{Name: "brokers", Arg: javacli.RequiredArg, Type: "Integer"},
	{Name: "controllers", Arg: javacli.RequiredArg, Type: "Integer"},
	{Name: "seed", Arg: javacli.RequiredArg, Type: "Long"},
	{Name: "config", Arg: javacli.RequiredArg, Type: "String"},
	{Name: "page-cache-bytes", Arg: javacli.RequiredArg, Type: "Long"},
	{Name: "version", Arg: javacli.RequiredArg, Type: "String"},
	{Name: "zookeepers", Arg: javacli.RequiredArg, Type: "Integer"},
	{Name: "racks", Arg: javacli.RequiredArg, Type: "String"},
}

// brokerRacks is each broker's broker.rack from --racks: the racks named
// are handed out round-robin (broker 1 the first, broker 2 the second,
// ...), so --racks a,b,c spreads six brokers over three racks, two each.
func brokerRacks(list string, brokers int) ([]string, string) {
	var names []string
	for _, r := range strings.Split(list, ",") {
		r = strings.TrimSpace(r)
		if r == "" {
			return nil, fmt.Sprintf("--racks expects rack names separated by commas, got %q", list)
		}
		names = append(names, r)
	}
	if len(names) > brokers {
		return nil, fmt.Sprintf("--racks names %d racks for %d brokers", len(names), brokers)
	}
	out := make([]string, brokers)
	for i := range out {
		out[i] = names[i%len(names)]
	}
	return out, ""
}

// brokerID parses a broker id argument.
func (s *Session) brokerID(cmd, arg string) (int32, bool) {
	n, err := strconv.ParseInt(arg, 10, 32)
	if err != nil {
		s.printf("%s: %q is not a broker id", cmd, arg)
		return 0, false
	}
	return int32(n), true
}

func (s *Session) cmdBroker(args []string) {
	usage := "usage: broker kill N [--power-loss] | broker stop N | broker start N"
	if len(args) < 2 {
		s.print(usage)
		return
	}
	if !s.needCluster("broker") {
		return
	}
	verb := args[0]
	id, ok := s.brokerID("broker "+verb, args[1])
	if !ok {
		return
	}
	extra := args[2:]
	var err error
	switch verb {
	case "kill":
		power := false
		for _, a := range extra {
			if a != "--power-loss" {
				s.printf("broker kill: unknown option %s", a)
				return
			}
			power = true
		}
		err = s.cluster.Kill(id, power)
	case "stop", "start":
		if len(extra) > 0 {
			s.printf("broker %s: unexpected argument %s", verb, extra[0])
			return
		}
		if verb == "stop" {
			if err = s.cluster.Stop(id); err == nil {
				s.wait(&pending{
					done:      func() bool { return s.cluster.State(id) == cluster.NodeStopped },
					deadline:  s.world().Now().Add(5 * time.Minute),
					onTimeout: func(*pending) { s.printf("broker stop: broker %d did not shut down", id) },
				})
			}
		} else if err = s.cluster.Start(id); err == nil {
			b := s.cluster.Node(id)
			s.wait(&pending{
				done:     func() bool { return b.Broker.State() == broker.StateRunning },
				deadline: s.world().Now().Add(time.Minute),
				onTimeout: func(*pending) {
					s.printf("broker start: broker %d started but is not serving yet (state %s)", id, b.Broker.State())
				},
			})
		}
	default:
		s.print(usage)
		return
	}
	if err != nil {
		s.printf("broker %s: %v", verb, err)
	}
}

func (s *Session) cmdNetwork(args []string) {
	usage := "usage: network cut A B | network cut A->B | network cut --rack R | network heal [A B | --rack R] | network delay N DURATION | network corrupt N [COUNT]"
	if len(args) == 0 {
		s.print(usage)
		return
	}
	if !s.needCluster("network") {
		return
	}
	switch args[0] {
	case "cut":
		var a, b string
		oneWay := false
		switch {
		case len(args) == 3 && args[1] == "--rack":
			if err := s.cluster.CutRack(args[2]); err != nil {
				s.printf("network cut: %v", err)
			}
			return
		case len(args) == 2 && strings.Contains(args[1], "->"):
			a, b, _ = strings.Cut(args[1], "->")
			oneWay = true
		case len(args) == 4 && args[2] == "->":
			a, b, oneWay = args[1], args[3], true
		case len(args) == 3:
			a, b = args[1], args[2]
		default:
			s.print(usage)
			return
		}
		if s.zkEndpoint(a) || s.zkEndpoint(b) {
			if err := s.cluster.CutZooKeeper(a, b, oneWay); err != nil {
				s.printf("network cut: %v", err)
			}
			return
		}
		ida, ok1 := s.brokerID("network cut", a)
		idb, ok2 := s.brokerID("network cut", b)
		if ok1 && ok2 {
			if err := s.cluster.Cut(ida, idb, oneWay); err != nil {
				s.printf("network cut: %v", err)
			}
		}
	case "heal":
		switch len(args) {
		case 1:
			_ = s.cluster.Heal(0, 0, true)
			s.healLeaves(s.cluster.NodeIDs()...)
		case 3:
			if args[1] == "--rack" {
				if err := s.cluster.HealRack(args[2]); err != nil {
					s.printf("network heal: %v", err)
				}
				return
			}
			if s.zkEndpoint(args[1]) || s.zkEndpoint(args[2]) {
				if err := s.cluster.HealZooKeeper(args[1], args[2]); err != nil {
					s.printf("network heal: %v", err)
				}
				return
			}
			ida, ok1 := s.brokerID("network heal", args[1])
			idb, ok2 := s.brokerID("network heal", args[2])
			if ok1 && ok2 {
				if err := s.cluster.Heal(ida, idb, false); err != nil {
					s.printf("network heal: %v", err)
				}
			}
		default:
			s.print(usage)
		}
	case "delay":
		if len(args) != 3 {
			s.print(usage)
			return
		}
		id, ok := s.brokerID("network delay", args[1])
		if !ok {
			return
		}
		d, err := sim.ParseDuration(args[2])
		if err != nil {
			s.printf("network delay: %v", err)
			return
		}
		if d > time.Hour {
			s.print("network delay: at most 1h")
			return
		}
		if err := s.cluster.Delay(id, d); err != nil {
			s.printf("network delay: %v", err)
		}
	case "corrupt":
		if len(args) != 2 && len(args) != 3 {
			s.print(usage)
			return
		}
		id, ok := s.brokerID("network corrupt", args[1])
		if !ok {
			return
		}
		count := 1
		if len(args) == 3 {
			n, err := strconv.Atoi(args[2])
			if err != nil || n < 0 || n > 1000 {
				s.printf("network corrupt: COUNT must be a number from 0 to 1000, not %q", args[2])
				return
			}
			count = n
		}
		if err := s.cluster.Corrupt(id, count); err != nil {
			s.printf("network corrupt: %v", err)
		}
	default:
		s.print(usage)
	}
}

// healLeaves says which of the brokers' network faults network heal left
// in place: heal undoes cuts only, and a delay or a corruption still to
// come would otherwise go on unseen once the whole network looks mended.
// (Healing one pair says nothing: the broker menu's Heal heals every pair
// of a broker, which would repeat it.)
func (s *Session) healLeaves(ids ...int32) {
	net := s.world().Net()
	for _, id := range ids {
		if d := net.Delay(cluster.Host(id)); d > 0 {
			s.printf("network heal: broker %d keeps its %s delay (network delay %d 0 removes it)", id, sim.FormatDuration(d), id)
		}
		switch n := net.Corrupt(cluster.Host(id)); n {
		case 0:
		case 1:
			s.printf("network heal: the next produce request to broker %d still arrives corrupted (network corrupt %d 0 cancels it)", id, id)
		default:
			s.printf("network heal: the next %d produce requests to broker %d still arrive corrupted (network corrupt %d 0 cancels them)", n, id, id)
		}
	}
}

// MaxAdvance bounds one time advance.
const MaxAdvance = 30 * 24 * time.Hour

func (s *Session) cmdTime(args []string) {
	if len(args) != 2 || args[0] != "advance" {
		s.print("usage: time advance DURATION   (e.g. 500ms, 30s, 5m, 7d)")
		return
	}
	if !s.needCluster("time") {
		return
	}
	d, err := sim.ParseDuration(args[1])
	if err != nil {
		s.printf("time advance: %v", err)
		return
	}
	if d > MaxAdvance {
		s.printf("time advance: at most %s at once", sim.FormatDuration(MaxAdvance))
		return
	}
	target := s.world().Now().Add(d)
	// Done once every event up to and including target has run.
	done := func() bool {
		next, ok := s.world().NextEventAt()
		return s.world().Now() >= target && (!ok || next > target)
	}
	s.wait(&pending{done: done, deadline: target, fast: true, since: s.world().Now()})
}

// zkEndpoint reports whether a network command's endpoint names a
// ZooKeeper server ("zookeeper-N").
func (s *Session) zkEndpoint(arg string) bool { return strings.HasPrefix(arg, "zookeeper-") }
