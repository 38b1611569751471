package dashboard

import (
	"cmp"
	"math"
	"slices"
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
// cluster with no group has no lag); and each running broker's own.
type Values struct {
	V  [NumMetrics]float64
	Ok [NumMetrics]bool
	// Pending: a meter has events its rates will take in at its next
	// tick, so the rates will move though the world stands still.
	Pending bool
	// Brokers are the running brokers' own values, by id ascending (the
	// metrics a broker reports itself; the cluster's offline partitions
	// and the groups' lag are no broker's).
	Brokers []BrokerValues
}

// BrokerValues is one broker's sample.
type BrokerValues struct {
	ID int32
	V  [NumMetrics]float64
	Ok [NumMetrics]bool
}

// Track is the history of one subject: the cluster's totals, or one
// broker's own values.
type Track struct {
	Series [NumMetrics]Series
	// counts are the Window metrics' recent Count samples, the newest
	// last, back to the first at or before a minute ago.
	counts [NumMetrics][]countSample
	lastV  [NumMetrics]float64
	lastOk [NumMetrics]bool
}

// BrokerTrack is one broker's history.
type BrokerTrack struct {
	ID int32
	Track
}

// Board is the history: the cluster's totals (Series), each broker's own
// (Brokers, by id), and the next instant to sample.
type Board struct {
	Track
	Brokers []*BrokerTrack
	next    sim.Time
	sample  func(at sim.Time) Values
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
func (k *Track) increase(i int, t sim.Time, n float64) float64 {
	cs := append(k.counts[i], countSample{t, n})
	for len(cs) > 1 && cs[1].t <= t.Add(-windowLen) {
		cs = cs[1:]
	}
	k.counts[i] = cs
	inc := 0.0
	for j := 1; j < len(cs); j++ {
		if d := cs[j].n - cs[j-1].n; d >= 0 {
			inc += d
		} else {
			inc += cs[j].n
		}
	}
	return inc
}

// take turns sampled values into what the track keeps (rates quantized,
// Window counts into their increase), records them at t (a metric without
// a value is a gap), and reports whether they repeat the last ones and
// whether some rate or window is still above zero.
func (k *Track) take(t sim.Time, v *[NumMetrics]float64, ok *[NumMetrics]bool) (same, moving bool) {
	for i := range v {
		v[i] = Quantize(MetricID(i), v[i])
		if Metrics[i].Window && ok[i] {
			v[i] = k.increase(i, t, v[i])
		}
	}
	same = *v == k.lastV && *ok == k.lastOk
	k.lastV, k.lastOk = *v, *ok
	for i := range v {
		switch {
		case ok[i]:
			k.Series[i].add(t, v[i])
		case len(k.Series[i].Points) > 0:
			k.Series[i].add(t, math.NaN())
		}
		if (Metrics[i].Rate || Metrics[i].Window) && v[i] != 0 {
			moving = true
		}
	}
	return same, moving
}

// broker is broker id's track, added in id order when first seen.
func (b *Board) broker(id int32) *BrokerTrack {
	i, found := slices.BinarySearchFunc(b.Brokers, id, func(t *BrokerTrack, id int32) int { return cmp.Compare(t.ID, id) })
	if !found {
		b.Brokers = slices.Insert(b.Brokers, i, &BrokerTrack{ID: id})
	}
	return b.Brokers[i]
}

// New is a board that samples through sample: once at now, so that a
// page opened on a fresh cluster has figures before the first instant
// passes, then at every instant after it.
func New(now sim.Time, sample func(at sim.Time) Values) *Board {
	b := &Board{next: now, sample: sample}
	b.Advance(now, now)
	return b
}

// Advance samples every instant in (from, to]; through the span the
// world stood as it is now. Once a sample repeats the last one, no rate
// or window is left moving and no meter holds events for its next tick,
// the rest of the span would repeat it too, and is skipped.
func (b *Board) Advance(from, to sim.Time) {
	for b.next <= to {
		t := b.next
		v := b.sample(t)
		same, moving := b.take(t, &v.V, &v.Ok)
		seen := map[int32]bool{}
		for i := range v.Brokers {
			bv := &v.Brokers[i]
			seen[bv.ID] = true
			s, m := b.broker(bv.ID).take(t, &bv.V, &bv.Ok)
			same, moving = same && s, moving || m
		}
		for _, bt := range b.Brokers {
			if !seen[bt.ID] { // down: a gap
				var none [NumMetrics]float64
				var notOk [NumMetrics]bool
				s, _ := bt.take(t, &none, &notOk)
				same = same && s
			}
		}
		b.next = nextInstant(t)
		if same && !v.Pending && !moving {
			b.next = nextInstant(to)
			return
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
