package console

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/cluster"
	"kafkascope/core/javacli"
	"kafkascope/core/jmx"
	"kafkascope/core/sim"
)

// kafka-run-class.sh org.apache.kafka.tools.JmxTool polls a process's
// MBeans over JMX and prints one line per poll, as Kafka's JmxTool
// (tools/.../JmxTool.java, 3.8.0) does:
//   - it connects, retrying every 100 ms for 10 s ("Trying to connect to
//     JMX url: ..." before each try, "Could not connect ..." and the
//     exception after each failure);
//   - it finds the objects the --object-name queries match (patterns
//     allowed; all objects without any), once, and, with --wait and no
//     pattern, retries every 100 ms for 10 s until each is there;
//   - it prints the header (original format) and a line of values every
//     --reporting-interval ms, or once with --one-time (any value) or a
//     negative interval. Header and lines print only when every expected
//     attribute was read: with --attributes and no pattern, each object
//     is expected to have every listed attribute, so asking a gauge for
//     Count prints nothing at all.
//   - time is the epoch milliseconds of the moment the values arrived;
//     the header's keys are "ObjectName:Attribute", quoted and sorted.
//
// Every kafkascope node listens for JMX on port 9999 (as if started with
// JMX_PORT=9999), so the URL names the node: service:jmx:rmi:///jndi/rmi://kafka-1:9999/jmxrmi.
// A connection is one round trip here; a poll another. When the process
// polled dies, the next poll's call is refused and the tool exits 1, as
// an RMI call to a dead server throws.

const jmxToolHelp = "Dump JMX values to standard output."

var jmxToolSpecList = []javacli.OptionSpec{
	{Name: "object-name", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "name", Desc: "A JMX object name to query; wildcards allowed, and the option may repeat. Without it every object is queried."},
	{Name: "attributes", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "name", Desc: "Comma-separated attributes to print. Without it, all of each object's."},
	{Name: "reporting-interval", Arg: javacli.RequiredArg, Type: "Integer", ArgDesc: "ms", Desc: "How often to poll, in ms; -1 polls once.", Default: "2000"},
	{Name: "one-time", Arg: javacli.OptionalArg, Type: "Boolean", ArgDesc: "one-time", Desc: "Poll once only (whatever value is given).", Default: "false"},
	{Name: "date-format", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "format", Desc: "A java.text.SimpleDateFormat pattern for the time column (not simulated: kafkascope prints epoch milliseconds)."},
	{Name: "jmx-url", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "service-url", Desc: "The JMX service URL to poll; in kafkascope service:jmx:rmi:///jndi/rmi://kafka-N:9999/jmxrmi.", Default: "service:jmx:rmi:///jndi/rmi://:9999/jmxrmi"},
	{Name: "report-format", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "report-format", Desc: "original (a CSV line per poll), properties, csv or tsv (a line per value).", Default: "original"},
	{Name: "jmx-auth-prop", Arg: javacli.RequiredArg, Type: "String", ArgDesc: "jmx-auth-prop", Desc: "username=password for a JMX port with password authentication (kafkascope's ports have none)."},
	{Name: "jmx-ssl-enable", Arg: javacli.RequiredArg, Type: "Boolean", ArgDesc: "ssl-enable", Desc: "Connect over SSL (kafkascope's ports are plain).", Default: "false"},
	{Name: "wait", Desc: "Wait until every named object exists before printing (names without wildcards only)."},
}

func jmxToolSpecs() []*javacli.OptionSpec { return withCommon(jmxToolSpecList) }

// jmxConnectTimeout and jmxRetry are JmxTool's: it tries to connect (and,
// with --wait, to find the objects) for 10 s, 100 ms apart.
const (
	jmxConnectTimeout = 10 * time.Second
	jmxRetry          = 100 * time.Millisecond
)

// jmxURL is the one JMX URL form kafkascope serves: an RMI connector
// found in the RMI registry at host:port.
var jmxURL = regexp.MustCompile(`^service:jmx:rmi:///jndi/rmi://([^:/]*):(\d+)/jmxrmi$`)

// jmxToolMain is the JmxTool class's main.
func jmxToolMain(t *toolRun, args []string) func(host string) sim.Process {
	specs := jmxToolSpecs()
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe, _ := err.(*javacli.OptionError)
		t.catchAll(oe.Class + ": " + oe.Msg)
		return nil
	}
	// Without arguments JmxTool does not print its usage: it polls the
	// default URL (CommandLineUtils.isPrintHelpNeeded checks --help only).
	if len(args) > 0 && t.helpOrVersion(p, args, jmxToolHelp, specs) {
		return nil
	}
	url := p.Value("jmx-url")
	if !strings.HasPrefix(url, "service:jmx:") {
		t.catchAll("java.net.MalformedURLException: Service URL must start with service:jmx:")
		return nil
	}
	tool, ok := newJmxTool(t, p, url)
	if !ok {
		return nil
	}
	return func(string) sim.Process { return tool }
}

// newJmxTool is a run of the tool with options p, or false when kafkascope
// cannot run it (what it does not simulate, said so).
func newJmxTool(t *toolRun, p *javacli.OptionSet, url string) (*jmxTool, bool) {
	m := jmxURL.FindStringSubmatch(url)
	if m == nil {
		t.println("kafkascope: only RMI URLs are simulated: service:jmx:rmi:///jndi/rmi://kafka-N:9999/jmxrmi")
		t.finish(1)
		return nil, false
	}
	if p.Has("date-format") {
		t.println("kafkascope: --date-format is not simulated; the time column prints epoch milliseconds without it")
		t.finish(1)
		return nil, false
	}
	if p.Has("jmx-auth-prop") || p.Has("jmx-ssl-enable") {
		t.println("kafkascope: the nodes' JMX ports have neither authentication nor SSL; drop --jmx-auth-prop and --jmx-ssl-enable")
		t.finish(1)
		return nil, false
	}
	tool := &jmxTool{t: t, url: url, host: m[1], port: m[2], opts: p, wait: p.Has("wait"), oneTimeFlag: p.Has("one-time")}
	tool.format = strings.ToLower(p.Value("report-format"))
	if !slices.Contains([]string{"properties", "csv", "tsv"}, tool.format) {
		tool.format = "original"
	}
	if p.Has("attributes") {
		tool.include = []string{}
		for _, a := range strings.Split(p.Value("attributes"), ",") {
			if a != "" {
				tool.include = append(tool.include, a)
			}
		}
	}
	return tool, true
}

// jmxTool is one JmxTool run.
type jmxTool struct {
	t           *toolRun
	url         string
	host, port  string
	opts        *javacli.OptionSet
	format      string
	include     []string // --attributes; nil: all
	wait        bool
	oneTimeFlag bool
	scala       bool // 2.8's kafka.tools.JmxTool (jmxtool_scala.go)

	local   sim.Addr
	sent    *jmx.Query // the call in flight (nil: none)
	started sim.Time   // when the connect, or the search for objects, began
	step    jmx.Op     // the call in flight
	server  uint64
	queries []jmx.ObjectName // nil: every object
	pattern bool
	found   []jmx.ObjectName
	// expected is the number of attributes the tool expects to read each
	// poll (numExpectedAttributes summed), keys the header's.
	expected  int
	keys      []string
	pollStart sim.Time
}

func (j *jmxTool) Exited() bool { return j.t.finished }

func (j *jmxTool) Start(env *sim.Env) {
	j.local = env.EphemeralPort()
	j.started = env.Now()
	j.connect(env)
}

// target is the JMX port the URL names: an empty host is the tool's own
// machine, where no Kafka process runs.
func (j *jmxTool) target(env *sim.Env) sim.Addr {
	host := j.host
	if host == "" || host == "localhost" || host == "127.0.0.1" {
		host = env.Host()
	}
	return sim.Addr(host + ":" + j.port)
}

func (j *jmxTool) connect(env *sim.Env) {
	if j.scala {
		j.t.println("Trying to connect to JMX url: " + j.url + ".")
	} else {
		j.t.println("Trying to connect to JMX url: " + j.url)
	}
	j.step = jmx.Connect
	switch to := j.target(env); {
	case to.Host() == env.Host():
		// Nothing listens for JMX on the tool's own machine.
		j.connectFailed(env, j.refused(env))
	case !j.nodeHost(to.Host()):
		j.connectFailed(env, fmt.Sprintf("java.io.IOException: Failed to retrieve RMIServer stub: javax.naming.CommunicationException [Root exception is java.rmi.UnknownHostException: Unknown host: %s; nested exception is: \n\tjava.net.UnknownHostException: %s]", j.host, j.host))
	default:
		j.call(env, to, &jmx.Query{Op: jmx.Connect})
	}
}

// nodeHost: host is one of the cluster's Kafka nodes (the hosts that
// serve JMX; the tools' machines and ZooKeeper's do not resolve here).
func (j *jmxTool) nodeHost(host string) bool {
	for _, id := range j.t.s.cluster.NodeIDs() {
		if cluster.Host(id) == host {
			return true
		}
	}
	return false
}

// connectFailed prints a failed try and tries again 100 ms later, until
// 10 s have passed since the first (connectToBeanServer).
func (j *jmxTool) connectFailed(env *sim.Env, exc string) {
	_, msg, _ := strings.Cut(exc, ": ")
	format := "Could not connect to JMX url: %s. Exception: %s."
	if j.scala {
		format = "Could not connect to JMX url: %s. Exception %s."
	}
	j.t.printLines(strings.Split(fmt.Sprintf(format, j.url, msg), "\n"))
	j.t.printLines(strings.Split(exc, "\n"))
	env.After(jmxRetry, "jmxtool-connect", func(env *sim.Env) {
		if env.Now().Sub(j.started) < jmxConnectTimeout {
			j.connect(env)
			return
		}
		j.t.println(fmt.Sprintf("Could not connect to JMX url %s after %d ms.", j.url, jmxConnectTimeout.Milliseconds()))
		j.exiting()
	})
}

// call sends q and waits for its answer. RMI sets no read timeout: a
// call to a host that answers nothing (powered off) waits for ever.
func (j *jmxTool) call(env *sim.Env, to sim.Addr, q *jmx.Query) {
	j.sent = q
	env.Send(j.local, to, q)
}

// refused is the exception a call to a process that is gone throws.
func (j *jmxTool) refused(env *sim.Env) string {
	host := j.host
	if host == "" {
		host = "localhost"
	}
	if j.step == jmx.Connect {
		return fmt.Sprintf("java.io.IOException: Failed to retrieve RMIServer stub: javax.naming.ServiceUnavailableException [Root exception is java.rmi.ConnectException: Connection refused to host: %s; nested exception is: \n\tjava.net.ConnectException: Connection refused]", host)
	}
	return fmt.Sprintf("java.rmi.ConnectException: Connection refused to host: %s; nested exception is: \n\tjava.net.ConnectException: Connection refused", host)
}

func (j *jmxTool) Receive(env *sim.Env, e *sim.Envelope) {
	if j.t.finished {
		return
	}
	var a *jmx.Answer
	switch m := e.Msg.(type) {
	case *jmx.Answer:
		a, j.sent = m, nil
	case *sim.Disconnected:
		if m.Request != j.sent || j.sent == nil {
			// The polled process died between calls: RMI notices only
			// when the next call fails.
			return
		}
		j.sent = nil
		if j.step == jmx.Connect {
			j.connectFailed(env, j.refused(env))
			return
		}
		j.fail(j.refused(env))
		return
	default:
		return
	}
	if a.Exception != "" {
		j.fail(a.Exception + ": " + a.Message)
		return
	}
	switch j.step {
	case jmx.Connect:
		j.server = a.Server
		if !j.parseQueries() {
			return
		}
		if j.scala && j.pattern {
			// 2.8 looks for the objects only without patterns and then
			// reads the list it never made.
			j.t.uncaught("java.lang.NullPointerException")
			return
		}
		j.started = env.Now()
		j.find(env)
	case jmx.QueryNames:
		j.objectsFound(env, a.Beans)
	case jmx.GetAttributes:
		j.report(env, a.Beans)
	}
}

// parseQueries parses the --object-name values (JmxToolOptions.queries,
// after the connection): a malformed one ends the tool.
func (j *jmxTool) parseQueries() bool {
	if !j.opts.Has("object-name") {
		return true
	}
	j.queries = []jmx.ObjectName{}
	for _, s := range j.opts.Values("object-name") {
		n, err := jmx.ParseObjectName(s)
		if err != nil && j.scala {
			j.t.uncaught("javax.management.MalformedObjectNameException: " + err.Error())
			return false
		}
		if err != nil {
			j.t.catchAll("java.lang.RuntimeException: javax.management.MalformedObjectNameException: "+err.Error(),
				"javax.management.MalformedObjectNameException: "+err.Error())
			return false
		}
		j.pattern = j.pattern || n.IsPattern()
		j.queries = append(j.queries, n)
	}
	return true
}

func (j *jmxTool) find(env *sim.Env) {
	j.step = jmx.QueryNames
	j.call(env, j.target(env), &jmx.Query{Op: jmx.QueryNames, Server: j.server, Queries: j.queries})
}

// objectsFound takes the objects the queries matched: with --wait it retries
// until every named one is there, then works out what each poll must
// read and prints the header (findObjects, findNumExpectedAttributes).
func (j *jmxTool) objectsFound(env *sim.Env, beans []jmx.MBean) {
	if j.wait && !j.pattern && j.queries != nil && !j.allFound(beans) {
		if env.Now().Sub(j.started) >= jmxConnectTimeout {
			sep := ","
			if j.scala {
				sep = ", "
			}
			j.t.println(fmt.Sprintf("Could not find all requested object names after %d ms. Missing %s", jmxConnectTimeout.Milliseconds(), strings.Join(j.missing(beans), sep)))
			j.exiting()
			return
		}
		// findObjects sleeps and says so only once it found some of
		// them; while it finds none it asks again at once. 2.8's does
		// before every try but the first.
		if len(beans) == 0 && !j.scala {
			j.find(env)
			return
		}
		j.t.println("Could not find all object names, retrying")
		env.After(jmxRetry, "jmxtool-find", j.find)
		return
	}
	keys := map[string]bool{}
	for _, b := range beans {
		n := 0
		for _, a := range b.Attrs {
			if j.included(a.Name) {
				n++
				keys[b.Name.String()+":"+a.Name] = true
			}
		}
		switch {
		case j.include == nil: // every object, with all its attributes
		case !j.pattern && !j.scala:
			n = len(j.include) // each object is expected to have every one
		case n == 0:
			continue // an object without a listed attribute (a pattern's, or 2.8's)
		}
		j.expected += n
		j.found = append(j.found, b.Name)
	}
	if len(j.found) == 0 {
		if j.scala {
			j.t.usage(fmt.Sprintf("No matched attributes for the queried objects %s.", j.scalaQueryList()), scalaJmxToolSpecs())
			return
		}
		j.t.println(fmt.Sprintf("No matched attributes for the queried objects %s.", j.queryList()))
		j.t.finish(1)
		return
	}
	j.keys = append(j.keys, "time")
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	slices.Sort(sorted)
	j.keys = append(j.keys, sorted...)
	if j.format == "original" && len(j.keys) == j.expected+1 {
		quoted := make([]string, len(j.keys))
		for i, k := range j.keys {
			quoted[i] = `"` + k + `"`
		}
		j.t.println(strings.Join(quoted, ","))
	}
	j.poll(env)
}

// fail ends the tool with an exception thrown after the connection: the
// port's catch-all prints it; 2.8's main lets it go.
func (j *jmxTool) fail(exc string) {
	if j.scala {
		j.t.uncaught(exc)
		return
	}
	j.t.catchAll(exc)
}

// exiting ends a tool that gave up (exit 1): 2.8's says so.
func (j *jmxTool) exiting() {
	if j.scala {
		j.t.println("Exiting.")
	}
	j.t.finish(1)
}

func (j *jmxTool) included(attr string) bool {
	return j.include == nil || slices.Contains(j.include, attr)
}

func (j *jmxTool) allFound(beans []jmx.MBean) bool { return len(j.missing(beans)) == 0 }

func (j *jmxTool) missing(beans []jmx.MBean) []string {
	var out []string
	for _, q := range j.queries {
		if !slices.ContainsFunc(beans, func(b jmx.MBean) bool { return b.Name.String() == q.String() }) {
			out = append(out, q.String())
		}
	}
	return out
}

// queryList is the queries as Java's List.toString prints them.
func (j *jmxTool) queryList() string {
	if j.queries == nil {
		return "[null]"
	}
	names := make([]string, len(j.queries))
	for i, q := range j.queries {
		names[i] = q.String()
	}
	return "[" + strings.Join(names, ", ") + "]"
}

func (j *jmxTool) poll(env *sim.Env) {
	j.step = jmx.GetAttributes
	j.pollStart = env.Now()
	if len(j.found) == 0 {
		j.report(env, nil)
		return
	}
	j.call(env, j.target(env), &jmx.Query{Op: jmx.GetAttributes, Server: j.server, Names: j.found})
}

// report prints one poll's values, then sleeps what is left of the
// interval.
func (j *jmxTool) report(env *sim.Env, beans []jmx.MBean) {
	values := map[string]string{"time": strconv.FormatInt(env.Now().UnixMilli(), 10)}
	for _, b := range beans {
		for _, a := range b.Attrs {
			if j.included(a.Name) {
				values[b.Name.String()+":"+a.Name] = a.Value
			}
		}
	}
	if len(values) == j.expected+1 {
		j.printRow(values)
	}
	// isOneTime reads the interval first, so a bad one fails even with
	// --one-time.
	interval, err := j.opts.Int("reporting-interval", 32)
	if err != nil { // the port's (2.8 read it first of all)
		oe, _ := err.(*javacli.OptionError)
		j.t.catchAll(oe.Class + ": " + oe.Msg)
		return
	}
	if interval < 0 || j.oneTimeFlag {
		j.t.finish(0)
		return
	}
	wait := time.Duration(interval)*time.Millisecond - env.Now().Sub(j.pollStart)
	env.After(max(wait, 0), "jmxtool-poll", j.poll)
}

func (j *jmxTool) printRow(values map[string]string) {
	switch j.format {
	case "properties":
		for _, k := range j.keys {
			j.t.println(k + "=" + values[k])
		}
	case "csv":
		for _, k := range j.keys {
			j.t.println(k + `,"` + values[k] + `"`)
		}
	case "tsv":
		for _, k := range j.keys {
			j.t.println(k + "\t" + values[k])
		}
	default:
		row := make([]string, 0, len(j.keys))
		for _, k := range j.keys {
			if v, ok := values[k]; ok {
				row = append(row, v)
			}
		}
		j.t.println(strings.Join(row, ","))
	}
}
