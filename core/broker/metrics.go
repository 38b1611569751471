package broker

import (
	"fmt"
	"math"
	"slices"
	"time"

	"kafkascope/core/jmx"
	"kafkascope/core/metrics"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// brokerMetrics are the broker's Yammer meters, created when the process
// starts (ReplicaManager's and the all-topics BrokerTopicMetrics' are
// created with the broker; a topic's own meters at their first mark, as
// BrokerTopicMetrics.MeterWrapper creates them lazily). Each meter ticks
// every 5 s from its own creation.
type brokerMetrics struct {
	// ReplicaManager: marked when the controller's answer to an
	// AlterPartition is applied (Partition.handleAlterPartitionUpdate
	// notifies the listener with the pending change's kind), or when it
	// fails (handleAlterPartitionError, or a stale answer).
	isrShrinks, isrExpands, failedIsrUpdates *metrics.Meter
	all                                      topicMeters
	topics                                   map[string]*topicMeters
	// ReplicationBytesIn/OutPerSec exist in the all-topics set only.
	replicationBytesIn, replicationBytesOut *metrics.Meter
	// RequestMetrics' TotalTimeMs of clients' produces and fetches.
	produceTime, fetchConsumerTime *metrics.Histogram
}

// topicMeters are one BrokerTopicMetrics set: the all-topics one or a
// topic's. A nil meter has not been created yet.
type topicMeters struct {
	messagesIn, bytesIn, bytesOut, failedProduce, failedFetch, totalProduce *metrics.Meter
}

// meters are the broker's meters, created now if the broker was never
// started (a test that drives a broker directly); Start creates them
// when the process starts, as Kafka's ReplicaManager and BrokerTopicStats
// are created at startup.
func (b *Broker) meters(env *sim.Env) *brokerMetrics {
	if b.metrics == nil {
		b.metrics = newBrokerMetrics(env, b.cfg.NodeID)
	}
	return b.metrics
}

// beginRequest notes when the request e on connection c is taken up and,
// for a client's Produce or Fetch, the histogram of its total time.
func (b *Broker) beginRequest(env *sim.Env, c *conn, e *sim.Envelope) {
	c.start, c.timed = env.Now(), nil
	m := b.meters(env)
	switch r := e.Msg.(type) {
	case *protocol.ProduceRequest:
		c.timed = m.produceTime
	case *protocol.FetchRequest:
		if r.ReplicaID < 0 {
			c.timed = m.fetchConsumerTime
		}
	}
}

// endRequest records the request's total time once it is answered
// (RequestChannel.updateRequestMetrics: TotalTimeMs, rounded to whole
// milliseconds). The broker's handling itself takes no virtual time, so
// the total is the time the request waited in purgatory (acks=all
// replication, a fetch's long poll).
func (b *Broker) endRequest(env *sim.Env, c *conn) {
	if c.timed == nil {
		return
	}
	ms := float64(env.Now().Sub(c.start)) / float64(time.Millisecond)
	c.timed.Update(env.Now(), int64(math.Round(ms)))
	c.timed = nil
}

func newBrokerMetrics(env *sim.Env, id int32) *brokerMetrics {
	now := env.Now()
	m := func() *metrics.Meter { return metrics.NewMeter(now) }
	h := func(name string) *metrics.Histogram {
		return metrics.NewHistogram(now, env.Rand(fmt.Sprintf("broker-%d/%s/%d", id, name, now)))
	}
	return &brokerMetrics{
		produceTime: h("TotalTimeMs/Produce"), fetchConsumerTime: h("TotalTimeMs/FetchConsumer"),
		isrShrinks: m(), isrExpands: m(), failedIsrUpdates: m(),
		all:                topicMeters{messagesIn: m(), bytesIn: m(), bytesOut: m(), failedProduce: m(), failedFetch: m(), totalProduce: m()},
		topics:             map[string]*topicMeters{},
		replicationBytesIn: m(), replicationBytesOut: m(),
	}
}

// topicMeterName picks one meter of a set.
type topicMeterName func(t *topicMeters) **metrics.Meter

var (
	messagesIn    topicMeterName = func(t *topicMeters) **metrics.Meter { return &t.messagesIn }
	bytesIn       topicMeterName = func(t *topicMeters) **metrics.Meter { return &t.bytesIn }
	bytesOut      topicMeterName = func(t *topicMeters) **metrics.Meter { return &t.bytesOut }
	failedProduce topicMeterName = func(t *topicMeters) **metrics.Meter { return &t.failedProduce }
	totalProduce  topicMeterName = func(t *topicMeters) **metrics.Meter { return &t.totalProduce }
)

// markTopic marks one BrokerTopicMetrics meter of topic and of all
// topics by n (BrokerTopicStats marks both every time), creating the
// topic's meter at its first mark even when n is 0 (a consumer's empty
// fetch creates the topic's BytesOutPerSec).
func (m *brokerMetrics) markTopic(now sim.Time, topic string, which topicMeterName, n int64) {
	t := m.topics[topic]
	if t == nil {
		t = &topicMeters{}
		m.topics[topic] = t
	}
	tm := which(t)
	if *tm == nil {
		*tm = metrics.NewMeter(now)
	}
	(*tm).Mark(now, n)
	(*which(&m.all)).Mark(now, n)
}

// countAppend counts a leader's append of bytes into topic, of the
// offsets first..last, as ReplicaManager.appendToLocalLog does for
// every origin (clients' produces, the group coordinator's records and
// transaction markers alike): TotalProduceRequestsPerSec, then on
// success BytesInPerSec and MessagesInPerSec (LogAppendInfo.numMessages:
// the offsets the append covers). ok false counts the attempt alone.
func (m *brokerMetrics) countAppend(now sim.Time, topic string, ok bool, bytes int, first, last int64) {
	m.markTopic(now, topic, totalProduce, 1)
	if ok {
		m.markTopic(now, topic, bytesIn, int64(bytes))
		m.markTopic(now, topic, messagesIn, last-first+1)
	}
}

// pruneTopicMeters drops topic meters as a metadata update leaves them
// meaningless: a topic with no replica left here loses all of its
// (ReplicaManager.maybeRemoveTopicMetrics); a topic this broker now only
// follows loses its produce-side ones, MessagesIn, BytesIn,
// FailedProduceRequests and TotalProduceRequests (KAFKA-8392:
// updateLeaderAndFollowerMetrics). A meter dropped is created afresh at
// its next mark, with a new count and tick phase.
func (b *Broker) pruneTopicMeters(keys []storage.TopicPartition) {
	if b.metrics == nil {
		return
	}
	// The topics the update touched, and whether it left a replica of
	// theirs here as a follower.
	follows := map[string]bool{}
	var topics []string
	for _, k := range keys {
		if _, seen := follows[k.Topic]; !seen {
			topics = append(topics, k.Topic)
		}
		p := b.partitions[k]
		follows[k.Topic] = follows[k.Topic] || p != nil && !p.isLeader
	}
	for _, t := range topics {
		tm := b.metrics.topics[t]
		local := b.byTopic[t]
		switch {
		case tm == nil:
		case len(local) == 0:
			delete(b.metrics.topics, t)
		case follows[t] && !slices.ContainsFunc(local, func(p *Partition) bool { return p != nil && p.isLeader }):
			tm.messagesIn, tm.bytesIn, tm.failedProduce, tm.totalProduce = nil, nil, nil, nil
		}
	}
}

// markReplicationBytes marks a replication meter; an empty follower
// fetch marks nothing (Mark(0) changes no reading, and a leap moves
// idle long polls without running them).
func markReplicationBytes(now sim.Time, meter *metrics.Meter, n int) {
	if n > 0 {
		meter.Mark(now, int64(n))
	}
}

// MBeans are the broker's kafka.server MBeans, read now: the
// ReplicaManager gauges and meters, then the all-topics and per-topic
// BrokerTopicMetrics (topics in name order).
func (b *Broker) MBeans(now sim.Time) []jmx.MBean {
	if b.metrics == nil {
		return nil
	}
	m := b.metrics
	g := b.ReplicaManagerGauges()
	const rm = "kafka.server:type=ReplicaManager,name="
	beans := []jmx.MBean{
		jmx.Gauge(rm+"PartitionCount", int64(g.PartitionCount)),
		jmx.Gauge(rm+"LeaderCount", int64(g.LeaderCount)),
		jmx.Gauge(rm+"UnderReplicatedPartitions", int64(g.UnderReplicatedPartitions)),
		jmx.Gauge(rm+"UnderMinIsrPartitionCount", int64(g.UnderMinIsrPartitionCount)),
		jmx.Gauge(rm+"AtMinIsrPartitionCount", int64(g.AtMinIsrPartitionCount)),
		jmx.Gauge(rm+"OfflineReplicaCount", int64(g.OfflineReplicaCount)),
		jmx.Meter(rm+"IsrShrinksPerSec", "shrinks", m.isrShrinks.Read(now)),
		jmx.Meter(rm+"IsrExpandsPerSec", "expands", m.isrExpands.Read(now)),
		jmx.Meter(rm+"FailedIsrUpdatesPerSec", "failedUpdates", m.failedIsrUpdates.Read(now)),
	}
	beans = append(beans, m.all.mbeans(now, "")...)
	const rqm = "kafka.network:type=RequestMetrics,name=TotalTimeMs,request="
	beans = append(beans, jmx.Histogram(rqm+"Produce", m.produceTime.Read()), jmx.Histogram(rqm+"FetchConsumer", m.fetchConsumerTime.Read()))
	const btm = "kafka.server:type=BrokerTopicMetrics,name="
	beans = append(beans,
		jmx.Meter(btm+"ReplicationBytesInPerSec", "bytes", m.replicationBytesIn.Read(now)),
		jmx.Meter(btm+"ReplicationBytesOutPerSec", "bytes", m.replicationBytesOut.Read(now)))
	beans = append(beans, b.groupMBeans(now)...)
	names := make([]string, 0, len(m.topics))
	for t := range m.topics {
		names = append(names, t)
	}
	slices.Sort(names)
	for _, t := range names {
		beans = append(beans, m.topics[t].mbeans(now, ",topic="+t)...)
	}
	return beans
}

// mbeans are a BrokerTopicMetrics set's meters that exist, with tags
// appended to each name (",topic=T" for a topic's).
func (t *topicMeters) mbeans(now sim.Time, tags string) []jmx.MBean {
	const btm = "kafka.server:type=BrokerTopicMetrics,name="
	var beans []jmx.MBean
	for _, e := range []struct {
		meter           *metrics.Meter
		name, eventType string
	}{
		{t.messagesIn, "MessagesInPerSec", "messages"},
		{t.bytesIn, "BytesInPerSec", "bytes"},
		{t.bytesOut, "BytesOutPerSec", "bytes"},
		{t.failedProduce, "FailedProduceRequestsPerSec", "requests"},
		{t.failedFetch, "FailedFetchRequestsPerSec", "requests"},
		{t.totalProduce, "TotalProduceRequestsPerSec", "requests"},
	} {
		if e.meter != nil {
			beans = append(beans, jmx.Meter(btm+e.name+tags, e.eventType, e.meter.Read(now)))
		}
	}
	return beans
}

// DashboardMeters are the readings the page's dashboard plots of this
// broker's all-topics meters, now (zero before the broker started).
type DashboardMeters struct {
	BytesIn, BytesOut, MessagesIn, FailedProduce, IsrShrinks metrics.MeterReading
	// ProduceP99, FetchP99: the 99th percentile of clients' produce and
	// fetch TotalTimeMs, over ProduceCount and FetchCount requests.
	ProduceP99, FetchP99     float64
	ProduceCount, FetchCount int64
	// Pending: one of them has events its moving averages have not
	// taken in yet (they will at its next tick).
	Pending bool
}

// DashboardMeters reads them without changing any meter.
func (b *Broker) DashboardMeters(now sim.Time) DashboardMeters {
	m := b.metrics
	if m == nil {
		return DashboardMeters{}
	}
	d := DashboardMeters{BytesIn: m.all.bytesIn.Read(now), BytesOut: m.all.bytesOut.Read(now), MessagesIn: m.all.messagesIn.Read(now),
		FailedProduce: m.all.failedProduce.Read(now), IsrShrinks: m.isrShrinks.Read(now),
	}
	pt, ft := m.produceTime.Read(), m.fetchConsumerTime.Read()
	d.ProduceP99, d.ProduceCount, d.FetchP99, d.FetchCount = pt.P99, pt.Count, ft.P99, ft.Count
	for _, mt := range []*metrics.Meter{m.all.bytesIn, m.all.bytesOut, m.all.messagesIn, m.all.failedProduce, m.isrShrinks} {
		d.Pending = d.Pending || mt.Pending(now)
	}
	return d
}
