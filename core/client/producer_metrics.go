package client

import (
	"maps"
	"slices"

	"kafkascope/core/metrics"
	"kafkascope/core/sim"
)

// producerMetrics is the producer's registry of Kafka 3.8: the Sender's
// SenderMetrics sensors (group producer-metrics), the per-topic sensors
// it registers the first time it drains a batch of the topic (group
// producer-topic-metrics), the accumulator's buffer gauges and the
// network client's throttle-time sensor. Every sensor records at the
// instant Kafka's does, in whole milliseconds as Kafka's clock reads.
type producerMetrics struct {
	batchSize         *metrics.Sensor // batch-size-avg/max: each drained batch's bytes
	compressionRate   *metrics.Sensor // compression-rate-avg: each drained batch's ratio
	queueTime         *metrics.Sensor // record-queue-time-avg/max: drain time - creation
	requestTime       *metrics.Sensor // request-latency-avg/max: produce responses only
	recordsPerRequest *metrics.Sensor // record-send-rate/total, records-per-request-avg
	retries           *metrics.Sensor // record-retry-rate/total: records of re-enqueued batches
	errors            *metrics.Sensor // record-error-rate/total: records of failed batches
	recordSize        *metrics.Sensor // record-size-avg/max: each batch's largest record
	throttle          *metrics.Sensor // produce-throttle-time-avg/max: every response
	topics            map[string]*producerTopicMetrics
}

// producerTopicMetrics is one topic's sensors (Sender's
// maybeRegisterTopicMetrics).
type producerTopicMetrics struct {
	records, bytes, compression, retries, errors *metrics.Sensor
}

func newProducerMetrics() *producerMetrics {
	s := metrics.NewSensor
	return &producerMetrics{
		batchSize: s(), compressionRate: s(), queueTime: s(), requestTime: s(), recordsPerRequest: s(),
		retries: s(), errors: s(), recordSize: s(), throttle: s(),
		topics: map[string]*producerTopicMetrics{},
	}
}

// drained is updateProduceRequestMetrics for one request: each batch's
// size, queue time, compression ratio and largest record, and the
// request's record count. size is the batch's bytes as sent.
func (m *producerMetrics) drained(now sim.Time, batches []*producerBatch, sizes []int) {
	ms := now.UnixMilli()
	records := 0
	for i, b := range batches {
		t := m.topics[b.tp.topic]
		if t == nil {
			s := metrics.NewSensor
			t = &producerTopicMetrics{records: s(), bytes: s(), compression: s(), retries: s(), errors: s()}
			m.topics[b.tp.topic] = t
		}
		t.records.Record(now, float64(len(b.records)))
		t.bytes.Record(now, float64(sizes[i]))
		// The producer sends uncompressed batches: the ratio of what was
		// written to the records' size is 1 (MemoryRecordsBuilder).
		t.compression.Record(now, 1)
		m.batchSize.Record(now, float64(sizes[i]))
		m.queueTime.Record(now, float64(ms-b.created.UnixMilli()))
		m.compressionRate.Record(now, 1)
		m.recordSize.Record(now, float64(b.maxRecordSize))
		records += len(b.records)
	}
	m.recordsPerRequest.Record(now, float64(records))
}

// retried is recordRetries: the records of a batch put back to retry.
func (m *producerMetrics) retried(now sim.Time, b *producerBatch) {
	m.retries.Record(now, float64(len(b.records)))
	if t := m.topics[b.tp.topic]; t != nil {
		t.retries.Record(now, float64(len(b.records)))
	}
}

// failed is recordErrors: the records of a batch that failed (an error
// answer, or expiry in the accumulator).
func (m *producerMetrics) failed(now sim.Time, b *producerBatch) {
	m.errors.Record(now, float64(len(b.records)))
	if t := m.topics[b.tp.topic]; t != nil {
		t.errors.Record(now, float64(len(b.records)))
	}
}

// Metrics is the producer's metrics (KafkaProducer.metrics) as they read
// at now: the producer-metrics and producer-topic-metrics groups the
// simulator keeps. Kafka's registry also holds the network selector's
// and per-node metrics and app-info, which the simulator does not model.
func (p *Producer) Metrics(now sim.Time) []metrics.Named {
	m := p.metrics
	id := metrics.Tag{Key: "client-id", Value: p.cfg.ClientID}
	var out []metrics.Named
	add := func(name string, v float64) {
		out = append(out, metrics.Named{Group: "producer-metrics", Name: name, Tags: []metrics.Tag{id}, Value: v})
	}
	meter := func(prefix string, s *metrics.Sensor) {
		add(prefix+"-rate", s.Rate(now))
		add(prefix+"-total", s.Total())
	}
	add("batch-size-avg", m.batchSize.Avg(now))
	add("batch-size-max", m.batchSize.Max(now))
	// The simulated producer never splits a batch (MESSAGE_TOO_LARGE
	// fails it): batch-split reads 0.
	add("batch-split-rate", 0)
	add("batch-split-total", 0)
	add("buffer-available-bytes", float64(p.cfg.BufferMemory-p.memUsed))
	add("buffer-total-bytes", float64(p.cfg.BufferMemory))
	add("compression-rate-avg", m.compressionRate.Avg(now))
	age := float64(now.UnixMilli()-p.meta.lastUpdate.UnixMilli()) / 1000
	add("metadata-age", age)
	add("produce-throttle-time-avg", m.throttle.Avg(now))
	add("produce-throttle-time-max", m.throttle.Max(now))
	meter("record-error", m.errors)
	add("record-queue-time-avg", m.queueTime.Avg(now))
	add("record-queue-time-max", m.queueTime.Max(now))
	meter("record-retry", m.retries)
	meter("record-send", m.recordsPerRequest)
	add("record-size-avg", m.recordSize.Avg(now))
	add("record-size-max", m.recordSize.Max(now))
	add("records-per-request-avg", m.recordsPerRequest.Avg(now))
	add("request-latency-avg", m.requestTime.Avg(now))
	add("request-latency-max", m.requestTime.Max(now))
	add("requests-in-flight", float64(p.net.InFlight("")))
	waiting := 0.0
	if p.waitingForMemory() {
		waiting = 1
	}
	add("waiting-threads", waiting)
	// The topics in name order: the registry is a map, and a run must
	// list the same metrics in the same order each time.
	for _, topic := range slices.Sorted(maps.Keys(m.topics)) {
		t := m.topics[topic]
		tags := []metrics.Tag{id, {Key: "topic", Value: topic}}
		tm := func(name string, v float64) {
			out = append(out, metrics.Named{Group: "producer-topic-metrics", Name: name, Tags: tags, Value: v})
		}
		tm("byte-rate", t.bytes.Rate(now))
		tm("byte-total", t.bytes.Total())
		tm("compression-rate", t.compression.Avg(now))
		tm("record-error-rate", t.errors.Rate(now))
		tm("record-error-total", t.errors.Total())
		tm("record-retry-rate", t.retries.Rate(now))
		tm("record-retry-total", t.retries.Total())
		tm("record-send-rate", t.records.Rate(now))
		tm("record-send-total", t.records.Total())
	}
	return out
}

// waitingForMemory reports whether the sending thread is blocked in send
// for buffer.memory (BufferPool's queued threads), not for metadata: the
// first blocked send's topic is known.
func (p *Producer) waitingForMemory() bool {
	return len(p.wait) > 0 && p.meta.Topic(p.wait[0].rec.Topic) != nil
}
