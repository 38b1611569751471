package console

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// kafka-metadata-quorum.sh add-controller and remove-controller (3.9+,
// KIP-853): MetadataQuorumCommand.handleAddController and
// handleRemoveController at Kafka 4.3 (4.1's differ only in how listeners
// are split, listenerEntries). They send Admin.addRaftVoter and
// removeRaftVoter; --dry-run sends nothing and prints what would be done.
//
// A kafkascope cluster's quorum is static (controller.quorum.voters,
// kraft.version 0), so the quorum leader refuses every request that gets
// that far: UNSUPPORTED_VERSION, "Cluster doesn't support adding|removing
// voter because the kraft.version feature is 0", after the checks that
// come first (a zero directory id is INVALID_REQUEST; see
// raft.checkVoterChange). A real Kafka cluster started the same way
// answers the same.

// removeController is handleRemoveController.
func (q *quorumCommand) removeController(id int32, dirText string, dryRun bool, bootstrap []sim.Addr, cfg client.AdminConfig) func(host string) sim.Process {
	t := q.t
	if id < 0 {
		t.println(fmt.Sprintf("Invalid negative --controller-id: %d", id))
		t.finish(1)
		return nil
	}
	u, msg, ok := jdk.UuidFromString(dirText)
	if !ok {
		t.println("Failed to parse --controller-directory-id: " + msg)
		t.finish(1)
		return nil
	}
	dir := metadata.Uuid(u)
	// printf("%s KRaft controller %d with directory id %s%n"): the dry
	// run's prefix ends with a space of its own, so its line has two.
	if dryRun {
		t.println(fmt.Sprintf("DRY RUN of removing  KRaft controller %d with directory id %s", id, dir))
		t.finish(0)
		return nil
	}
	return func(host string) sim.Process {
		q.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{q.admin}, OnStart: func(env *sim.Env) {
			q.admin.RemoveRaftVoter(env, id, dir, func(env *sim.Env, err *client.Error) {
				if err != nil {
					q.failed(err)
					return
				}
				t.println(fmt.Sprintf("Removed  KRaft controller %d with directory id %s", id, dir))
				t.finish(0)
			})
		}}
	}
}

// addController is handleAddController: the controller's id, metadata
// directory, that directory's id and the controller's endpoints, all read
// from the --command-config file, which for add-controller is the new
// controller's own server.properties.
func (q *quorumCommand) addController(dryRun bool, props map[string]string, bootstrap []sim.Addr, cfg client.AdminConfig) func(host string) sim.Process {
	t := q.t
	id, ok := q.controllerID(props)
	if !ok {
		return nil
	}
	dirPath, ok := q.metadataDirectory(props)
	if !ok {
		return nil
	}
	dir, ok := q.metadataDirectoryID(dirPath)
	if !ok {
		return nil
	}
	endpoints, ports, ok := q.controllerEndpoints(props)
	if !ok {
		return nil
	}
	line := func(verb string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s controller %d with directory id %s and endpoints: ", verb, id, dir)
		for i, e := range endpoints {
			if i > 0 {
				b.WriteString(", ")
			}
			host := e.Host
			if strings.Contains(host, ":") {
				host = "[" + host + "]"
			}
			fmt.Fprintf(&b, "%s://%s:%d", e.Name, host, ports[i])
		}
		return b.String()
	}
	if dryRun {
		t.println(line("DRY RUN of adding"))
		t.finish(0)
		return nil
	}
	return func(host string) sim.Process {
		q.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		return &client.Process{Handlers: []client.Handler{q.admin}, OnStart: func(env *sim.Env) {
			q.admin.AddRaftVoter(env, id, dir, endpoints, func(env *sim.Env, err *client.Error) {
				if err != nil {
					q.failed(err)
					return
				}
				t.println(line("Added"))
				t.finish(0)
			})
		}}
	}
}

// terse prints a TerseException's message and ends the tool.
func (q *quorumCommand) terse(msg string) {
	q.t.println(msg)
	q.t.finish(1)
}

// numberFormat is the catch-all's answer to Integer.parseInt failing on s.
func (q *quorumCommand) numberFormat(s string) {
	q.t.catchAll(fmt.Sprintf("java.lang.NumberFormatException: For input string: \"%s\"", s))
}

// controllerID is getControllerId: node.id, a non-negative int, of a
// node whose process.roles mention the controller.
func (q *quorumCommand) controllerID(props map[string]string) (int32, bool) {
	v, ok := props["node.id"]
	if !ok {
		q.terse("node.id not found in configuration file. Is this a valid controller configuration file?")
		return 0, false
	}
	n, ok := jdk.ParseInt(v, 32)
	if !ok {
		q.numberFormat(v)
		return 0, false
	}
	if n < 0 {
		q.terse("node.id was negative in configuration file. Is this a valid controller configuration file?")
		return 0, false
	}
	if !strings.Contains(props["process.roles"], "controller") {
		q.terse("process.roles did not contain 'controller' in configuration file. Is this a valid controller configuration file?")
		return 0, false
	}
	return int32(n), true
}

// metadataDirectory is getMetadataDirectory: metadata.log.dir if set (even
// to nothing), else the first of log.dirs as String.split(",") cuts the
// trimmed value.
func (q *quorumCommand) metadataDirectory(props map[string]string) (string, bool) {
	if d, ok := props["metadata.log.dir"]; ok {
		return d, true
	}
	if dirs, ok := props["log.dirs"]; ok {
		trimmed := jdk.Trim(dirs)
		if trimmed == "" {
			return "", true // "".split(",") is one empty string
		}
		if parts := jdk.Split(trimmed, ","); len(parts) > 0 {
			return parts[0], true
		}
	}
	q.terse("Neither metadata.log.dir nor log.dirs were found. Is this a valid controller configuration file?")
	return "", false
}

// metaPropertiesLogger is MetaPropertiesEnsemble's logger, which reports
// a meta.properties it cannot read.
const metaPropertiesLogger = "org.apache.kafka.metadata.properties.MetaPropertiesEnsemble"

// metadataDirectoryID is getMetadataDirectoryId: the directory.id of the
// meta.properties in dir, which kafka-storage.sh format writes on the new
// controller's machine. kafkascope has no such machine: the file is read
// as cat reads one, from the terminal's own files (one written with
// cat > DIR/meta.properties) or, under /tmp/kafka-logs, from the first
// running broker's log dir. A directory without one is what Kafka's
// MetaPropertiesEnsemble.Loader reports as empty; a file it cannot parse
// is logged at ERROR and counts as unreadable too.
func (q *quorumCommand) metadataDirectoryID(dir string) (metadata.Uuid, bool) {
	t := q.t
	var none metadata.Uuid
	file := path.Join(dir, "meta.properties")
	if !strings.HasPrefix(file, "/") && dir == "" {
		file = "/meta.properties" // new File("", name) is under the root
	}
	text, found := t.s.readWorkspace(file)
	if !found {
		if data, ok := t.brokerFile(file); ok {
			text, found = string(data), true
		}
	}
	if !found {
		q.terse("Unable to read meta.properties from " + dir)
		return none, false
	}
	id, hasID, exc := parseMetaProperties(text)
	if len(exc) > 0 {
		abs := file
		if !strings.HasPrefix(abs, "/") {
			abs = resolvePath(abs)
		}
		t.logException(client.LevelError, "Error while reading meta.properties file "+abs, metaPropertiesLogger, exc)
		q.terse("Unable to read meta.properties from " + dir)
		return none, false
	}
	if !hasID {
		q.terse("No directory id found in " + dir)
		return none, false
	}
	return id, true
}

// brokerFile reads a file under /tmp/kafka-logs from the first running
// broker's disk, as the shell's cat does without --broker.
func (t *toolRun) brokerFile(p string) ([]byte, bool) {
	full := resolvePath(p)
	if full != homeDir && !strings.HasPrefix(full, homeDir+"/") {
		return nil, false
	}
	c := t.s.cluster
	for _, id := range c.NodeIDs() {
		if !c.BrokerIsRunning(id) {
			continue
		}
		d := c.Disk(id)
		if d == nil || d.IsDir(full) {
			return nil, false
		}
		data, err := d.ReadFile(full)
		return data, err == nil
	}
	return nil, false
}

// parseMetaProperties is MetaProperties.Builder(props).build() on a
// meta.properties file's text: its directory.id if it has one, or the
// exception (and causes) that make the loader give up on it.
func parseMetaProperties(text string) (dir metadata.Uuid, hasDir bool, exc []string) {
	props, perr := jdk.LoadProperties(text)
	if perr != "" {
		return dir, false, []string{perr}
	}
	runtime := func(msg string) []string { return []string{"java.lang.RuntimeException: " + msg} }
	version, ok := props["version"]
	if !ok {
		version = "0"
	}
	n, ok := jdk.ParseInt(jdk.Trim(version), 32)
	if !ok {
		return dir, false, runtime("Invalid meta.properties version string '" + version + "'")
	}
	if n != 0 && n != 1 {
		return dir, false, runtime(fmt.Sprintf("Unknown meta.properties version number %d", n))
	}
	// V0 names the node broker.id (optional), V1 node.id (required).
	idKey := "node.id"
	if n == 0 {
		idKey = "broker.id"
	}
	v, hasID := props[idKey]
	if n == 1 && !hasID {
		return dir, false, runtime("Failed to find node.id")
	}
	if hasID {
		if _, ok := jdk.ParseInt(v, 32); !ok {
			return dir, false, append(runtime("Unable to read "+idKey+" as a base-10 number."),
				fmt.Sprintf("Caused by: java.lang.NumberFormatException: For input string: \"%s\"", v))
		}
	}
	_, hasCluster := props["cluster.id"]
	if d, ok := props["directory.id"]; ok {
		u, msg, ok := jdk.UuidFromString(d)
		if !ok {
			return dir, false, append(runtime("Unable to read directory.id as a Uuid: "+msg),
				"Caused by: java.lang.IllegalArgumentException: "+msg)
		}
		dir, hasDir = metadata.Uuid(u), true
	}
	// build(): from V1 on, cluster.id and node.id are required.
	if n == 1 && !hasCluster {
		return dir, false, runtime("cluster.id was not found.")
	}
	return dir, hasDir, nil
}

// listenerEntry is SocketServerConfigs' URI_PARSE_REGEXP: NAME://host:port,
// the host in optional brackets.
var listenerEntry = regexp.MustCompile(`^(.*)://\[?([0-9a-zA-Z\-%._:]*)\]?:(-?[0-9]+)$`)

// controllerEndpoints is getControllerAdvertisedListeners: each listener
// of controller.listener.names, in that order, where listeners and then
// advertised.listeners put it (a host left empty is localhost). ports are
// the ports as the tool has them (an int); the request carries each as a
// uint16.
func (q *quorumCommand) controllerEndpoints(props map[string]string) (out []protocol.RaftVoterListener, ports []int64, ok bool) {
	type endpoint struct {
		host string
		port int64
	}
	byName := map[string]endpoint{}
	for _, key := range []string{"listeners", "advertised.listeners"} {
		for _, entry := range q.listenerEntries(props[key]) {
			m := listenerEntry.FindStringSubmatch(entry)
			if m == nil {
				q.t.catchAll("org.apache.kafka.common.KafkaException: Unable to parse " + entry + " to a broker endpoint")
				return nil, nil, false
			}
			name, ok := q.normalisedListener(m[1])
			if !ok {
				return nil, nil, false
			}
			port, ok := jdk.ParseInt(m[3], 32)
			if !ok {
				q.numberFormat(m[3])
				return nil, nil, false
			}
			host := m[2]
			if host == "" {
				host = "localhost"
			}
			byName[name] = endpoint{host: host, port: port}
		}
	}
	names, ok := props["controller.listener.names"]
	if !ok {
		q.terse("controller.listener.names was not found. Is this a valid controller configuration file?")
		return nil, nil, false
	}
	for _, raw := range javaSplitAll(names, ",") {
		name, ok := q.normalisedListener(raw)
		if !ok {
			return nil, nil, false
		}
		e, found := byName[name]
		if !found {
			q.terse("Cannot find information about controller listener name: " + name)
			return nil, nil, false
		}
		if jdk.Trim(name) != name {
			// RaftVoterEndpoint's constructor.
			q.t.catchAll("java.lang.IllegalArgumentException: Leading or trailing whitespace is not allowed.")
			return nil, nil, false
		}
		// A LinkedHashSet: the same endpoint twice is kept once. The
		// port is an int here; on the wire it is a uint16.
		l := protocol.RaftVoterListener{Name: name, Host: e.host, Port: uint16(e.port)}
		dup := false
		for _, o := range out {
			dup = dup || o == l
		}
		if !dup {
			out = append(out, l)
			ports = append(ports, e.port)
		}
	}
	return out, ports, true
}

// listenerEntries is how the tool splits a listener list: Csv.parseCsvList
// (cut at commas with the blanks around them, empty pieces dropped), which
// 4.1 applies to the trimmed value and 4.3 to the value as it is, so a
// trailing blank stays on 4.3's last entry (which then does not parse).
func (q *quorumCommand) listenerEntries(v string) []string {
	if !q.t.rel().AtLeast(4, 3) {
		v = jdk.Trim(v)
	}
	if v == "" {
		return nil
	}
	var out []string
	for _, p := range csvSplit.Split(v, -1) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

var csvSplit = regexp.MustCompile(`\s*,\s*`)

// javaSplitAll is String.split(sep) as Java does it, an empty string
// giving one empty piece.
func javaSplitAll(s, sep string) []string {
	if s == "" {
		return []string{""}
	}
	return jdk.Split(s, sep)
}

// normalisedListener is ListenerName.normalised: upper case, and never
// blank.
func (q *quorumCommand) normalisedListener(name string) (string, bool) {
	if jdk.Trim(name) == "" {
		q.t.catchAll("org.apache.kafka.common.config.ConfigException: The provided listener name is null or empty string")
		return "", false
	}
	return strings.ToUpper(name), true
}
