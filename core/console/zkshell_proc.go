package console

import (
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// zkShellProc is ZooKeeperMain running one command: a ZooKeeper client
// (ZooKeeperAdmin in connectToZK) whose default watcher prints every
// event, and the command, whose synchronous calls become one request at
// a time, sent as soon as the client is built, so they wait in its
// outgoing queue until the session is established.
//
// How it ends: ZooKeeperMain.run calls System.exit(exitCode) after the
// command without closing the client (only quit and close call
// zk.close()). The JVM's exit closes the socket: the server sees the
// connection end and drops its watches, but the session stays until it
// expires, a session timeout (30 s asked for, -timeout) later, and so do
// the ephemeral nodes the command created. The simulated exit does the
// same: the world tells the server the connection is gone (sim.World.Exit
// resets the connections of a process that ends), and nothing closes the
// session.
type zkShellProc struct {
	t            *toolRun
	cfg          *zkShellConfig
	c            *zookeeper.Client // nil when the first server fails
	printWatches bool              // ZooKeeperMain.printWatches, on by default

	seq      int // the request in flight, to ignore a reply to one already failed
	inflight func(env *sim.Env, r *zookeeper.Reply)
	reported bool // the first server's failure was logged
	done     bool
}

func newZKShellProc(t *toolRun, cfg *zkShellConfig) *zkShellProc {
	p := &zkShellProc{t: t, cfg: cfg, printWatches: true}
	if cfg.first == nil {
		p.c = zookeeper.NewClient(zookeeper.ClientConfig{
			Servers:        cfg.servers,
			SessionTimeout: time.Duration(cfg.timeout) * time.Millisecond,
			Watcher:        p.watcher,
		})
	}
	return p
}

func (p *zkShellProc) Start(env *sim.Env) {
	if p.cfg.command == nil {
		// ZooKeeperMain.run without a command: jline is not on Kafka's
		// class path, so it reads standard input without a prompt and
		// exits at its end.
		p.t.println("Welcome to ZooKeeper!")
		p.t.println("JLine support is disabled")
		p.t.println("kafkascope: this terminal gives zookeeper-shell.sh no standard input to read commands from, so it ends at once; run one command per invocation: zookeeper-shell.sh " + p.cfg.server + " ls /")
		p.exit(0)
		return
	}
	if p.c != nil {
		p.c.Start(env)
	}
	p.run(env, append([]string(nil), p.cfg.command...))
}

func (p *zkShellProc) Receive(env *sim.Env, e *sim.Envelope) {
	if p.c != nil && !p.done {
		p.c.Receive(env, e)
	}
}

// Exited implements sim.Exiter: System.exit.
func (p *zkShellProc) Exited() bool { return p.done }

func (p *zkShellProc) exit(code int) {
	p.t.finish(code)
	p.done = true
}

// fail is processCmd catching a CliException: its message on stderr and
// its exit code.
func (p *zkShellProc) fail(msg string, code int) {
	p.t.println(msg)
	p.exit(code)
}

// crash is an exception other than a CliException leaving main.
func (p *zkShellProc) crash(exc string) {
	p.t.mainException(exc)
	p.done = true
}

// printText prints text as System.out.println does, one terminal line
// per line of it.
func (p *zkShellProc) printText(s string) {
	p.t.printLines(strings.Split(s, "\n"))
}

// watcher is ZooKeeperMainWithTlsSupportForKafka.process: "WATCHER::"
// and the event, each through ZooKeeperMain.printMessage, which prints a
// newline first. A lost connection fails the request waiting, as
// ClientCnxn.SendThread.cleanup does for its pending and outgoing
// queues before the Disconnected event is queued; the command's error
// ends the program, before the event thread prints it.
func (p *zkShellProc) watcher(env *sim.Env, ev zookeeper.WatchedEvent) {
	if p.done {
		return
	}
	if ev.Type == zookeeper.EventNone && ev.State == zookeeper.StateDisconnected && p.inflight != nil {
		p.complete(env, p.seq, &zookeeper.Reply{Err: zookeeper.ConnectionLoss})
		if p.done {
			return
		}
	}
	if p.printWatches {
		p.printText("\nWATCHER::")
		p.printText("\n" + p.eventString(ev))
	}
}

// eventString is WatchedEvent.toString with the client's path: the
// chroot taken off (ClientCnxn.SendThread.readResponse), and "null" for
// a state change, which has no path.
func (p *zkShellProc) eventString(ev zookeeper.WatchedEvent) string {
	path := "null"
	if ev.Path != "" {
		path = p.clientPath(ev.Path)
	}
	return "WatchedEvent state:" + ev.State.String() + " type:" + ev.Type.String() + " path:" + path
}

// serverPath is ClientCnxn's prependChroot.
func (p *zkShellProc) serverPath(clientPath string) string {
	switch {
	case p.cfg.chroot == "":
		return clientPath
	case clientPath == "/":
		return p.cfg.chroot
	}
	return p.cfg.chroot + clientPath
}

// clientPath takes the chroot off a server's path ("/" for the chroot
// itself).
func (p *zkShellProc) clientPath(serverPath string) string {
	if p.cfg.chroot == "" {
		return serverPath
	}
	if serverPath == p.cfg.chroot {
		return "/"
	}
	if len(serverPath) > len(p.cfg.chroot) {
		return serverPath[len(p.cfg.chroot):]
	}
	return serverPath
}

// call sends one request and waits for its reply, as the synchronous
// ZooKeeper methods do (ClientCnxn.submitRequest).
func (p *zkShellProc) call(env *sim.Env, req *zookeeper.Request, k func(env *sim.Env, r *zookeeper.Reply)) {
	p.seq++
	seq := p.seq
	p.inflight = k
	if p.c == nil {
		p.connectFailed(env)
		p.complete(env, seq, &zookeeper.Reply{Err: zookeeper.ConnectionLoss})
		return
	}
	p.c.Submit(env, req, func(env *sim.Env, r *zookeeper.Reply) { p.complete(env, seq, r) })
}

func (p *zkShellProc) complete(env *sim.Env, seq int, r *zookeeper.Reply) {
	if p.done || seq != p.seq || p.inflight == nil {
		return
	}
	k := p.inflight
	p.inflight = nil
	k(env, r)
}

// connectFailed is the client's first attempt at the connect string's
// first server failing. A name that does not resolve is logged by
// StaticHostProvider.resolve (ERROR, with the UnknownHostException),
// then ClientCnxnSocketNIO.connect ("Unable to open socket to {}" +
// addr: the placeholder stays, the address was concatenated) and
// SendThread.run (WARN, with the UnresolvedAddressException), through
// Kafka's config/tools-log4j.properties (WARN and above, on stderr).
// A refused connection is logged at INFO ("Socket error occurred"),
// which that file hides. Either way cleanup fails the waiting request
// with CONNECTIONLOSS.
func (p *zkShellProc) connectFailed(env *sim.Env) {
	if p.reported {
		return
	}
	p.reported = true
	f := p.cfg.first
	if !f.unresolved {
		return
	}
	log := func(level client.Level, msg, logger string, exc ...string) {
		p.t.println(client.FormatLogLine(env.Now(), level, msg, logger))
		p.t.printLines(exc)
	}
	log(client.LevelError, "Unable to resolve address: "+f.addr, "org.apache.zookeeper.client.StaticHostProvider",
		"java.net.UnknownHostException: "+f.host+": Name or service not known")
	log(client.LevelError, "Unable to open socket to {}"+f.addr, "org.apache.zookeeper.ClientCnxnSocketNIO")
	log(client.LevelWarn, "Session 0x0 for server "+f.addr+", unexpected error, closing socket connection and attempting reconnect", "org.apache.zookeeper.ClientCnxn",
		"java.nio.channels.UnresolvedAddressException")
}

// closeThen is zk.close(): a closeSession, done when it is answered or
// the connection is lost.
func (p *zkShellProc) closeThen(env *sim.Env, then func(env *sim.Env)) {
	if p.c == nil {
		p.connectFailed(env)
		then(env)
		return
	}
	p.c.Close(env, func(env *sim.Env) {
		if !p.done {
			then(env)
		}
	})
}
