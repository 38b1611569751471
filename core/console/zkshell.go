package console

import (
	"strconv"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// zookeeper-shell.sh as Kafka 2.8 ships it: bin/zookeeper-shell.sh (tag
// 2.8.0) runs org.apache.zookeeper.ZooKeeperMainWithTlsSupportForKafka
// -server "$@" (core/src/main/scala/org/apache/zookeeper/, Kafka's
// subclass of ZooKeeper 3.5.9's ZooKeeperMain), which connects to the
// connect string and runs the command given after it, or reads commands
// from standard input when there is none.

// zkShellScript is the script's $0 as bash sets it when the script is
// found on the PATH: the installation the tools' paths come from
// (perfWorkDir).
const zkShellScript = perfWorkDir + "/bin/zookeeper-shell.sh"

// zkDefaultTimeout is MyCommandOptions' "timeout" default (ms), the
// session timeout the shell asks for.
const zkDefaultTimeout = 30000

// zkShellConfig is what the shell's main and ZooKeeperMain's constructor
// made of the command line.
type zkShellConfig struct {
	server  string      // the -server option, as "Connecting to" prints it
	servers []sim.Addr  // the connect string's servers that answer, in order
	first   *zkHostFail // the first server of the connect string, if it fails
	chroot  string      // "" for none
	timeout int32       // the session timeout asked for, ms
	command []string    // the command and its arguments; nil: interactive
}

// zkHostFail is a server of the connect string the client cannot reach.
type zkHostFail struct {
	addr       string // host:port as InetSocketAddress.toString prints it
	host       string
	unresolved bool // no such host (else: nothing listens on the port)
}

// zkShellTool is the toolFunc of zookeeper-shell.sh: only a cluster with
// ZooKeeper has servers to connect to.
func zkShellTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	servers := t.s.cluster.ZooKeeperServers()
	if len(servers) == 0 {
		t.println("kafkascope: this cluster runs in KRaft mode and has no ZooKeeper, so zookeeper-shell.sh has nothing to connect to (ZooKeeper clusters: cluster create --version 2.8)")
		t.finish(1)
		return nil
	}
	return zkShell(t, args, servers)
}

// zkShell checks the command line against the ZooKeeper servers there
// are, printing what the script and the JVM print when it fails, and
// returns the shell's program.
func zkShell(t *toolRun, args []string, servers []sim.Addr) func(host string) sim.Process {
	if len(args) == 0 {
		// bin/zookeeper-shell.sh: [ $# -lt 1 ] prints its usage, exit 1.
		t.println("USAGE: " + zkShellScript + " zookeeper_host:port[/path] [-zk-tls-config-file file] [args...]")
		t.finish(1)
		return nil
	}
	jargs := append([]string{"-server"}, args...)
	// ZooKeeperMainWithTlsSupportForKafka.main: the TLS option's index
	// in the whole argument list.
	for i, a := range jargs {
		if a != "-zk-tls-config-file" {
			continue
		}
		if i == len(jargs)-1 {
			t.mainException("java.lang.IllegalArgumentException: Error: no filename provided with option -zk-tls-config-file")
			return nil
		}
		t.println("kafkascope: -zk-tls-config-file: TLS to ZooKeeper is not simulated; connect without it")
		t.finish(1)
		return nil
	}
	cfg := &zkShellConfig{}
	server, timeout := "localhost:2181", strconv.Itoa(zkDefaultTimeout)
	// MyCommandOptions.parseOptions: -server, -timeout and -r take their
	// place anywhere before the command, other words starting with "-"
	// are skipped, and the first other word starts the command. An
	// option without its value prints an error and ends the parse (its
	// false is ignored: no command, so the shell reads standard input).
	for i := 0; i < len(jargs); i++ {
		opt := jargs[i]
		if opt == "-server" || opt == "-timeout" {
			if i+1 == len(jargs) {
				t.println("Error: no argument found for option " + opt)
				break
			}
			i++
			if opt == "-server" {
				server = jargs[i]
			} else {
				timeout = jargs[i]
			}
		}
		// -r asks for a client that may use a read-only server; no
		// simulated server runs read-only, so it changes nothing here.
		if !strings.HasPrefix(opt, "-") {
			cfg.command = jargs[i:]
			break
		}
	}
	cfg.server = server
	// The constructor prints "Connecting to " + the server option before
	// connectToZK, where the timeout is parsed and the connect string
	// checked (ZooKeeperMain.java); their exceptions end main.
	t.println("Connecting to " + server)
	n, ok := jdk.ParseInt(timeout, 32)
	if !ok {
		t.mainException(javaNumberFormat(timeout))
		return nil
	}
	cfg.timeout = int32(n)
	if exc := cfg.parseConnectString(server, servers); exc != "" {
		t.mainException(exc)
		return nil
	}
	return func(host string) sim.Process { return newZKShellProc(t, cfg) }
}

// parseConnectString is client/ConnectStringParser (release-3.5.9): the
// chroot from the first '/', validated unless it is "/"; then the
// comma-separated hosts (blank ones dropped, StringUtils.split), each
// with the port after its last ':' (2181 when there is none or it is
// empty). StaticHostProvider refuses an empty list. The exception's
// toString is returned when it fails.
//
// A name is resolved against the simulated servers: a server's host, or
// localhost (127.0.0.1) as zookeeper-1's port mapped to the machine, as
// localhost:9092 is broker 1's. 3.5.9 resolves lazily
// (StaticHostProvider.next): a name that does not resolve, or a port
// nothing listens on, fails when the client tries it. Servers are tried
// in the given order (the zookeeper package does not model the host
// provider's shuffle), so only the first one's failure shows: the
// command waits for a connection from the start, and a failed attempt
// fails it (ClientCnxn.SendThread.cleanup ends the outgoing queue with
// CONNECTIONLOSS). The others that fail are left out. IPv6 literals
// ([::1]:2181, NetUtils.getIPV6HostAndPort) are not handled.
func (cfg *zkShellConfig) parseConnectString(s string, servers []sim.Addr) string {
	if off := strings.IndexByte(s, '/'); off >= 0 {
		chroot := s[off:]
		if chroot != "/" {
			if msg := zookeeper.ValidatePath(chroot); msg != "" {
				return "java.lang.IllegalArgumentException: " + msg
			}
			cfg.chroot = chroot
		}
		s = s[:off]
	}
	var hosts []string
	for _, h := range strings.Split(s, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) == 0 {
		return "java.lang.IllegalArgumentException: A HostProvider may not be empty!"
	}
	for i, h := range hosts {
		port := "2181"
		if p := strings.LastIndexByte(h, ':'); p >= 0 {
			if p < len(h)-1 {
				port = h[p+1:]
			}
			h = h[:p]
		}
		n, ok := jdk.ParseInt(port, 32)
		if !ok {
			return javaNumberFormat(port)
		}
		addr, fail := zkResolve(h, int(n), servers)
		switch {
		case fail == nil:
			cfg.servers = append(cfg.servers, addr)
		case i == 0:
			cfg.first = fail
		}
	}
	return ""
}

// zkResolve finds the server a host:port names, or why it fails.
func zkResolve(host string, port int, servers []sim.Addr) (sim.Addr, *zkHostFail) {
	hostPort := host + ":" + strconv.Itoa(port)
	target := host
	if host == "localhost" || host == "127.0.0.1" {
		target = servers[0].Host()
	}
	for _, s := range servers {
		if !strings.EqualFold(s.Host(), target) {
			continue
		}
		if string(s)[len(s.Host())+1:] == strconv.Itoa(port) {
			return s, nil
		}
		return "", &zkHostFail{addr: hostPort, host: host}
	}
	return "", &zkHostFail{addr: hostPort, host: host, unresolved: true}
}
