package client

import (
	"math"
	"testing"
	"time"

	"kafkascope/core/record"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// The Sender's sensors, recorded as Kafka records them: each drained
// batch counts its records as sent (a retry is sent, and counted, again),
// the batch's bytes, queue time and largest record; a retry counts the
// batch's records as retried, a failure as errors; a topic's retries and
// errors are counted only once it has sent a batch.
func TestProducerMetricsRecordPerBatch(t *testing.T) {
	p := testProducer(t, DefaultProducerConfig(release.Default), "t", 1)
	ms := func(n int64) sim.Time { return sim.Time(time.Duration(n) * time.Millisecond) }
	twoRecords := &producerBatch{tp: topicPartition{"t", 0}, created: ms(100), maxRecordSize: 120,
		records: make([]record.Record, 2)}
	other := &producerBatch{tp: topicPartition{"u", 0}, created: ms(150), maxRecordSize: 80,
		records: make([]record.Record, 3)}
	p.metrics.failed(ms(160), other) // u has sent nothing: not counted for u
	p.metrics.drained(ms(200), []*producerBatch{twoRecords, other}, []int{150, 250})
	p.metrics.retried(ms(300), twoRecords)
	p.metrics.drained(ms(400), []*producerBatch{twoRecords}, []int{150})
	p.metrics.failed(ms(500), other)

	got := map[string]float64{}
	for _, m := range p.Metrics(ms(1000)) {
		name := m.Group + ":" + m.Name
		if len(m.Tags) > 1 {
			name += ":" + m.Tags[1].Value
		}
		got[name] = m.Value
	}
	for name, want := range map[string]float64{
		"producer-metrics:record-send-total":          7, // 2 + 3, then the retry's 2
		"producer-metrics:records-per-request-avg":    3.5,
		"producer-metrics:batch-size-avg":             550.0 / 3,
		"producer-metrics:batch-size-max":             250,
		"producer-metrics:record-queue-time-avg":      (100 + 50 + 300) / 3.0,
		"producer-metrics:record-queue-time-max":      300,
		"producer-metrics:record-size-avg":            (120 + 80 + 120) / 3.0,
		"producer-metrics:record-retry-total":         2,
		"producer-metrics:record-error-total":         6, // both failures count for the producer
		"producer-metrics:compression-rate-avg":       1,
		"producer-metrics:buffer-available-bytes":     float64(p.cfg.BufferMemory),
		"producer-topic-metrics:record-send-total:t":  4,
		"producer-topic-metrics:record-send-total:u":  3,
		"producer-topic-metrics:byte-total:t":         300,
		"producer-topic-metrics:record-error-total:u": 3, // only the failure after its first send
		"producer-topic-metrics:record-retry-total:t": 2,
	} {
		if v, ok := got[name]; !ok || math.Abs(v-want) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
		}
	}
	// No produce answer was read: the latency is NaN, as Avg of nothing.
	if v := got["producer-metrics:request-latency-avg"]; !math.IsNaN(v) {
		t.Errorf("request-latency-avg without answers = %v, want NaN", v)
	}
}
