package client

import (
	"fmt"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// commitOffset is one partition's offset to commit: the next record to
// read, with the leader epoch of the last record read (-1 unknown).
type commitOffset struct {
	tp     topicPartition
	offset int64
	epoch  int32
}

// formatOffsets renders offsets as Java's Map<TopicPartition,
// OffsetAndMetadata>.toString (assignment order here).
func formatOffsets(offsets []commitOffset) string {
	return event.FormatOffsets(partitionOffsets(offsets))
}

// partitionOffsets is offsets as the notes hold them (a new slice).
func partitionOffsets(offsets []commitOffset) []event.PartitionOffset {
	out := make([]event.PartitionOffset, len(offsets))
	for i, o := range offsets {
		out[i] = event.PartitionOffset{TP: o.tp.storage(), Offset: o.offset, LeaderEpoch: o.epoch}
	}
	return out
}

// consumed is SubscriptionState.allConsumed: the position of every
// assigned partition that has one.
func (c *Consumer) consumed() []commitOffset {
	var out []commitOffset
	for _, tp := range c.assigned {
		if ps := c.pos[tp]; ps.offset >= 0 && !ps.awaiting {
			out = append(out, commitOffset{tp: tp, offset: ps.offset, epoch: ps.epoch})
		}
	}
	return out
}

var errRebalanceInProgress = &Error{Class: "org.apache.kafka.common.errors.RebalanceInProgressException",
	Message: "Offset commit cannot be completed since the consumer is undergoing a rebalance for auto partition assignment. You can try completing the rebalance by calling poll() and then retry the operation."}

var errCommitFailed = &Error{Class: "org.apache.kafka.clients.consumer.CommitFailedException",
	Message: "Commit cannot be completed since the group has already rebalanced and assigned the partitions to another member. This means that the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time message processing. You can address this either by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in poll() with max.poll.records."}

// commitOutsideGeneration is why a member not in a Stable generation
// cannot commit (ConsumerCoordinator.sendOffsetCommitRequest): it is
// rebalancing, or it is out of the group.
func (g *coordinator) commitOutsideGeneration() *Error {
	if g.state == preparingRebalance || g.state == completingRebalance {
		return errRebalanceInProgress
	}
	return &Error{Class: errCommitFailed.Class, Message: "Offset commit cannot be completed since the consumer is not part of an active group for auto partition assignment; it is likely that the consumer was kicked out of the group."}
}

// fencedCommitError is what every commit throws once an asynchronous one
// was fenced (ConsumerCoordinator.invokeCompletedOffsetCommitCallbacks).
func (g *coordinator) fencedCommitError() *Error {
	return &Error{Class: protocol.FENCED_INSTANCE_ID.Exception(),
		Message: "Get fenced exception for group.instance.id " + g.c.cfg.GroupInstanceID + ", current member.id is " + g.memberID}
}

// errRetriableCommit is what a commit that may succeed if tried again
// fails with: no coordinator known, or no answer from it.
var errRetriableCommit = &Error{Class: "org.apache.kafka.clients.consumer.RetriableCommitFailedException",
	Message: "Offset commit failed with a retriable exception. You should retry committing the latest consumed offsets.", retriable: true}

// retriableCommit wraps a retriable partition error as
// ConsumerCoordinator's OffsetCommitResponseHandler does.
func retriableCommit(code protocol.ErrorCode) *Error {
	return &Error{Class: errRetriableCommit.Class, Message: errRetriableCommit.Message,
		Cause: &Error{Class: code.Exception(), Message: code.Message()}, retriable: true}
}

// sendOffsetCommit is the OffsetCommit round trip both protocols share:
// it notes the commit, sends req with offsets to the coordinator and
// reports each committed partition to the consumer. A lost request marks
// the coordinator unknown and fails retriably; the first partition error
// is mapped by failed (the protocols differ there) and the others only
// counted as done, as both Kafka handlers stop at the first failure.
func (g *coordinator) sendOffsetCommit(env *sim.Env, req *protocol.OffsetCommitRequest, offsets []commitOffset,
	failed func(env *sim.Env, tp topicPartition, at int64, code protocol.ErrorCode) *Error, done func(env *sim.Env, err *Error)) {
	env.Note(event.OffsetCommitSent{Client: g.c.cfg.ClientID, Group: g.c.cfg.GroupID, Offsets: partitionOffsets(offsets)})
	for _, o := range offsets {
		req.Add(o.tp.topic, protocol.OffsetCommitRequestPartition{PartitionIndex: o.tp.partition, CommittedOffset: o.offset, CommittedLeaderEpoch: o.epoch})
	}
	at := env.Now()
	g.net.Send(env, g.coord, req, g.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if err != nil {
			g.markUnknown(env, err.Error())
			done(env, errRetriableCommit)
			return
		}
		g.c.metrics.commit.Record(env.Now(), latency(at, env.Now())) // OffsetCommitResponseHandler, whatever the answer
		var failure *Error
		for _, t := range resp.(*protocol.OffsetCommitResponse).Topics {
			for _, p := range t.Partitions {
				tp := topicPartition{t.Name, p.PartitionIndex}
				var at int64
				for _, o := range offsets {
					if o.tp == tp {
						at = o.offset
					}
				}
				if p.ErrorCode == protocol.NONE {
					if g.c.onCommitted != nil {
						g.c.onCommitted(env, t.Name, p.PartitionIndex, at)
					}
					continue
				}
				if failure == nil {
					failure = failed(env, tp, at, p.ErrorCode)
				}
			}
		}
		done(env, failure)
	})
}

// commit sends OffsetCommit for offsets with the member's generation (or
// as a standalone client with generation -1 when it has none); done gets
// nil or the error (retriable ones marked so).
func (g *coordinator) commit(env *sim.Env, offsets []commitOffset, done func(env *sim.Env, err *Error)) {
	if g.cp != nil {
		g.cp.commit(env, offsets, done)
		return
	}
	if len(offsets) == 0 {
		done(env, nil)
		return
	}
	if !g.known {
		done(env, errRetriableCommit)
		return
	}
	if g.asyncFenced {
		done(env, g.fencedCommitError())
		return
	}
	req := &protocol.OffsetCommitRequest{GroupID: g.c.cfg.GroupID, GenerationIDOrMemberEpoch: -1, RetentionTimeMs: -1}
	if g.topics != nil {
		if g.state != stable {
			done(env, g.commitOutsideGeneration())
			return
		}
		req.GenerationIDOrMemberEpoch, req.MemberID, req.GroupInstanceID = g.generation, g.memberID, g.c.cfg.GroupInstanceID
	}
	gen, member := g.generation, g.memberID
	g.sendOffsetCommit(env, req, offsets, func(env *sim.Env, tp topicPartition, at int64, code protocol.ErrorCode) *Error {
		level := LevelError
		if code.Retriable() {
			level = LevelWarn
		}
		g.log(level, fmt.Sprintf("Offset commit failed on partition %s-%d at offset %d: %s", tp.topic, tp.partition, at, code.Message()))
		switch code {
		case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR, protocol.REQUEST_TIMED_OUT:
			g.markUnknown(env, code.String())
			return retriableCommit(code)
		case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.UNKNOWN_TOPIC_OR_PARTITION:
			return retriableCommit(code)
		case protocol.REBALANCE_IN_PROGRESS:
			g.requestRejoin(env, "offset commit failed since group is already rebalancing")
			return errRebalanceInProgress
		case protocol.FENCED_INSTANCE_ID:
			// Fatal for the generation it was sent with; after a
			// newer one, the commit just failed.
			switch {
			case gen == g.generation && member == g.memberID:
				return &Error{Class: code.Exception(), Message: code.Message()}
			case g.state == preparingRebalance:
				return &Error{Class: errRebalanceInProgress.Class, Message: "Offset commit cannot be completed since the consumer member's old generation is fenced by its group instance id, it is possible that this consumer has already participated another rebalance and got a new generation"}
			default:
				return errCommitFailed
			}
		case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION:
			g.resetGeneration(env, code == protocol.UNKNOWN_MEMBER_ID)
			g.requestRejoin(env, "encountered "+code.String()+" from OFFSET_COMMIT response")
			return errCommitFailed
		}
		return &Error{Class: code.Exception(), Message: code.Message()}
	}, done)
}

// commitUntil commits offsets, retrying retriable failures (finding the
// coordinator again if it moved) until deadline; done gets nil, the
// non-retriable error, or the last retriable one once time is up.
func (g *coordinator) commitUntil(env *sim.Env, offsets []commitOffset, deadline sim.Time, done func(env *sim.Env, err *Error)) {
	g.retryCommit(env, g.commit, offsets, deadline, done)
}

// retryCommit runs commit until it succeeds, fails for good, the client
// closes, or the next try would start after deadline. Each retry first
// looks the coordinator up again when it is unknown; the latest consumed
// positions are not re-read (the caller chose offsets).
func (g *coordinator) retryCommit(env *sim.Env, commit func(*sim.Env, []commitOffset, func(*sim.Env, *Error)),
	offsets []commitOffset, deadline sim.Time, done func(env *sim.Env, err *Error)) {
	commit(env, offsets, func(env *sim.Env, err *Error) {
		if err == nil || !err.retriable || env.Now().Add(g.c.cfg.RetryBackoff) >= deadline || g.closed {
			done(env, err)
			return
		}
		env.After(g.c.cfg.RetryBackoff, "consumer-commit-retry", func(env *sim.Env) {
			if !g.known {
				g.lookup(env)
			}
			g.retryCommit(env, commit, offsets, deadline, done)
		})
	})
}

// fetchCommitted reads the group's committed offsets for tps and gives
// done the ones that exist; it retries while the coordinator is loading or
// moving.
func (g *coordinator) fetchCommitted(env *sim.Env, tps []topicPartition, done func(env *sim.Env, offsets map[topicPartition]commitOffset)) {
	if g.closed {
		return
	}
	retry := func(env *sim.Env) {
		env.After(g.c.cfg.RetryBackoff, "consumer-offset-fetch-backoff", func(env *sim.Env) {
			if !g.known {
				g.poll(env)
				env.After(0, "consumer-offset-fetch-retry", func(env *sim.Env) { g.fetchCommitted(env, tps, done) })
				return
			}
			g.fetchCommitted(env, tps, done)
		})
	}
	if !g.known {
		retry(env)
		return
	}
	rg := protocol.OffsetFetchRequestGroup{GroupID: g.c.cfg.GroupID, MemberID: g.memberID, MemberEpoch: g.generation}
	if m := g.cp; m != nil {
		// The member's id and epoch while it has one (CRM:1181-1183).
		rg.MemberID, rg.MemberEpoch = "", -1
		if m.epoch > 0 {
			rg.MemberID, rg.MemberEpoch = m.memberID, m.epoch
		}
	}
	for _, tp := range tps {
		if n := len(rg.Topics); n > 0 && rg.Topics[n-1].Name == tp.topic {
			rg.Topics[n-1].PartitionIndexes = append(rg.Topics[n-1].PartitionIndexes, tp.partition)
		} else {
			rg.Topics = append(rg.Topics, protocol.OffsetFetchRequestTopics{Name: tp.topic, PartitionIndexes: []int32{tp.partition}})
		}
	}
	req := &protocol.OffsetFetchRequest{Groups: []protocol.OffsetFetchRequestGroup{rg}, RequireStable: true}
	g.net.Send(env, g.coord, req, g.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if g.closed {
			return
		}
		if err != nil {
			g.markUnknown(env, err.Error())
			retry(env)
			return
		}
		r := resp.(*protocol.OffsetFetchResponse)
		if len(r.Groups) == 0 {
			retry(env)
			return
		}
		switch code := r.Groups[0].ErrorCode; code {
		case protocol.NONE:
		case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
			g.markUnknown(env, code.String())
			retry(env)
			return
		default:
			retry(env)
			return
		}
		out := map[topicPartition]commitOffset{}
		for _, t := range r.Groups[0].Topics {
			for _, p := range t.Partitions {
				if p.ErrorCode == protocol.UNSTABLE_OFFSET_COMMIT {
					// A transaction's offsets wait for its marker
					// (UnstableOffsetCommitException): ask again.
					retry(env)
					return
				}
				if p.ErrorCode == protocol.NONE && p.CommittedOffset >= 0 {
					tp := topicPartition{t.Name, p.PartitionIndex}
					out[tp] = commitOffset{tp: tp, offset: p.CommittedOffset, epoch: p.CommittedLeaderEpoch}
				}
			}
		}
		if g.c.onOffsetsFetched != nil {
			g.c.onOffsetsFetched(env, g.coord)
		}
		done(env, out)
	})
}

// commitTimeout bounds how long close waits for its commit and leave.
const commitTimeout = 30 * time.Second
