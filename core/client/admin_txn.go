package client

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// The transaction admin calls of KafkaAdminClient (KIP-664, 3.8.0):
// describeProducers, describeTransactions, listTransactions and
// abortTransaction, each an AdminApiDriver run of its handler
// (DescribeProducersHandler, DescribeTransactionsHandler,
// ListTransactionsHandler, AbortTransactionHandler). A partition's calls
// find its leader first (PartitionLeaderStrategy, which tolerates unknown
// topics: they are looked up again until the deadline); a transactional
// id's find its coordinator; listTransactions asks every broker.

// TxnDescription is admin.TransactionDescription.
type TxnDescription struct {
	CoordinatorID   int32
	State           string // the admin TransactionState's name ("Unknown" for one it does not know)
	ProducerID      int64
	ProducerEpoch   int16
	TimeoutMs       int32
	StartTimeMs     int64 // -1: none (OptionalLong.empty)
	TopicPartitions []group.TopicPartition
}

// TxnListing is admin.TransactionListing.
type TxnListing struct {
	TransactionalID string
	ProducerID      int64
	State           string
}

// AbortSpec is admin.AbortTransactionSpec.
type AbortSpec struct {
	TP               group.TopicPartition
	ProducerID       int64
	ProducerEpoch    int16
	CoordinatorEpoch int32
}

// String is AbortTransactionSpec.toString.
func (s AbortSpec) String() string {
	return fmt.Sprintf("AbortTransactionSpec(topicPartition=%s-%d, producerId=%d, producerEpoch=%d, coordinatorEpoch=%d)",
		s.TP.Topic, s.TP.Partition, s.ProducerID, s.ProducerEpoch, s.CoordinatorEpoch)
}

// adminTxnStates are admin.TransactionState's names; parse maps any other
// to Unknown.
var adminTxnStates = []string{"Ongoing", "PrepareAbort", "PrepareCommit", "CompleteAbort", "CompleteCommit", "Empty", "PrepareEpochFence"}

func parseAdminTxnState(name string) string {
	if slices.Contains(adminTxnStates, name) {
		return name
	}
	return "Unknown"
}

// leaderLookup is PartitionLeaderStrategy under an AdminApiDriver: a
// Metadata request for the partitions' topics (without auto-creation)
// maps each to its leader; one that fails is handed to failed; the rest
// are looked up again after the retry backoff until the deadline, when
// they fail with the lookup call's timeout.
type leaderLookup struct {
	a        *Admin
	api      string
	deadline sim.Time
	mapped   func(env *sim.Env, leader int32, tps []group.TopicPartition)
	failed   func(env *sim.Env, tp group.TopicPartition, err *Error)
}

func (l *leaderLookup) lookup(env *sim.Env, tps []group.TopicPartition, notBefore int64) {
	var topics []string
	for _, tp := range tps {
		if !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	c := l.a.newCall(env, l.api+"(api=METADATA)", AnyBroker(), 0)
	c.deadline, c.nextAllowedTryMs = l.deadline, notBefore
	c.build = func(int32) sim.Message { return &protocol.MetadataRequest{Topics: topics} }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		md := resp.(*protocol.MetadataResponse)
		byLeader := map[int32][]group.TopicPartition{}
		var leaders []int32
		var again []group.TopicPartition
		for _, tp := range tps {
			leader, err := leaderIn(md, tp)
			switch {
			case err != nil:
				l.failed(env, tp, err)
			case leader < 0:
				again = append(again, tp)
			default:
				if _, ok := byLeader[leader]; !ok {
					leaders = append(leaders, leader)
				}
				byLeader[leader] = append(byLeader[leader], tp)
			}
		}
		for _, id := range leaders {
			l.mapped(env, id, byLeader[id])
		}
		if len(again) > 0 {
			l.lookup(env, again, env.Now().UnixMilli()+l.a.retryBackoff(env).backoff(0).Milliseconds())
		}
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) {
		for _, tp := range tps {
			l.failed(env, tp, err)
		}
	}
	l.a.enqueue(env, c)
}

// leaderIn reads one partition's leader from a Metadata answer as
// PartitionLeaderStrategy.handleResponse does: -1 to look it up again.
func leaderIn(md *protocol.MetadataResponse, tp group.TopicPartition) (int32, *Error) {
	for _, t := range md.Topics {
		if t.Name != tp.Topic {
			continue
		}
		switch t.ErrorCode {
		case protocol.NONE:
		case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.LEADER_NOT_AVAILABLE, protocol.BROKER_NOT_AVAILABLE:
			return -1, nil
		case protocol.INVALID_TOPIC_EXCEPTION:
			return 0, &Error{Class: protocol.INVALID_TOPIC_EXCEPTION.Exception(), Message: fmt.Sprintf("Failed to fetch metadata for partition %s-%d due to invalid topic `%s`", tp.Topic, tp.Partition, tp.Topic)}
		default:
			return 0, &Error{Class: t.ErrorCode.Exception(), Message: fmt.Sprintf("Failed to fetch metadata for partition %s-%d due to unexpected error for topic `%s`", tp.Topic, tp.Partition, tp.Topic)}
		}
		for _, p := range t.Partitions {
			if p.Index != tp.Partition {
				continue
			}
			switch p.ErrorCode {
			case protocol.NONE:
				return p.LeaderID, nil
			case protocol.NOT_LEADER_OR_FOLLOWER, protocol.REPLICA_NOT_AVAILABLE, protocol.LEADER_NOT_AVAILABLE,
				protocol.BROKER_NOT_AVAILABLE, protocol.KAFKA_STORAGE_ERROR, protocol.UNKNOWN_TOPIC_OR_PARTITION:
				return -1, nil
			}
			return 0, &Error{Class: p.ErrorCode.Exception(), Message: fmt.Sprintf("Unexpected error during metadata lookup for %s-%d", tp.Topic, tp.Partition)}
		}
	}
	return -1, nil // a partition the topic lacks stays unmapped
}

// DescribeProducers is Admin.describeProducers: each partition's active
// producers from its leader, or from broker brokerID (>= 0) whatever its
// role. done gets every partition's producers or error.
func (a *Admin) DescribeProducers(env *sim.Env, tps []group.TopicPartition, brokerID int32, timeout time.Duration,
	done func(env *sim.Env, got map[group.TopicPartition][]protocol.ProducerState, failed map[group.TopicPartition]*Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	deadline := env.Now().Add(timeout)
	got := map[group.TopicPartition][]protocol.ProducerState{}
	failed := map[group.TopicPartition]*Error{}
	finished := false
	settle := func(env *sim.Env) {
		if !finished && len(got)+len(failed) == len(tps) {
			finished = true
			done(env, got, failed)
		}
	}
	fail := func(env *sim.Env, tp group.TopicPartition, err *Error) {
		failed[tp] = err
		settle(env)
	}
	var look *leaderLookup
	var fulfil func(env *sim.Env, node int32, keys []group.TopicPartition, notBefore int64)
	fulfil = func(env *sim.Env, node int32, keys []group.TopicPartition, notBefore int64) {
		c := a.newCall(env, "describeProducers(api=DESCRIBE_PRODUCERS)", BrokerNode(node), 0)
		c.deadline, c.nextAllowedTryMs = deadline, notBefore
		c.build = func(int32) sim.Message {
			req := &protocol.DescribeProducersRequest{}
			for _, tp := range keys {
				req.Topics = protocol.AppendTxnPartition(req.Topics, tp.Topic, tp.Partition)
			}
			return req
		}
		c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
			var relook, retry []group.TopicPartition
			for _, t := range resp.(*protocol.DescribeProducersResponse).Topics {
				for _, p := range t.Partitions {
					tp := group.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}
					name := fmt.Sprintf("%s-%d", tp.Topic, tp.Partition)
					switch p.ErrorCode {
					case protocol.NONE:
						got[tp] = p.ActiveProducers
					case protocol.NOT_LEADER_OR_FOLLOWER:
						if brokerID >= 0 {
							// Fatal when the broker was named.
							failed[tp] = &Error{Class: p.ErrorCode.Exception(), Message: fmt.Sprintf("Failed to describe active producers for partition %s on brokerId %d", name, brokerID)}
						} else {
							relook = append(relook, tp)
						}
					case protocol.UNKNOWN_TOPIC_OR_PARTITION:
						retry = append(retry, tp) // "Will retry later"
					case protocol.INVALID_TOPIC_EXCEPTION:
						msg := p.ErrorMessage
						if msg == "" {
							msg = p.ErrorCode.Message() // ApiError.messageWithFallback
						}
						failed[tp] = &Error{Class: p.ErrorCode.Exception(), Message: "Failed to fetch metadata for partition " + name + " due to invalid topic error: " + msg}
					default:
						failed[tp] = &Error{Class: p.ErrorCode.Exception(), Message: "Failed to describe active producers for partition " + name + " due to unexpected error"}
					}
				}
			}
			later := env.Now().UnixMilli() + a.retryBackoff(env).backoff(0).Milliseconds()
			if len(relook) > 0 {
				look.lookup(env, relook, later)
			}
			if len(retry) > 0 {
				fulfil(env, node, retry, later)
			}
			settle(env)
			return nil
		}
		c.onFailure = func(env *sim.Env, err *Error) {
			for _, tp := range keys {
				failed[tp] = err
			}
			settle(env)
		}
		a.enqueue(env, c)
	}
	look = &leaderLookup{a: a, api: "describeProducers", deadline: deadline, failed: fail,
		mapped: func(env *sim.Env, leader int32, keys []group.TopicPartition) { fulfil(env, leader, keys, 0) }}
	if brokerID >= 0 {
		fulfil(env, brokerID, tps, 0) // StaticBrokerStrategy: no lookup
		return
	}
	look.lookup(env, tps, 0)
}

// DescribeTransaction is Admin.describeTransactions for one id: its
// coordinator (FindCoordinator, key type TRANSACTION), then
// DescribeTransactions there.
func (a *Admin) DescribeTransaction(env *sim.Env, id string, timeout time.Duration, done func(env *sim.Env, d *TxnDescription, err *Error)) {
	g := a.newGroupCall(env, "describeTransactions", "DESCRIBE_TRANSACTIONS", id, timeout,
		func() protocol.Request { return &protocol.DescribeTransactionsRequest{TransactionalIDs: []string{id}} },
		func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error) {
			for _, s := range resp.(*protocol.DescribeTransactionsResponse).TransactionStates {
				if s.TransactionalID != id {
					continue // "Response included transactionalId ..., which was not requested"
				}
				prefix := "DescribeTransactions request for transactionalId `" + id + "` "
				switch s.ErrorCode {
				case protocol.NONE:
				case protocol.TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
					return s.ErrorCode, &Error{Class: s.ErrorCode.Exception(), Message: prefix + "failed due to authorization failure"}
				case protocol.TRANSACTIONAL_ID_NOT_FOUND:
					return s.ErrorCode, &Error{Class: s.ErrorCode.Exception(), Message: prefix + "failed because the ID could not be found"}
				case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
					return s.ErrorCode, nil
				default:
					return s.ErrorCode, &Error{Class: s.ErrorCode.Exception(), Message: prefix + "failed due to unexpected error"}
				}
				d := &TxnDescription{CoordinatorID: coord.ID, State: parseAdminTxnState(s.TransactionState), ProducerID: s.ProducerID,
					ProducerEpoch: s.ProducerEpoch, TimeoutMs: s.TransactionTimeoutMs, StartTimeMs: max(s.TransactionStartTimeMs, -1)}
				for _, t := range s.Topics {
					for _, p := range t.Partitions {
						d.TopicPartitions = append(d.TopicPartitions, group.TopicPartition{Topic: t.Name, Partition: p})
					}
				}
				d.TopicPartitions = TopicPartitionsInHashOrder(d.TopicPartitions, jdk.HashOrder) // a java.util.HashSet
				done(env, d, nil)
				return protocol.NONE, nil
			}
			return protocol.COORDINATOR_NOT_AVAILABLE, nil // not answered: ask again
		},
		func(env *sim.Env, err *Error) { done(env, nil, err) })
	g.keyType = protocol.CoordinatorKeyTypeTransaction
	g.lookup(env)
}

// TopicPartitionsInHashOrder is the order in which a Java hash collection
// of TopicPartition keys, filled in the given order, iterates; order is
// the collection's bucket order for the keys' hash codes (jdk.HashOrder
// for a default-sized HashSet, jdk.PresizedHashOrder for a presized
// HashMap).
func TopicPartitionsInHashOrder(tps []group.TopicPartition, order func(hashes []int32) []int) []group.TopicPartition {
	hashes := make([]int32, len(tps))
	for i, tp := range tps {
		hashes[i] = hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
	}
	out := make([]group.TopicPartition, 0, len(tps))
	for _, i := range order(hashes) {
		out = append(out, tps[i])
	}
	return out
}

// TxnListFilter is ListTransactionsOptions.
type TxnListFilter struct {
	States      []string
	ProducerIDs []int64
	DurationMs  int64 // -1: none
}

// ListTransactions is Admin.listTransactions(...).allByBrokerId(): every
// broker's transactional ids (AllBrokersStrategy: the brokers from a
// Metadata request, then ListTransactions to each). The result is keyed by
// broker in a HashMap<Integer, ...>, so ids come broker by broker in
// ascending order for small ids; brokers lists that order. A broker's
// failure fails the whole call.
func (a *Admin) ListTransactions(env *sim.Env, f TxnListFilter, timeout time.Duration,
	done func(env *sim.Env, brokers []int32, byBroker map[int32][]TxnListing, err *Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	deadline := env.Now().Add(timeout)
	c := a.newCall(env, "listTransactions(api=METADATA)", AnyBroker(), 0)
	c.deadline = deadline
	c.build = func(int32) sim.Message { return &protocol.MetadataRequest{Topics: []string{}} }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		md := resp.(*protocol.MetadataResponse)
		byBroker := map[int32][]TxnListing{}
		var firstErr *Error
		left := len(md.Brokers)
		if left == 0 {
			done(env, nil, byBroker, nil)
			return nil
		}
		finish := func(env *sim.Env) {
			if left--; left > 0 {
				return
			}
			if firstErr != nil {
				done(env, nil, nil, firstErr)
				return
			}
			ids := make([]int32, 0, len(byBroker))
			hashes := make([]int32, 0, len(byBroker))
			for _, b := range md.Brokers {
				if _, ok := byBroker[b.NodeID]; ok {
					ids, hashes = append(ids, b.NodeID), append(hashes, b.NodeID)
				}
			}
			var order []int32
			for _, i := range jdk.HashOrder(hashes) {
				order = append(order, ids[i])
			}
			done(env, order, byBroker, nil)
		}
		for _, b := range md.Brokers {
			node := b.NodeID
			var ask func(env *sim.Env, notBefore int64)
			ask = func(env *sim.Env, notBefore int64) {
				lc := a.newCall(env, "listTransactions(api=LIST_TRANSACTIONS)", BrokerNode(node), 0)
				lc.deadline, lc.nextAllowedTryMs = deadline, notBefore
				lc.build = func(int32) sim.Message {
					return &protocol.ListTransactionsRequest{StateFilters: f.States, ProducerIDFilters: f.ProducerIDs, DurationFilter: f.DurationMs}
				}
				lc.onResponse = func(env *sim.Env, resp sim.Message) *Error {
					r := resp.(*protocol.ListTransactionsResponse)
					switch r.ErrorCode {
					case protocol.NONE:
						var ls []TxnListing
						for _, s := range r.TransactionStates {
							ls = append(ls, TxnListing{TransactionalID: s.TransactionalID, ProducerID: s.ProducerID, State: parseAdminTxnState(s.TransactionState)})
						}
						byBroker[node] = ls
					case protocol.COORDINATOR_LOAD_IN_PROGRESS:
						ask(env, env.Now().UnixMilli()+a.retryBackoff(env).backoff(0).Milliseconds())
						return nil
					case protocol.COORDINATOR_NOT_AVAILABLE:
						firstErr = firstError(firstErr, &Error{Class: r.ErrorCode.Exception(), Message: fmt.Sprintf("ListTransactions request sent to broker %d failed because the coordinator is shutting down", node)})
					default:
						firstErr = firstError(firstErr, &Error{Class: r.ErrorCode.Exception(), Message: fmt.Sprintf("ListTransactions request sent to broker %d failed with an unexpected exception", node)})
					}
					finish(env)
					return nil
				}
				lc.onFailure = func(env *sim.Env, err *Error) {
					firstErr = firstError(firstErr, err)
					finish(env)
				}
				a.enqueue(env, lc)
			}
			ask(env, 0)
		}
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { done(env, nil, nil, err) }
	a.enqueue(env, c)
}

// firstError keeps the first error.
func firstError(first, next *Error) *Error {
	if first != nil {
		return first
	}
	return next
}

// AbortTransaction is Admin.abortTransaction: a WriteTxnMarkers with one
// ABORT marker for the spec's producer, epoch and coordinator epoch, to
// the partition's leader.
func (a *Admin) AbortTransaction(env *sim.Env, spec AbortSpec, timeout time.Duration, done func(env *sim.Env, err *Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	deadline := env.Now().Add(timeout)
	var look *leaderLookup
	look = &leaderLookup{a: a, api: "abortTransaction", deadline: deadline,
		failed: func(env *sim.Env, _ group.TopicPartition, err *Error) { done(env, err) },
		mapped: func(env *sim.Env, leader int32, _ []group.TopicPartition) {
			c := a.newCall(env, "abortTransaction(api=WRITE_TXN_MARKERS)", BrokerNode(leader), 0)
			c.deadline = deadline
			c.build = func(int32) sim.Message {
				return &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{ProducerID: spec.ProducerID, ProducerEpoch: spec.ProducerEpoch,
					CoordinatorEpoch: spec.CoordinatorEpoch, Topics: []protocol.TxnTopic{{Name: spec.TP.Topic, Partitions: []int32{spec.TP.Partition}}}}}}
			}
			c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
				code := protocol.NONE
				for _, m := range resp.(*protocol.WriteTxnMarkersResponse).Markers {
					for _, t := range m.Topics {
						for _, p := range t.Partitions {
							code = p.ErrorCode
						}
					}
				}
				with := "WriteTxnMarkers request with " + spec.String()
				switch code {
				case protocol.NONE:
					done(env, nil)
				case protocol.CLUSTER_AUTHORIZATION_FAILED:
					done(env, &Error{Class: code.Exception(), Message: with + " failed due to cluster authorization error"})
				case protocol.INVALID_PRODUCER_EPOCH:
					done(env, &Error{Class: code.Exception(), Message: with + " failed due an invalid producer epoch"})
				case protocol.TRANSACTION_COORDINATOR_FENCED:
					done(env, &Error{Class: code.Exception(), Message: fmt.Sprintf("%s failed since the provided coordinator epoch %d has been fenced by the active coordinator", with, spec.CoordinatorEpoch)})
				case protocol.NOT_LEADER_OR_FOLLOWER, protocol.REPLICA_NOT_AVAILABLE, protocol.BROKER_NOT_AVAILABLE, protocol.UNKNOWN_TOPIC_OR_PARTITION:
					look.lookup(env, []group.TopicPartition{spec.TP}, env.Now().UnixMilli()+a.retryBackoff(env).backoff(0).Milliseconds())
				default:
					done(env, &Error{Class: code.Exception(), Message: with + " failed due to unexpected error: " + code.Message()})
				}
				return nil
			}
			c.onFailure = done
			a.enqueue(env, c)
		}}
	look.lookup(env, []group.TopicPartition{spec.TP}, 0)
}
