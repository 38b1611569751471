package console

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/sim"
)

// bootstrapError says why a bootstrap list cannot be used, the way Kafka's
// clients say it.
type bootstrapError struct {
	warnings []string // WARN log messages (ClientUtils)
	cause    string   // the ConfigException message
}

// bootstrapFailed prints a client's bootstrap resolution failure: the DNS
// warnings, then the lines the tool prints for the failure.
func (t *toolRun) bootstrapFailed(be *bootstrapError, lines ...string) {
	t.bootstrapWarnings(be)
	for _, l := range lines {
		t.println(strings.ReplaceAll(l, "{cause}", be.cause))
	}
	t.finish(1)
}

// bootstrapWarnings prints ClientUtils' WARN lines about the bootstrap
// addresses that could not be used.
func (t *toolRun) bootstrapWarnings(be *bootstrapError) {
	for _, w := range be.warnings {
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelWarn, w, "org.apache.kafka.clients.ClientUtils"))
	}
}

// useBootstrapControllers points an admin config at the controllers'
// listeners (bootstrap.controllers): the cluster id and every voter.
func (t *toolRun) useBootstrapControllers(cfg *client.AdminConfig) {
	cfg.BootstrapControllers = true
	cfg.ClusterID = t.s.cluster.ClusterID
	voters := t.s.cluster.Voters()
	for id := int32(1); int(id) <= len(voters); id++ {
		cfg.ControllerNodes = append(cfg.ControllerNodes, client.Node{ID: id, Addr: voters[id]})
	}
}

// adminCommandConfig applies a jopt-simple tool's --command-config file
// to cfg. A missing or unreadable file is thrown before the tool's own
// error handling, so mainNoExit prints the message and the trace; it
// reports false when the tool ended.
func (t *toolRun) adminCommandConfig(p *javacli.OptionSet, cfg *client.AdminConfig) bool {
	if !p.Has("command-config") {
		return true
	}
	path := p.Value("command-config")
	props, exc, ok := t.commandConfigProps(path)
	switch {
	case !ok:
		t.catchAll("java.nio.file.NoSuchFileException: " + jdk.Path(path))
		return false
	case exc != "":
		t.catchAll(exc)
		return false
	}
	return t.applyAdminConfig(cfg, props)
}

var hostPortRe = regexp.MustCompile(`^(?:[0-9a-zA-Z\-%._]*://)?\[?([0-9a-zA-Z\-%._:]*)]?:([0-9]+)`)

// validBootstrapSyntax is the tools' validateBootstrapServer check.
func validBootstrapSyntax(list string) bool {
	if strings.TrimSpace(list) == "" {
		return false
	}
	for _, part := range strings.Split(list, ",") {
		m := hostPortRe.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil || m[1] == "" {
			return false
		}
	}
	return true
}

// resolveBootstrap maps --bootstrap-server (or --bootstrap-controller) to
// listener addresses. kafka-N:PORT names node N's host; localhost:N9092 is
// broker N's port mapped to the host (localhost:9092 is broker 1), and
// localhost:N9093 controller N's. An empty list means
// every broker of the cluster. A host that does not exist fails like a DNS
// lookup failure; a wrong port reaches the host but nothing listens there.
func (s *Session) resolveBootstrap(list string) ([]sim.Addr, *bootstrapError) {
	if strings.TrimSpace(list) == "" {
		var out []sim.Addr
		for _, id := range s.cluster.NodeIDs() {
			out = append(out, cluster.BrokerAddr(id))
		}
		return out, nil
	}
	var out []sim.Addr
	be := &bootstrapError{}
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		host, portStr, ok := strings.Cut(part, ":")
		port, err := strconv.Atoi(portStr)
		if !ok || err != nil || host == "" {
			return nil, &bootstrapError{cause: "Invalid url in bootstrap.servers: " + part}
		}
		id := int32(-1)
		switch {
		case host == "localhost" || host == "127.0.0.1":
			// localhost:N9092 (N9093) is broker N's (controller N's)
			// listener mapped to the host; without N, node 1's.
			switch listener := port % 10000; {
			case listener != 9092 && listener != 9093:
			case port < 10000:
				id = 1
			default:
				id = int32(port / 10000)
			}
			port %= 10000
		case strings.HasPrefix(host, "kafka-"):
			if n, err := strconv.Atoi(host[len("kafka-"):]); err == nil {
				id = int32(n)
			}
		}
		if id < 1 || s.cluster.Node(id) == nil {
			be.warnings = append(be.warnings, fmt.Sprintf("Couldn't resolve server %s from bootstrap.servers as DNS resolution failed for %s", part, host))
			continue
		}
		out = append(out, sim.Addr(fmt.Sprintf("%s:%d", cluster.Host(id), port)))
	}
	if len(out) == 0 {
		be.cause = "No resolvable bootstrap urls given in bootstrap.servers"
		return nil, be
	}
	return out, nil
}
