package client

import (
	"fmt"
	"math"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// ProducerConfig holds the producer settings the simulator implements, with
// Kafka's names in the comments.
type ProducerConfig struct {
	ClientID        string        // client.id
	Acks            int16         // acks: -1 (all), 0, 1
	Retries         int           // retries
	RetryBackoff    time.Duration // retry.backoff.ms
	RetryBackoffMax time.Duration // retry.backoff.max.ms
	RequestTimeout  time.Duration // request.timeout.ms
	DeliveryTimeout time.Duration // delivery.timeout.ms
	Linger          time.Duration // linger.ms
	MaxBlock        time.Duration // max.block.ms
	BatchSize       int           // batch.size
	MaxInFlight     int           // max.in.flight.requests.per.connection
	BufferMemory    int64         // buffer.memory
	MaxRequestSize  int           // max.request.size
	// EnableIdempotence is enable.idempotence after ProducerConfig's
	// post-processing (silently false when conflicting settings were given
	// and it was not set explicitly).
	EnableIdempotence bool
	Partitioner       string // partitioner.class; "" is the built-in one
	// PartitionAgainOnNewBatch is KafkaProducer's abortOnNewBatch (before
	// 4.0): with a partitioner.class, a record that would open a new batch
	// is partitioned a second time. Kafka 4.0 removed it with
	// Partitioner.onNewBatch.
	PartitionAgainOnNewBatch bool
	// Release is the client's Kafka release (the zero value means
	// release.Default); some log lines changed wording in 4.0.
	Release release.Version
	// TransactionalID is transactional.id ("" for none): the producer
	// then writes in transactions (producer_txn.go), its id and epoch from
	// its transaction coordinator; TransactionTimeout is
	// transaction.timeout.ms.
	TransactionalID    string
	TransactionTimeout time.Duration
}

// DefaultProducerConfig has the producer defaults of Kafka release v.
func DefaultProducerConfig(v release.Version) ProducerConfig {
	cfg := ProducerConfig{
		Acks: -1, Retries: math.MaxInt32, RetryBackoff: 100 * time.Millisecond, RetryBackoffMax: time.Second,
		RequestTimeout: 30 * time.Second, DeliveryTimeout: 120 * time.Second, Linger: 0, MaxBlock: 60 * time.Second,
		BatchSize: 16384, MaxInFlight: 5, BufferMemory: 33554432, MaxRequestSize: 1048576, EnableIdempotence: true,
		TransactionTimeout: time.Minute,
	}
	cfg.Release = v
	if !v.AtLeast(3, 0) {
		// Before KIP-679 (3.0): acks=1 and no idempotence by default.
		cfg.Acks, cfg.EnableIdempotence = 1, false
	}
	if v.AtLeast(4, 0) {
		// KIP-1030: linger.ms 0 → 5, a little batching by default.
		cfg.Linger = 5 * time.Millisecond
	} else {
		cfg.PartitionAgainOnNewBatch = true
	}
	return cfg
}

// ProducerRecord is what the application sends. Partition -1 lets the
// partitioner choose.
type ProducerRecord struct {
	Topic     string
	Partition int32
	Key       []byte
	Value     []byte
	Headers   []record.Header
	Timestamp int64 // CreateTime in ms; 0 stamps the record with the send time
}

// RecordMetadata is a successful send's result.
type RecordMetadata struct {
	Topic     string
	Partition int32
	Offset    int64 // -1 with acks=0
	Timestamp int64
}

// SendCallback receives a send's outcome: metadata, or the error.
type SendCallback func(env *sim.Env, md RecordMetadata, err *Error)

type topicPartition struct {
	topic     string
	partition int32
}

func (tp topicPartition) String() string { return fmt.Sprintf("%s-%d", tp.topic, tp.partition) }

// storage is tp as core/storage (and the notes) name a partition.
func (tp topicPartition) storage() storage.TopicPartition {
	return storage.TopicPartition{Topic: tp.topic, Partition: tp.partition}
}

// producerBatch is a ProducerBatch: records for one partition sent together.
type producerBatch struct {
	tp        topicPartition
	pq        *partitionQueue // the queue the batch is in
	records   []record.Record
	callbacks []SendCallback
	sizeBytes int
	created   sim.Time
	attempts  int
	retryAt   sim.Time
	inFlight  bool
	closed    bool // no more records may join
	memory    int  // bytes taken from buffer.memory until the batch completes
	// maxRecordSize is the largest upper-bound size of a record appended
	// (ProducerBatch.maxRecordSize, the record-size metrics).
	maxRecordSize int
	// baseSeq is the batch's first sequence number (idempotence), assigned
	// when it is first drained and kept across retries; -1 before. pid and
	// epoch are the producer id and epoch it was assigned under, and gen
	// the transaction manager's generation then: after an epoch bump the
	// batch is stale and gets a new sequence when it is drained again.
	baseSeq int32
	pid     int64
	epoch   int16
	gen     int
}

type waitingSend struct {
	part     int32 // chosen partition, -1 until the topic is known
	rec      ProducerRecord
	cb       SendCallback
	deadline sim.Time
	ts       int64
}

// Producer is KafkaProducer: records are partitioned into per-partition
// batches in the accumulator; the sender drains ready batches into one
// Produce request per leader, retries retriable errors with backoff, and
// fails what cannot be delivered within delivery.timeout.ms.
type Producer struct {
	cfg  ProducerConfig
	net  *rpc.Client
	meta *Metadata
	log  func(level Level, msg, logger string)
	rand *sim.Rand
	// The batches of each partition (RecordAccumulator's deques), found
	// by partition through queues and walked in first-use order through
	// order: the sender walks every partition after each send, and a walk
	// of a slice costs no hashing (map lookups keyed by topic and
	// partition were a sixth of a produce workload's time in wasm).
	queues map[topicPartition]*partitionQueue
	order  []*partitionQueue
	wait   []*waitingSend
	inFl   map[int32]int
	timer  *sim.Timer

	sticky      map[string]int32
	stickyBytes map[string]int
	rrCounter   map[string]int32 // RoundRobinPartitioner's per-topic counters

	memUsed int64 // buffer.memory in use by batches (BufferPool)
	idem    *transactionManager
	txn     *producerTxn // nil unless transactional
	// thrown: a send threw out to the application (OnThrow), whose thread
	// is gone: later sends are not made.
	thrown  bool
	onThrow func(env *sim.Env, err *Error)

	closing   bool
	onClosed  func(env *sim.Env)
	onUnblock func(env *sim.Env)
	// stuck tells the event feed why the producer keeps failing, when the
	// cluster knows (stuck.go).
	stuck *stuckReporter
	// metrics is the producer's metrics registry (Metrics).
	metrics *producerMetrics
}

const (
	loggerSender        = "org.apache.kafka.clients.producer.internals.Sender"
	loggerNetworkClient = "org.apache.kafka.clients.NetworkClient"
)

// NewProducer makes a producer sending from self.
func NewProducer(self sim.Addr, bootstrap []sim.Addr, cfg ProducerConfig, rnd *sim.Rand, log func(level Level, msg, logger string)) *Producer {
	if cfg.Release == (release.Version{}) {
		cfg.Release = release.Default
	}
	p := &Producer{
		cfg: cfg, net: rpc.NewClient(self, cfg.ClientID).Reconnecting(), rand: rnd,
		queues: map[topicPartition]*partitionQueue{}, inFl: map[int32]int{},
		sticky: map[string]int32{}, stickyBytes: map[string]int{}, metrics: newProducerMetrics(),
	}
	prefix := fmt.Sprintf("[Producer clientId=%s] ", cfg.ClientID)
	p.log = func(level Level, msg, logger string) { log(level, prefix+msg, logger) }
	p.meta = NewMetadata(p.net, bootstrap, true, func(level Level, msg string) { p.log(level, msg, loggerNetworkClient) })
	p.meta.release = cfg.Release
	p.meta.OnUpdate(func(env *sim.Env) {
		p.metrics.throttle.Record(env.Now(), 0) // the metadata response's throttle time
		p.run(env)
	})
	p.stuck = newStuckReporter(false, cfg.ClientID, "")
	p.meta.stuck = p.stuck
	if cfg.EnableIdempotence {
		p.idem = newTransactionManager()
	}
	if cfg.TransactionalID != "" && p.idem != nil {
		p.txn = newProducerTxn(cfg.TransactionalID, cfg.TransactionTimeout, p.idem)
	}
	return p
}

// Handle routes a message to the producer's network client.
func (p *Producer) Handle(env *sim.Env, e *sim.Envelope) bool { return p.net.Handle(env, e) }

// Send adds a record. Until the topic is in the metadata the record waits
// (KafkaProducer.send blocks up to max.block.ms).
func (p *Producer) Send(env *sim.Env, rec ProducerRecord, cb SendCallback) {
	if cb == nil {
		cb = func(*sim.Env, RecordMetadata, *Error) {} // send(record) without a callback
	}
	if p.thrown {
		return // the application's thread died in an earlier send
	}
	p.meta.Add(rec.Topic)
	// On the stack: most records go straight into a batch; one that must
	// wait (for metadata or memory) is copied onto the waiting list.
	// The transaction's state is checked once the record is appended
	// (accumulate).
	ws := waitingSend{part: -1, rec: rec, cb: cb, deadline: env.Now().Add(p.cfg.MaxBlock), ts: env.Now().UnixMilli()}
	if rec.Timestamp != 0 {
		ws.ts = rec.Timestamp
	}
	if len(p.wait) > 0 || p.meta.Topic(rec.Topic) == nil {
		w := ws
		p.wait = append(p.wait, &w)
		if p.meta.Topic(rec.Topic) == nil {
			p.meta.RequestUpdate(env)
		}
		p.run(env)
		return
	}
	done, failed := p.accumulate(env, &ws)
	if !done {
		w := ws
		p.wait = append(p.wait, &w)
	} else if failed != nil {
		p.sendFailed(env, &ws, failed)
	}
	p.run(env)
}

// sendFailed ends a send that failed: an ApiException goes to the record's
// callback (KafkaProducer.doSend's catch); any other exception is thrown
// out of send to the application, its OnThrow, or without one to the
// callback too (a tool that catches around send and reports it the same
// way, as VerifiableProducer does). An ApiException also makes an open
// transaction abortable (TransactionManager.maybeTransitionToErrorState):
// the record is not in it, so it must not commit. Kafka transitions just
// after the callback, in the same call to send, before the application
// can call anything else; here a callback may go on to commit, so the
// transition comes first.
func (p *Producer) sendFailed(env *sim.Env, ws *waitingSend, err *Error) {
	switch {
	case !err.thrown:
		p.txnFailBatch(err)
		ws.cb(env, RecordMetadata{}, err)
	case p.onThrow == nil:
		ws.cb(env, RecordMetadata{}, err)
	default:
		p.onThrow(env, err)
	}
}

// AbandonSends is the application's thread dying after a send threw:
// the sends it had not made yet (the records still waiting in send) are
// dropped, and later calls are ignored.
func (p *Producer) AbandonSends() {
	p.thrown = true
	for len(p.wait) > 0 {
		p.popWait()
	}
}

// OnThrow registers what the application does with an exception thrown
// by send (IllegalStateException, KafkaException): a tool's main catches
// it.
func (p *Producer) OnThrow(fn func(env *sim.Env, err *Error)) { p.onThrow = fn }

// Close sends everything pending (as if linger were over) and calls done
// when every record has succeeded or failed.
func (p *Producer) Close(env *sim.Env, done func(env *sim.Env)) {
	p.closing = true
	p.onClosed = done
	p.run(env)
}

// Blocked reports whether KafkaProducer.send would block now: earlier
// records still wait for their topic's metadata or for buffer.memory.
// Records sent meanwhile queue behind them, in order.
func (p *Producer) Blocked() bool { return len(p.wait) > 0 }

// OnUnblock registers fn, run each time the records waiting in send have
// all been accumulated or failed (the sending thread is free again).
func (p *Producer) OnUnblock(fn func(env *sim.Env)) { p.onUnblock = fn }

// Pending counts records not yet acknowledged or failed.
func (p *Producer) Pending() int {
	n := len(p.wait)
	for _, q := range p.order {
		for _, b := range q.batches {
			n += len(b.records)
		}
	}
	return n
}

// accumulate puts a record whose topic is known into its partition's
// batch, as RecordAccumulator.append does. done is false when the record
// needs a new batch and buffer.memory has no room for it: the sending
// thread blocks (the record keeps its partition) until a batch completes
// and frees memory, or max.block.ms passes. failed is the error send gives
// the record's callback instead; the caller calls it once the record is
// off the waiting list, since the callback may close the producer, which
// runs the sender loop again.
func (p *Producer) accumulate(env *sim.Env, ws *waitingSend) (done bool, failed *Error) {
	t := p.meta.Topic(ws.rec.Topic)
	n := int32(len(t.Partitions))
	if ws.part < 0 {
		// KafkaProducer.doSend's order: a partitioner.class runs first,
		// then ensureValidRecordSize, then the accumulator (where the
		// built-in partitioner chooses). An explicit partition the topic
		// lacks is refused before either (waitOnMetadata).
		custom := p.customPartitioner()
		if custom {
			ws.part = p.partitionFor(ws.rec, n)
		}
		if ws.rec.Partition < n {
			if err := p.ensureValidRecordSize(ws.rec); err != nil {
				return true, err
			}
		}
		if !custom {
			ws.part = p.partitionFor(ws.rec, n)
		}
		// Before 4.0, with a partitioner.class, a record that would open a
		// new batch is partitioned again (KafkaProducer's abortOnNewBatch).
		// For RoundRobinPartitioner this is KAFKA-9965: the counter moves
		// twice and partitions are skipped.
		if custom && p.cfg.PartitionAgainOnNewBatch && ws.part < n && p.openBatch(topicPartition{ws.rec.Topic, ws.part}, recordSize(ws.rec)) == nil {
			ws.part = p.partitionFor(ws.rec, n)
		}
	}
	part := ws.part
	if part >= n {
		return true, &Error{Class: "org.apache.kafka.common.KafkaException",
			Message: fmt.Sprintf("Invalid partition given with record: %d is not in the range [0...%d).", part, n)}
	}
	tp := topicPartition{ws.rec.Topic, part}
	size := recordSize(ws.rec)
	b := p.openBatch(tp, size)
	if b == nil {
		need := p.batchMemory(ws.rec)
		if p.memUsed+int64(need) > p.cfg.BufferMemory {
			return false, nil
		}
		p.memUsed += int64(need)
		q := p.queue(tp)
		b = &producerBatch{tp: tp, pq: q, created: env.Now(), memory: need, baseSeq: -1}
		q.batches = append(q.batches, b)
	}
	if ws.rec.Key == nil && ws.rec.Partition < 0 {
		p.stickyBytes[ws.rec.Topic] += size
	}
	b.records = append(b.records, record.Record{Timestamp: ws.ts, Key: ws.rec.Key, Value: ws.rec.Value, Headers: ws.rec.Headers})
	b.callbacks = append(b.callbacks, ws.cb)
	b.sizeBytes += size
	b.maxRecordSize = max(b.maxRecordSize, record.EstimateSizeInBytesUpperBound(ws.rec.Key, ws.rec.Value, ws.rec.Headers))
	// The partition joins the transaction only once the record is in the
	// accumulator (doSend: maybeAddPartition after append), so a refusal
	// leaves the record there, never drained, until it expires. The state
	// is checked now, after the wait for metadata or memory, as doSend
	// does: a transaction aborted meanwhile (by another thread) refuses
	// it rather than taking it into the next one.
	if refusal := p.txnCheckSend(); refusal != nil {
		return true, refusal(tp)
	}
	p.txnAddPartitionV2(tp)
	return true, nil
}

// partitionQueue is one partition's batches, oldest first.
type partitionQueue struct {
	tp      topicPartition
	batches []*producerBatch
}

// queue is tp's queue, made (and put last in the order) on first use.
func (p *Producer) queue(tp topicPartition) *partitionQueue {
	q := p.queues[tp]
	if q == nil {
		q = &partitionQueue{tp: tp}
		p.queues[tp] = q
		p.order = append(p.order, q)
	}
	return q
}

// openBatch is the partition's last batch if a record of size bytes may
// still join it, else nil.
func (p *Producer) openBatch(tp topicPartition, size int) *producerBatch {
	pq := p.queues[tp]
	if pq == nil || len(pq.batches) == 0 {
		return nil
	}
	last := pq.batches[len(pq.batches)-1]
	if !last.closed && !last.inFlight && last.attempts == 0 && last.sizeBytes+size <= p.cfg.BatchSize {
		return last
	}
	return nil
}

// batchMemory is what a new batch for rec takes from buffer.memory:
// batch.size, or more for a record too large for it (RecordAccumulator
// .append sizes the buffer as the larger of batch.size and the record's
// upper-bound estimate).
func (p *Producer) batchMemory(rec ProducerRecord) int {
	return max(p.cfg.BatchSize, record.EstimateSizeInBytesUpperBound(rec.Key, rec.Value, rec.Headers))
}

// recordSize approximates a record's encoded size (for batch.size).
func recordSize(r ProducerRecord) int {
	n := 21 + len(r.Key) + len(r.Value)
	for _, h := range r.Headers {
		n += len(h.Key) + len(h.Value) + 2
	}
	return n
}
