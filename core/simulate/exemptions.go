package simulate

// exemption names one rule by which a checker lets pass what a stricter
// checker would report: a behaviour Kafka 3.8 has and promises nothing
// against, or a checker's own sampling that must not be mistaken for the
// cluster's. Each was found by a seed that broke the stricter rule; the
// rule's comment, where it is applied, gives the seed and the reason, and
// exemptions_test.go pins it: with the exemption off that seed fails the
// invariant named here, and with it on the seed passes. An exemption that
// stops being what saves its seed (the engine changed, the run drifted)
// fails there, and its seed is found again or the exemption goes.
type exemption int

const (
	// exemptPowerLoss (acked-write-lost, checks_writes.go, seed 516): a
	// record some broker lost from its page cache in a power loss.
	exemptPowerLoss exemption = iota
	// exemptDeposedCoordinator (committed-offset-monotonic,
	// checks_commits.go, seeds 88 and 214; copy-exactly-once,
	// checks_copy.go, seed 3746 on 4.1): the cache of a broker that
	// believes it leads a __consumer_offsets partition while the active
	// controller names another leader or epoch. A broker cut off from the
	// controller keeps its leadership until it learns otherwise, and
	// answers OffsetFetch from that cache (3.8's
	// GroupMetadataManager.getOffsets; 4.1's GroupCoordinatorService
	// .fetchOffsets, whose require_stable read waits only for the
	// partition's own pending writes): a copier that rewinds to those
	// offsets copies again what copy-out holds.
	exemptDeposedCoordinator
	// exemptRetriedDuringCheck (liveness: the final check's consumer
	// read, checks_final.go, seed 954): records committed while that
	// read's own fetches were being answered.
	exemptRetriedDuringCheck
	// exemptGroupLostToPowerLoss (group-liveness, groups.go, seed 534 on
	// 4.3): a consumer-protocol member whose group's records a power loss
	// took from __consumer_offsets. Its next heartbeat finds no group and
	// gets GROUP_ID_NOT_FOUND, which Kafka 4.3's consumer treats as fatal
	// while it is a member (GroupMetadataManager.getOrMaybeCreateConsumerGroup,
	// AbstractHeartbeatRequestManager.onErrorResponse): the member is gone,
	// not merely late.
	exemptGroupLostToPowerLoss
	// exemptReledAfterPowerLoss (isr-identical, checks_final.go, seed 336
	// on 2.8): a partition whose leader led an epoch again after a power
	// loss took records of it (noteLeadAfterPowerLoss): its replicas may
	// hold different records under that one epoch.
	exemptReledAfterPowerLoss
	// exemptTxnStateLost (txn-open-forever, txn-atomic, checks_txn.go,
	// seed 9 on 3.8): a transactional id whose __transaction_state
	// partition lost records in a power loss. Its coordinator may load an
	// older state, time out a transaction it had already ended, and send
	// markers of an epoch the partitions have passed: they are refused
	// with INVALID_PRODUCER_EPOCH, on which Kafka's coordinator stops
	// sending them (TransactionMarkerRequestCompletionHandler: "this txn
	// can now be ignored"), and the transaction stays PrepareAbort.
	exemptTxnStateLost
	// exemptCopyStateLost (copy-exactly-once, checks_copy.go, seed 282 on
	// 3.8): a power loss took records of what the copy pipeline's
	// exactly-once rests on: the group's committed offsets
	// (__consumer_offsets, min.insync.replicas 1 by default), the
	// copier's transaction state (__transaction_state), or copy-out's
	// committed copies. The next copier then starts from an older offset
	// and copies again what copy-out already holds, or copies are gone.
	exemptCopyStateLost
	// exemptTxnStateTruncated (txn-atomic, checks_txn.go, seed 386 on
	// 3.8): a transactional id whose __transaction_state partition had
	// records truncated from a replica. Kafka's coordinator loads its
	// partition up to the log end, not the high watermark
	// (TransactionStateManager.loadTransactionMetadata reads with
	// FetchIsolation.LOG_END, 3.8.0 and 4.1), and completes a PrepareCommit
	// found there; if that record was never committed and the next leader
	// lacks it (a clean election: it was in the ISR), the new coordinator
	// aborts what the old one had begun to commit, and a partition that
	// got the COMMIT marker first keeps the transaction committed there.
	exemptTxnStateTruncated
	// exemptMarkerSkipped (txn-open-forever, txn-atomic, seed 50 on 2.8):
	// a coordinator left a partition out of a transaction it completed
	// because its broker's metadata did not have the partition
	// (event.TxnMarkerSkipped). Kafka 2.8's controller sends LeaderAndIsr
	// before UpdateMetadata in a batch (ControllerBrokerRequestBatch
	// .sendRequestsToBrokers), so a broker that restarted while no
	// controller ran becomes a coordinator with an empty metadata cache,
	// and a transaction it loaded as PrepareCommit is completed without
	// that partition's marker (TransactionMarkerChannelManager
	// .addTxnMarkersToBrokerQueue takes it for deleted). The transaction
	// stays open there, and the producer's next marker closes it.
	exemptMarkerSkipped
	// exemptElectionLockstep (liveness, run.go, seed 6858 on 3.8): the
	// run ends without an active controller while its two controller
	// voters have stood as candidates in the same quorum epoch, each
	// rejecting the other's vote, for the last electionLockstepEpochs
	// epochs. Kafka's election backoff after a rejected vote is
	// RETRY_BACKOFF_BASE_MS times a random draw below 2^min(20, retries),
	// capped at quorum.election.backoff.max.ms (1 s)
	// (KafkaRaftClient.binaryExponentialElectionBackoffMs, 3.8.0): after
	// a few retries it is the cap, every time, on both. The two then
	// stand again a constant interval apart, and when that interval is no
	// longer than the link's latency each one's request reaches the other
	// after it stood: on a real network the latencies' jitter moves the
	// interval until one request arrives first; the simulated network's
	// latency is constant (sim.DefaultLatency), so it never does. A
	// simplification of the simulator, not a behaviour of Kafka's.
	exemptElectionLockstep
	// exemptZombieCopierBack (copy-exactly-once, checks_copy.go, seed
	// 8013 on 4.3): copies made again after a copier read its position
	// before its initTransactions while a zombie copier, never fenced
	// (no successor had completed an InitProducerId while it was cut
	// off), could reach the cluster again. Kafka's
	// TransactionalMessageCopier reads its position first
	// (messagesRemaining, then producer.initTransactions(), 3.8.0), so the
	// zombie's commits after that read are copied again: the copier's
	// own race, which only consumer-group fencing
	// (--use-group-metadata, KIP-447) would close.
	exemptZombieCopierBack
	numExemptions
)

// exempt tells whether exemption e applies: always, but in the tests that
// pin it (Options.strict).
func (run *Run) exempt(e exemption) bool {
	return !run.Opts.strict[e]
}
