package zkcontroller

import (
	"fmt"

	"kafkascope/core/jmx"
	"kafkascope/core/metrics"
	"kafkascope/core/sim"
)

// The ZooKeeper-era controller's metrics (Kafka 2.8's KafkaController and
// ControllerStats), on every broker: the kafka.controller:type=
// KafkaController gauges, which the controller updates after each event
// (updateMetrics; 0 on a broker that is not the active controller but
// ActiveControllerCount and ControllerState), and kafka.controller:type=
// ControllerStats: UncleanLeaderElectionsPerSec, and a Yammer Timer per
// controller state (LeaderElectionRateAndTimeMs for BrokerChange, ...)
// that times each event of that state, from when the event thread takes
// it to its end, its ZooKeeper round trips included (the event thread
// waits on them).

// eventStates maps the controller's events to their ControllerState's
// rate-and-time metric (ControllerState.rateAndTimeMetricName) and value.
var eventStates = map[string]struct {
	metric string
	value  int64
}{
	"Startup": {"ControllerChangeRateAndTimeMs", 1}, "Expire": {"ControllerChangeRateAndTimeMs", 1},
	"RegisterBrokerAndReelect": {"ControllerChangeRateAndTimeMs", 1}, "Reelect": {"ControllerChangeRateAndTimeMs", 1},
	"ControllerChange": {"ControllerChangeRateAndTimeMs", 1},
	"BrokerChange":     {"LeaderElectionRateAndTimeMs", 2},
	"TopicChange":      {"TopicChangeRateAndTimeMs", 3}, "PartitionModifications": {"TopicChangeRateAndTimeMs", 3},
	"TopicDeletion": {"TopicDeletionRateAndTimeMs", 4}, "TopicDeletionStopReplicaResponseReceived": {"TopicDeletionRateAndTimeMs", 4},
	"ZkPartitionReassignment": {"PartitionReassignmentRateAndTimeMs", 5}, "ApiPartitionReassignment": {"PartitionReassignmentRateAndTimeMs", 5},
	"PartitionReassignmentIsrChange":     {"PartitionReassignmentRateAndTimeMs", 5},
	"AutoPreferredReplicaLeaderElection": {"AutoLeaderBalanceRateAndTimeMs", 6},
	"ReplicaLeaderElection":              {"ManualLeaderBalanceRateAndTimeMs", 7},
	"ControlledShutdown":                 {"ControlledShutdownRateAndTimeMs", 8},
	"IsrChangeNotification":              {"IsrChangeRateAndTimeMs", 9}, "AlterIsrReceived": {"IsrChangeRateAndTimeMs", 9},
	"ListPartitionReassignments": {"ListPartitionReassignmentRateAndTimeMs", 15},
}

// stateTimers are every state's timer name, in ControllerState's order
// (all registered when the controller is made, whether or not the
// simulator has events of that state).
var stateTimers = []string{
	"ControllerChangeRateAndTimeMs", "LeaderElectionRateAndTimeMs", "TopicChangeRateAndTimeMs", "TopicDeletionRateAndTimeMs",
	"PartitionReassignmentRateAndTimeMs", "AutoLeaderBalanceRateAndTimeMs", "ManualLeaderBalanceRateAndTimeMs",
	"ControlledShutdownRateAndTimeMs", "IsrChangeRateAndTimeMs", "LeaderAndIsrResponseReceivedRateAndTimeMs",
	"LogDirChangeRateAndTimeMs", "ControllerShutdownRateAndTimeMs", "UncleanLeaderElectionEnableRateAndTimeMs",
	"TopicUncleanLeaderElectionEnableRateAndTimeMs", "ListPartitionReassignmentRateAndTimeMs",
	"UpdateMetadataResponseReceivedRateAndTimeMs", "UpdateFeaturesRateAndTimeMs",
}

// controllerStats are the controller's meters, timers and the gauges as
// the last event left them.
type controllerStats struct {
	unclean *metrics.Meter
	timers  map[string]*eventTimer
	state   int64 // ControllerState.value of the event running (0: Idle)
	gauges  zkGauges
}

type eventTimer struct {
	meter     *metrics.Meter
	durations *metrics.Histogram
}

// zkGauges are KafkaController's counts (updateMetrics).
type zkGauges struct {
	offline, imbalance, topics, partitions int64
	topicsToDelete, replicasToDelete       int64
	ineligibleTopics, ineligibleReplicas   int64
}

func (c *Controller) initStats(env *sim.Env) {
	now := env.Now()
	c.stats = &controllerStats{unclean: metrics.NewMeter(now), timers: map[string]*eventTimer{}}
	for _, name := range stateTimers {
		c.stats.timers[name] = &eventTimer{meter: metrics.NewMeter(now),
			durations: metrics.NewHistogram(now, env.Rand(fmt.Sprintf("zk-controller-%d/%s", c.cfg.BrokerID, name)))}
	}
}

// eventStarted and eventDone time an event of its state.
func (c *Controller) eventStarted(name string) {
	if c.stats != nil {
		c.stats.state = eventStates[name].value
	}
}

func (c *Controller) eventDone(env *sim.Env, name string, started sim.Time) {
	if c.stats == nil {
		return
	}
	if st, ok := eventStates[name]; ok {
		t := c.stats.timers[st.metric]
		t.meter.Mark(env.Now(), 1)
		t.durations.Update(env.Now(), env.Now().Sub(started).Milliseconds())
	}
	c.stats.state = 0
	c.stats.gauges = c.countGauges()
}

// countGauges is updateMetrics: the active controller's counts, 0
// elsewhere.
func (c *Controller) countGauges() zkGauges {
	var g zkGauges
	if !c.active || c.ctx == nil {
		return g
	}
	x := c.ctx
	g.topics = int64(len(x.topics))
	g.partitions = int64(len(x.states))
	for _, st := range x.pstate {
		if st == offlinePartition {
			g.offline++
		}
	}
	for tp, li := range x.states {
		if x.del.queued[tp.Topic] {
			continue
		}
		if rs := x.replicas(tp); len(rs) > 0 && li.leader != rs[0] {
			g.imbalance++
		}
	}
	ineligible := map[string]bool{}
	for t := range x.del.halted {
		ineligible[t] = true
	}
	for r, st := range x.del.replicas {
		if !x.del.queued[r.tp.Topic] {
			continue
		}
		if st != deletionSuccessful {
			g.replicasToDelete++
		}
		if st == deletionIneligible {
			g.ineligibleReplicas++
			ineligible[r.tp.Topic] = true
		}
	}
	g.topicsToDelete = int64(len(x.del.queued))
	g.ineligibleTopics = int64(len(ineligible))
	return g
}

// markUnclean is uncleanLeaderElectionRate.mark(): an offline partition's
// leader chosen outside its ISR.
func (c *Controller) markUnclean(now sim.Time) {
	if c.stats != nil {
		c.stats.unclean.Mark(now, 1)
	}
}

// MBeans are the controller's MBeans on its broker, read now.
func (c *Controller) MBeans(now sim.Time) []jmx.MBean {
	if c.stats == nil {
		return nil
	}
	g := c.stats.gauges
	active := int64(0)
	if c.active {
		active = 1
	}
	const kc = "kafka.controller:type=KafkaController,name="
	beans := []jmx.MBean{
		jmx.Gauge(kc+"ActiveControllerCount", active),
		jmx.Gauge(kc+"OfflinePartitionsCount", g.offline),
		jmx.Gauge(kc+"PreferredReplicaImbalanceCount", g.imbalance),
		jmx.Gauge(kc+"ControllerState", c.stats.state),
		jmx.Gauge(kc+"GlobalTopicCount", g.topics),
		jmx.Gauge(kc+"GlobalPartitionCount", g.partitions),
		jmx.Gauge(kc+"TopicsToDeleteCount", g.topicsToDelete),
		jmx.Gauge(kc+"ReplicasToDeleteCount", g.replicasToDelete),
		jmx.Gauge(kc+"TopicsIneligibleToDeleteCount", g.ineligibleTopics),
		jmx.Gauge(kc+"ReplicasIneligibleToDeleteCount", g.ineligibleReplicas),
	}
	const cs = "kafka.controller:type=ControllerStats,name="
	beans = append(beans, jmx.Meter(cs+"UncleanLeaderElectionsPerSec", "elections", c.stats.unclean.Read(now)))
	for _, name := range stateTimers {
		t := c.stats.timers[name]
		beans = append(beans, jmx.Timer(cs+name, t.meter.Read(now), t.durations.Read()))
	}
	return beans
}

// OfflinePartitions is OfflinePartitionsCount as the last event left it
// (0 unless active).
func (c *Controller) OfflinePartitions() int {
	if c.stats == nil {
		return 0
	}
	return int(c.stats.gauges.offline)
}
