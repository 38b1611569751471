package console

import (
	"time"

	"kafkascope/core/javacli"
	"kafkascope/core/sim"
)

// kafka-topics.sh --zookeeper, Kafka 2.8's TopicCommand.ZookeeperTopicService
// (core/src/main/scala/kafka/admin/TopicCommand.scala, tag 2.8.0): the tool
// is a ZooKeeper client that reads and writes the znodes itself, through
// KafkaZkClient (core/src/main/scala/kafka/zk/KafkaZkClient.scala) and
// AdminZkClient (AdminZkClient.scala). No broker is asked anything: the
// controller notices what the tool writes through its watches.

// zkTopicsTimeout is the session and connection timeout the tool's
// KafkaZkClient asks for (ZookeeperTopicService.apply, 30000 and 30000).
const zkTopicsTimeout = 30 * time.Second

// zkTopicsInternal is 2.8's Topic.isInternal: the two internal topics of
// that release (clients/.../common/internals/Topic.java, tag 2.8.0).
func zkTopicsInternal(name string) bool {
	return name == "__consumer_offsets" || name == "__transaction_state"
}

// zkTopicsTool checks the connect string and returns the tool's program.
// KafkaZkClient.apply builds the ZooKeeper client before main's try, so a
// connect string it refuses, or a server that never answers, ends main
// with its exception.
func zkTopicsTool(t *toolRun, p *javacli.OptionSet, action string) func(host string) sim.Process {
	cfg := &zkShellConfig{}
	if exc := cfg.parseConnectString(p.Value("zookeeper"), t.s.cluster.ZooKeeperServers()); exc != "" {
		t.mainException(exc)
		return nil
	}
	return func(host string) sim.Process {
		proc := &zkTopicsProc{action: action}
		proc.zkTool = newZkTool(cfg, zkTopicsTimeout, t.finish)
		proc.tc = &topicCommand{t: t, p: p, exit: proc.exit}
		proc.fail = proc.tc.fail
		proc.timedOut = func() { t.mainException(zkClientTimeout) }
		proc.run = func(env *sim.Env) {
			switch action {
			case "create":
				proc.create(env)
			case "list":
				proc.list(env)
			case "describe":
				proc.describe(env)
			case "alter":
				proc.alter(env)
			case "delete":
				proc.delete(env)
			}
		}
		return proc
	}
}

// zkTopicsProc is the tool's JVM: TopicCommand.main with a
// ZookeeperTopicService.
type zkTopicsProc struct {
	*zkTool
	tc     *topicCommand
	action string
}
