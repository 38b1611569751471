package client

import (
	"fmt"
	"slices"

	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// ConsumerGroupMetadata is KafkaConsumer.groupMetadata(): what a
// transactional producer sends with a group's offsets so that the group
// coordinator can refuse a member that is no longer in the group (KIP-447).
type ConsumerGroupMetadata struct {
	GroupID         string
	GenerationID    int32 // the classic generation or the member epoch; -1 for none
	MemberID        string
	GroupInstanceID string
}

// GroupMetadata is the consumer's group metadata: its current generation
// (or member epoch) and member id, -1 and "" outside a generation.
func (c *Consumer) GroupMetadata() ConsumerGroupMetadata {
	md := ConsumerGroupMetadata{GroupID: c.cfg.GroupID, GenerationID: -1, GroupInstanceID: c.cfg.GroupInstanceID}
	if g := c.grp; g != nil {
		if g.cp != nil {
			md.GenerationID, md.MemberID = g.cp.epoch, g.cp.memberID
		} else if g.generation >= 0 {
			md.GenerationID, md.MemberID = g.generation, g.memberID
		}
	}
	return md
}

// TxnOffset is one partition's offset sent to a transaction: the next
// offset to consume (OffsetAndMetadata).
type TxnOffset struct {
	TP          group.TopicPartition
	Offset      int64
	LeaderEpoch int32 // -1: unknown
}

// txnOffsets is a sendOffsetsToTransaction in progress: AddOffsetsToTxn to
// the transaction coordinator, then TxnOffsetCommit to the group's
// coordinator (found with FindCoordinator) until every partition is
// committed.
type txnOffsets struct {
	md      ConsumerGroupMetadata
	pending []TxnOffset
	added   bool     // AddOffsetsToTxn answered
	coord   sim.Addr // the group coordinator, "" while unknown
	done    func(env *sim.Env, err *Error)
}

// SendOffsetsToTransaction is KafkaProducer.sendOffsetsToTransaction:
// the consumer's position becomes part of the transaction, committed or
// aborted with its records. done runs once the group coordinator has the
// offsets (as pending), or with the error.
func (p *Producer) SendOffsetsToTransaction(env *sim.Env, offsets []TxnOffset, md ConsumerGroupMetadata, done func(env *sim.Env, err *Error)) {
	t := p.txn
	switch {
	case t == nil:
		done(env, &Error{Class: "java.lang.IllegalStateException", Message: "Transactional method invoked on a non-transactional producer."})
		return
	case t.state == txnFatalError || t.state == txnAbortableError:
		done(env, t.errorState())
		return
	case t.state != txnInTransaction:
		done(env, &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Cannot send offsets if a transaction is not in progress (currentState= " + t.state.String() + ")"})
		return
	case md.GroupID == "":
		done(env, &Error{Class: "org.apache.kafka.common.errors.InvalidGroupIdException", Message: "The consumer group id is invalid."})
		return
	case len(offsets) == 0:
		done(env, nil) // "sendOffsetsToTransaction with no offsets is a no-op"
		return
	}
	t.offsets = &txnOffsets{md: md, pending: slices.Clone(offsets), done: done}
	p.run(env)
}

// txnOffsetsStep sends the offsets call's next request, if it has one:
// true when it did (or waits), so txnStep sends nothing else.
func (p *Producer) txnOffsetsStep(env *sim.Env) bool {
	t := p.txn
	o := t.offsets
	if o == nil || t.state != txnInTransaction && t.state != txnCommitting {
		return false
	}
	switch {
	case !o.added && t.v2:
		// Under v2 no AddOffsetsToTxn: the group coordinator's broker
		// adds __consumer_offsets when TxnOffsetCommit v5 arrives.
		o.added, t.started = true, true
		return p.txnOffsetsStep(env)
	case !o.added && t.coordinator == "":
		p.findTxnCoordinator(env)
	case !o.added:
		p.txnRequest(env, &protocol.AddOffsetsToTxnRequest{TransactionalID: t.id, ProducerID: p.idem.producerID, ProducerEpoch: p.idem.epoch, GroupID: o.md.GroupID})
	case o.coord == "":
		p.findGroupCoordinator(env, o)
	default:
		p.txnOffsetCommit(env, o)
	}
	return true
}

// offsetsAdded is AddOffsetsToTxnHandler's success: the transaction now
// holds the group's __consumer_offsets partition.
func (p *Producer) offsetsAdded() {
	if o := p.txn.offsets; o != nil {
		o.added = true
		p.txn.started = true
	}
}

// findGroupCoordinator looks the group's coordinator up
// (lookupCoordinator(GROUP, groupId)).
func (p *Producer) findGroupCoordinator(env *sim.Env, o *txnOffsets) {
	t := p.txn
	t.inFlight = true
	req := &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeGroup, CoordinatorKeys: []string{o.md.GroupID}}
	p.net.Send(env, p.leastLoadedNode(""), req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		t.inFlight = false
		r, _ := resp.(*protocol.FindCoordinatorResponse)
		if err == nil && r != nil && len(r.Coordinators) > 0 && r.Coordinators[0].ErrorCode == protocol.NONE {
			co := r.Coordinators[0]
			o.coord = sim.Addr(fmt.Sprintf("%s:%d", co.Host, co.Port))
		} else {
			p.txnRetryLater(env)
		}
		p.run(env)
	})
}

// txnOffsetCommit sends the pending offsets to the group coordinator and
// handles the answer per partition as TxnOffsetCommitHandler does.
func (p *Producer) txnOffsetCommit(env *sim.Env, o *txnOffsets) {
	t := p.txn
	t.inFlight = true
	req := &protocol.TxnOffsetCommitRequest{TransactionalID: t.id, GroupID: o.md.GroupID, ProducerID: p.idem.producerID, ProducerEpoch: p.idem.epoch,
		GenerationID: o.md.GenerationID, MemberID: o.md.MemberID, GroupInstanceID: o.md.GroupInstanceID, Version: p.txnOffsetCommitVersion()}
	for _, x := range o.pending {
		i := slices.IndexFunc(req.Topics, func(tt protocol.TxnOffsetCommitTopic) bool { return tt.Name == x.TP.Topic })
		if i < 0 {
			req.Topics = append(req.Topics, protocol.TxnOffsetCommitTopic{Name: x.TP.Topic})
			i = len(req.Topics) - 1
		}
		req.Topics[i].Partitions = append(req.Topics[i].Partitions, protocol.TxnOffsetCommitPartition{PartitionIndex: x.TP.Partition, CommittedOffset: x.Offset, CommittedLeaderEpoch: x.LeaderEpoch})
	}
	p.net.Send(env, o.coord, req, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		t.inFlight = false
		r, _ := resp.(*protocol.TxnOffsetCommitResponse)
		if err != nil || r == nil {
			o.coord = ""
			p.txnRetryLater(env)
			p.run(env)
			return
		}
		var ended *Error
		for _, tr := range r.Topics {
			for _, pr := range tr.Partitions {
				tp := group.TopicPartition{Topic: tr.Name, Partition: pr.PartitionIndex}
				switch code := pr.ErrorCode; {
				case ended != nil:
				case code == protocol.NONE:
					o.pending = slices.DeleteFunc(o.pending, func(x TxnOffset) bool { return x.TP == tp })
				case code == protocol.COORDINATOR_NOT_AVAILABLE, code == protocol.NOT_COORDINATOR, code == protocol.REQUEST_TIMED_OUT:
					o.coord = ""
				case code.Retriable():
				case code == protocol.UNKNOWN_MEMBER_ID, code == protocol.ILLEGAL_GENERATION:
					ended = &Error{Class: "org.apache.kafka.clients.consumer.CommitFailedException",
						Message: "Transaction offset Commit failed due to consumer group metadata mismatch: " + code.Message()}
					t.state, t.err = txnAbortableError, ended
				case code == protocol.PRODUCER_FENCED, code == protocol.INVALID_PRODUCER_EPOCH:
					ended = &Error{Class: classProducerFenced, Message: protocol.PRODUCER_FENCED.Message()}
					t.state, t.err = txnFatalError, ended
				case code == protocol.FENCED_INSTANCE_ID, code == protocol.GROUP_AUTHORIZATION_FAILED, code == protocol.TRANSACTION_ABORTABLE:
					ended = &Error{Class: code.Exception(), Message: code.Message()}
					t.state, t.err = txnAbortableError, ended
				default:
					ended = &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Unexpected error in TxnOffsetCommitResponse: " + code.Message()}
					t.state, t.err = txnFatalError, ended
				}
			}
		}
		switch {
		case ended != nil:
			p.txnFailCalls(env) // the offsets call among them
		case len(o.pending) == 0:
			t.offsets = nil
			o.done(env, nil)
		default:
			p.txnRetryLater(env)
		}
		p.run(env)
	})
}
