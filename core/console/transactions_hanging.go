package console

import (
	"fmt"
	"slices"
	"strconv"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// findHanging is FindHangingTransactionsCommand (3.8.0): the partitions to
// search (one, a topic's, or every topic's, kept to those with a replica
// on --broker-id), their producers with a transaction open for longer
// than --max-transaction-timeout minutes (measured from the producer's
// last timestamp), and of those the ones whose coordinator no longer
// counts the partition in a transaction: no transactional id has the
// producer id, the id is not found, or its transaction does not list the
// partition. Kafka's maps give the orders: the results by partition and
// by producer id are HashMaps.
func (r *txnRun) findHanging(env *sim.Env) {
	hasBroker, hasTopic := r.given("--broker-id"), r.given("--topic")
	if !hasTopic && !hasBroker {
		r.t.println("The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search")
		r.t.finish(1)
		return
	}
	if r.given("--partition") && !hasTopic {
		r.t.println("The --partition argument requires --topic to be provided")
		r.t.finish(1)
		return
	}
	broker := int32(-1)
	if hasBroker {
		broker = int32(r.num("--broker-id"))
	}
	maxTimeoutMs := r.num("--max-transaction-timeout") * 60000
	if !r.given("--max-transaction-timeout") {
		maxTimeoutMs = 15 * 60000
	}
	search := func(env *sim.Env, tps []group.TopicPartition) {
		r.candidates(env, broker, maxTimeoutMs, tps)
	}
	topic := r.v.Str(r.p.Arg("--topic"))
	switch {
	case r.given("--partition"):
		search(env, []group.TopicPartition{{Topic: topic, Partition: int32(r.num("--partition"))}})
	case hasTopic:
		r.topicPartitions(env, broker, []string{topic}, search)
	default:
		r.admin.CallTarget(env, "listTopics", client.AnyBroker(), 0, func(int32) protocol.Request {
			return &protocol.MetadataRequest{}
		}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
			if err != nil {
				r.fail("Failed to list topics", err)
				return
			}
			var names []string
			for _, t := range resp.(*protocol.MetadataResponse).Topics {
				names = append(names, t.Name) // listInternal(true)
			}
			r.topicPartitions(env, broker, jdk.HashSetOrder(names), search)
		})
	}
}

// topicPartitions is findTopicPartitions: the topics' partitions, topic by
// topic in allTopicNames' order, kept to those with a replica on broker
// (when >= 0).
func (r *txnRun) topicPartitions(env *sim.Env, broker int32, topics []string, then func(env *sim.Env, tps []group.TopicPartition)) {
	r.admin.CallTarget(env, "describeTopics", client.AnyBroker(), 0, func(int32) protocol.Request {
		return &protocol.MetadataRequest{Topics: slices.Clone(topics)}
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err == nil {
			for _, t := range resp.(*protocol.MetadataResponse).Topics {
				if t.ErrorCode != protocol.NONE {
					err = &client.Error{Class: t.ErrorCode.Exception(), Message: t.ErrorCode.Message()}
					break
				}
			}
		}
		if err != nil {
			r.fail(fmt.Sprintf("Failed to describe %d topics", len(topics)), err)
			return
		}
		byName := map[string]protocol.MetadataTopic{}
		var names []string
		for _, t := range resp.(*protocol.MetadataResponse).Topics {
			byName[t.Name] = t
			names = append(names, t.Name)
		}
		var tps []group.TopicPartition
		for _, name := range jdk.PresizedHashSetOrder(names) {
			parts := slices.Clone(byName[name].Partitions)
			slices.SortFunc(parts, func(a, b protocol.MetadataPartition) int { return int(a.Index - b.Index) })
			for _, p := range parts {
				if broker < 0 || slices.Contains(p.Replicas, broker) {
					tps = append(tps, group.TopicPartition{Topic: name, Partition: p.Index})
				}
			}
		}
		then(env, tps)
	})
}

// openTxn is OpenTransaction: a producer's open transaction on a partition.
type openTxn struct {
	tp group.TopicPartition
	s  protocol.ProducerState
}

// candidates is collectCandidateOpenTransactions and what follows.
func (r *txnRun) candidates(env *sim.Env, broker int32, maxTimeoutMs int64, tps []group.TopicPartition) {
	headers := []string{"Topic", "Partition", "ProducerId", "ProducerEpoch", "CoordinatorEpoch", "StartOffset", "LastTimestamp", "Duration(min)"}
	r.admin.DescribeProducers(env, tps, broker, 0, func(env *sim.Env, got map[group.TopicPartition][]protocol.ProducerState, failed map[group.TopicPartition]*client.Error) {
		for _, tp := range tps {
			if err := failed[tp]; err != nil {
				opt := "Optional.empty"
				if broker >= 0 {
					opt = fmt.Sprintf("Optional[%d]", broker)
				}
				r.fail(fmt.Sprintf("Failed to describe producers for %d partitions on broker %s", len(tps), opt), err)
				return
			}
		}
		now := env.Now().UnixMilli()
		var cands []openTxn
		for _, tp := range client.TopicPartitionsInHashOrder(tps, jdk.PresizedHashOrder) { // DescribeProducersResult.all(): a presized HashMap
			for _, s := range got[tp] {
				if s.CurrentTxnStartOffset >= 0 && now-s.LastTimestamp > maxTimeoutMs {
					cands = append(cands, openTxn{tp, s})
				}
			}
		}
		if len(cands) == 0 {
			r.table(headers, nil)
			return
		}
		// groupByProducerId: a HashMap<Long, List<OpenTransaction>>.
		var pids []int64
		byPID := map[int64][]openTxn{}
		for _, c := range cands {
			if _, ok := byPID[c.s.ProducerID]; !ok {
				pids = append(pids, c.s.ProducerID)
			}
			byPID[c.s.ProducerID] = append(byPID[c.s.ProducerID], c)
		}
		hashes := make([]int32, len(pids))
		for i, id := range pids {
			hashes[i] = int32(id ^ int64(uint64(id)>>32)) // Long.hashCode
		}
		ordered := make([]int64, 0, len(pids))
		for _, i := range jdk.HashOrder(hashes) {
			ordered = append(ordered, pids[i])
		}
		r.admin.ListTransactions(env, client.TxnListFilter{ProducerIDs: pids, DurationMs: -1}, 0, func(env *sim.Env, brokers []int32, byBroker map[int32][]client.TxnListing, err *client.Error) {
			if err != nil {
				r.fail(fmt.Sprintf("Failed to list transactions for %d producers", len(pids)), err)
				return
			}
			ids := map[int64]string{}
			var names []string
			for _, b := range brokers {
				for _, l := range byBroker[b] {
					if _, ok := byPID[l.ProducerID]; ok {
						ids[l.ProducerID] = l.TransactionalID
						if !slices.Contains(names, l.TransactionalID) {
							names = append(names, l.TransactionalID)
						}
					}
				}
			}
			r.describeAll(env, names, map[string]*client.TxnDescription{}, func(env *sim.Env, descs map[string]*client.TxnDescription) {
				var rows [][]string
				for _, pid := range ordered {
					id, known := ids[pid]
					d := descs[id]
					for _, o := range byPID[pid] {
						if known && d != nil && slices.Contains(d.TopicPartitions, o.tp) {
							continue // the coordinator will still write its marker
						}
						rows = append(rows, []string{o.tp.Topic, strconv.Itoa(int(o.tp.Partition)), strconv.FormatInt(pid, 10), strconv.Itoa(int(o.s.ProducerEpoch)),
							strconv.Itoa(int(max(o.s.CoordinatorEpoch, -1))), strconv.FormatInt(o.s.CurrentTxnStartOffset, 10),
							strconv.FormatInt(o.s.LastTimestamp, 10), strconv.FormatInt((now-o.s.LastTimestamp)/60000, 10)})
					}
				}
				r.table(headers, rows)
			})
		})
	})
}

// describeAll describes the ids one after another; an id that is not
// found maps to nil, any other failure ends the tool.
func (r *txnRun) describeAll(env *sim.Env, ids []string, out map[string]*client.TxnDescription, done func(env *sim.Env, descs map[string]*client.TxnDescription)) {
	if len(out) == len(ids) {
		done(env, out)
		return
	}
	id := ids[len(out)]
	r.admin.DescribeTransaction(env, id, 0, func(env *sim.Env, d *client.TxnDescription, err *client.Error) {
		if err != nil && err.Class != protocol.TRANSACTIONAL_ID_NOT_FOUND.Exception() {
			r.fail(fmt.Sprintf("Failed to describe %d transactions", len(ids)), err)
			return
		}
		out[id] = d
		r.describeAll(env, ids, out, done)
	})
}
