package client

import (
	"fmt"
	"math"
	"slices"
	"time"

	"kafkascope/core/hashing"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
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
}

// DefaultProducerConfig has Kafka's producer defaults.
func DefaultProducerConfig() ProducerConfig {
	return ProducerConfig{
		Acks: -1, Retries: math.MaxInt32, RetryBackoff: 100 * time.Millisecond, RetryBackoffMax: time.Second,
		RequestTimeout: 30 * time.Second, DeliveryTimeout: 120 * time.Second, Linger: 0, MaxBlock: 60 * time.Second,
		BatchSize: 16384, MaxInFlight: 5,
	}
}

// ProducerRecord is what the application sends. Partition -1 lets the
// partitioner choose.
type ProducerRecord struct {
	Topic     string
	Partition int32
	Key       []byte
	Value     []byte
	Headers   []record.Header
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

// producerBatch is a ProducerBatch: records for one partition sent together.
type producerBatch struct {
	tp        topicPartition
	records   []record.Record
	callbacks []SendCallback
	sizeBytes int
	created   sim.Time
	attempts  int
	retryAt   sim.Time
	inFlight  bool
	closed    bool // no more records may join
}

type waitingSend struct {
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
	cfg   ProducerConfig
	net   *rpc.Client
	meta  *Metadata
	log   func(level Level, msg, logger string)
	rand  *sim.Rand
	queue map[topicPartition][]*producerBatch
	order []topicPartition // partitions in first-use order, for deterministic draining
	wait  []*waitingSend
	inFl  map[int32]int
	timer *sim.Timer

	sticky      map[string]int32
	stickyBytes map[string]int

	closing  bool
	onClosed func(env *sim.Env)
}

const (
	loggerSender        = "org.apache.kafka.clients.producer.internals.Sender"
	loggerNetworkClient = "org.apache.kafka.clients.NetworkClient"
)

// NewProducer makes a producer sending from self.
func NewProducer(self sim.Addr, bootstrap []sim.Addr, cfg ProducerConfig, rnd *sim.Rand, log func(level Level, msg, logger string)) *Producer {
	p := &Producer{
		cfg: cfg, net: rpc.NewClient(self, cfg.ClientID), rand: rnd,
		queue: map[topicPartition][]*producerBatch{}, inFl: map[int32]int{},
		sticky: map[string]int32{}, stickyBytes: map[string]int{},
	}
	prefix := fmt.Sprintf("[Producer clientId=%s] ", cfg.ClientID)
	p.log = func(level Level, msg, logger string) { log(level, prefix+msg, logger) }
	p.meta = NewMetadata(p.net, bootstrap, true, func(level Level, msg string) { p.log(level, msg, loggerNetworkClient) })
	p.meta.OnUpdate(p.run)
	return p
}

// Handle routes a message to the producer's network client.
func (p *Producer) Handle(env *sim.Env, e *sim.Envelope) bool { return p.net.Handle(env, e) }

// Send adds a record. Until the topic is in the metadata the record waits
// (KafkaProducer.send blocks up to max.block.ms).
func (p *Producer) Send(env *sim.Env, rec ProducerRecord, cb SendCallback) {
	p.meta.Add(rec.Topic)
	ws := &waitingSend{rec: rec, cb: cb, deadline: env.Now().Add(p.cfg.MaxBlock), ts: env.Now().UnixMilli()}
	if len(p.wait) > 0 || p.meta.Topic(rec.Topic) == nil {
		p.wait = append(p.wait, ws)
		p.meta.RequestUpdate(env)
		p.schedule(env)
		return
	}
	p.accumulate(env, ws)
	p.run(env)
}

// Close sends everything pending (as if linger were over) and calls done
// when every record has succeeded or failed.
func (p *Producer) Close(env *sim.Env, done func(env *sim.Env)) {
	p.closing = true
	p.onClosed = done
	p.run(env)
}

// Pending counts records not yet acknowledged or failed.
func (p *Producer) Pending() int {
	n := len(p.wait)
	for _, q := range p.queue {
		for _, b := range q {
			n += len(b.records)
		}
	}
	return n
}

func (p *Producer) partitionFor(rec ProducerRecord, n int32) int32 {
	switch {
	case rec.Partition >= 0:
		return rec.Partition
	case rec.Key != nil:
		return hashing.KeyPartition(rec.Key, n)
	}
	// Uniform sticky partitioner: stay on one partition for batch.size bytes,
	// then pick another available one at random.
	sp, ok := p.sticky[rec.Topic]
	if !ok || p.stickyBytes[rec.Topic] >= p.cfg.BatchSize {
		var avail []int32
		t := p.meta.Topic(rec.Topic)
		for i, pi := range t.Partitions {
			if pi.Leader >= 0 {
				avail = append(avail, int32(i))
			}
		}
		if len(avail) == 0 {
			sp = int32(p.rand.Intn(int(n)))
		} else {
			sp = avail[p.rand.Intn(len(avail))]
		}
		p.sticky[rec.Topic] = sp
		p.stickyBytes[rec.Topic] = 0
	}
	return sp
}

// accumulate puts a record whose topic is known into its partition's batch.
func (p *Producer) accumulate(env *sim.Env, ws *waitingSend) {
	t := p.meta.Topic(ws.rec.Topic)
	n := int32(len(t.Partitions))
	part := p.partitionFor(ws.rec, n)
	if part >= n {
		ws.cb(env, RecordMetadata{}, &Error{Class: "org.apache.kafka.common.KafkaException",
			Message: fmt.Sprintf("Invalid partition given with record: %d is not in the range [0...%d).", part, n)})
		return
	}
	tp := topicPartition{ws.rec.Topic, part}
	size := recordSize(ws.rec)
	if ws.rec.Key == nil && ws.rec.Partition < 0 {
		p.stickyBytes[ws.rec.Topic] += size
	}
	q := p.queue[tp]
	if _, seen := p.queue[tp]; !seen {
		p.order = append(p.order, tp)
	}
	var b *producerBatch
	if len(q) > 0 {
		last := q[len(q)-1]
		if !last.closed && !last.inFlight && last.attempts == 0 && last.sizeBytes+size <= p.cfg.BatchSize {
			b = last
		}
	}
	if b == nil {
		b = &producerBatch{tp: tp, created: env.Now()}
		q = append(q, b)
		p.queue[tp] = q
	}
	b.records = append(b.records, record.Record{Timestamp: ws.ts, Key: ws.rec.Key, Value: ws.rec.Value, Headers: ws.rec.Headers})
	b.callbacks = append(b.callbacks, ws.cb)
	b.sizeBytes += size
}

// recordSize approximates a record's encoded size (for batch.size).
func recordSize(r ProducerRecord) int {
	n := 21 + len(r.Key) + len(r.Value)
	for _, h := range r.Headers {
		n += len(h.Key) + len(h.Value) + 2
	}
	return n
}

// run is the sender loop: resolve records waiting for metadata, expire what
// is overdue, and send every ready batch whose leader is known.
func (p *Producer) run(env *sim.Env) {
	now := env.Now()
	// Records waiting for their topic's metadata, in send order. Each send
	// blocks the sending thread, so the next record's max.block.ms only
	// starts once the previous one is resolved.
	for len(p.wait) > 0 {
		ws := p.wait[0]
		if p.meta.Topic(ws.rec.Topic) != nil {
			p.wait = p.wait[1:]
			p.accumulate(env, ws)
			continue
		}
		if now < ws.deadline {
			break
		}
		p.wait = p.wait[1:]
		ws.cb(env, RecordMetadata{}, &Error{Class: classTimeout, Message: fmt.Sprintf("Topic %s not present in metadata after %d ms.", ws.rec.Topic, p.cfg.MaxBlock.Milliseconds())})
		if len(p.wait) > 0 {
			p.wait[0].deadline = now.Add(p.cfg.MaxBlock)
		}
	}
	p.expireBatches(env)
	p.drain(env)
	p.maybeClose(env)
	p.schedule(env)
}

// ready reports whether a batch may be sent now.
func (p *Producer) ready(b *producerBatch, now sim.Time) bool {
	if b.inFlight || (b.attempts > 0 && now < b.retryAt) {
		return false
	}
	return p.closing || b.attempts > 0 || b.sizeBytes >= p.cfg.BatchSize || now.Sub(b.created) >= p.cfg.Linger || len(p.queue[b.tp]) > 1
}

func (p *Producer) drain(env *sim.Env) {
	now := env.Now()
	type req struct {
		addr    sim.Addr
		batches []*producerBatch
	}
	byNode := map[int32]*req{}
	var nodes []int32
	for _, tp := range p.order {
		q := p.queue[tp]
		if len(q) == 0 {
			continue
		}
		addr, leader, ok := p.meta.Leader(tp.topic, tp.partition)
		if !ok {
			p.meta.RequestUpdate(env)
			continue
		}
		if p.inFl[leader] >= p.cfg.MaxInFlight {
			continue
		}
		for _, b := range q {
			if b.inFlight {
				if p.cfg.MaxInFlight == 1 {
					break // guarantee order: one batch per partition in flight
				}
				continue
			}
			if p.ready(b, now) {
				r, ok := byNode[leader]
				if !ok {
					r = &req{addr: addr}
					byNode[leader] = r
					nodes = append(nodes, leader)
				}
				b.closed = true
				r.batches = append(r.batches, b)
			}
			break // one batch per partition per request
		}
	}
	for _, id := range nodes {
		p.send(env, id, byNode[id].addr, byNode[id].batches)
	}
}

func (p *Producer) send(env *sim.Env, node int32, addr sim.Addr, batches []*producerBatch) {
	req := &protocol.ProduceRequest{Acks: p.cfg.Acks, TimeoutMs: int32(p.cfg.RequestTimeout.Milliseconds())}
	for _, b := range batches {
		b.inFlight = true
		data := record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), b.records)
		req.Add(b.tp.topic, protocol.ProducePartition{Index: b.tp.partition, Records: data})
	}
	if p.cfg.Acks == 0 {
		p.net.SendOneWay(env, addr, req)
		for _, b := range batches {
			p.complete(env, b, -1)
		}
		return
	}
	p.inFl[node]++
	var corr int32
	corr = p.net.Send(env, addr, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		p.inFl[node]--
		if err != nil {
			code, msg := protocol.NETWORK_EXCEPTION, fmt.Sprintf("Disconnected from node %d", node)
			if err == rpc.ErrTimeout {
				code, msg = protocol.REQUEST_TIMED_OUT, fmt.Sprintf("Disconnected from node %d due to timeout", node)
			}
			for _, b := range batches {
				p.completeBatch(env, b, corr, protocol.ProducePartitionResponse{ErrorCode: code, ErrorMessage: msg})
			}
			p.meta.RequestUpdate(env)
		} else {
			r := resp.(*protocol.ProduceResponse)
			for _, b := range batches {
				p.completeBatch(env, b, corr, findPartitionResponse(r, b.tp))
			}
		}
		p.run(env)
	})
}

func findPartitionResponse(r *protocol.ProduceResponse, tp topicPartition) protocol.ProducePartitionResponse {
	for _, t := range r.Topics {
		if t.Name != tp.topic {
			continue
		}
		for _, pr := range t.Partitions {
			if pr.Index == tp.partition {
				return pr
			}
		}
	}
	return protocol.ProducePartitionResponse{ErrorCode: protocol.UNKNOWN_SERVER_ERROR}
}

// completeBatch handles one partition's answer: success, a retry, or a final
// failure, as Kafka's Sender.completeBatch does.
func (p *Producer) completeBatch(env *sim.Env, b *producerBatch, corr int32, pr protocol.ProducePartitionResponse) {
	b.inFlight = false
	code := pr.ErrorCode
	if code == protocol.NONE {
		p.complete(env, b, pr.BaseOffset)
		return
	}
	errText := code.String()
	if pr.ErrorMessage != "" {
		errText += ". Error Message: " + pr.ErrorMessage
	}
	deliveryExpired := env.Now().Sub(b.created) >= p.cfg.DeliveryTimeout
	if code.Retriable() && b.attempts < p.cfg.Retries && !deliveryExpired {
		p.log(LevelWarn, fmt.Sprintf("Got error produce response with correlation id %d on topic-partition %s, retrying (%d attempts left). Error: %s",
			corr, b.tp, p.cfg.Retries-b.attempts-1, errText), loggerSender)
		b.attempts++
		backoff := p.backoff(b.attempts)
		b.retryAt = env.Now().Add(backoff)
	} else if len(pr.RecordErrors) > 0 {
		p.failRecords(env, b, recordExceptions(pr))
	} else {
		msg := pr.ErrorMessage
		if msg == "" {
			msg = code.Message()
		}
		p.fail(env, b, &Error{Class: code.Exception(), Message: msg})
	}
	if isInvalidMetadata(code) {
		if code == protocol.UNKNOWN_TOPIC_OR_PARTITION {
			p.log(LevelWarn, fmt.Sprintf("Received unknown topic or partition error in produce request on partition %s. The topic-partition may not exist or the user may not have Describe access to it", b.tp), loggerSender)
		} else {
			msg := pr.ErrorMessage
			if msg == "" {
				msg = code.Message()
			}
			p.log(LevelWarn, fmt.Sprintf("Received invalid metadata error in produce request on partition %s due to %s Going to request metadata update now", b.tp, Exception(code.Exception(), msg)), loggerSender)
		}
		p.meta.RequestUpdate(env)
	}
}

// isInvalidMetadata lists the errors whose exceptions extend
// InvalidMetadataException: they make the client refresh metadata.
func isInvalidMetadata(c protocol.ErrorCode) bool {
	switch c {
	case protocol.NOT_LEADER_OR_FOLLOWER, protocol.LEADER_NOT_AVAILABLE, protocol.UNKNOWN_TOPIC_OR_PARTITION,
		protocol.NETWORK_EXCEPTION, protocol.FENCED_LEADER_EPOCH, protocol.UNKNOWN_LEADER_EPOCH, protocol.KAFKA_STORAGE_ERROR:
		return true
	}
	return false
}

// backoff is retry.backoff.ms doubling per attempt up to
// retry.backoff.max.ms, with ±20% jitter.
func (p *Producer) backoff(attempts int) time.Duration {
	d := float64(p.cfg.RetryBackoff) * math.Pow(2, float64(attempts-1))
	d = math.Min(d, float64(p.cfg.RetryBackoffMax))
	d *= 0.8 + 0.4*p.rand.Float64()
	return time.Duration(d)
}

func (p *Producer) remove(b *producerBatch) {
	q := p.queue[b.tp]
	if i := slices.Index(q, b); i >= 0 {
		p.queue[b.tp] = slices.Delete(q, i, i+1)
	}
}

func (p *Producer) complete(env *sim.Env, b *producerBatch, base int64) {
	p.remove(b)
	for i, cb := range b.callbacks {
		off := int64(-1)
		if base >= 0 {
			off = base + int64(i)
		}
		cb(env, RecordMetadata{Topic: b.tp.topic, Partition: b.tp.partition, Offset: off, Timestamp: b.records[i].Timestamp}, nil)
	}
}

func (p *Producer) fail(env *sim.Env, b *producerBatch, err *Error) {
	p.remove(b)
	for _, cb := range b.callbacks {
		cb(env, RecordMetadata{Topic: b.tp.topic, Partition: b.tp.partition, Offset: -1}, err)
	}
}

// expireBatches fails batches that have waited longer than
// delivery.timeout.ms without being in flight.
func (p *Producer) expireBatches(env *sim.Env) {
	now := env.Now()
	for _, tp := range p.order {
		for _, b := range slices.Clone(p.queue[tp]) {
			if !b.inFlight && now.Sub(b.created) >= p.cfg.DeliveryTimeout {
				p.fail(env, b, &Error{Class: classTimeout, Message: fmt.Sprintf("Expiring %d record(s) for %s:%d ms has passed since batch creation", len(b.records), b.tp, now.Sub(b.created).Milliseconds())})
			}
		}
	}
}

func (p *Producer) maybeClose(env *sim.Env) {
	if !p.closing || p.onClosed == nil || p.Pending() > 0 {
		return
	}
	done := p.onClosed
	p.onClosed = nil
	done(env)
}

// schedule arms a wake-up for the next moment something becomes due:
// linger expiry, a retry backoff, a delivery or max.block deadline.
func (p *Producer) schedule(env *sim.Env) {
	now := env.Now()
	var next sim.Time = -1
	consider := func(t sim.Time) {
		if t > now && (next < 0 || t < next) {
			next = t
		}
	}
	for _, ws := range p.wait {
		consider(ws.deadline)
	}
	for _, q := range p.queue {
		for _, b := range q {
			consider(b.created.Add(p.cfg.DeliveryTimeout))
			if !b.inFlight {
				if b.attempts > 0 {
					consider(b.retryAt)
				} else {
					consider(b.created.Add(p.cfg.Linger))
				}
			}
		}
	}
	if next < 0 {
		return
	}
	if p.timer.Pending() && p.timer.At() <= next {
		return
	}
	p.timer.Stop()
	p.timer = env.After(next.Sub(now), "producer-sender", p.run)
}
