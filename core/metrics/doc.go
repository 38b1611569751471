// Package metrics holds the two metric libraries Kafka reports through,
// computed over the simulation's virtual time so that a run and its
// replay read the same figures:
//
//   - Yammer metrics 2.2.0 (the broker's and controller's kafka.* MBeans:
//     ReplicaManager, BrokerTopicMetrics, RequestMetrics): Meter keeps a
//     count, a mean rate and the 1-, 5- and 15-minute exponentially
//     weighted moving averages Yammer's tick thread updates every 5 s;
//     here the ticks are applied in closed form whenever the meter is
//     marked or read, so a meter costs nothing while nothing happens.
//   - Kafka's own library (org.apache.kafka.common.metrics: the clients,
//     raft-metrics): SampledStat keeps metrics.num.samples windows of
//     metrics.sample.window.ms each, and Rate, Avg and Max measure over the
//     windows still live, as Kafka's SampledStat, Rate, WindowedSum, Avg
//     and Max do.
//
// Nothing here reads the wall clock: every call takes the virtual time.
package metrics
