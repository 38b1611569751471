package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/placement"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

const unknownTopicException = "org.apache.kafka.common.errors.UnknownTopicOrPartitionException"

// failCall reports a failed admin call through the catch-all.
func (rc *reassignCommand) failCall(err *client.Error) {
	var causes []string
	for c := err; c != nil; c = c.Cause {
		causes = append(causes, c.Error())
	}
	rc.fail("java.util.concurrent.ExecutionException", err.Error(), causes...)
}

// failUnknown reports an ExecutionException wrapping an
// UnknownTopicOrPartitionException, as the tool rethrows it.
func (rc *reassignCommand) failUnknown(msg string) {
	cause := client.Exception(unknownTopicException, msg)
	rc.fail("java.util.concurrent.ExecutionException", cause, cause)
}

// ongoing is one reassignment in progress.
type ongoing struct {
	tp                         string
	topic                      string
	partition                  int32
	replicas, adding, removing []int32
}

// listReassignments runs ListPartitionReassignments (targets nil: all).
func (rc *reassignCommand) listReassignments(env *sim.Env, targets []reassignTarget, next func(*sim.Env, []ongoing)) {
	rc.admin.Call(env, "listPartitionReassignments", func() protocol.Request {
		req := &protocol.ListPartitionReassignmentsRequest{TimeoutMs: 30000}
		if targets != nil {
			req.Topics = []protocol.ListPartitionReassignmentsTopic{}
			for _, t := range targets {
				i := slices.IndexFunc(req.Topics, func(x protocol.ListPartitionReassignmentsTopic) bool { return x.Name == t.topic })
				if i < 0 {
					req.Topics = append(req.Topics, protocol.ListPartitionReassignmentsTopic{Name: t.topic})
					i = len(req.Topics) - 1
				}
				req.Topics[i].PartitionIndexes = append(req.Topics[i].PartitionIndexes, t.partition)
			}
		}
		return req
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			rc.failCall(err)
			return
		}
		r := resp.(*protocol.ListPartitionReassignmentsResponse)
		if r.ErrorCode != protocol.NONE {
			rc.failCall(&client.Error{Class: r.ErrorCode.Exception(), Message: orDefault(r.ErrorMessage, r.ErrorCode)})
			return
		}
		var out []ongoing
		for _, t := range r.Topics {
			for _, p := range t.Partitions {
				out = append(out, ongoing{tp: fmt.Sprintf("%s-%d", t.Name, p.PartitionIndex), topic: t.Name, partition: p.PartitionIndex,
					replicas: p.Replicas, adding: p.AddingReplicas, removing: p.RemovingReplicas})
			}
		}
		sorts.Func(out, func(a, b ongoing) int { return compareTopicPartition(a.topic, a.partition, b.topic, b.partition) })
		next(env, out)
	})
}

func orDefault(msg string, code protocol.ErrorCode) string {
	if msg == "" {
		return code.Message()
	}
	return msg
}

func compareTopicPartition(ta string, pa int32, tb string, pb int32) int {
	if c := strings.Compare(ta, tb); c != 0 {
		return c
	}
	return int(pa - pb)
}

// describeCluster lists the live brokers, ascending (describeCluster's
// nodes come from a HashMap keyed by id).
func (rc *reassignCommand) describeCluster(env *sim.Env, next func(*sim.Env, []int32)) {
	if rc.controllers {
		// With bootstrap controllers, describeCluster lists the controllers.
		rc.admin.DescribeCluster(env, func(env *sim.Env, _ string, nodes []client.Node, err *client.Error) {
			if err != nil {
				rc.failCall(err)
				return
			}
			var ids []int32
			for _, n := range nodes {
				ids = append(ids, n.ID)
			}
			slices.Sort(ids)
			next(env, ids)
		})
		return
	}
	rc.admin.Call(env, "listNodes", func() protocol.Request { return &protocol.MetadataRequest{Topics: []string{}} }, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			rc.failCall(err)
			return
		}
		var ids []int32
		rc.racks = map[int32]string{}
		for _, b := range resp.(*protocol.MetadataResponse).Brokers {
			ids = append(ids, b.NodeID)
			rc.racks[b.NodeID] = b.Rack
		}
		slices.Sort(ids)
		next(env, ids)
	})
}

// describeTopics fetches the replica lists of topics. With strict, an
// unknown topic fails the command ("Topic X not found."); otherwise it is
// left out of the result.
func (rc *reassignCommand) describeTopics(env *sim.Env, topics []string, strict bool, next func(*sim.Env, map[string][][]int32)) {
	var uniq []string
	for _, t := range topics {
		if !slices.Contains(uniq, t) {
			uniq = append(uniq, t)
		}
	}
	rc.admin.Call(env, "describeTopics", func() protocol.Request { return &protocol.MetadataRequest{Topics: uniq} }, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			rc.failCall(err)
			return
		}
		found := map[string][][]int32{}
		codes := map[string]protocol.ErrorCode{}
		rc.live = rc.live[:0]
		for _, b := range resp.(*protocol.MetadataResponse).Brokers {
			rc.live = append(rc.live, b.NodeID)
		}
		for _, t := range resp.(*protocol.MetadataResponse).Topics {
			codes[t.Name] = t.ErrorCode
			if t.ErrorCode != protocol.NONE {
				continue
			}
			parts := make([][]int32, len(t.Partitions))
			for _, p := range t.Partitions {
				if int(p.Index) < len(parts) {
					parts[p.Index] = p.Replicas
				}
			}
			found[t.Name] = parts
		}
		if strict {
			for _, t := range jdk.HashSetOrder(uniq) { // the futures map's order
				switch code := codes[t]; {
				case code == protocol.NONE && found[t] != nil:
				case code == protocol.UNKNOWN_TOPIC_OR_PARTITION && rc.scalaTool():
					// 2.8 does not rewrap the broker's error.
					rc.failUnknown(code.Message())
					return
				case code == protocol.UNKNOWN_TOPIC_OR_PARTITION || code == protocol.NONE:
					rc.failUnknown("Topic " + t + " not found.")
					return
				default:
					rc.failCall(&client.Error{Class: code.Exception(), Message: code.Message()})
					return
				}
			}
		}
		next(env, found)
	})
}

// list is --list.
func (rc *reassignCommand) list(env *sim.Env) {
	rc.listReassignments(env, nil, func(env *sim.Env, cur []ongoing) {
		if len(cur) == 0 {
			rc.t.println("No partition reassignments found.")
			rc.finish(0)
			return
		}
		rc.t.println("Current partition reassignments:")
		for _, o := range cur {
			line := fmt.Sprintf("%s: replicas: %s.", o.tp, joinInts(o.replicas, ","))
			if len(o.adding) > 0 {
				line += " adding: " + joinInts(o.adding, ",") + "."
			}
			if len(o.removing) > 0 {
				line += " removing: " + joinInts(o.removing, ",") + "."
			}
			rc.t.println(line)
		}
		rc.finish(0)
	})
}

// generate is --generate: the current assignment of the topics and a
// proposal spreading them over the listed live brokers. 3.8 places with
// AdminUtils.assignReplicasToBrokers (rack-aware when every listed broker
// has a rack and --disable-rack-aware is not given), 4.1 with the
// controller's StripedReplicaPlacer (core/placement). Kafka draws the
// random choices from a java.util.Random; the simulator draws them from the
// run's seed.
func (rc *reassignCommand) generate(env *sim.Env) {
	rc.describeTopics(env, rc.topics, true, func(env *sim.Env, found map[string][][]int32) {
		var current []reassignTarget
		for _, topic := range jdk.HashSetOrder(uniqueStrings(rc.topics)) {
			for i, r := range found[topic] {
				current = append(current, reassignTarget{topic: topic, partition: int32(i), replicas: r})
			}
		}
		rc.replicaLogDirs(env, current, func(env *sim.Env) { rc.generateWith(env, found, current) })
	})
}

// generateWith places the topics on the live brokers listed and prints
// both assignments.
func (rc *reassignCommand) generateWith(env *sim.Env, found map[string][][]int32, current []reassignTarget) {
	rc.describeCluster(env, func(env *sim.Env, live []int32) { rc.generateOn(env, live, found, current) })
}

// generateOn is generateWith once the live brokers are known.
func (rc *reassignCommand) generateOn(env *sim.Env, live []int32, found map[string][][]int32, current []reassignTarget) {
	var brokers []int32
	for _, id := range live {
		if slices.Contains(rc.brokers, id) {
			brokers = append(brokers, id)
		}
	}
	var proposed []reassignTarget
	rnd := env.Rand("kafka-reassign-partitions/generate")
	// getBrokerMetadata: the listed brokers' racks, unless
	// --disable-rack-aware; only some with a rack is refused.
	racks := make([]string, len(brokers))
	with := 0
	for i, id := range brokers {
		if !rc.p.Has("disable-rack-aware") {
			racks[i] = rc.racks[id]
		}
		if racks[i] != "" {
			with++
		}
	}
	if with > 0 && with < len(brokers) {
		msg := "Not all brokers have rack information. Add --disable-rack-aware in command line to make replica assignment without rack information."
		rc.t.println("Error: " + msg)
		rc.t.println("org.apache.kafka.admin.AdminOperationException: " + msg)
		rc.t.println("")
		rc.finish(1)
		return
	}
	var placer *placement.Striped
	if rc.rel.AtLeast(4, 1) {
		// ReassignPartitionsCommand's REPLICA_PLACER, one per run
		// (KAFKA-18798: the controller's placement policy).
		placer = &placement.Striped{Rand: rnd, CordonedText: rc.rel.AtLeast(4, 3)}
	}
	for _, topic := range jdk.HashSetOrder(uniqueStrings(rc.topics)) {
		parts := found[topic]
		if len(parts) == 0 {
			continue
		}
		rf := len(parts[firstInHashOrder(topic, len(parts))])
		if placer != nil {
			// 4.1+: StripedReplicaPlacer.place with every listed
			// live broker unfenced, in its rack.
			usable := make([]placement.Broker, len(brokers))
			for i, id := range brokers {
				usable[i] = placement.Broker{ID: id, Rack: racks[i]}
			}
			assigned, err := placer.PlaceBrokers(usable, len(parts), rf)
			if err != nil {
				rc.t.println("Error: " + err.Error())
				rc.t.println("org.apache.kafka.common.errors.InvalidReplicationFactorException: " + err.Error())
				rc.t.println("")
				rc.finish(1)
				return
			}
			for i, r := range assigned {
				proposed = append(proposed, reassignTarget{topic: topic, partition: int32(i), replicas: r})
			}
			continue
		}
		if rf > len(brokers) {
			msg := fmt.Sprintf("Replication factor: %d larger than available brokers: %d.", rf, len(brokers))
			rc.t.println("Error: " + msg)
			rc.t.println("org.apache.kafka.common.errors.InvalidReplicationFactorException: " + msg)
			rc.t.println("")
			rc.finish(1)
			return
		}
		assigned, _ := placement.AdminUtils(brokers, racks, len(parts), rf, rnd.Intn(len(brokers)), rnd.Intn(len(brokers)), 0)
		for i, r := range assigned {
			proposed = append(proposed, reassignTarget{topic: topic, partition: int32(i), replicas: r})
		}
	}
	rc.t.println("Current partition replica assignment")
	rc.t.println(formatReassignmentJSON(current))
	rc.t.println("")
	rc.t.println("Proposed partition reassignment configuration")
	rc.t.println(formatReassignmentJSON(proposed))
	rc.finish(0)
}

// replicaLogDirs is getReplicaToLogDir (Kafka 4.2+, KAFKA-19582): before
// printing a current assignment the tool asks each broker holding one of
// its replicas (describeReplicaLogDirs, one DescribeLogDirs per broker, all
// at once) which log directory the replica is in, and prints that instead
// of "any". Replicas on brokers the metadata does not list (offline) are
// not asked about; a replica its broker does not report stays "any". It
// fills in the targets' logDirs; before 4.2 it does nothing.
func (rc *reassignCommand) replicaLogDirs(env *sim.Env, targets []reassignTarget, next func(*sim.Env)) {
	if !rc.rel.AtLeast(4, 2) {
		next(env)
		return
	}
	asks := map[int32][]protocol.DescribableLogDirTopic{}
	var brokers []int32
	for _, t := range targets {
		for _, id := range t.replicas {
			if !slices.Contains(rc.live, id) {
				continue
			}
			if !slices.Contains(brokers, id) {
				brokers = append(brokers, id)
			}
			topics := asks[id]
			i := slices.IndexFunc(topics, func(d protocol.DescribableLogDirTopic) bool { return d.Topic == t.topic })
			if i < 0 {
				topics = append(topics, protocol.DescribableLogDirTopic{Topic: t.topic})
				i = len(topics) - 1
			}
			topics[i].Partitions = append(topics[i].Partitions, t.partition)
			asks[id] = topics
		}
	}
	if len(brokers) == 0 {
		next(env)
		return
	}
	slices.Sort(brokers)        // the HashMap<Integer, ...> of requests by broker
	dirs := map[string]string{} // "topic-partition-broker" → log dir
	key := func(topic string, p, id int32) string { return fmt.Sprintf("%s-%d-%d", topic, p, id) }
	errs := make([]*client.Error, len(brokers))
	pending := len(brokers)
	for n, id := range brokers {
		rc.admin.CallNode(env, "describeReplicaLogDirs", id, func() protocol.Request {
			return &protocol.DescribeLogDirsRequest{Topics: asks[id]}
		}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
			if err != nil {
				errs[n] = err
			} else {
				for _, d := range resp.(*protocol.DescribeLogDirsResponse).Results {
					if d.ErrorCode != protocol.NONE {
						continue
					}
					for _, t := range d.Topics {
						for _, p := range t.Partitions {
							if !p.IsFutureKey {
								dirs[key(t.Name, p.PartitionIndex, id)] = d.LogDir
							}
						}
					}
				}
			}
			if pending--; pending > 0 {
				return
			}
			for _, e := range errs {
				if e != nil {
					rc.failCall(e)
					return
				}
			}
			for i := range targets {
				t := &targets[i]
				t.logDirs = make([]string, len(t.replicas))
				for j, id := range t.replicas {
					if d, ok := dirs[key(t.topic, t.partition, id)]; ok {
						t.logDirs[j] = d
					} else {
						t.logDirs[j] = "any"
					}
				}
			}
			next(env)
		})
	}
}

func uniqueStrings(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// firstInHashOrder is the partition of topic that comes first in a
// HashMap of its TopicPartitions.
func firstInHashOrder(topic string, n int) int {
	hashes := make([]int32, n)
	for i := range hashes {
		hashes[i] = hashing.TopicPartitionHashCode(topic, int32(i))
	}
	return jdk.HashOrder(hashes)[0]
}

// cannotExecuteMessage is cannotExecuteBecauseOfExistingMessage.
const cannotExecuteMessage = "Cannot execute because there is an existing partition assignment.  Use --additional to override this and create a new partition assignment in addition to the existing one. The --additional flag can also be used to change the throttle by resubmitting the current reassignment."

// execute is --execute.
func (rc *reassignCommand) execute(env *sim.Env) {
	rc.listReassignments(env, nil, func(env *sim.Env, cur []ongoing) {
		if len(cur) > 0 && !rc.p.Has("additional") {
			rc.terse(cannotExecuteMessage)
			return
		}
		rc.describeCluster(env, func(env *sim.Env, live []int32) {
			var targets []int32
			for _, r := range rc.plan {
				for _, id := range r.replicas {
					if !slices.Contains(targets, id) {
						targets = append(targets, id)
					}
				}
			}
			slices.Sort(targets) // HashSet<Integer> order
			if rc.scalaTool() {
				targets = planBrokers(rc.plan)
			}
			for _, id := range targets {
				if !slices.Contains(live, id) {
					rc.fail(adminCommandFailed, fmt.Sprintf("Unknown broker id %d", id))
					return
				}
			}
			var topics []string
			for _, r := range rc.plan {
				topics = append(topics, r.topic)
			}
			rc.describeTopics(env, topics, true, func(env *sim.Env, found map[string][][]int32) {
				var current []reassignTarget
				var missing []reassignTarget
				for _, r := range rc.plan {
					parts := found[r.topic]
					if r.partition < 0 || int(r.partition) >= len(parts) {
						missing = append(missing, r)
						continue
					}
					current = append(current, reassignTarget{topic: r.topic, partition: r.partition, replicas: parts[r.partition]})
				}
				// 2.8 leaves a missing partition out of the rollback and lets
				// the controller refuse it.
				if len(missing) > 0 && !rc.scalaTool() {
					rc.failUnknown("Unable to find partition: " + strings.Join(partitionsInHashOrder(missing), ", "))
					return
				}
				rc.replicaLogDirs(env, current, func(env *sim.Env) { rc.executeWith(env, current) })
			})
		})
	})
}

// executeWith prints the current assignment and starts the plan.
func (rc *reassignCommand) executeWith(env *sim.Env, current []reassignTarget) {
	rc.printRollback(current)
	rc.alter(env, rc.plan, func(env *sim.Env, failed map[string]string) {
		if len(failed) > 0 {
			rc.terse("Error reassigning partition(s):\n" + failureLines(failed))
			return
		}
		rc.printStarted(rc.plan)
		rc.finish(0)
	})
}

// printRollback prints the current assignment of the plan's partitions.
func (rc *reassignCommand) printRollback(current []reassignTarget) {
	rc.t.println("Current partition replica assignment")
	rc.t.println("")
	rc.t.println(formatReassignmentJSON(current))
	rc.t.println("")
	rc.t.println("Save this to use as the --reassignment-json-file option during rollback")
}

// printStarted names the partitions whose move started.
func (rc *reassignCommand) printStarted(plan []reassignTarget) {
	var names []string
	for _, r := range sortedTargets(plan) {
		names = append(names, r.tp())
	}
	rc.t.println(fmt.Sprintf("Successfully started partition reassignment%s for %s", plural(len(names)), strings.Join(names, ",")))
}

func sortedTargets(plan []reassignTarget) []reassignTarget {
	out := slices.Clone(plan)
	sorts.Func(out, func(a, b reassignTarget) int {
		return compareTopicPartition(a.topic, a.partition, b.topic, b.partition)
	})
	return out
}

// failureLines prints per-partition failures sorted by topic and partition.
func failureLines(failed map[string]string) string {
	var tps []reassignTarget
	for tp := range failed {
		t, p := splitTopicPartition(tp)
		tps = append(tps, reassignTarget{topic: t, partition: p})
	}
	var lines []string
	for _, r := range sortedTargets(tps) {
		lines = append(lines, r.tp()+": "+failed[r.tp()])
	}
	return strings.Join(lines, "\n")
}

func splitTopicPartition(tp string) (string, int32) {
	i := strings.LastIndexByte(tp, '-')
	if i > 0 && tp[i-1] == '-' {
		i-- // a negative partition: "foo--1"
	}
	n, err := strconv.ParseInt(tp[i+1:], 10, 32) // tp() wrote it in decimal
	if err != nil {
		n = 0
	}
	return tp[:i], int32(n)
}

// alter sends AlterPartitionReassignments: the plan's targets, or with
// cancel nil replicas. It passes on each failed partition's message.
func (rc *reassignCommand) alter(env *sim.Env, plan []reassignTarget, next func(*sim.Env, map[string]string)) {
	rc.alterOrCancel(env, plan, false, next)
}

func (rc *reassignCommand) alterOrCancel(env *sim.Env, plan []reassignTarget, cancel bool, next func(*sim.Env, map[string]string)) {
	local := map[string]string{}
	if rc.scalaTool() {
		// 2.8's admin client fails a negative partition index itself
		// (InvalidTopicException) and sends the rest, if any.
		var sent []reassignTarget
		for _, r := range plan {
			if r.partition < 0 {
				local[r.tp()] = fmt.Sprintf("The given partition index %d is not valid.", r.partition)
			} else {
				sent = append(sent, r)
			}
		}
		if len(sent) == 0 {
			next(env, local)
			return
		}
		plan = sent
	}
	rc.admin.Call(env, "alterPartitionReassignments", func() protocol.Request {
		req := &protocol.AlterPartitionReassignmentsRequest{TimeoutMs: 30000}
		// AlterPartitionReassignmentsOptions.allowReplicationFactorChange
		// (4.1+): false with --disallow-replication-factor-change.
		req.DisallowReplicationFactorChange = !cancel && rc.p.Has("disallow-replication-factor-change")
		for _, r := range plan {
			i := slices.IndexFunc(req.Topics, func(t protocol.ReassignableTopic) bool { return t.Name == r.topic })
			if i < 0 {
				req.Topics = append(req.Topics, protocol.ReassignableTopic{Name: r.topic})
				i = len(req.Topics) - 1
			}
			part := protocol.ReassignablePartition{PartitionIndex: r.partition}
			if !cancel {
				part.Replicas = slices.Clone(r.replicas)
			}
			req.Topics[i].Partitions = append(req.Topics[i].Partitions, part)
		}
		return req
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			rc.failCall(err)
			return
		}
		r := resp.(*protocol.AlterPartitionReassignmentsResponse)
		failed := local
		if r.ErrorCode != protocol.NONE && len(r.Responses) == 0 {
			// A request-level error fails every partition of the request.
			for _, t := range plan {
				failed[t.tp()] = orDefault(r.ErrorMessage, r.ErrorCode)
			}
		}
		for _, t := range r.Responses {
			for _, p := range t.Partitions {
				code := p.ErrorCode
				if r.ErrorCode != protocol.NONE {
					code = r.ErrorCode
				}
				if code != protocol.NONE {
					failed[fmt.Sprintf("%s-%d", t.Name, p.PartitionIndex)] = orDefault(p.ErrorMessage, code)
				}
			}
		}
		next(env, failed)
	})
}

// verify is --verify.
func (rc *reassignCommand) verify(env *sim.Env) {
	rc.listReassignments(env, nil, func(env *sim.Env, cur []ongoing) {
		inProgress := map[string]bool{}
		for _, o := range cur {
			inProgress[o.tp] = true
		}
		var topics []string
		for _, r := range rc.plan {
			if !inProgress[r.tp()] {
				topics = append(topics, r.topic)
			}
		}
		rc.describeTopics(env, topics, false, func(env *sim.Env, found map[string][][]int32) {
			lines := []string{"Status of partition reassignment:"}
			for _, r := range sortedTargets(rc.plan) {
				if inProgress[r.tp()] {
					lines = append(lines, fmt.Sprintf("Reassignment of partition %s is still in progress.", r.tp()))
					continue
				}
				parts, ok := found[r.topic]
				var current []int32
				switch {
				case !ok || int(r.partition) > len(parts):
					// Too few partitions: treated as an unknown partition.
				case r.partition < 0 || int(r.partition) == len(parts):
					msg := fmt.Sprintf("Index %d out of bounds for length %d", r.partition, len(parts))
					rc.fail("java.lang.IndexOutOfBoundsException", msg)
					return
				default:
					current = parts[r.partition]
				}
				if slices.Equal(current, r.replicas) {
					word := "completed" // 3.0's Java tool; the Scala one said "complete"
					if rc.scalaTool() {
						word = "complete"
					}
					lines = append(lines, fmt.Sprintf("Reassignment of partition %s is %s.", r.tp(), word))
				} else {
					lines = append(lines, fmt.Sprintf("There is no active reassignment of partition %s, but replica set is %s rather than %s.",
						r.tp(), joinInts(current, ","), joinInts(r.replicas, ",")))
				}
			}
			rc.t.printLines(lines)
			rc.t.println("") // the (empty) log directory move states
			if len(cur) > 0 || rc.p.Has("preserve-throttles") {
				rc.finish(0)
				return
			}
			rc.clearThrottles(env, "", func(*sim.Env) { rc.finish(0) })
		})
	})
}

// cancel is --cancel.
func (rc *reassignCommand) cancel(env *sim.Env) {
	rc.listReassignments(env, rc.plan, func(env *sim.Env, cur []ongoing) {
		var active []reassignTarget
		for _, o := range cur {
			// 3.8's test keeps a reassignment that only adds replicas out
			// of the cancel; 4.1 cancels any that adds or removes one
			// ("MINOR: fix reassign command bug", apache/kafka#20003).
			// 2.8's Scala tool had 4.1's test.
			anyAdding := rc.rel.AtLeast(4, 1) || rc.scalaTool()
			if (anyAdding && len(o.adding) > 0) || (!anyAdding && len(o.adding) == 0) || len(o.removing) > 0 {
				active = append(active, reassignTarget{topic: o.topic, partition: o.partition})
			}
		}
		finish := func(env *sim.Env) {
			// No log directory moves are simulated: the tool prints this
			// without a newline, so the next line follows it directly.
			const noMoves = "None of the specified partition moves are active."
			if rc.p.Has("preserve-throttles") || rc.scalaTool() {
				// 2.8 printed it with println.
				rc.t.println(noMoves)
				if rc.p.Has("preserve-throttles") {
					rc.finish(0)
					return
				}
			}
			prefix := noMoves
			if rc.scalaTool() {
				prefix = ""
			}
			rc.clearThrottles(env, prefix, func(*sim.Env) { rc.finish(0) })
		}
		if len(active) == 0 {
			rc.t.println("None of the specified partition reassignments are active.")
			finish(env)
			return
		}
		rc.alterOrCancel(env, active, true, func(env *sim.Env, failed map[string]string) {
			plural := "s"
			if len(failed) == 1 || (len(failed) == 0 && len(active) == 1) {
				plural = ""
			}
			if len(failed) > 0 {
				rc.terse(fmt.Sprintf("Error cancelling partition reassignment%s for:\n%s", plural, failureLines(failed)))
				return
			}
			var names []string
			for _, r := range sortedTargets(active) {
				names = append(names, r.tp())
			}
			rc.t.println(fmt.Sprintf("Successfully cancelled partition reassignment%s for: %s", plural, strings.Join(names, ",")))
			finish(env)
		})
	})
}

// clearThrottles is clearAllThrottles: it removes the replication throttle
// configs from every live broker and every broker of the plan, then from
// the plan's topics. prefix is text the tool left on the current line.
func (rc *reassignCommand) clearThrottles(env *sim.Env, prefix string, done func(*sim.Env)) {
	rc.describeCluster(env, func(env *sim.Env, live []int32) {
		brokers := slices.Clone(live)
		var topics []string
		for _, r := range rc.plan {
			for _, id := range r.replicas {
				if !slices.Contains(brokers, id) {
					brokers = append(brokers, id)
				}
			}
			if !slices.Contains(topics, r.topic) {
				topics = append(topics, r.topic)
			}
		}
		plural := "s"
		if len(brokers) == 1 {
			plural = ""
		}
		brokerList, topicList := javaIntSetString(brokers, ","), strings.Join(jdk.HashSetOrder(topics), ",")
		if rc.scalaTool() {
			// activeBrokers ++ the plan's brokers, and the plan's topics,
			// as Scala Sets (the live brokers taken in id order).
			brokerList, topicList = joinInts(scalaIntSet(brokers), ","), strings.Join(scalaStringSet(topics), ",")
		}
		rc.t.println(fmt.Sprintf("%sClearing broker-level throttles on broker%s %s", prefix, plural, brokerList))
		var resources []protocol.AlterConfigsResource
		for _, id := range brokers {
			resources = append(resources, deleteConfigs(metadata.ResourceBroker, fmt.Sprint(id),
				"leader.replication.throttled.rate", "follower.replication.throttled.rate", "replica.alter.log.dirs.io.max.bytes.per.second"))
		}
		rc.alterConfigsEach(env, resources, func(env *sim.Env) {
			plural := "s"
			if len(topics) == 1 {
				plural = ""
			}
			rc.t.println(fmt.Sprintf("Clearing topic-level throttles on topic%s %s", plural, topicList))
			var resources []protocol.AlterConfigsResource
			for _, t := range topics {
				resources = append(resources, deleteConfigs(metadata.ResourceTopic, t,
					"leader.replication.throttled.replicas", "follower.replication.throttled.replicas"))
			}
			rc.alterConfigsEach(env, resources, done)
		})
	})
}

func deleteConfigs(resType int8, name string, keys ...string) protocol.AlterConfigsResource {
	res := protocol.AlterConfigsResource{ResourceType: resType, ResourceName: name}
	for _, k := range keys {
		empty := ""
		res.Configs = append(res.Configs, protocol.AlterableConfig{Name: k, ConfigOperation: protocol.OpDelete, Value: &empty})
	}
	return res
}

// alterConfigsEach sends IncrementalAlterConfigs for each resource in turn
// (a broker's own configs go to that broker), failing on the first error.
func (rc *reassignCommand) alterConfigsEach(env *sim.Env, resources []protocol.AlterConfigsResource, done func(*sim.Env)) {
	if len(resources) == 0 {
		done(env)
		return
	}
	res := resources[0]
	build := func() protocol.Request {
		return &protocol.IncrementalAlterConfigsRequest{Resources: []protocol.AlterConfigsResource{res}}
	}
	answer := func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			rc.failCall(err)
			return
		}
		for _, r := range resp.(*protocol.IncrementalAlterConfigsResponse).Responses {
			if r.ErrorCode != protocol.NONE {
				rc.failCall(&client.Error{Class: r.ErrorCode.Exception(), Message: orDefault(r.ErrorMessage, r.ErrorCode)})
				return
			}
		}
		rc.alterConfigsEach(env, resources[1:], done)
	}
	// A broker's own configs go to that broker; with bootstrap controllers
	// every resource goes to the active controller
	// (KafkaAdminClient.incrementalAlterConfigs).
	if res.ResourceType == metadata.ResourceBroker && !rc.controllers {
		id, err := strconv.ParseInt(res.ResourceName, 10, 32) // a broker id, in decimal
		if err != nil {
			id = 0
		}
		rc.admin.CallNode(env, "incrementalAlterConfigs", int32(id), build, answer)
		return
	}
	rc.admin.Call(env, "incrementalAlterConfigs", build, answer)
}
