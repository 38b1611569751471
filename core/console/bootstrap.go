package console

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
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
	for _, w := range be.warnings {
		t.println(client.FormatLogLine(t.s.world().Now(), client.LevelWarn, w, "org.apache.kafka.clients.ClientUtils"))
	}
	for _, l := range lines {
		t.println(strings.ReplaceAll(l, "{cause}", be.cause))
	}
	t.finish(1)
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
