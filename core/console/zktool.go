package console

import (
	"math"
	"time"

	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
)

// zkClientTimeout is what ZooKeeperClient.waitUntilConnected throws when
// no session came within the connection timeout (ZooKeeperClient.scala,
// tag 2.8.0).
const zkClientTimeout = "kafka.zookeeper.ZooKeeperClientTimeoutException: Timed out waiting for connection while in state: CONNECTING"

// zkTool is the JVM of a 2.8 admin tool that talks to ZooKeeper itself
// (kafka-topics.sh --zookeeper, kafka-reassign-partitions.sh
// --zookeeper): a KafkaZkClient and the tool's main around it.
//
// It starts by waiting for the session, as ZooKeeperClient's constructor
// does (waitUntilConnected, the connection timeout), while run starts the
// action, one synchronous KafkaZkClient call after another (a call of
// several requests sends them together: topics_zk_calls.go). At the end
// main's finally closes the client (the session is closed, not left to
// expire) and exits.
//
// Not modelled: the log lines ZooKeeper's client prints at WARN and ERROR
// while it retries a host that does not resolve; such hosts are skipped
// (a host nothing listens on logs at INFO only, which the tools' log4j
// configuration hides).
type zkTool struct {
	cfg       *zkShellConfig
	timeout   time.Duration
	zk        *kafkazk.Client // nil when no server of the connect string can answer
	connected bool            // the session was established (a reply came)
	timer     *sim.Timer
	env       *sim.Env // the latest, for exit
	done      bool

	run      func(env *sim.Env)                        // the action
	fail     func(class, msg string, causes ...string) // main's catch: how the tool reports an exception
	timedOut func()                                    // what the connection timeout does to main
	finish   func(code int)                            // the JVM's exit, once the client is closed
}

func newZkTool(cfg *zkShellConfig, timeout time.Duration, finish func(code int)) *zkTool {
	p := &zkTool{cfg: cfg, timeout: timeout, finish: finish}
	if len(cfg.servers) > 0 {
		p.zk = kafkazk.NewClient(kafkazk.ClientConfig{Servers: cfg.servers, SessionTimeout: timeout, MaxInFlight: math.MaxInt32})
	}
	return p
}

func (p *zkTool) Start(env *sim.Env) {
	p.env = env
	if p.zk != nil {
		p.zk.Start(env)
	}
	p.timer = env.After(p.timeout, "zookeeper-connection-timeout", func(env *sim.Env) {
		if p.done || p.connected || p.zk != nil && p.zk.Connected() {
			return
		}
		p.done = true
		p.timedOut()
	})
	p.run(env)
}

func (p *zkTool) Receive(env *sim.Env, e *sim.Envelope) {
	if p.zk != nil && !p.done {
		p.zk.Receive(env, e)
	}
}

// Exited implements sim.Exiter.
func (p *zkTool) Exited() bool { return p.done }

// exit is main's finally: the client is closed (the session with it),
// then Exit.exit(exitCode).
func (p *zkTool) exit(code int) {
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
		p.finish(code)
	}
	if p.zk == nil || env == nil {
		finish(env)
		return
	}
	p.zk.Close(env, finish)
}
