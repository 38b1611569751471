package txncoordinator

import (
	"math"
	"slices"
	"strconv"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/scalacoll"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// TransactionStateTopic is the internal topic the coordinators keep their
// transactions in (Topic.TRANSACTION_STATE_TOPIC_NAME).
const TransactionStateTopic = metadata.TransactionStateTopic

// Host is what the broker does for its transaction coordinator.
type Host interface {
	// NodeID is the broker's id.
	NodeID() int32
	// Respond sends a response to the client connection to.
	Respond(env *sim.Env, to sim.Addr, m sim.Message)
	// Done ends a request Handle left unanswered.
	Done(env *sim.Env, to sim.Addr)
	// Config is a numeric broker config's current value (transaction.*).
	Config(name string) int64
	// Append writes records as the leader of a __transaction_state
	// partition and calls done with NONE once its high watermark passes
	// them (acks -1), or with the append's error.
	Append(env *sim.Env, partition int32, recs []record.Record, done func(env *sim.Env, code protocol.ErrorCode))
	// ReadLog is the batches of a __transaction_state partition's local
	// log, from its start to its end.
	ReadLog(partition int32) []record.Batch
	// GenerateProducerID hands out a new producer id (the broker's block
	// from the controller), or false while it has none.
	GenerateProducerID(env *sim.Env) (int64, bool)
	// KnownPartition: the broker's metadata has the partition.
	KnownPartition(tp storage.TopicPartition) bool
	// GroupPartition is a group's __consumer_offsets partition.
	GroupPartition(groupID string) int32
	// LeaderOf is a partition's leader in the broker's metadata.
	LeaderOf(tp storage.TopicPartition) (int32, bool)
	// TransactionVersion is the cluster's finalized transaction.version
	// (0 where the feature is unknown) as the broker's metadata has it.
	TransactionVersion() int16
	// SendMarkers sends a WriteTxnMarkers to a broker; done gets its
	// answer, or nil if the broker could not be reached.
	SendMarkers(env *sim.Env, broker int32, req *protocol.WriteTxnMarkersRequest, done func(env *sim.Env, resp *protocol.WriteTxnMarkersResponse))
}

// Coordinator is one broker's transaction coordinator.
//
// Invariants: a transactional id is in memory only while its partition is
// loaded here, under that partition's coordinator epoch; a request about
// an id whose partition is loading is answered COORDINATOR_LOAD_IN_PROGRESS,
// one not led here NOT_COORDINATOR, before anything changes.
type Coordinator struct {
	host       Host
	partitions map[int32]*txnPartition
	// cacheLength is the table length of Kafka's transactionMetadataCache
	// (a Scala mutable.HashMap by partition, which grows and never
	// shrinks): ListTransactions walks the partitions in its order.
	cacheLength int
	loading     map[int32]int // partition → the election loading it
	elections   int
	abortTimer  *sim.Timer
	expireTimer *sim.Timer
}

// txnPartition is a loaded __transaction_state partition: its
// coordinator epoch (the partition's leader epoch when it was loaded)
// and its transactions.
type txnPartition struct {
	epoch int32
	txns  map[string]*txnMetadata
	// order is the ids in the order they entered the partition's Pool (a
	// ConcurrentHashMap), and maxSize the most it held: together they fix
	// its iteration order (listOrder).
	order   []string
	maxSize int
}

// put adds a transactional id new to the partition.
func (p *txnPartition) put(m *txnMetadata) {
	p.txns[m.id] = m
	p.order = append(p.order, m.id)
	p.maxSize = max(p.maxSize, len(p.order))
}

// New makes a coordinator.
func New(host Host) *Coordinator {
	return &Coordinator{host: host, partitions: map[int32]*txnPartition{}, loading: map[int32]int{}, cacheLength: 16}
}

// PartitionFor is a transactional id's __transaction_state partition:
// Utils.abs(transactionalId.hashCode) % transaction.state.log.num.partitions.
func (c *Coordinator) PartitionFor(id string) int32 {
	h := jdk.StringHashCode(id)
	if h == math.MinInt32 {
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % int32(c.host.Config("transaction.state.log.num.partitions"))
}

// Transactions lists the loaded transactions, for views and tools.
func (c *Coordinator) Transactions() map[string]State {
	out := map[string]State{}
	for _, p := range c.partitions {
		for id, m := range p.txns {
			out[id] = m.state
		}
	}
	return out
}

// lookup finds a transactional id's partition as a request sees it: the
// error when it is not loaded here.
func (c *Coordinator) lookup(id string) (*txnPartition, int32, protocol.ErrorCode) {
	p := c.PartitionFor(id)
	if _, ok := c.loading[p]; ok {
		return nil, p, protocol.COORDINATOR_LOAD_IN_PROGRESS
	}
	tp := c.partitions[p]
	if tp == nil {
		return nil, p, protocol.NOT_COORDINATOR
	}
	return tp, p, protocol.NONE
}

// OnElection is called when this broker becomes the leader of a
// __transaction_state partition in leader epoch epoch: the partition's
// transactions are loaded from its log (in an event of their own, as
// Kafka's scheduler does), and those that were preparing to commit or
// abort go on to their markers.
func (c *Coordinator) OnElection(env *sim.Env, partition, epoch int32) {
	c.elections++
	election := c.elections
	c.loading[partition] = election
	delete(c.partitions, partition)
	env.After(0, "txn-load", func(env *sim.Env) {
		if c.loading[partition] == election {
			c.load(env, partition, epoch)
		}
	})
}

// OnResignation is called when this broker stops leading the partition:
// its transactions are forgotten.
func (c *Coordinator) OnResignation(env *sim.Env, partition int32) {
	delete(c.loading, partition)
	delete(c.partitions, partition)
}

// load replays a partition's log (TransactionStateManager
// .loadTransactionMetadata): the last value of each id wins, a tombstone
// removes it.
func (c *Coordinator) load(env *sim.Env, partition, epoch int32) {
	delete(c.loading, partition)
	p := &txnPartition{epoch: epoch, txns: map[string]*txnMetadata{}}
	loaded := map[string]*txnMetadata{}
	var seen []string
	for _, b := range c.host.ReadLog(partition) {
		if b.IsControl() {
			continue
		}
		for _, r := range b.Records {
			id, ok, err := ReadKey(r.Key)
			if !ok || err != nil {
				continue
			}
			if r.Value == nil {
				delete(loaded, id)
				seen = slices.DeleteFunc(seen, func(x string) bool { return x == id })
				continue
			}
			v, err := ReadValue(r.Value)
			if err != nil {
				continue
			}
			m := &txnMetadata{id: id, producerID: v.ProducerID, lastProducerID: record.NoProducerID, epoch: v.ProducerEpoch,
				lastEpoch: record.NoProducerEpoch, timeoutMs: v.TimeoutMs, state: v.State, startMs: v.TxnStartMs, lastUpdateMs: v.LastUpdateMs,
				clientTV: v.ClientTransactionVersion, nextProducerID: record.NoProducerID}
			if v.State != Empty {
				m.partitions = v.Partitions
			}
			if _, ok := loaded[id]; !ok {
				seen = append(seen, id)
			}
			loaded[id] = m
		}
	}
	// The replay fills a Scala mutable.HashMap, whose order the Pool is
	// then filled in (addLoadedTransactionsToCache).
	for _, id := range scalacoll.MutableStringOrder(seen, 0) {
		p.put(loaded[id])
	}
	if _, ok := c.partitions[partition]; !ok && len(c.partitions)+1 >= c.cacheLength*3/4 {
		c.cacheLength *= 2
	}
	c.partitions[partition] = p
	c.armAbortTimer(env)
	c.armExpireTimer(env)
	for _, id := range sortedIDs(p.txns) {
		m := p.txns[id]
		if m.state == PrepareCommit || m.state == PrepareAbort {
			c.completeTransaction(env, partition, p, m)
		}
	}
}

// appendTransit writes a prepared transition to the transaction's
// partition and completes it once it is replicated
// (appendTransactionToLog); done gets the error the client sees.
func (c *Coordinator) appendTransit(env *sim.Env, partition int32, p *txnPartition, m *txnMetadata, t transit, done func(env *sim.Env, code protocol.ErrorCode)) {
	value, err := t.logValue(c.logValueVersion()).ValueBytes()
	if err != nil {
		m.pending = nil
		done(env, protocol.UNKNOWN_SERVER_ERROR)
		return
	}
	c.host.Append(env, partition, []record.Record{{Key: KeyBytes(m.id), Value: value}}, func(env *sim.Env, code protocol.ErrorCode) {
		switch code {
		case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.NOT_ENOUGH_REPLICAS, protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND, protocol.REQUEST_TIMED_OUT:
			code = protocol.COORDINATOR_NOT_AVAILABLE
		case protocol.NOT_LEADER_OR_FOLLOWER, protocol.KAFKA_STORAGE_ERROR:
			code = protocol.NOT_COORDINATOR
		case protocol.MESSAGE_TOO_LARGE, protocol.RECORD_LIST_TOO_LARGE:
			code = protocol.UNKNOWN_SERVER_ERROR
		}
		if cur := c.partitions[partition]; code == protocol.NONE && (cur != p || cur.epoch != p.epoch) {
			code = protocol.NOT_COORDINATOR // the coordinator moved meanwhile
		}
		if code != protocol.NONE {
			m.pending = nil
			done(env, code)
			return
		}
		before := m.epoch
		if err := m.completeTransitionTo(t); err != nil {
			done(env, protocol.UNKNOWN_SERVER_ERROR)
			return
		}
		bumped := (m.state == PrepareCommit || m.state == PrepareAbort) && m.epoch == before+1
		env.Note(event.TxnStateChanged{Broker: c.host.NodeID(), TransactionalID: m.id, ProducerID: m.producerID, Epoch: m.epoch,
			State: m.state.String(), Partitions: len(m.partitions), Bumped: bumped})
		done(env, protocol.NONE)
	})
}

// armAbortTimer starts the task that aborts transactions older than
// their timeout (transaction.abort.timed.out.transaction.cleanup.interval.ms).
func (c *Coordinator) armAbortTimer(env *sim.Env) {
	if c.abortTimer != nil {
		return
	}
	c.every(env, &c.abortTimer, "transaction.abort.timed.out.transaction.cleanup.interval.ms", "transaction-abort", c.abortTimedOut)
}

// every runs task every interval (the config's milliseconds) while the
// coordinator has partitions loaded, its timer in *t (Kafka's scheduler
// tasks, which it starts with the coordinator).
func (c *Coordinator) every(env *sim.Env, t **sim.Timer, config, name string, task func(env *sim.Env)) {
	every := time.Duration(c.host.Config(config)) * time.Millisecond
	if every <= 0 { // the configs' validators require at least 1 ms
		return
	}
	var tick func(env *sim.Env)
	tick = func(env *sim.Env) {
		task(env)
		if len(c.partitions) == 0 {
			*t = nil
			return
		}
		*t = env.After(every, name, tick)
	}
	*t = env.After(every, name, tick)
}

// Stop ends the coordinator's timers (the broker stopped).
func (c *Coordinator) Stop() {
	c.abortTimer.Stop()
	c.abortTimer = nil
	c.expireTimer.Stop()
	c.expireTimer = nil
}

func sortedIDs(m map[string]*txnMetadata) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// TransactionTopicConfigs are the topic configs __transaction_state is
// created with (TransactionStateManager.transactionTopicConfigs, in its
// order).
func (c *Coordinator) TransactionTopicConfigs() []protocol.ConfigEntry {
	str := func(s string) *string { return &s }
	return []protocol.ConfigEntry{
		{Name: "unclean.leader.election.enable", Value: str("false")},
		{Name: "compression.type", Value: str("uncompressed")},
		{Name: "cleanup.policy", Value: str("compact")},
		{Name: "min.insync.replicas", Value: str(strconv.FormatInt(c.host.Config("transaction.state.log.min.isr"), 10))},
		{Name: "segment.bytes", Value: str(strconv.FormatInt(c.host.Config("transaction.state.log.segment.bytes"), 10))},
	}
}
