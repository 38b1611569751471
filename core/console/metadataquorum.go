package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/javacli"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-metadata-quorum.sh runs org.apache.kafka.tools.MetadataQuorumCommand:
// describe, and from 3.9 (KIP-853) add-controller and remove-controller
// (quorumcontrollers.go). It parses its arguments
// with argparse4j (core/javacli) through parseArgsOrFail, so a bad command
// line prints the usage and the error and exits 1, and -h prints the help
// and exits 1 too. After parsing, TerseExceptions print their message
// alone; anything else prints its message, its stack trace (without
// frames) and an empty line. The help texts of the arguments are our own
// words; the layout, the usage lines and every error are argparse4j's.

const quorumProg = "kafka-metadata-quorum"

// quorumParser is the 3.8 parser (describe only); quorumParserFor adds, from
// 3.9 (KIP-853), add-controller and remove-controller.
func quorumParser() *javacli.Parser { return quorumParserFor(release.Version{Major: 3, Minor: 8}) }

func quorumParserFor(rel release.Version) *javacli.Parser {
	p := &javacli.Parser{
		Prog:        quorumProg,
		Description: "This tool describes kraft metadata quorum status.",
		Args: adminToolArgs("Brokers to connect to, as host:port pairs separated by commas; a broker forwards the question to the active controller.",
			"Controllers to connect to, as host:port pairs separated by commas (their controller listeners, e.g. kafka-1:9093)."),
	}
	p.AddCommand("describe", "Show the KRaft quorum of the metadata log", []*javacli.Argument{
		{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
		{Flags: []string{"--status"}, Action: javacli.StoreTrue, Section: "Status",
			Help: "A summary: the leader and its epoch, the high watermark, how far the slowest voter is behind, the voters and the observers."},
		{Flags: []string{"--replication"}, Action: javacli.StoreTrue, Section: "Replication",
			Help: "One row per replica of the metadata log, with its log end offset, lag and last fetch"},
		{Flags: []string{"--human-readable"}, Action: javacli.StoreTrue, Section: "Replication",
			Help: "Show times as how long ago"},
	})
	if rel.AtLeast(3, 9) {
		for _, a := range p.Args {
			if a.Flags[0] == "--command-config" {
				a.Help += " For add-controller it is also the new controller's own configuration (node.id, process.roles, log dirs, listeners)."
			}
		}
		help := javacli.Argument{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"}
		dryRun := javacli.Argument{Flags: []string{"--dry-run"}, Action: javacli.StoreTrue, Help: "Print what would be done without doing it."}
		// add-controller reads everything else from --command-config.
		p.AddCommand("add-controller", "Add a controller to the quorum (a dynamic quorum only, kraft.version 1)", []*javacli.Argument{&help, &dryRun})
		p.AddCommand("remove-controller", "Remove a controller from the quorum (a dynamic quorum only, kraft.version 1)", []*javacli.Argument{&help,
			{Flags: []string{"--controller-id", "-i"}, Metavar: "CONTROLLER_ID", Type: "Integer", Required: true, Help: "The node id of the controller to remove."},
			{Flags: []string{"--controller-directory-id", "-d"}, Metavar: "CONTROLLER_DIRECTORY_ID", Type: "String", Required: true,
				Help: "The directory id of the controller to remove, as describe shows it."},
			&dryRun})
	}
	return p
}

// quorumTool is kafka-metadata-quorum.sh.
func quorumTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	rel := t.rel()
	p := quorumParserFor(rel)
	v, ok := t.parseArgsOrFail(p, args)
	if !ok {
		return nil
	}
	sub := p.Command("describe")
	arg := func(parser *javacli.Parser, flag string) *javacli.Argument { return parser.Arg(flag) }
	props := map[string]string{}
	if cc := arg(p, "--command-config"); v.Given(cc) {
		path := v.Str(cc)
		var exc string
		var ok bool
		if props, exc, ok = t.commandConfigProps(path); !ok {
			t.println("Properties file " + jdk.Path(path) + " does not exists!")
			t.finish(1)
			return nil
		}
		if exc != "" {
			t.catchAll(exc)
			return nil
		}
	}
	cfg, bootstrap, controllers, ok := t.argparseAdmin(p, v, props)
	if !ok {
		return nil
	}
	if controllers {
		t.useBootstrapControllers(&cfg)
	}
	q := &quorumCommand{t: t}
	switch v.Command() {
	case "add-controller":
		if !v.Given(arg(p, "--command-config")) {
			t.println("You must supply the configuration file of the controller you are adding when using add-controller.")
			t.finish(1)
			return nil
		}
		return q.addController(v.Given(arg(p.Command("add-controller"), "--dry-run")), props, bootstrap, cfg)
	case "remove-controller":
		rc := p.Command("remove-controller")
		return q.removeController(int32(v.Num(arg(rc, "-i"))), v.Str(arg(rc, "-d")),
			v.Given(arg(rc, "--dry-run")), bootstrap, cfg)
	}
	status, replication, human := v.Given(arg(sub, "--status")), v.Given(arg(sub, "--replication")), v.Given(arg(sub, "--human-readable"))
	var terse string
	switch {
	case status && replication:
		terse = "Only one of --status or --replication should be specified with describe sub-command"
	case status && human:
		terse = "The option --human-readable is only supported along with --replication"
	case !status && !replication:
		terse = "One of --status or --replication must be specified with describe sub-command"
	}
	if terse != "" {
		t.println(terse)
		t.finish(1)
		return nil
	}
	q.humanReadable = human
	if rel.AtLeast(3, 9) {
		q.nodes = quorumNodesOf(t)
	}
	return func(host string) sim.Process {
		q.admin = client.NewAdmin(sim.Addr(host+":50000"), bootstrap, cfg)
		start := q.replication
		if status {
			start = q.status
		}
		return &client.Process{Handlers: []client.Handler{q.admin}, OnStart: start}
	}
}

// adminToolArgs are the top-level arguments of the argparse4j admin tools
// (MetadataQuorumCommand, FeatureCommand): -h, the required
// --bootstrap-server | --bootstrap-controller group and --command-config,
// with each tool's words for the two addresses.
func adminToolArgs(serverHelp, controllerHelp string) []*javacli.Argument {
	return []*javacli.Argument{
		{Flags: []string{"-h", "--help"}, Action: javacli.PrintHelp, Help: "show this help message and exit"},
		{Flags: []string{"--bootstrap-server"}, Metavar: "BOOTSTRAP_SERVER", Type: "String", Grouped: true, Help: serverHelp},
		{Flags: []string{"--bootstrap-controller"}, Metavar: "BOOTSTRAP_CONTROLLER", Type: "String", Grouped: true, Help: controllerHelp},
		{Flags: []string{"--command-config"}, Metavar: "COMMAND_CONFIG", Type: "String",
			Help: "A properties file of admin client settings (in kafkascope: a file written with cat > FILE)."},
	}
}

// parseArgsOrFail is argparse4j's: a bad command line prints the usage
// and the error, -h the help screen, and either way the tool exits 1.
func (t *toolRun) parseArgsOrFail(p *javacli.Parser, args []string) (*javacli.Namespace, bool) {
	v, perr := p.Parse(args)
	if perr != nil {
		if perr.Help {
			t.printLines(perr.Parser.HelpLines())
		} else {
			t.printLines(p.ErrorLines(perr))
		}
		t.finish(1)
		return nil, false
	}
	return v, true
}

// argparseAdmin reads the admin client's settings of a tool parsed with
// argparse4j (its required --bootstrap-server | --bootstrap-controller
// group) and the --command-config properties: the config, the bootstrap
// addresses, and whether they are controllers. On an error it prints what
// Admin.create throws and finishes the tool (ok false).
func (t *toolRun) argparseAdmin(p *javacli.Parser, v *javacli.Namespace, props map[string]string) (cfg client.AdminConfig, bootstrap []sim.Addr, controllers, ok bool) {
	controllers = v.Given(p.Arg("--bootstrap-controller"))
	list := v.Str(p.Arg("--bootstrap-server"))
	if controllers {
		list = v.Str(p.Arg("--bootstrap-controller"))
	}
	cfg = client.DefaultAdminConfig()
	if !t.applyAdminConfig(&cfg, props) {
		return cfg, nil, false, false
	}
	if len(trimList(list)) == 0 {
		t.catchAll("org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.config.ConfigException: You must set either bootstrap.servers or bootstrap.controllers")
		return cfg, nil, false, false
	}
	bootstrap, berr := t.s.resolveBootstrap(list)
	if berr != nil {
		t.bootstrapFailed(berr, "Failed to create new KafkaAdminClient",
			"org.apache.kafka.common.KafkaException: Failed to create new KafkaAdminClient",
			"Caused by: org.apache.kafka.common.config.ConfigException: {cause}", "")
		return cfg, nil, false, false
	}
	return cfg, bootstrap, controllers, true
}

// catchAll prints an exception as the tools' mainNoExit catch-all does
// (MetadataQuorumCommand, TopicCommand): the message, the trace (the
// exception and its causes, without frames), and the empty line println
// adds after the trace's own last newline.
func (t *toolRun) catchAll(exc string, causes ...string) {
	_, msg, _ := strings.Cut(exc, ": ")
	t.printLines(strings.Split(msg, "\n"))
	t.printLines(strings.Split(exc, "\n"))
	for _, c := range causes {
		t.println("Caused by: " + c)
	}
	t.println("")
	t.finish(1)
}

type quorumCommand struct {
	t             *toolRun
	admin         *client.Admin
	humanReadable bool
	nodes         *quorumNodes // nil: 3.8's output
}

// quorumNodes is what the tool prints of each replica from 3.9 (KIP-853):
// its metadata log directory's id (DescribeQuorum's ReplicaDirectoryId)
// and, for voters, the endpoints of the response's nodes.
//
// kafkascope's quorum is static (controller.quorum.voters, kraft.version
// 0): voters are keyed with Uuid.ZERO_UUID (VoterSet.fromInetSocketAddresses)
// and their endpoints are on the first controller listener, named
// CONTROLLER here as in Kafka's sample configs. Observers report the
// directory id of their metadata log dir in their Fetch requests; a broker
// has one log dir, so that is its directory.id in meta.properties.
type quorumNodes struct {
	dirs      map[int32]string   // replica id → directory id; absent: ZERO_UUID
	endpoints map[int32][]string // voter id → "LISTENER://host:port"
}

// zeroUuid is Uuid.ZERO_UUID.toString().
const zeroUuid = "AAAAAAAAAAAAAAAAAAAAAA"

func quorumNodesOf(t *toolRun) *quorumNodes {
	n := &quorumNodes{dirs: map[int32]string{}, endpoints: map[int32][]string{}}
	c := t.s.cluster
	for id, addr := range c.Voters() {
		n.endpoints[id] = []string{raft.ListenerName + "://" + string(addr)}
	}
	for _, id := range c.NodeIDs() {
		if !c.IsVoter(id) {
			n.dirs[id] = c.DirectoryID(id)
		}
	}
	return n
}

// dir is a replica's directory id as Uuid.toString prints it.
func (n *quorumNodes) dir(id int32) string {
	if d, ok := n.dirs[id]; ok && d != "" {
		return d
	}
	return zeroUuid
}

// nodeText is MetadataQuorumCommand's Node.toString: the id, the directory
// id unless it is ZERO_UUID, the endpoints if there are any.
func (n *quorumNodes) nodeText(id int32) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"id": %d`, id)
	if d := n.dir(id); d != zeroUuid {
		fmt.Fprintf(&b, `, "directoryId": "%s"`, d)
	}
	if eps := n.endpoints[id]; len(eps) > 0 {
		b.WriteString(`, "endpoints": ["` + strings.Join(eps, `", "`) + `"]`)
	}
	b.WriteString("}")
	return b.String()
}

// failed reports a failed admin call as future.get() throws it: an
// ExecutionException whose message is its cause's.
func (q *quorumCommand) failed(err *client.Error) {
	q.t.println(err.Error())
	q.t.println("java.util.concurrent.ExecutionException: " + err.Error())
	q.t.printLines(err.CausedBy())
	q.t.println("")
	q.t.finish(1)
}

// status is handleDescribeStatus: the cluster id, then the quorum.
func (q *quorumCommand) status(env *sim.Env) {
	q.admin.DescribeCluster(env, func(env *sim.Env, clusterID string, _ []client.Node, err *client.Error) {
		if err != nil {
			q.failed(err)
			return
		}
		q.admin.DescribeMetadataQuorum(env, func(env *sim.Env, r *protocol.DescribeQuorumResponse, err *client.Error) {
			if err != nil {
				q.failed(err)
				return
			}
			lines, exc := quorumStatusLines(clusterID, r, q.nodes)
			if exc != "" {
				q.t.catchAll(exc)
				return
			}
			q.t.printLines(lines)
			q.t.finish(0)
		})
	})
}

// quorumStatusLines is the --status summary. MaxFollowerLag is the
// leader's log end offset minus the smallest among the voters (the first
// voter with it, in voter order); MaxFollowerLagTimeMs is 0 when that voter
// is the leader, otherwise the difference of the two last-caught-up times,
// or -1 when either is unknown.
//
// Up to 3.8 the voters and observers are lists of ids, [1,2,3]; from 3.9
// (nodes non-nil) a list of Node.toString objects joined with ", ", with
// endpoints only for voters (the response's nodes hold voters only).
func quorumStatusLines(clusterID string, r *protocol.DescribeQuorumResponse, nodes *quorumNodes) ([]string, string) {
	leader := quorumLeader(r)
	if leader < 0 || len(r.CurrentVoters) == 0 {
		return nil, "java.util.NoSuchElementException: No value present"
	}
	lead := r.CurrentVoters[leader]
	slowest := 0
	for i, v := range r.CurrentVoters {
		if v.LogEndOffset < r.CurrentVoters[slowest].LogEndOffset {
			slowest = i
		}
	}
	follower := r.CurrentVoters[slowest]
	lagTime := int64(-1)
	switch {
	case slowest == leader:
		lagTime = 0
	case lead.LastCaughtUpTimestamp != -1 && follower.LastCaughtUpTimestamp != -1:
		lagTime = lead.LastCaughtUpTimestamp - follower.LastCaughtUpTimestamp
	}
	ids := func(rs []protocol.QuorumReplicaState) string {
		s := make([]string, len(rs))
		for i, x := range rs {
			if nodes != nil {
				s[i] = nodes.nodeText(x.ReplicaID)
			} else {
				s[i] = strconv.Itoa(int(x.ReplicaID))
			}
		}
		if nodes != nil {
			return "[" + strings.Join(s, ", ") + "]"
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	return []string{
		"ClusterId:              " + clusterID,
		fmt.Sprintf("LeaderId:               %d", r.LeaderID),
		fmt.Sprintf("LeaderEpoch:            %d", r.LeaderEpoch),
		fmt.Sprintf("HighWatermark:          %d", r.HighWatermark),
		fmt.Sprintf("MaxFollowerLag:         %d", lead.LogEndOffset-follower.LogEndOffset),
		fmt.Sprintf("MaxFollowerLagTimeMs:   %d", lagTime),
		"CurrentVoters:          " + ids(r.CurrentVoters),
		"CurrentObservers:       " + ids(r.Observers),
	}, ""
}

// quorumLeader is the index of the leader among the voters, or -1.
func quorumLeader(r *protocol.DescribeQuorumResponse) int {
	for i, v := range r.CurrentVoters {
		if v.ReplicaID == r.LeaderID {
			return i
		}
	}
	return -1
}

// replication is handleDescribeReplication.
func (q *quorumCommand) replication(env *sim.Env) {
	q.admin.DescribeMetadataQuorum(env, func(env *sim.Env, r *protocol.DescribeQuorumResponse, err *client.Error) {
		if err != nil {
			q.failed(err)
			return
		}
		lines, exc := quorumReplicationLines(r, q.humanReadable, env.Now().UnixMilli(), q.nodes)
		if exc != "" {
			q.t.catchAll(exc)
			return
		}
		q.t.printLines(lines)
		q.t.finish(0)
	})
}

// quorumReplicationLines is the --replication table: the leader, the other
// voters in voter order, then the observers, printed by
// ToolsUtils.prettyPrintTable (every cell, the last one too, padded to its
// column's width and followed by a tab). With --human-readable the
// timestamps are "N ms ago" against nowMs, the tool's clock. From 3.9
// (nodes non-nil) the second column is each replica's DirectoryId.
func quorumReplicationLines(r *protocol.DescribeQuorumResponse, human bool, nowMs int64, nodes *quorumNodes) ([]string, string) {
	leader := quorumLeader(r)
	if leader < 0 {
		return nil, "java.util.NoSuchElementException: No value present"
	}
	lead := r.CurrentVoters[leader]
	var rows [][]string
	var exc string
	row := func(x protocol.QuorumReplicaState, status string) {
		ts := func(v int64, desc string) string {
			switch {
			case v == -1:
				return "-1"
			case !human:
				return strconv.FormatInt(v, 10)
			case v <= 0 || v > nowMs:
				if exc == "" {
					exc = fmt.Sprintf("org.apache.kafka.common.KafkaException: Error while computing relative time, possible drift in system clock.\nCurrent timestamp is %d, %s timestamp is %d", nowMs, desc, v)
				}
				return ""
			}
			return fmt.Sprintf("%d ms ago", nowMs-v)
		}
		cells := []string{strconv.Itoa(int(x.ReplicaID))}
		if nodes != nil {
			cells = append(cells, nodes.dir(x.ReplicaID))
		}
		rows = append(rows, append(cells, strconv.FormatInt(x.LogEndOffset, 10), strconv.FormatInt(lead.LogEndOffset-x.LogEndOffset, 10),
			ts(x.LastFetchTimestamp, "last fetch"), ts(x.LastCaughtUpTimestamp, "last caught up"), status))
	}
	row(lead, "Leader")
	for _, x := range r.CurrentVoters {
		if x.ReplicaID != r.LeaderID {
			row(x, "Follower")
		}
	}
	for _, x := range r.Observers {
		row(x, "Observer")
	}
	if exc != "" {
		return nil, exc
	}
	headers := []string{"NodeId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status"}
	if nodes != nil {
		headers = slices.Insert(headers, 1, "DirectoryId")
	}
	return prettyPrintTable(headers, rows), ""
}

// prettyPrintTable is ToolsUtils.prettyPrintTable: each column as wide as
// its widest cell or header, every cell left-aligned, padded and followed
// by a tab.
func prettyPrintTable(headers []string, rows [][]string) []string {
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = jdk.StringLength(h)
	}
	for _, r := range rows {
		for i := range headers {
			widths[i] = max(widths[i], jdk.StringLength(r[i]))
		}
	}
	line := func(cells []string) string {
		var b strings.Builder
		for i, c := range cells {
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", max(widths[i]-jdk.StringLength(c), 0)))
			b.WriteByte('\t')
		}
		return b.String()
	}
	out := []string{line(headers)}
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}
