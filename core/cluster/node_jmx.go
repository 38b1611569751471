package cluster

import (
	"kafkascope/core/jdk"
	"kafkascope/core/jmx"
	"kafkascope/core/metrics"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// serveJMX answers a JMX client's query on jmx.Port with the MBeans this
// process has registered, read now. It takes only jmx.Query messages
// (anything else there is refused like any unknown port's).
func (n *Node) serveJMX(env *sim.Env, e *sim.Envelope) bool {
	q, ok := e.Msg.(*jmx.Query)
	if !ok {
		return false
	}
	env.Send(e.To, e.From, jmx.Serve(q, n.jmxServer, nodeRegistry{n, env.Now()}))
	return true
}

// nodeRegistry is a node's platform MBean server: the broker's MBeans,
// then the controller's on a voter.
type nodeRegistry struct {
	n   *Node
	now sim.Time
}

func (r nodeRegistry) MBeans() []jmx.MBean {
	beans := r.n.Broker.MBeans(r.now)
	if r.n.Controller != nil {
		beans = append(beans, r.n.Controller.MBeans(r.now)...)
	}
	if r.n.ZkController != nil {
		beans = append(beans, r.n.ZkController.MBeans(r.now)...)
	}
	if r.n.Raft != nil {
		beans = append(beans, raftMBean(r.n.Raft.Metrics(r.now)))
	}
	if t := r.n.logFlush; t != nil {
		calls := t.meter.Read(r.now)
		// Every duration is 0 ms: the histogram reads 0 in every figure
		// but its count, the meter's.
		beans = append(beans, jmx.Timer("kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs", calls, metrics.HistogramReading{Count: calls.Count}))
	}
	return beans
}

// logFlushTimer is kafka.log:type=LogFlushStats,name=LogFlushRateAndTimeMs,
// the Yammer Timer that times each LogSegment.flush on the node (3.8's
// LogSegment, registered as the JVM loads it): every log on the node's
// disk, the partitions' and the metadata log. A flush takes no virtual
// time, so every duration is 0 ms, and the timer's histogram reads 0 in
// every figure but its count: it keeps the count alone (a reservoir of
// zeros would cost a random draw per flush, a few million a simulated
// week, to say the same).
type logFlushTimer struct {
	meter *metrics.Meter
}

func newLogFlushTimer(now sim.Time) *logFlushTimer {
	return &logFlushTimer{meter: metrics.NewMeter(now)}
}

// flushed records n segment flushes at at.
func (t *logFlushTimer) flushed(at sim.Time, n int) {
	t.meter.Mark(at, int64(n))
}

// raftMBean is the raft client's kafka.server:type=raft-metrics MBean.
// Its attributes are Kafka metrics (org.apache.kafka.common.metrics)
// through JmxReporter: a measurable gauge reads as a double, so the
// leader's id prints as 3.0; current-state is a string.
func raftMBean(m raft.RaftMetrics) jmx.MBean {
	d := func(x int64) string { return jdk.DoubleToString(float64(x)) }
	return jmx.MBean{Name: jmx.MustObjectName("kafka.server:type=raft-metrics"), Attrs: []jmx.Attribute{
		{Name: "current-state", Value: m.State},
		{Name: "current-leader", Value: d(int64(m.Leader))},
		{Name: "current-vote", Value: d(int64(m.Vote))},
		{Name: "current-epoch", Value: d(int64(m.Epoch))},
		{Name: "high-watermark", Value: d(m.HighWatermark)},
		{Name: "log-end-offset", Value: d(m.LogEndOffset)},
		{Name: "log-end-epoch", Value: d(int64(m.LogEndEpoch))},
		{Name: "append-records-rate", Value: jdk.DoubleToString(m.AppendRecordsRate)},
		{Name: "fetch-records-rate", Value: jdk.DoubleToString(m.FetchRecordsRate)},
		{Name: "election-latency-avg", Value: jdk.DoubleToString(m.ElectionLatencyAvg)},
		{Name: "election-latency-max", Value: jdk.DoubleToString(m.ElectionLatencyMax)},
		{Name: "commit-latency-avg", Value: jdk.DoubleToString(m.CommitLatencyAvg)},
		{Name: "commit-latency-max", Value: jdk.DoubleToString(m.CommitLatencyMax)},
	}}
}

// MBeans is what node id's JMX server would answer now (nil when the node
// is not running), for tests and the UI.
func (c *Cluster) MBeans(id int32) []jmx.MBean {
	n := c.nodes[id]
	if n == nil || c.state[id] != NodeRunning {
		return nil
	}
	return nodeRegistry{n, c.World.Now()}.MBeans()
}
