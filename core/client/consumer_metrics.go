package client

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/metrics"
	"kafkascope/core/sim"
)

// consumerMetrics is the consumer's registry of Kafka 3.8 for what the
// simulator models: the fetcher's FetchMetricsManager (group
// consumer-fetch-manager-metrics, with per-topic and per-partition
// sensors) and the classic group member's coordinator metrics (group
// consumer-coordinator-metrics: AbstractCoordinator's
// GroupCoordinatorMetrics and ConsumerCoordinator's). Sensors record at
// the instants Kafka's do, in whole milliseconds.
type consumerMetrics struct {
	// fetch-manager
	fetchLatency *metrics.Sensor // fetch-latency-avg/max, fetch-rate/total: each fetch answered
	bytes        *metrics.Sensor // fetch-size-avg/max, bytes-consumed-rate/total: per fetch, once drained
	records      *metrics.Sensor // records-per-request-avg, records-consumed-rate/total
	lag          *metrics.Sensor // records-lag-max: each partition's lag as it is read
	lead         *metrics.Sensor // records-lead-min
	throttle     *metrics.Sensor // fetch-throttle-time-avg/max: every fetch answer (0: no quotas)
	topics       map[string]*fetchTopicMetrics
	partitions   map[topicPartition]*fetchPartitionMetrics
	// listed is the assignment as the fetcher last saw it
	// (FetchMetricsManager.maybeUpdateAssignment, at each fetch): the
	// partitions whose sensors and preferred-read-replica gauge exist.
	listed []topicPartition

	// coordinator
	heartbeat, join, sync, commit *metrics.Sensor // latencies of the answers
	rebalance, failedRebalance    *metrics.Sensor
	assignedCB, revokedCB, lostCB *metrics.Sensor // the listener's calls (0 ms here)
	rebalanceStart                sim.Time        // -1: no rebalance under way
	rebalanceEnd                  sim.Time        // -1: none yet
	coordinated                   bool            // a classic group member: the coordinator metrics exist
	// member848: a consumer-protocol member (KIP-848), whose
	// consumer-coordinator-metrics are the async consumer's managers';
	// hbSent is its last heartbeat's sending.
	member848 bool
	hbSent    sim.Time
}

// fetchTopicMetrics is a topic's bytes and records (recordBytesFetched
// and recordRecordsFetched with the topic).
type fetchTopicMetrics struct{ bytes, records *metrics.Sensor }

// fetchPartitionMetrics is a partition's lag and lead.
type fetchPartitionMetrics struct{ lag, lead *metrics.Sensor }

func newConsumerMetrics() *consumerMetrics {
	s := metrics.NewSensor
	return &consumerMetrics{
		fetchLatency: s(), bytes: s(), records: s(), lag: s(), lead: metrics.NewSensorWithMin(), throttle: s(),
		topics: map[string]*fetchTopicMetrics{}, partitions: map[topicPartition]*fetchPartitionMetrics{},
		heartbeat: s(), join: s(), sync: s(), commit: s(), rebalance: s(), failedRebalance: s(),
		assignedCB: s(), revokedCB: s(), lostCB: s(), rebalanceStart: -1, rebalanceEnd: -1,
	}
}

// latency is a request's time as Kafka's clock reads it:
// ClientResponse.requestLatencyMs in whole milliseconds.
func latency(sent, now sim.Time) float64 { return float64(now.UnixMilli() - sent.UnixMilli()) }

// fetchAggregate is FetchMetricsAggregator: one fetch answer's bytes and
// records, recorded per topic as each partition's records are drained
// and in total once every partition of the answer has been.
type fetchAggregate struct {
	m              *consumerMetrics
	pending        int
	bytes, records int
	topics         []topicShare // in the order their first partition was read
}

// topicShare is one topic's part of a fetch answer (an answer holds few
// topics: a list is searched faster than a map is made).
type topicShare struct {
	topic          string
	bytes, records int
}

func (m *consumerMetrics) newAggregate(partitions int) *fetchAggregate {
	return &fetchAggregate{m: m, pending: partitions}
}

// drained records one partition's share of the answer.
func (a *fetchAggregate) drained(now sim.Time, tp topicPartition, bytes, records int) {
	if a == nil || a.pending <= 0 {
		return
	}
	a.pending--
	a.bytes += bytes
	a.records += records
	i := slices.IndexFunc(a.topics, func(s topicShare) bool { return s.topic == tp.topic })
	if i < 0 {
		i = len(a.topics)
		a.topics = append(a.topics, topicShare{topic: tp.topic})
	}
	a.topics[i].bytes += bytes
	a.topics[i].records += records
	if a.pending > 0 {
		return
	}
	for _, s := range a.topics {
		t := a.m.topics[s.topic]
		if t == nil {
			t = &fetchTopicMetrics{bytes: metrics.NewSensor(), records: metrics.NewSensor()}
			a.m.topics[s.topic] = t
		}
		t.bytes.Record(now, float64(s.bytes))
		t.records.Record(now, float64(s.records))
	}
	a.m.bytes.Record(now, float64(a.bytes))
	a.m.records.Record(now, float64(a.records))
}

// positionRead is what FetchCollector records after reading a partition's
// fetched data at a poll: its lag (to the high watermark, or the last
// stable offset when reading committed) and its lead (from the log start).
func (m *consumerMetrics) positionRead(now sim.Time, tp topicPartition, ps *position, committedOnly bool) {
	if ps.offset < 0 || ps.hw < 0 {
		return
	}
	pm := m.partitions[tp]
	if pm == nil {
		pm = &fetchPartitionMetrics{lag: metrics.NewSensor(), lead: metrics.NewSensorWithMin()}
		m.partitions[tp] = pm
	}
	end := ps.hw
	if committedOnly {
		end = ps.lso
	}
	lag := float64(end - ps.offset)
	m.lag.Record(now, lag)
	pm.lag.Record(now, lag)
	if ps.logStart >= 0 {
		lead := float64(ps.offset - ps.logStart)
		m.lead.Record(now, lead)
		pm.lead.Record(now, lead)
	}
}

// updateAssignment is maybeUpdateAssignment: a partition that left the
// assignment loses its sensors.
func (m *consumerMetrics) updateAssignment(assigned []topicPartition) {
	if slices.Equal(m.listed, assigned) {
		return
	}
	for _, tp := range m.listed {
		if !slices.Contains(assigned, tp) {
			delete(m.partitions, tp)
		}
	}
	m.listed = slices.Clone(assigned)
}

// rebalance848Started and rebalance848Ended are a consumer-protocol
// member's moves into and out of RECONCILING
// (ConsumerRebalanceMetricsManager: the start is overwritten each time).
func (m *consumerMetrics) rebalance848Started(now sim.Time) { m.rebalanceStart = now }

func (m *consumerMetrics) rebalance848Ended(now sim.Time) {
	m.rebalanceEnd = now
	m.rebalance.Record(now, latency(m.rebalanceStart, now))
}

// rebalance848Failed is maybeRecordRebalanceFailed: an error answer to a
// heartbeat while a rebalance is under way.
func (m *consumerMetrics) rebalance848Failed(now sim.Time) {
	if m.rebalanceStart <= m.rebalanceEnd {
		return
	}
	m.failedRebalance.Record(now, 1)
}

// rebalanceFailed is the join future failing (a JoinGroup or SyncGroup
// error, MEMBER_ID_REQUIRED included, or a lost connection).
func (m *consumerMetrics) rebalanceFailed(now sim.Time) { m.failedRebalance.Record(now, 1) }

// rebalanceStarted is initiateJoinGroup: a rebalance that failed and is
// tried again keeps its start.
func (m *consumerMetrics) rebalanceStarted(now sim.Time) {
	if m.rebalanceStart < 0 {
		m.rebalanceStart = now
	}
}

// rebalanceDone is SyncGroup's success: the rebalance's time since it
// started.
func (m *consumerMetrics) rebalanceDone(now sim.Time) {
	m.rebalanceEnd = now
	if m.rebalanceStart >= 0 {
		m.rebalance.Record(now, latency(m.rebalanceStart, now))
	}
	m.rebalanceStart = -1
}

// Metrics is the consumer's metrics (KafkaConsumer.metrics) at now: the
// groups the simulator keeps. Kafka's registry also holds the network
// selector's, per-node, app-info and consumer-metrics (poll timing)
// metrics, which it does not model.
func (c *Consumer) Metrics(now sim.Time) []metrics.Named {
	m := c.metrics
	id := metrics.Tag{Key: "client-id", Value: c.cfg.ClientID}
	var out []metrics.Named
	add := func(group, name string, v float64, tags ...metrics.Tag) {
		out = append(out, metrics.Named{Group: group, Name: name, Tags: append([]metrics.Tag{id}, tags...), Value: v})
	}
	const fm = "consumer-fetch-manager-metrics"
	add(fm, "bytes-consumed-rate", m.bytes.Rate(now))
	add(fm, "bytes-consumed-total", m.bytes.Total())
	add(fm, "fetch-latency-avg", m.fetchLatency.Avg(now))
	add(fm, "fetch-latency-max", m.fetchLatency.Max(now))
	add(fm, "fetch-rate", m.fetchLatency.EventRate(now))
	add(fm, "fetch-size-avg", m.bytes.Avg(now))
	add(fm, "fetch-size-max", m.bytes.Max(now))
	add(fm, "fetch-throttle-time-avg", m.throttle.Avg(now))
	add(fm, "fetch-throttle-time-max", m.throttle.Max(now))
	add(fm, "fetch-total", m.fetchLatency.Count())
	add(fm, "records-consumed-rate", m.records.Rate(now))
	add(fm, "records-consumed-total", m.records.Total())
	add(fm, "records-lag-max", m.lag.Max(now))
	add(fm, "records-lead-min", m.lead.Min(now))
	add(fm, "records-per-request-avg", m.records.Avg(now))
	for _, topic := range slices.Sorted(maps.Keys(m.topics)) {
		t := m.topics[topic]
		tag := metrics.Tag{Key: "topic", Value: strings.ReplaceAll(topic, ".", "_")}
		add(fm, "bytes-consumed-rate", t.bytes.Rate(now), tag)
		add(fm, "bytes-consumed-total", t.bytes.Total(), tag)
		add(fm, "fetch-size-avg", t.bytes.Avg(now), tag)
		add(fm, "fetch-size-max", t.bytes.Max(now), tag)
		add(fm, "records-consumed-rate", t.records.Rate(now), tag)
		add(fm, "records-consumed-total", t.records.Total(), tag)
		add(fm, "records-per-request-avg", t.records.Avg(now), tag)
	}
	// The partitions assigned when the fetcher last looked: Kafka drops a
	// partition's sensors when it leaves the assignment, and adds its
	// preferred-read-replica gauge (an Integer; -1 once it is no longer
	// assigned) when it joins.
	for _, tp := range m.listed {
		tags := []metrics.Tag{{Key: "topic", Value: strings.ReplaceAll(tp.topic, ".", "_")}, {Key: "partition", Value: strconv.Itoa(int(tp.partition))}}
		preferred := int32(-1)
		if ps := c.pos[tp]; ps != nil && ps.preferred >= 0 && now < ps.preferredUntil {
			preferred = ps.preferred
		}
		out = append(out, metrics.Named{Group: fm, Name: "preferred-read-replica", Tags: append([]metrics.Tag{id}, tags...), Text: strconv.Itoa(int(preferred))})
		pm := m.partitions[tp]
		if pm == nil {
			continue
		}
		add(fm, "records-lag", pm.lag.Last(), tags...)
		add(fm, "records-lag-avg", pm.lag.Avg(now), tags...)
		add(fm, "records-lag-max", pm.lag.Max(now), tags...)
		if pm.lead.Count() > 0 {
			add(fm, "records-lead", pm.lead.Last(), tags...)
			add(fm, "records-lead-avg", pm.lead.Avg(now), tags...)
			add(fm, "records-lead-min", pm.lead.Min(now), tags...)
		}
	}
	if !m.coordinated && !m.member848 {
		return out
	}
	const cm = "consumer-coordinator-metrics"
	avgMax := func(prefix string, s *metrics.Sensor) {
		add(cm, prefix+"-avg", s.Avg(now))
		add(cm, prefix+"-max", s.Max(now))
	}
	// A request's latency sensor: its time's avg and max, and a Meter
	// over a WindowedCount (AbstractCoordinator.createMeter).
	requests := func(name, time string, s *metrics.Sensor) {
		avgMax(name+"-"+time, s)
		add(cm, name+"-rate", s.EventRate(now))
		add(cm, name+"-total", s.Count())
	}
	// secondsAgo is a Measurable of whole seconds since at (-1: never).
	secondsAgo := func(at sim.Time, ok bool) float64 {
		if !ok {
			return -1
		}
		return float64((now.UnixMilli() - at.UnixMilli()) / 1000)
	}
	requests("commit", "latency", m.commit)
	if m.coordinated {
		// The classic member's (ConsumerCoordinator, AbstractCoordinator);
		// a consumer-protocol member has neither JoinGroup nor SyncGroup.
		add(cm, "assigned-partitions", float64(len(c.assigned)))
		requests("join", "time", m.join)
		requests("sync", "time", m.sync)
	}
	add(cm, "heartbeat-rate", m.heartbeat.EventRate(now))
	add(cm, "heartbeat-response-time-max", m.heartbeat.Max(now))
	add(cm, "heartbeat-total", m.heartbeat.Count())
	add(cm, "failed-rebalance-rate-per-hour", m.failedRebalance.EventRateHour(now))
	add(cm, "failed-rebalance-total", m.failedRebalance.Count())
	lastHB := m.hbSent
	if c.grp != nil && !m.member848 {
		lastHB = c.grp.lastHBSent
	}
	add(cm, "last-heartbeat-seconds-ago", secondsAgo(lastHB, lastHB > 0))
	add(cm, "last-rebalance-seconds-ago", secondsAgo(m.rebalanceEnd, m.rebalanceEnd >= 0))
	avgMax("partition-assigned-latency", m.assignedCB)
	avgMax("partition-lost-latency", m.lostCB)
	avgMax("partition-revoked-latency", m.revokedCB)
	avgMax("rebalance-latency", m.rebalance)
	add(cm, "rebalance-latency-total", m.rebalance.Total())
	add(cm, "rebalance-rate-per-hour", m.rebalance.EventRateHour(now))
	add(cm, "rebalance-total", m.rebalance.Count())
	return out
}
