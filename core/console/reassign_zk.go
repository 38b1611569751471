package console

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/jdk"
	"kafkascope/core/kafkazk"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// kafka-reassign-partitions.sh --zookeeper (2.8.0, deprecated by KIP-455):
// the tool reads and writes the znodes itself through a KafkaZkClient
// (ReassignPartitionsCommand's handleAction(zkClient, …)). --execute
// checks the plan's partitions and brokers against /brokers, refuses if
// /admin/reassign_partitions exists, and creates it; the controller's
// watch starts the moves (zkcontroller/reassignzk.go) and it removes each
// partition from the znode as its move completes. --verify takes a
// partition as moving only while the znode lists it, so moves started
// through the API look finished ("the results may be incomplete"), and
// --generate places the topics on the registered brokers. Unlike
// kafka-topics.sh the tool builds its client inside main's try, so a
// connection that never comes is reported as any error.

// zkReassignTimeout is the session and connection timeout of the tool's
// KafkaZkClient (30000, 30000).
const zkReassignTimeout = 30 * time.Second

// reassignZkTool is the tool's program on the ZooKeeper path.
func reassignZkTool(rc *reassignCommand) func(host string) sim.Process {
	t := rc.t
	cfg := &zkShellConfig{}
	if exc := cfg.parseConnectString(rc.p.Value("zookeeper"), t.s.cluster.ZooKeeperServers()); exc != "" {
		class, msg, _ := strings.Cut(exc, ": ")
		rc.fail(class, msg)
		return nil
	}
	rc.zk = true
	return func(host string) sim.Process {
		z := newZkTool(cfg, zkReassignTimeout, t.finish)
		rc.exit = z.exit
		z.fail = rc.fail
		z.timedOut = func() {
			rc.exit = nil // the client never connected: nothing to close
			rc.fail("kafka.zookeeper.ZooKeeperClientTimeoutException", "Timed out waiting for connection while in state: CONNECTING")
		}
		z.run = func(env *sim.Env) {
			if z.zk == nil {
				return // no server answers: the connection timeout ends the tool
			}
			// handleAction runs once KafkaZkClient's constructor has its
			// session: it reads and checks the files, then acts.
			z.zk.WhenConnected(env, func(env *sim.Env) { rc.zkAct(env, z) })
		}
		return z
	}
}

// zkAct is handleAction(zkClient, …).
func (rc *reassignCommand) zkAct(env *sim.Env, z *zkTool) {
	if z.done || !rc.prepare() {
		return
	}
	switch rc.action {
	case "execute":
		rc.zkExecute(env, z)
	case "verify":
		rc.zkVerify(env, z)
	case "generate":
		rc.zkGenerate(env, z)
	}
}

// zkAssignments is getReplicaAssignmentForTopics: each topic's znode
// (one batch), its partitions' full replica sets; a topic without a
// znode has none.
func (rc *reassignCommand) zkAssignments(env *sim.Env, z *zkTool, topics []string, k func(env *sim.Env, found map[string]map[int32][]int32)) {
	reqs := make([]kafkazk.Req, len(topics))
	for i, topic := range topics {
		reqs[i] = kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.TopicPath(topic)}
	}
	z.call(env, reqs, func(env *sim.Env, resps []kafkazk.Resp) {
		found := map[string]map[int32][]int32{}
		for i, r := range resps {
			switch r.Rc {
			case zookeeper.OK:
				if data, err := kafkazk.DecodeTopic(r.Data); err == nil {
					found[topics[i]] = data.Partitions
				}
			case zookeeper.NoNode:
			default:
				z.keeperFail(r.Rc, reqs[i].Path)
				return
			}
		}
		k(env, found)
	})
}

// planTopics is the plan's topics as a Scala Set.
func planTopics(plan []reassignTarget) []string {
	var topics []string
	for _, r := range plan {
		topics = append(topics, r.topic)
	}
	return scalaStringSet(topics)
}

// zkExecute is executeAssignment(zkClient, …).
func (rc *reassignCommand) zkExecute(env *sim.Env, z *zkTool) {
	proposed := inScalaMapOrder(rc.plan)
	topics := planTopics(proposed)
	// verifyReplicasAndBrokersInAssignment
	rc.zkAssignments(env, z, topics, func(env *sim.Env, found map[string]map[int32][]int32) {
		var missing []string
		for _, r := range proposed {
			if _, ok := found[r.topic][r.partition]; !ok {
				missing = append(missing, r.tp())
			}
		}
		if len(missing) > 0 {
			rc.fail(adminCommandFailed, "The proposed assignment contains non-existent partitions: "+scalaList(missing))
			return
		}
		z.getChildren(env, kafkazk.BrokerIdsPath, func(env *sim.Env, children []string) {
			var absent []int32
			for _, r := range proposed {
				for _, id := range r.replicas {
					if !slices.Contains(children, fmt.Sprint(id)) {
						absent = append(absent, id)
					}
				}
			}
			if len(absent) > 0 {
				rc.fail(adminCommandFailed, "The proposed assignment contains non-existent brokerIDs: "+joinInts(scalaIntSet(absent), ","))
				return
			}
			z.pathExists(env, kafkazk.ReassignPartitionsPath, func(env *sim.Env, exists bool) {
				if exists {
					rc.terse(cannotExecuteMessage)
					return
				}
				rc.zkAssignments(env, z, topics, func(env *sim.Env, found map[string]map[int32][]int32) {
					var current []reassignTarget
					for _, r := range proposed {
						current = append(current, reassignTarget{topic: r.topic, partition: r.partition, replicas: found[r.topic][r.partition]})
					}
					rc.printRollback(current)
					entries := make([]kafkazk.ReassignmentEntry, len(proposed))
					for i, r := range proposed {
						entries[i] = kafkazk.ReassignmentEntry{TopicPartition: kafkazk.TopicPartition{Topic: r.topic, Partition: r.partition}, Replicas: r.replicas}
					}
					// createPartitionReassignment: createRecursive, throwing
					// if it exists by now.
					path := kafkazk.ReassignPartitionsPath
					z.createRecursive(env, path, kafkazk.EncodeReassignment(entries), func(env *sim.Env, code zookeeper.Code) {
						if code == zookeeper.NodeExists {
							z.keeperFail(code, path)
							return
						}
						rc.printStarted(proposed)
						rc.finish(0)
					})
				})
			})
		})
	})
}

// zkVerify is verifyAssignment(zkClient, …).
func (rc *reassignCommand) zkVerify(env *sim.Env, z *zkTool) {
	rc.t.println("Warning: because you are using the deprecated --zookeeper option, the results may be incomplete.  Use --bootstrap-server instead for more accurate results.")
	targets := inScalaMapOrder(rc.plan)
	z.getData(env, kafkazk.ReassignPartitionsPath, func(env *sim.Env, data []byte, ok bool) {
		var moving []kafkazk.ReassignmentEntry
		if ok {
			moving, _ = kafkazk.DecodeReassignment(data) // unparsable: none
		}
		rc.zkAssignments(env, z, planTopics(targets), func(env *sim.Env, found map[string]map[int32][]int32) {
			lines := []string{"Status of partition reassignment:"}
			for _, r := range sortedTargets(targets) {
				inZnode := slices.ContainsFunc(moving, func(e kafkazk.ReassignmentEntry) bool {
					return e.Topic == r.topic && e.Partition == r.partition
				})
				current := found[r.topic][r.partition]
				switch {
				case inZnode:
					lines = append(lines, fmt.Sprintf("Reassignment of partition %s is still in progress.", r.tp()))
				case slices.Equal(current, r.replicas):
					lines = append(lines, fmt.Sprintf("Reassignment of partition %s is complete.", r.tp()))
				default:
					lines = append(lines, fmt.Sprintf("There is no active reassignment of partition %s, but replica set is %s rather than %s.",
						r.tp(), joinInts(current, ","), joinInts(r.replicas, ",")))
				}
			}
			rc.t.printLines(lines)
			if len(moving) > 0 || rc.p.Has("preserve-throttles") {
				rc.finish(0)
				return
			}
			rc.zkClearThrottles(env, z, func(env *sim.Env) { rc.finish(0) })
		})
	})
}

// Throttle configs the tool removes (brokerLevelThrottles, topicLevelThrottles).
var (
	brokerLevelThrottles = []string{"leader.replication.throttled.rate", "follower.replication.throttled.rate", "replica.alter.log.dirs.io.max.bytes.per.second"}
	topicLevelThrottles  = []string{"leader.replication.throttled.replicas", "follower.replication.throttled.replicas"}
)

// zkClearThrottles is clearAllThrottles(zkClient, …): each registered
// broker and each broker of the plan, then each topic of the plan, has
// its throttle configs removed, its config znode written (with a
// notification) only where one was set.
func (rc *reassignCommand) zkClearThrottles(env *sim.Env, z *zkTool, done func(*sim.Env)) {
	z.liveBrokers(env, func(env *sim.Env, live []kafkazk.BrokerInfo) {
		var ids []int32
		for _, b := range live {
			ids = append(ids, b.ID)
		}
		for _, r := range rc.plan {
			ids = append(ids, r.replicas...)
		}
		brokers := scalaIntSet(ids)
		rc.t.println(fmt.Sprintf("Clearing broker-level throttles on broker%s %s", plural(len(brokers)), joinInts(brokers, ",")))
		names := make([]string, len(brokers))
		for i, id := range brokers {
			names[i] = fmt.Sprint(id)
		}
		rc.zkRemoveConfigs(env, z, kafkazk.ConfigTypeBroker, names, brokerLevelThrottles, func(env *sim.Env) {
			topics := planTopics(rc.plan)
			rc.t.println(fmt.Sprintf("Clearing topic-level throttles on topic%s %s", plural(len(topics)), strings.Join(topics, ",")))
			rc.zkRemoveConfigs(env, z, kafkazk.ConfigTypeTopic, topics, topicLevelThrottles, done)
		})
	})
}

// zkRemoveConfigs removes keys from each entity's config znode in turn,
// writing it back only if one was there.
func (rc *reassignCommand) zkRemoveConfigs(env *sim.Env, z *zkTool, entityType string, names, keys []string, done func(*sim.Env)) {
	if len(names) == 0 {
		done(env)
		return
	}
	next := func(env *sim.Env) { rc.zkRemoveConfigs(env, z, entityType, names[1:], keys, done) }
	z.getData(env, kafkazk.ConfigEntityPath(entityType, names[0]), func(env *sim.Env, data []byte, ok bool) {
		var props []kafkazk.ConfigEntry
		if ok {
			props, _ = kafkazk.DecodeEntityConfigEntries(data)
		}
		kept := slices.DeleteFunc(slices.Clone(props), func(e kafkazk.ConfigEntry) bool { return slices.Contains(keys, e.Name) })
		if len(kept) == len(props) {
			next(env)
			return
		}
		z.changeEntityConfig(env, entityType, names[0], kept, next)
	})
}

// zkGenerate is generateAssignment(zkClient, …): topics without a znode
// are left out; the brokers are the registered ones.
func (rc *reassignCommand) zkGenerate(env *sim.Env, z *zkTool) {
	topics := uniqueStrings(rc.topics)
	rc.zkAssignments(env, z, topics, func(env *sim.Env, found map[string]map[int32][]int32) {
		parts := map[string][][]int32{}
		var current []reassignTarget
		for _, topic := range jdk.HashSetOrder(topics) {
			for p := int32(0); ; p++ {
				rs, ok := found[topic][p]
				if !ok {
					break
				}
				parts[topic] = append(parts[topic], rs)
				current = append(current, reassignTarget{topic: topic, partition: p, replicas: rs})
			}
		}
		z.liveBrokers(env, func(env *sim.Env, live []kafkazk.BrokerInfo) {
			var ids []int32
			rc.racks = map[int32]string{}
			for _, b := range live {
				ids = append(ids, b.ID)
				rc.racks[b.ID] = b.Rack
			}
			rc.generateOn(env, ids, parts, current)
		})
	})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
