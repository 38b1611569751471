package client

import (
	"time"

	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// The application's side of KafkaConsumer for a program that drives its
// own poll loop (the transactional copier): it holds the consumer between
// polls, assigns partitions that start from the group's committed
// offsets, seeks back to them, and asks for end offsets.

// Hold stops deliveries: the application is between polls. Records keep
// being fetched into the buffers.
func (c *Consumer) Hold() { c.held = true }

// Release is poll(): buffered records are delivered to OnRecords (at once
// if there are any), and deliveries go on until the next Hold.
func (c *Consumer) Release(env *sim.Env) {
	c.held = false
	c.run(env)
}

// AssignCommitted is assign() for a consumer with a group.id: each
// partition starts at the group's committed offset (an OffsetFetch that
// requires stable offsets), or where auto.offset.reset says, as
// KafkaConsumer.position does; the group is not joined.
func (c *Consumer) AssignCommitted(env *sim.Env, self sim.Addr, topic string, partitions []int32) {
	if c.grp == nil {
		c.grp = newCoordinator(c, self, nil, 0)
		c.grp.manual = true
		c.grp.lookup(env)
	}
	tps := make([]topicPartition, len(partitions))
	for i, p := range partitions {
		tps[i] = topicPartition{topic, p}
	}
	c.addAssigned(env, tps)
	c.run(env)
}

// Position is the partition's position, or false while it is not known
// (KafkaConsumer.position blocks until it is).
func (c *Consumer) Position(tp group.TopicPartition) (int64, bool) {
	ps := c.pos[topicPartition{tp.Topic, tp.Partition}]
	if ps == nil || ps.offset < 0 || ps.awaiting {
		return 0, false
	}
	return ps.offset, true
}

// SeekToCommitted moves every assigned partition back to the group's
// committed offset, or to the beginning without one (what
// TransactionalMessageCopier does after an abort), dropping what was
// buffered; done runs once the positions are set.
func (c *Consumer) SeekToCommitted(env *sim.Env, done func(env *sim.Env)) {
	tps := c.assignment()
	for _, tp := range tps {
		ps := c.pos[tp]
		c.discardFetched(env.Now(), tp, ps)
		ps.buffer, ps.awaiting, ps.seeks = nil, true, ps.seeks+1
	}
	c.grp.fetchCommitted(env, tps, func(env *sim.Env, committed map[topicPartition]commitOffset) {
		for _, tp := range tps {
			ps := c.pos[tp]
			if ps == nil {
				continue
			}
			ps.awaiting = false
			if o, ok := committed[tp]; ok {
				ps.seek(o.offset, o.epoch)
			} else {
				ps.lookUp(SeekEarliest) // seekToBeginning
			}
		}
		done(env)
		c.run(env)
	})
}

// EndOffset is endOffsets for one partition: ListOffsets (latest, the
// consumer's isolation level: the LSO for read_committed) to its leader,
// retried until it answers.
func (c *Consumer) EndOffset(env *sim.Env, tp group.TopicPartition, done func(env *sim.Env, offset int64)) {
	c.meta.Add(tp.Topic)
	var ask func(env *sim.Env)
	again := func(env *sim.Env) {
		c.meta.RequestUpdate(env)
		env.After(100*time.Millisecond, "consumer-end-offset-backoff", ask)
	}
	ask = func(env *sim.Env) {
		if c.stopped {
			return
		}
		addr, _, ok := c.meta.Leader(tp.Topic, tp.Partition)
		if !ok {
			again(env)
			return
		}
		req := &protocol.ListOffsetsRequest{ReplicaID: -1, IsolationLevel: c.isolation()}
		req.Add(tp.Topic, protocol.ListOffsetsPartition{Index: tp.Partition, CurrentLeaderEpoch: -1, Timestamp: protocol.LatestTimestamp})
		c.net.Send(env, addr, req, c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
			if err != nil {
				again(env)
				return
			}
			for _, t := range resp.(*protocol.ListOffsetsResponse).Topics {
				for _, pr := range t.Partitions {
					if pr.ErrorCode == protocol.NONE {
						done(env, pr.Offset)
						return
					}
				}
			}
			again(env)
		})
	}
	ask(env)
}

// AssignedPartitions is assignment(), in assignment order.
func (c *Consumer) AssignedPartitions() []group.TopicPartition { return c.assignedTPs() }
