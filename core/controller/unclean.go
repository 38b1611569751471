package controller

import (
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/sim"
)

// maybeScheduleUncleanCheck arms the periodic unclean-election check when
// some partition has no leader and no check is pending. Like Kafka's
// QuorumController, it runs after every metadata write, so the first check
// comes unclean.leader.election.interval.ms (5 minutes) after the write that
// found a leaderless partition; turning unclean.leader.election.enable on
// with kafka-configs.sh therefore takes effect at the next check, not at
// once. Kafka 3.8 has no such check (it came with KAFKA-12670 in 3.9):
// there a leaderless partition is elected uncleanly only when something
// else changes it, such as a replica's broker coming back.
func (c *Controller) maybeScheduleUncleanCheck(env *sim.Env) {
	if !c.cfg.Release.Version.AtLeast(3, 9) || c.uncleanPending || !c.someLeaderless() {
		return
	}
	c.uncleanPending = true
	every := time.Duration(c.conf().BrokerInt("unclean.leader.election.interval.ms")) * time.Millisecond
	c.after(env, every, "unclean-leader-election-check", func(env *sim.Env) {
		c.uncleanPending = false
		c.electUncleanLeaders(env)
		c.maybeScheduleUncleanCheck(env)
	})
}

func (c *Controller) someLeaderless() bool {
	found := false
	c.eachPartition(func(_ *metadata.Topic, _ int32, p *metadata.PartitionState) {
		found = found || p.Leader == metadata.NoLeader
	})
	return found
}

// electUncleanLeaders gives every leaderless partition whose topic allows
// unclean election the first live replica in assignment order
// (ReplicationControlManager.maybeElectUncleanLeaders).
func (c *Controller) electUncleanLeaders(env *sim.Env) {
	var recs []metadata.Record
	c.eachPartition(func(t *metadata.Topic, i int32, p *metadata.PartitionState) {
		if p.Leader != metadata.NoLeader || c.electionFor(t.Name) != ElectionUnclean {
			return
		}
		if rec := partitionChange(t.ID, i, p, nil, ElectionUnclean, c.acceptable, c.elrFor(t.Name, p)); rec != nil {
			recs = append(recs, rec)
		}
	})
	c.appendRecords(env, recs...)
}
