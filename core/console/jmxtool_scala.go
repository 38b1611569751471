package console

import (
	"slices"
	"strings"

	"kafkascope/core/javacli"
	"kafkascope/core/sim"
)

// kafka.tools.JmxTool before 3.5 is the Scala tool (core/.../tools/
// JmxTool.scala, 2.8.0), which the Java port of 3.5 (KAFKA-14525) mostly
// kept. Where the two differ, the Scala tool:
//   - parses its options outside any catch: a bad option, a bad
//     --reporting-interval (read before connecting) or a malformed URL is
//     an uncaught exception ("Exception in thread "main" ..."), as is
//     every failure after the connection (a malformed object name, a
//     refused call);
//   - prints its usage with "Dump JMX values to standard output." when
//     run without arguments (exit 1), and the bare option table for
//     --help (exit 0); it has no --version, and --one-time needs a value;
//   - ends the connect line with a period, words a failed try "Exception
//     <message>." (no colon), and after 10 s of failures, like a --wait
//     that ran out, prints "Exiting.";
//   - never looks for the objects of a query with a pattern, so it
//     throws a NullPointerException for any (the port fixed it);
//   - with --attributes, expects of each object the listed attributes it
//     has (an object with none is left out), where the port expects all
//     of them of every object;
//   - with --wait, says "Could not find all object names, retrying" before
//     every try but the first, found or not, lists the missing names
//     with ", ", and, like "No matched attributes for the queried objects
//     ArrayBuffer(...)." (Scala's Buffer, List(null) without
//     --object-name), then prints its usage.

// scalaJmxToolSpecList are 2.8's options: the port's, with --one-time
// taking a value always and --help the only common option.
var scalaJmxToolSpecList = func() []javacli.OptionSpec {
	out := slices.Clone(jmxToolSpecList)
	for i := range out {
		if out[i].Name == "one-time" {
			out[i].Arg = javacli.RequiredArg
		}
	}
	return out
}()

func scalaJmxToolSpecs() []*javacli.OptionSpec {
	out := []*javacli.OptionSpec{commonSpecs()[0]}
	for i := range scalaJmxToolSpecList {
		out = append(out, &scalaJmxToolSpecList[i])
	}
	return out
}

// scalaJmxToolMain is 2.8's kafka.tools.JmxTool main.
func scalaJmxToolMain(t *toolRun, args []string) func(host string) sim.Process {
	specs := scalaJmxToolSpecs()
	if len(args) == 0 {
		t.usage(jmxToolHelp, specs)
		return nil
	}
	p, err := javacli.ParseOptions(specs, args)
	if err != nil {
		oe, _ := err.(*javacli.OptionError)
		t.uncaught(oe.Class + ": " + oe.Msg)
		return nil
	}
	if p.Has("help") {
		t.printLines(javacli.HelpTable(specs))
		t.finish(0)
		return nil
	}
	// The interval is read first of all.
	if _, err := p.Int("reporting-interval", 32); err != nil {
		oe, _ := err.(*javacli.OptionError)
		t.uncaught(oe.Class + ": " + oe.Msg)
		return nil
	}
	url := p.Value("jmx-url")
	if !strings.HasPrefix(url, "service:jmx:") {
		t.uncaught("java.net.MalformedURLException: Service URL must start with service:jmx:")
		return nil
	}
	tool, ok := newJmxTool(t, p, url)
	if !ok {
		return nil
	}
	tool.scala = true
	return func(string) sim.Process { return tool }
}

// uncaught ends a tool with an exception its main did not catch, as the
// JVM prints it (without the stack's frames).
func (t *toolRun) uncaught(exc string) {
	lines := strings.Split(exc, "\n")
	lines[0] = `Exception in thread "main" ` + lines[0]
	t.printLines(lines)
	t.finish(1)
}

// scalaQueryList is the queries as 2.8 prints them: a Scala Buffer of the
// parsed names, or List(null) without --object-name.
func (j *jmxTool) scalaQueryList() string {
	if j.queries == nil {
		return "List(null)"
	}
	names := make([]string, len(j.queries))
	for i, q := range j.queries {
		names[i] = q.String()
	}
	return "ArrayBuffer(" + strings.Join(names, ", ") + ")"
}
