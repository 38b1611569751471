package client

import (
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// Transactions v2 (KIP-890 part 2, Kafka 4.0): a producer whose cluster
// has finalized transaction.version 2 sends no AddPartitionsToTxn or
// AddOffsetsToTxn (each partition's leader, and the group coordinator's
// broker for __consumer_offsets, adds the partition to the transaction
// when the first transactional batch or offset commit arrives: Produce
// v12, TxnOffsetCommit v5), and its EndTxn (v5) bumps the producer epoch
// at every commit and abort: the answer carries the new epoch, which the
// producer adopts, its sequences starting again at 0 in every partition.
//
// The producer learns the finalized level from the ApiVersions answer
// that opens a connection (ApiVersions.update keeps the features of the
// highest FinalizedFeaturesEpoch). kafkascope's clients skip ApiVersions
// on the wire except where its answer is read: a Kafka 4 producer
// exchanges it on each new connection to its transaction coordinator,
// which is where the level matters. It decides at initTransactions and
// when a commit or abort begins (after that end's EndTxn is built), never
// in the middle of a transaction
// (TransactionManager.maybeUpdateTransactionV2Enabled).

// txnFeatures is what the producer knows of the cluster's finalized
// features: the transaction.version level and the epoch it came with.
type txnFeatures struct {
	from  sim.Addr // the coordinator connection the last ApiVersions went over
	epoch int64    // FinalizedFeaturesEpoch; -1 before any answer
	level int16    // finalized transaction.version
}

// wantsApiVersions: a Kafka 4 producer has not yet exchanged ApiVersions
// on its connection to the coordinator (3.x and older producers have no
// use for the answer).
func (p *Producer) wantsApiVersions() bool {
	t := p.txn
	return p.cfg.Release.AtLeast(4, 0) && t.coordinator != "" && t.features.from != t.coordinator
}

// txnApiVersions sends ApiVersions to the coordinator and keeps the
// finalized features if they are newer than those known.
func (p *Producer) txnApiVersions(env *sim.Env) {
	t := p.txn
	t.inFlight = true
	to := t.coordinator
	p.net.Send(env, to, &protocol.ApiVersionsRequest{}, p.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		t.inFlight = false
		r, _ := resp.(*protocol.ApiVersionsResponse)
		if err != nil || r == nil || r.ErrorCode != protocol.NONE {
			t.coordinator = ""
			p.txnRetryLater(env)
			p.run(env)
			return
		}
		t.features.from = to
		if r.FinalizedFeaturesEpoch > t.features.epoch {
			t.features.epoch, t.features.level = r.FinalizedFeaturesEpoch, 0
			for _, f := range r.FinalizedFeatures {
				if f.Name == release.TransactionVersionFeature {
					t.features.level = f.MaxLevel
				}
			}
		}
		p.run(env)
	})
}

// maybeUpdateTransactionV2 takes the known level as the producer's
// protocol. A switch to v2 after initTransactions needs one epoch bump
// from the client (an InitProducerId with the current id and epoch) once
// the current transaction has ended (KAFKA-18227).
func (t *producerTxn) maybeUpdateTransactionV2(initializing bool) {
	v2 := t.features.level >= 2
	if v2 && !t.v2 && !initializing {
		t.bumpRequired = true
	}
	t.v2 = v2
}

// produceVersion is the Produce version the producer's requests carry:
// v12 for a producer using transactions v2, else its release's highest
// below (v11 from 3.7, which takes TRANSACTION_ABORTABLE; 2.8's v9).
func (p *Producer) produceVersion() int16 {
	switch {
	case p.txn != nil && p.txn.v2:
		return protocol.ProduceVersionTransactionV2
	case p.cfg.Release.AtLeast(3, 7):
		return protocol.ProduceVersionTransactionAbortable
	}
	return 9
}

// txnOffsetCommitVersion is TxnOffsetCommit's version, likewise: v5
// under v2, v4 from 3.7, 2.8's v3.
func (p *Producer) txnOffsetCommitVersion() int16 {
	switch {
	case p.txn.v2:
		return protocol.TxnOffsetCommitVersionTransactionV2
	case p.cfg.Release.AtLeast(3, 7):
		return protocol.TxnOffsetCommitVersionTransactionAbortable
	}
	return 3
}

// adoptEndTxnEpoch is EndTxnHandler's success under v2: the coordinator
// bumped the epoch (or rotated the producer id) and every partition's
// sequence starts again at 0.
func (p *Producer) adoptEndTxnEpoch(r *protocol.EndTxnResponse) {
	if r.ProducerID < 0 {
		return // a v4 answer during an upgrade: nothing to adopt
	}
	p.idem.producerID, p.idem.epoch = r.ProducerID, r.ProducerEpoch
	p.idem.gen++
}

// txnAddPartitionV2 is maybeAddPartition under v2: the partition is in
// the transaction as soon as a record for it is in the accumulator, with
// no request (its leader will add it), and the transaction has started:
// its end sends EndTxn even if no batch was drained.
func (p *Producer) txnAddPartitionV2(tp topicPartition) {
	if t := p.txn; t != nil && t.v2 {
		t.added[tp] = true
		t.started = true
	}
}
