package simulate

import (
	"strconv"

	"kafkascope/core/broker"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// lostWrites (acked-write-lost): every record acknowledged to an acks=all
// producer, on a topic drawn with min.insync.replicas >= 2 and unclean
// leader election off, is in the leader's log below the HW at the offset
// it was acknowledged with. The guarantee is the drawn configuration's: a
// --config override that weakens it (min.insync.replicas=1, unclean
// election, the pre-KIP-101 protocol) is held to it too, and must fail.
// Exempt, because Kafka 3.8 does not fsync by default and has no eligible
// leader replicas (KIP-966 is not enabled before metadata version 4.0):
//   - with min.insync.replicas >= 2 in force, a record some broker lost
//     from its page cache in a power loss. The ack put it on two in-sync
//     replicas, but that is no defence: the other copy may leave the ISR
//     cleanly (a controlled shutdown) before the last in-sync copy loses
//     power and is elected again, as the sole ISR member, without it
//     (seed 516); or the broker that lost it restarts within the session
//     timeout, stays in the ISR, and is elected and truncates the others.
//   - with a weaker min.insync.replicas in force (a --config override), a
//     record that as many brokers as the drawn min.insync.replicas lost in
//     power losses: what the drawn configuration would have lost too.
//
// Not exempt: a record lost without any power loss, and, under a weakened
// min.insync.replicas, a record whose only copy was lost (so
// min.insync.replicas=1 fails here: an ack from a lone leader is undone by
// one power loss).
func (run *Run) lostWrites(tp storage.TopicPartition, leaderID int32, leader *broker.Partition, lb []record.Batch) {
	t := run.topic(tp.Topic)
	if t.MinISR < 2 || t.Unclean {
		return
	}
	inForce := t.MinISR // min.insync.replicas as configured, override included
	if v, ok := run.Opts.Overrides["min.insync.replicas"]; ok {
		inForce, _ = strconv.Atoi(v)
	}
	hw := leader.Log().HighWatermark()
	byOffset := map[int64]string{}
	for _, b := range lb {
		for _, r := range b.Records {
			byOffset[r.Offset] = string(r.Value)
		}
	}
	for _, s := range run.sends {
		if !s.acked || s.acks != -1 || s.topic != tp.Topic || s.partition != tp.Partition {
			continue
		}
		got, ok := byOffset[s.offset]
		if ok && got == s.value && s.offset < hw {
			continue
		}
		k := lostRecord{tp, s.offset, s.value}
		if run.exempt(exemptPowerLoss) && powerLossExempt(len(run.lostToPowerLoss[k]), t.MinISR, inForce) {
			run.Stats.Exempt++
			continue
		}
		if !ok {
			run.violate("acked-write-lost", "%s: acknowledged %q (offset %d, acked at %s) is missing: leader %d log ends at %d, HW %d", tp, s.value, s.offset, s.ackedAt, leaderID, leader.Log().LogEndOffset(), hw)
		} else {
			run.violate("acked-write-lost", "%s: acknowledged %q (offset %d, acked at %s) was replaced by %q on leader %d", tp, s.value, s.offset, s.ackedAt, got, leaderID)
		}
	}
}

// powerLossExempt decides the exemption above for one acknowledged record
// that is not in the log: lost is how many brokers lost it in power
// losses, drawn and inForce the topic's min.insync.replicas as drawn and
// as configured. (A record lost by one broker while another replica still
// had it used to be exempt under a weakened min.insync.replicas too; with
// the copies read from the disks, a lagging follower's copy then exempted
// the lone leader's loss that min.insync.replicas=1 is known for.)
func powerLossExempt(lost, drawn, inForce int) bool {
	if lost == 0 {
		return false
	}
	return inForce >= 2 || lost >= drawn
}

// duplicates (idempotent-duplicate): every value is sent once, so a value
// of an idempotent producer found twice in a log was written twice: the
// broker's sequence check should have refused the retry. Kafka 3.8 promises
// no more than this: when a produce's outcome stays unknown (a timeout)
// and a sequence error (OUT_OF_ORDER_SEQUENCE_NUMBER, UNKNOWN_PRODUCER_ID)
// makes the producer bump its epoch (KIP-360: TransactionManager.canRetry
// calls requestEpochBumpForPartition; Sender.runOnce then calls
// bumpIdempotentEpochAndResetIdIfNeeded), bumpIdempotentProducerEpoch
// rewrites every batch still in flight for that partition
// (TxnPartitionEntry.startSequencesAtBeginning ->
// ProducerBatch.resetProducerState) under the new epoch from sequence 0,
// and the broker, seeing a new epoch, accepts them: a batch whose first
// attempt had been written is then written twice. So the only duplicate
// allowed is a later copy from the same producer id with a higher epoch;
// those are counted in Stats.EpochBumpDuplicates. A copy under the same
// epoch, a lower one, or another producer id is a violation.
func (run *Run) duplicates(tp storage.TopicPartition, lb []record.Batch) {
	idem := map[string]bool{}
	for _, s := range run.sends {
		if s.idempotent && s.topic == tp.Topic && s.partition == tp.Partition {
			idem[s.value] = true
		}
	}
	type seen struct {
		offset   int64
		producer int64
		epoch    int16
	}
	at := map[string]seen{}
	for _, b := range lb {
		for _, r := range b.Records {
			v := string(r.Value)
			if !idem[v] {
				continue
			}
			prev, ok := at[v]
			switch {
			case !ok:
				at[v] = seen{r.Offset, b.ProducerID, b.ProducerEpoch}
			case prev.producer == b.ProducerID && b.ProducerEpoch > prev.epoch:
				run.Stats.EpochBumpDuplicates++
			default:
				run.violate("idempotent-duplicate", "%s: idempotent record %q is at offsets %d (producer id %d, epoch %d) and %d (producer id %d, epoch %d)", tp, v, prev.offset, prev.producer, prev.epoch, r.Offset, b.ProducerID, b.ProducerEpoch)
				return
			}
		}
	}
}

func (run *Run) topic(name string) Topic {
	for _, t := range run.Plan.Topics {
		if t.Name == name {
			return t
		}
	}
	return Topic{}
}
