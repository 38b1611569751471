package controller

import (
	"fmt"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleElectLeaders runs the elections an admin asked for, with Kafka's
// outcomes: ELECTION_NOT_NEEDED when the partition already has its
// preferred leader (preferred) or any leader (unclean), otherwise the
// election, or PREFERRED_LEADER_NOT_AVAILABLE / ELIGIBLE_LEADERS_NOT_AVAILABLE
// when it would change nothing. Asked for every partition, partitions that
// need no election are left out of the answer.
func (c *Controller) handleElectLeaders(env *sim.Env, from sim.Addr, req *protocol.ElectLeadersRequest) {
	resp := &protocol.ElectLeadersResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var recs []metadata.Record
	if req.TopicPartitions == nil {
		for _, name := range c.image.TopicNames() {
			tr := protocol.ElectTopicResult{Topic: name}
			for i := range c.image.Topics[name].Partitions {
				pr, rec := c.electLeader(name, int32(i), req.ElectionType)
				if rec != nil {
					recs = append(recs, rec)
				}
				if pr.ErrorCode != protocol.ELECTION_NOT_NEEDED {
					tr.Partitions = append(tr.Partitions, pr)
				}
			}
			resp.Results = append(resp.Results, tr)
		}
	} else {
		for _, tp := range req.TopicPartitions {
			tr := protocol.ElectTopicResult{Topic: tp.Topic}
			for _, i := range tp.Partitions {
				pr, rec := c.electLeader(tp.Topic, i, req.ElectionType)
				if rec != nil {
					recs = append(recs, rec)
				}
				tr.Partitions = append(tr.Partitions, pr)
			}
			resp.Results = append(resp.Results, tr)
		}
	}
	c.appendRecords(env, recs...)
	c.reply(env, from, resp)
}

func (c *Controller) electLeader(topic string, index int32, electionType int8) (protocol.ElectPartitionResult, metadata.Record) {
	res := protocol.ElectPartitionResult{PartitionID: index}
	t := c.image.Topics[topic]
	if t == nil {
		res.ErrorCode, res.ErrorMessage = protocol.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as "+topic
		return res, nil
	}
	if index < 0 || int(index) >= len(t.Partitions) {
		res.ErrorCode, res.ErrorMessage = protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("No such partition as %s-%d", topic, index)
		return res, nil
	}
	p := t.Partitions[index]
	et := ElectionPreferred
	if electionType == protocol.ElectUnclean {
		et = ElectionUnclean
	}
	if et == ElectionPreferred && len(p.Replicas) > 0 && p.Leader == p.Replicas[0] || et == ElectionUnclean && p.Leader >= 0 {
		res.ErrorCode = protocol.ELECTION_NOT_NEEDED
		return res, nil
	}
	rec := partitionChange(t.ID, index, p, nil, et, c.acceptable, c.elrFor(t.Name, p))
	if rec == nil {
		res.ErrorCode = protocol.PREFERRED_LEADER_NOT_AVAILABLE
		if et == ElectionUnclean {
			res.ErrorCode = protocol.ELIGIBLE_LEADERS_NOT_AVAILABLE
		}
		return res, nil
	}
	return res, rec
}

// scheduleLeaderBalance runs the automatic preferred-leader rebalance
// (auto.leader.rebalance.enable) every leader.imbalance.check.interval.seconds:
// a broker that is the preferred (first) replica of partitions it does not
// lead, for more than leader.imbalance.per.broker.percentage of them, gets
// them back through preferred elections.
func (c *Controller) scheduleLeaderBalance(env *sim.Env) {
	every := time.Duration(c.conf().BrokerInt("leader.imbalance.check.interval.seconds")) * time.Second
	c.after(env, every, "leader-imbalance-check", func(env *sim.Env) {
		if c.conf().BrokerBool("auto.leader.rebalance.enable") {
			c.balanceLeaders(env)
		}
		c.scheduleLeaderBalance(env)
	})
}

func (c *Controller) balanceLeaders(env *sim.Env) {
	if recs := c.leaderBalanceRecords(); len(recs) > 0 {
		env.Note(event.LeadersRebalanced{Count: len(recs)})
		c.appendRecords(env, recs...)
	}
}

// leaderBalanceRecords are the preferred elections a leader rebalance
// would make now (none: the check does nothing). It changes nothing.
func (c *Controller) leaderBalanceRecords() []metadata.Record {
	limit := float64(c.conf().BrokerInt("leader.imbalance.per.broker.percentage")) / 100
	preferred := map[int32]int{}
	notLeading := map[int32]int{}
	c.eachPartition(func(_ *metadata.Topic, _ int32, p *metadata.PartitionState) {
		if len(p.Replicas) == 0 {
			return
		}
		pref := p.Replicas[0]
		preferred[pref]++
		if p.Leader != pref {
			notLeading[pref]++
		}
	})
	var recs []metadata.Record
	c.eachPartition(func(t *metadata.Topic, i int32, p *metadata.PartitionState) {
		if len(p.Replicas) == 0 || p.Leader == p.Replicas[0] {
			return
		}
		pref := p.Replicas[0]
		if float64(notLeading[pref])/float64(preferred[pref]) <= limit {
			return
		}
		if rec := partitionChange(t.ID, i, p, nil, ElectionPreferred, c.acceptable, c.elrFor(t.Name, p)); rec != nil && rec.Leader == pref {
			recs = append(recs, rec)
		}
	})
	return recs
}
