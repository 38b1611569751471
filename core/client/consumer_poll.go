package client

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// deliver is the application's poll loop: while it is not busy it takes up
// to max.poll.records buffered records (partition by partition, in
// assignment order), advances the positions past them and hands them over.
// With a processing time the application is busy for that long per record
// and polls again afterwards; the time since its last poll is what
// max.poll.interval.ms bounds.
func (c *Consumer) deliver(env *sim.Env) {
	if c.stopped || c.busy || c.held {
		return
	}
	c.lastPoll = env.Now()
	if c.grp != nil && c.grp.cp != nil {
		c.grp.cp.appPoll(env)
		if c.stopped {
			return
		}
	} else if c.grp != nil {
		c.grp.poll(env)
		if c.grp.preparing {
			return // onJoinPrepare's commit runs inside poll(), which returns nothing meanwhile
		}
	}
	max := c.cfg.MaxPollRecords
	if max <= 0 {
		max = 500
	}
	var out []ConsumerRecord
	for _, tp := range c.assigned {
		ps := c.pos[tp]
		if ps.paused {
			continue
		}
		took := len(ps.buffer) > 0 && len(out) < max
		for len(ps.buffer) > 0 && len(out) < max {
			r := ps.buffer[0]
			ps.buffer = ps.buffer[1:]
			out = append(out, r)
			ps.offset, ps.epoch = r.Offset+1, r.LeaderEpoch
		}
		if ps.offset >= 0 && len(ps.buffer) == 0 && ps.fetched > ps.offset {
			ps.offset = ps.fetched
		}
		if took {
			// FetchCollector.fetchRecords: the lag and lead after the
			// records read, and the answer's share once all are read.
			c.metrics.positionRead(env.Now(), tp, ps, c.isolation() == 1)
			if len(ps.buffer) == 0 && ps.agg != nil {
				ps.agg.drained(env.Now(), tp, ps.aggBytes, ps.aggRecords)
				ps.agg = nil
			}
		}
	}
	if len(out) == 0 {
		return
	}
	if c.cfg.ProcessingTime > 0 {
		c.busy = true
		if c.grp != nil && c.grp.cp != nil {
			c.grp.cp.armPollTimer(env)
		}
		env.After(time.Duration(len(out))*c.cfg.ProcessingTime, "consumer-processing", func(env *sim.Env) {
			c.busy = false
			c.run(env)
		})
	}
	if c.onRecords != nil {
		c.onRecords(env, out)
	}
	if !c.busy {
		env.After(0, "consumer-poll", c.run) // poll again for what is still buffered
	}
}

// Subscribe joins the consumer's group (group.id) with a subscription to
// topics; partitions come from the group's assignment. It returns the
// unknown partition.assignment.strategy class, if any.
func (c *Consumer) Subscribe(env *sim.Env, self sim.Addr, topics []string) string {
	if c.cfg.GroupProtocol == "consumer" {
		c.subscribe848(env, self, topics)
		return ""
	}
	classes, isDefault := c.cfg.AssignmentStrategy, false
	if classes == nil {
		classes, isDefault = DefaultAssignmentStrategyFor(c.cfg.Release), true
	}
	as, bad := ResolveAssignors(classes, isDefault)
	if bad != "" {
		return bad
	}
	proto, _ := rebalanceProtocol(as)
	c.grp = newCoordinator(c, self, as, proto)
	if c.cfg.GroupID == "" {
		c.log(LevelWarn, "Support for using the empty group id by consumers is deprecated and will be removed in the next major release.", loggerLegacyConsumer)
	}
	c.grp.topics = slices.Sorted(slices.Values(topics))
	for _, t := range topics {
		c.meta.Add(t)
	}
	c.meta.RequestUpdate(env)
	c.refreshMetadata(env)
	c.lastPoll = env.Now()
	c.grp.poll(env)
	return ""
}

const loggerLegacyConsumer = "org.apache.kafka.clients.consumer.internals.LegacyKafkaConsumer"

// refreshMetadata asks for metadata every metadata.max.age.ms, which is
// how a subscribed consumer learns that a topic grew.
func (c *Consumer) refreshMetadata(env *sim.Env) {
	env.After(c.cfg.MetadataMaxAge, "consumer-metadata-max-age", func(env *sim.Env) {
		if c.stopped {
			return
		}
		c.meta.RequestUpdate(env)
		c.refreshMetadata(env)
	})
}

// assignment lists the assigned partitions.
func (c *Consumer) assignment() []topicPartition { return slices.Clone(c.assigned) }

func (c *Consumer) assignedTPs() []group.TopicPartition {
	out := make([]group.TopicPartition, len(c.assigned))
	for i, tp := range c.assigned {
		out[i] = group.TopicPartition{Topic: tp.topic, Partition: tp.partition}
	}
	return out
}

// discardFetched counts the fetch answer's share of a partition whose
// buffered records are dropped unread (a seek, a revocation), as
// CompletedFetch.drain does: the records read of it so far, and its
// bytes if any were (the batches were started).
func (c *Consumer) discardFetched(now sim.Time, tp topicPartition, ps *position) {
	if ps.agg == nil {
		return
	}
	read := ps.aggRecords - len(ps.buffer)
	bytes := 0
	if read > 0 {
		bytes = ps.aggBytes
	}
	ps.agg.drained(now, tp, bytes, read)
	ps.agg = nil
}

// revoke drops partitions (and their buffered records).
func (c *Consumer) revoke(env *sim.Env, tps []topicPartition) {
	for _, tp := range tps {
		if ps := c.pos[tp]; ps != nil {
			c.discardFetched(env.Now(), tp, ps)
		}
		delete(c.pos, tp)
	}
	c.assigned = slices.DeleteFunc(c.assigned, func(tp topicPartition) bool { _, ok := c.pos[tp]; return !ok })
}

// addAssigned takes newly assigned partitions: each starts at the group's
// committed offset, or where auto.offset.reset says when there is none.
func (c *Consumer) addAssigned(env *sim.Env, tps []topicPartition) {
	var fresh []topicPartition
	for _, tp := range tps {
		if _, ok := c.pos[tp]; ok {
			continue
		}
		c.meta.Add(tp.topic)
		c.assigned = append(c.assigned, tp)
		c.pos[tp] = &position{offset: -1, epoch: -1, awaiting: true, preferred: -1}
		fresh = append(fresh, tp)
	}
	sorts.Func(c.assigned, func(a, b topicPartition) int {
		if a.topic != b.topic {
			if a.topic < b.topic {
				return -1
			}
			return 1
		}
		return int(a.partition - b.partition)
	})
	if len(fresh) == 0 {
		return
	}
	gen := c.grp.generation
	c.grp.fetchCommitted(env, fresh, func(env *sim.Env, committed map[topicPartition]commitOffset) {
		if c.grp.generation != gen {
			return
		}
		for _, tp := range fresh {
			ps := c.pos[tp]
			if ps == nil || !ps.awaiting {
				continue
			}
			ps.awaiting = false
			if o, ok := committed[tp]; ok {
				ps.seek(o.offset, o.epoch)
				continue
			}
			switch c.cfg.AutoOffsetReset {
			case "earliest":
				ps.reset = SeekEarliest
			case "latest":
				ps.reset = SeekLatest
			default:
				ps.reset = SeekNone
			}
		}
		c.run(env)
	})
}

// Close ends the consumer as KafkaConsumer.close does: a member commits
// (with auto-commit) and leaves its group first; done runs when it is
// closed.
func (c *Consumer) Close(env *sim.Env, done func(env *sim.Env)) {
	if c.grp == nil || c.grp.closed || c.grp.manual {
		c.stopped = true
		done(env)
		return
	}
	c.stopped = true // no more fetches or deliveries; the coordinator still commits and leaves
	fired := false
	finish := func(env *sim.Env) {
		if !fired {
			fired = true
			done(env)
		}
	}
	env.After(commitTimeout, "consumer-close-timeout", finish)
	c.grp.close(env, finish)
}

// Member describes the consumer's group membership for views: member id,
// generation and state ("" without a group).
func (c *Consumer) Member() (memberID string, generation int32, state string) {
	if c.grp == nil {
		return "", -1, ""
	}
	if m := c.grp.cp; m != nil {
		return m.memberID, m.epoch, m.state.String()
	}
	return c.grp.memberID, c.grp.generation, [...]string{"UNJOINED", "PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"}[c.grp.state]
}

// Assignment lists the assigned partitions as "topic-partition".
func (c *Consumer) Assignment() []string {
	out := make([]string, len(c.assigned))
	for i, tp := range c.assigned {
		out[i] = fmt.Sprint(tp)
	}
	return out
}
