package dashboard

import (
	"math"
	"time"

	"kafkascope/core/sim"
)

// MetricID names one of the dashboard's metrics.
type MetricID int

// The dashboard's metrics, each summed over the cluster's running nodes
// (the latencies: the slowest broker's): the gauges, the one-minute rates
// of the meters and the request-time percentiles, as an on-call dashboard
// built on Kafka's JMX metrics plots them (docs/metrics.md defines each).
const (
	UnderReplicated   MetricID = iota // ReplicaManager UnderReplicatedPartitions
	OfflinePartitions                 // KafkaController OfflinePartitionsCount (the active controller's)
	UnderMinIsr                       // ReplicaManager UnderMinIsrPartitionCount
	ActiveControllers                 // KafkaController ActiveControllerCount
	ProduceLatency                    // RequestMetrics TotalTimeMs request=Produce, 99thPercentile (the slowest broker's)
	FetchLatency                      // RequestMetrics TotalTimeMs request=FetchConsumer, 99thPercentile (the slowest broker's)
	BytesIn                           // BrokerTopicMetrics BytesInPerSec, OneMinuteRate
	BytesOut                          // BrokerTopicMetrics BytesOutPerSec, OneMinuteRate
	MessagesIn                        // BrokerTopicMetrics MessagesInPerSec, OneMinuteRate
	FailedProduce                     // BrokerTopicMetrics FailedProduceRequestsPerSec: its Count's increase over the last minute
	IsrShrinks                        // ReplicaManager IsrShrinksPerSec: its Count's increase over the last minute
	ConsumerLag                       // the groups' committed lag (LEO of the committed HW minus the committed offset), summed
	NumMetrics
)

// Metric describes one series: its Kafka name, whether it is a rate
// (stored to three significant digits), and the alert commonly set on it.
type Metric struct {
	ID    MetricID
	Name  string // its name in a scenario's claims: metric urp 3
	Key   string // the i18n key of its title
	MBean string // where its value comes from, as JMX names it
	Rate  bool
	// Window: the sampler reads a meter's Count, and the series keeps its
	// increase over the last minute (as an alert on a counter, such as
	// Prometheus's increase(x[1m]) > 0, reads it): it falls back to 0 a
	// minute after the last event, where a moving average would take many.
	Window bool
	// Alert is true of a value an on-call alert fires on (nil: none).
	Alert func(v float64) bool
	// AlertKey is the i18n key of the alert's condition ("> 0", "≠ 1").
	AlertKey string
}

// Metrics are the dashboard's metrics in the order the page shows them.
var Metrics = [NumMetrics]Metric{
	{UnderReplicated, "urp", "metric.urp", "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions", false, false, positive, "alert.gt0"},
	{OfflinePartitions, "offline", "metric.offline", "kafka.controller:type=KafkaController,name=OfflinePartitionsCount", false, false, positive, "alert.gt0"},
	{UnderMinIsr, "under-min-isr", "metric.underminisr", "kafka.server:type=ReplicaManager,name=UnderMinIsrPartitionCount", false, false, positive, "alert.gt0"},
	{ActiveControllers, "active-controllers", "metric.activecontrollers", "kafka.controller:type=KafkaController,name=ActiveControllerCount", false, false, func(v float64) bool { return v != 1 }, "alert.ne1"},
	{ProduceLatency, "produce-latency", "metric.producelatency", "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce", false, false, nil, ""},
	{FetchLatency, "fetch-latency", "metric.fetchlatency", "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=FetchConsumer", false, false, nil, ""},
	{BytesIn, "bytes-in", "metric.bytesin", "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec", true, false, nil, ""},
	{BytesOut, "bytes-out", "metric.bytesout", "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec", true, false, nil, ""},
	{MessagesIn, "messages-in", "metric.messagesin", "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec", true, false, nil, ""},
	{FailedProduce, "failed-produce", "metric.failedproduce", "kafka.server:type=BrokerTopicMetrics,name=FailedProduceRequestsPerSec", false, true, positive, "alert.gt0"},
	{IsrShrinks, "isr-shrinks", "metric.isrshrinks", "kafka.server:type=ReplicaManager,name=IsrShrinksPerSec", false, true, positive, "alert.gt0"},
	{ConsumerLag, "lag", "metric.lag", "kafka-consumer-groups.sh --describe: LAG", false, false, nil, ""},
}

func positive(v float64) bool { return v > 0 }

// ByName is the metric a claim names.
func ByName(name string) (Metric, bool) {
	for _, m := range Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Quantize is how a sample keeps a value: a rate to three significant
// digits (zero under a thousandth), a count as it is.
func Quantize(id MetricID, v float64) float64 {
	if Metrics[id].Rate {
		return quantize(v)
	}
	return v
}

// Values are one sample: each metric's value, and whether it was
// available (a ZooKeeper-era cluster has no KRaft controller gauges; a
// cluster with no group has no lag).
type Values struct {
	V  [NumMetrics]float64
	Ok [NumMetrics]bool
	// Pending: a meter has events its rates will take in at its next
	// tick, so the rates will move though the world stands still.
	Pending bool
}

// Board is the history: one series per metric and the next instant to
// sample.
type Board struct {
	Series [NumMetrics]Series
	next   sim.Time
	last   Values
	sample func(at sim.Time) Values
	// counts are the Window metrics' recent Count samples, the newest
	// last, back to the first at or before a minute ago.
	counts [NumMetrics][]countSample
}

// countSample is a Window metric's Count at a sample.
type countSample struct {
	t sim.Time
	n float64
}

// windowLen is how far back a Window metric counts.
const windowLen = time.Minute

// increase turns metric i's Count at t into its increase over the last
// minute: the rises between consecutive samples in the window, a fall
// counting as a restart from 0 (a broker that restarted counts afresh).
func (b *Board) increase(i int, t sim.Time, n float64) float64 {
	cs := append(b.counts[i], countSample{t, n})
	for len(cs) > 1 && cs[1].t <= t.Add(-windowLen) {
		cs = cs[1:]
	}
	b.counts[i] = cs
	inc := 0.0
	for k := 1; k < len(cs); k++ {
		if d := cs[k].n - cs[k-1].n; d >= 0 {
			inc += d
		} else {
			inc += cs[k].n
		}
	}
	return inc
}

// New is a board that samples through sample, starting at the first
// instant after now.
func New(now sim.Time, sample func(at sim.Time) Values) *Board {
	return &Board{next: nextInstant(now - 1), sample: sample}
}

// Advance samples every instant in (from, to]; through the span the
// world stood as it is now. Once a sample repeats the last one, no rate
// is left decaying and no meter holds events for its next tick, the rest
// of the span would repeat it too, and is skipped.
func (b *Board) Advance(from, to sim.Time) {
	for b.next <= to {
		v := b.sample(b.next)
		for i := range v.V {
			v.V[i] = Quantize(MetricID(i), v.V[i])
			if Metrics[i].Window && v.Ok[i] {
				v.V[i] = b.increase(i, b.next, v.V[i])
			}
		}
		same := v.V == b.last.V && v.Ok == b.last.Ok
		b.record(b.next, v)
		b.next = nextInstant(b.next)
		if same && !v.Pending && !b.decaying() {
			b.next = nextInstant(to)
			return
		}
	}
}

// decaying: some rate is still above zero (a moving average that will
// keep falling while the world stands still), or a Window metric still
// counts events that will leave its window.
func (b *Board) decaying() bool {
	for i, m := range Metrics {
		if (m.Rate || m.Window) && b.last.V[i] != 0 {
			return true
		}
	}
	return false
}

func (b *Board) record(t sim.Time, v Values) {
	b.last = v
	for i := range v.V {
		if v.Ok[i] {
			b.Series[i].add(t, v.V[i])
		} else if len(b.Series[i].Points) > 0 {
			b.Series[i].add(t, math.NaN())
		}
	}
}

// Change is a metric that moved between two moments.
type Change struct {
	ID            MetricID
	Before, After float64
	// Alert: the alert's condition holds after (it fired, or still
	// fires); Cleared: it held before and no longer does.
	Alert, Cleared bool
}

// Changes are the metrics that moved from from to to, in the page's
// order: a gauge that changed at all; a rate that started, stopped or at
// least doubled. A moving average that decays after a burst changes a
// little every tick, and that is no news.
func (b *Board) Changes(from, to sim.Time) []Change {
	var out []Change
	for i, m := range Metrics {
		before, ok1 := b.Series[i].At(from)
		after, ok2 := b.Series[i].At(to)
		if !ok1 && !ok2 || before == after {
			continue
		}
		if m.Rate && before != 0 && after != 0 && after < 2*before {
			continue
		}
		c := Change{ID: MetricID(i), Before: before, After: after}
		if m.Alert != nil {
			c.Alert = ok2 && m.Alert(after)
			c.Cleared = ok1 && m.Alert(before) && !c.Alert
		}
		out = append(out, c)
	}
	return out
}
