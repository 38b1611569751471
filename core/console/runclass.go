package console

import (
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// kafka-run-class.sh starts a Java class's main with Kafka's classpath.
// kafkascope knows the classes below, each in the releases that ship it;
// any other is not on the classpath, and the JVM says so.

// runClass is a main class kafka-run-class.sh can start: since and before
// bound the releases whose classpath has it (before zero: every release
// from since on).
type runClass struct {
	since, before release.Version
	main          func(t *toolRun, args []string) func(host string) sim.Process
}

// runClasses are the main classes by name.
var runClasses = map[string]runClass{
	"org.apache.kafka.tools.TransactionalMessageCopier": {main: copierTool},
	// KAFKA-14525 (3.5) ported JmxTool to Java in the tools module; the
	// Scala kafka.tools.JmxTool stayed as a deprecated wrapper that warns
	// and runs the port, until 4.0 removed the kafka.tools package's
	// wrappers. Before 3.5 the Scala tool was the only one.
	"org.apache.kafka.tools.JmxTool": {since: release.Version{Major: 3, Minor: 5}, main: jmxToolMain},
	"kafka.tools.JmxTool":            {before: release.Version{Major: 4}, main: kafkaToolsJmxTool},
}

// kafkaToolsJmxTool is kafka.tools.JmxTool: the Scala tool before 3.5, a
// wrapper printing the package's deprecation to stdout from 3.5 on.
func kafkaToolsJmxTool(t *toolRun, args []string) func(host string) sim.Process {
	if !t.rel().AtLeast(3, 5) {
		return scalaJmxToolMain(t, args)
	}
	t.println("WARNING: The 'kafka.tools' package is deprecated and will change to 'org.apache.kafka.tools' in the next major release.")
	return jmxToolMain(t, args)
}

// runClassTool is kafka-run-class.sh CLASS [ARGS].
func runClassTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	if len(args) == 0 {
		t.println("USAGE: kafka-run-class.sh [-daemon] [-name servicename] [-loggc] classname [opts]")
		t.finish(1)
		return nil
	}
	rc, ok := runClasses[args[0]]
	rel := t.rel()
	if !ok || !rel.AtLeast(rc.since.Major, rc.since.Minor) || (rc.before != release.Version{} && rel.AtLeast(rc.before.Major, rc.before.Minor)) {
		t.println("Error: Could not find or load main class " + args[0])
		t.println("Caused by: java.lang.ClassNotFoundException: " + args[0])
		t.finish(1)
		return nil
	}
	return rc.main(t, args[1:])
}
