package console

import "kafkascope/core/sim"

// kafka-run-class.sh starts a Java class's main with Kafka's classpath.
// kafkascope knows the classes below; any other is not on the classpath,
// and the JVM says so.

// runClasses are the main classes kafka-run-class.sh can start.
var runClasses = map[string]func(t *toolRun, args []string) func(host string) sim.Process{
	"org.apache.kafka.tools.TransactionalMessageCopier": copierTool,
	"org.apache.kafka.tools.JmxTool":                    jmxToolMain,
}

// runClassTool is kafka-run-class.sh CLASS [ARGS].
func runClassTool(t *toolRun, args, _ []string) func(host string) sim.Process {
	if len(args) == 0 {
		t.println("USAGE: kafka-run-class.sh [-daemon] [-name servicename] [-loggc] classname [opts]")
		t.finish(1)
		return nil
	}
	run, ok := runClasses[args[0]]
	if !ok {
		t.println("Error: Could not find or load main class " + args[0])
		t.println("Caused by: java.lang.ClassNotFoundException: " + args[0])
		t.finish(1)
		return nil
	}
	return run(t, args[1:])
}
