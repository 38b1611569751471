package console

import (
	"math"
	"time"

	"kafkascope/core/javacli"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
)

// kafka-topics.sh --zookeeper, Kafka 2.8's TopicCommand.ZookeeperTopicService
// (core/src/main/scala/kafka/admin/TopicCommand.scala, tag 2.8.0): the tool
// is a ZooKeeper client that reads and writes the znodes itself, through
// KafkaZkClient (core/src/main/scala/kafka/zk/KafkaZkClient.scala) and
// AdminZkClient (AdminZkClient.scala). No broker is asked anything: the
// controller notices what the tool writes through its watches.

// zkTopicsTimeout is the session and connection timeout the tool's
// KafkaZkClient asks for (ZookeeperTopicService.apply, 30000 and 30000).
const zkTopicsTimeout = 30 * time.Second

// zkTopicsInternal is 2.8's Topic.isInternal: the two internal topics of
// that release (clients/.../common/internals/Topic.java, tag 2.8.0).
func zkTopicsInternal(name string) bool {
	return name == "__consumer_offsets" || name == "__transaction_state"
}

// zkTopicsTool checks the connect string and returns the tool's program.
// KafkaZkClient.apply builds the ZooKeeper client before main's try, so a
// connect string it refuses ends main with its exception.
func zkTopicsTool(t *toolRun, p *javacli.OptionSet, action string) func(host string) sim.Process {
	cfg := &zkShellConfig{}
	if exc := cfg.parseConnectString(p.Value("zookeeper"), t.s.cluster.ZooKeeperServers()); exc != "" {
		t.mainException(exc)
		return nil
	}
	return func(host string) sim.Process {
		proc := &zkTopicsProc{cfg: cfg, action: action}
		proc.tc = &topicCommand{t: t, p: p, exit: proc.exit}
		if len(cfg.servers) > 0 {
			proc.zk = kafkazk.NewClient(kafkazk.ClientConfig{Servers: cfg.servers, SessionTimeout: zkTopicsTimeout, MaxInFlight: math.MaxInt32})
		}
		return proc
	}
}

// zkTopicsProc is the tool's JVM: TopicCommand.main with a
// ZookeeperTopicService.
//
// It starts by waiting for the session, as ZooKeeperClient's constructor
// does (waitUntilConnected, the connection timeout), then runs the action,
// one synchronous KafkaZkClient call after another (a call of several
// requests sends them together). At the end main's finally closes the
// client (the session is closed, not left to expire) and exits.
//
// Not modelled: the log lines ZooKeeper's client prints at WARN and ERROR
// while it retries a host that does not resolve; such hosts are skipped
// (a host nothing listens on logs at INFO only, which the tools' log4j
// configuration hides).
type zkTopicsProc struct {
	tc        *topicCommand
	cfg       *zkShellConfig
	action    string
	zk        *kafkazk.Client // nil when no server of the connect string can answer
	connected bool            // the session was established (a reply came)
	timer     *sim.Timer
	env       *sim.Env // the latest, for exit
	done      bool
}

func (p *zkTopicsProc) Start(env *sim.Env) {
	p.env = env
	if p.zk != nil {
		p.zk.Start(env)
	}
	p.timer = env.After(zkTopicsTimeout, "zookeeper-connection-timeout", func(env *sim.Env) {
		if p.done || p.connected || p.zk != nil && p.zk.Connected() {
			return
		}
		// ZooKeeperClient.waitUntilConnected (ZooKeeperClient.scala:271,
		// tag 2.8.0), thrown from the constructor, before main's try.
		p.done = true
		p.tc.t.mainException("kafka.zookeeper.ZooKeeperClientTimeoutException: Timed out waiting for connection while in state: CONNECTING")
	})
	switch p.action {
	case "create":
		p.create(env)
	case "list":
		p.list(env)
	case "describe":
		p.describe(env)
	case "alter":
		p.alter(env)
	case "delete":
		p.delete(env)
	}
}

func (p *zkTopicsProc) Receive(env *sim.Env, e *sim.Envelope) {
	if p.zk != nil && !p.done {
		p.zk.Receive(env, e)
	}
}

// Exited implements sim.Exiter.
func (p *zkTopicsProc) Exited() bool { return p.done }

// exit is main's finally: topicService.close() (the session is closed),
// then Exit.exit(exitCode).
func (p *zkTopicsProc) exit(code int) {
	if p.done {
		return
	}
	env := p.env
	finish := func(*sim.Env) {
		if p.done {
			return
		}
		p.done = true
		p.timer.Stop()
		p.tc.t.finish(code)
	}
	if p.zk == nil || env == nil {
		finish(env)
		return
	}
	p.zk.Close(env, finish)
}
