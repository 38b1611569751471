package event

import (
	"strconv"
	"strings"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// broker writes a note's broker and partition fields, the two most notes
// of a broker start with.
func broker(w sim.FieldWriter, id int32, tp storage.TopicPartition) {
	w.Int("broker", int64(id))
	w.Str("tp", tp.String())
}

// LeaderStarted: a broker became the leader of a partition in a leader
// epoch (Partition.makeLeader), with its log end offset at that moment
// and the ISR it leads.
type LeaderStarted struct {
	Broker int32
	TP     storage.TopicPartition
	Epoch  int32
	LEO    int64
	ISR    []int32
}

func (LeaderStarted) Key() string { return "leader.started" }
func (e LeaderStarted) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("epoch", int64(e.Epoch))
	w.Int("leo", e.LEO)
	w.IDs("isr", e.ISR)
}

// LeaderStopped: a broker that led a partition follows Leader now (or no
// one: -1), in leader epoch Epoch.
type LeaderStopped struct {
	Broker int32
	TP     storage.TopicPartition
	Leader int32
	Epoch  int32
}

func (LeaderStopped) Key() string { return "leader.stopped" }
func (e LeaderStopped) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("leader", int64(e.Leader))
	w.Int("epoch", int64(e.Epoch))
}

// ReplicaDeleted: a broker deleted its replica of a partition (the topic
// was deleted, or a reassignment moved the replica away).
type ReplicaDeleted struct {
	Broker int32
	TP     storage.TopicPartition
}

func (ReplicaDeleted) Key() string                { return "replica.deleted" }
func (e ReplicaDeleted) Fields(w sim.FieldWriter) { broker(w, e.Broker, e.TP) }

// BrokerShutdownFinished: a broker flushed its logs and stopped cleanly
// (its process exits next).
type BrokerShutdownFinished struct{ Broker int32 }

func (BrokerShutdownFinished) Key() string                { return "broker.shutdown.finished" }
func (e BrokerShutdownFinished) Fields(w sim.FieldWriter) { w.Int("broker", int64(e.Broker)) }

// LogCleaned: a broker's log cleaner compacted the dirty section [From,
// To) of a partition's log (LogCleaner.cleanLog), with the cleaning's
// statistics as Kafka's CleanerStats counts them.
type LogCleaned struct {
	Broker         int32
	TP             storage.TopicPartition
	From, To       int64
	CleanableRatio float64
	// Read and Kept count records; Tombstones counts the removed records
	// that were tombstones past delete.retention.ms.
	Read, Kept, Tombstones int64
	Segments               int
}

func (LogCleaned) Key() string { return "log.cleaned" }
func (e LogCleaned) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("from", e.From)
	w.Int("to", e.To)
	w.Str("ratio", strconv.FormatFloat(e.CleanableRatio, 'f', 2, 64))
	w.Int("read", e.Read)
	w.Int("kept", e.Kept)
	w.Int("removed", e.Read-e.Kept)
	w.Int("tombstones", e.Tombstones)
	w.Int("segments", int64(e.Segments))
}

// errorCode writes a Kafka error code by its name (NOT_ENOUGH_REPLICAS).
func errorCode(w sim.FieldWriter, code protocol.ErrorCode) { w.Str("error", code.String()) }

// BrokerRegistrationRefused: the controller answered a broker's
// BrokerRegistrationRequest with Error (BrokerLifecycleManager's
// BrokerRegistrationResponseHandler); the broker retries after Backoff.
type BrokerRegistrationRefused struct {
	Broker  int32
	Error   protocol.ErrorCode
	Backoff time.Duration
}

func (BrokerRegistrationRefused) Key() string { return "broker.registration.refused" }
func (e BrokerRegistrationRefused) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	errorCode(w, e.Error)
	w.Dur("backoff", e.Backoff)
}

// BrokerServing: the controller unfenced a recovering broker, which now
// serves clients (BrokerLifecycleManager's RECOVERY to RUNNING, the
// broker's "Transition from STARTING to STARTED").
type BrokerServing struct{ Broker int32 }

func (BrokerServing) Key() string                { return "broker.serving" }
func (e BrokerServing) Fields(w sim.FieldWriter) { w.Int("broker", int64(e.Broker)) }

// BrokerShutdownStarted: a broker began a controlled shutdown and asks the
// controller, by its heartbeats, to move its leaderships away first
// (BrokerLifecycleManager.beginControlledShutdown).
type BrokerShutdownStarted struct{ Broker int32 }

func (BrokerShutdownStarted) Key() string                { return "broker.shutdown.started" }
func (e BrokerShutdownStarted) Fields(w sim.FieldWriter) { w.Int("broker", int64(e.Broker)) }

// TopicAutoCreateRequested: a broker asked the controller to create
// Topics because a client asked for them (auto.create.topics.enable, or
// __consumer_offsets for a group's FindCoordinator):
// AutoTopicCreationManager.createTopics. Only a topic's first request is
// noted.
type TopicAutoCreateRequested struct {
	Broker int32
	Topics []string
}

func (TopicAutoCreateRequested) Key() string { return "topic.autocreate" }
func (e TopicAutoCreateRequested) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Str("topics", strings.Join(e.Topics, ","))
}

// OffsetsTopicCreateFailed: a broker's request to create
// __consumer_offsets failed with Error (REQUEST_TIMED_OUT when no
// controller answered): AutoTopicCreationManager's response handler, and
// consumers get COORDINATOR_NOT_AVAILABLE until the topic exists.
type OffsetsTopicCreateFailed struct {
	Broker int32
	Error  protocol.ErrorCode
}

func (OffsetsTopicCreateFailed) Key() string { return "group.offsets-topic" }
func (e OffsetsTopicCreateFailed) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	errorCode(w, e.Error)
}

// ProduceRejected: a leader refused an acks=all produce to a partition
// because its ISR is smaller than min.insync.replicas (MinISR), before
// appending anything: Partition.appendRecordsToLeader's
// NotEnoughReplicasException.
type ProduceRejected struct {
	Broker int32
	TP     storage.TopicPartition
	ISR    []int32
	MinISR int
}

func (ProduceRejected) Key() string { return "produce.rejected" }
func (e ProduceRejected) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.IDs("isr", e.ISR)
	w.Int("min", int64(e.MinISR))
}

// ProduceKeylessRejected: a broker refused a batch for a compacted topic
// because Records of its records had no key (LogValidator.validateKey's
// "Compacted topic cannot accept message without key", INVALID_RECORD).
type ProduceKeylessRejected struct {
	Broker  int32
	TP      storage.TopicPartition
	Records int
}

func (ProduceKeylessRejected) Key() string { return "produce.keyless" }
func (e ProduceKeylessRejected) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("records", int64(e.Records))
}

// ProduceCorruptRejected: a leader refused a batch whose CRC does not
// match its bytes (LogValidator's CorruptRecordException, answered as
// CORRUPT_MESSAGE by ReplicaManager.appendToLocalLog).
type ProduceCorruptRejected struct {
	Broker int32
	TP     storage.TopicPartition
}

func (ProduceCorruptRejected) Key() string                { return "produce.corrupt" }
func (e ProduceCorruptRejected) Fields(w sim.FieldWriter) { broker(w, e.Broker, e.TP) }

// ProduceSequenceRejected: a leader refused an idempotent producer's batch
// whose sequence or producer epoch does not follow the producer's state
// (ProducerAppendInfo.checkSequence and checkProducerEpoch):
// OUT_OF_ORDER_SEQUENCE_NUMBER or INVALID_PRODUCER_EPOCH. ProducerID is
// the batch's producer id, -1 if its header could not be read.
type ProduceSequenceRejected struct {
	Broker     int32
	TP         storage.TopicPartition
	ProducerID int64
	Error      protocol.ErrorCode
}

func (ProduceSequenceRejected) Key() string { return "produce.sequence.rejected" }
func (e ProduceSequenceRejected) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("pid", e.ProducerID)
	errorCode(w, e.Error)
}

// ProduceDuplicate: a leader recognised a retried batch of an idempotent
// producer (one of its last five, ProducerStateEntry.findDuplicateBatch in
// UnifiedLog.analyzeAndValidateProducerState): nothing is appended and the
// producer gets the original offsets [First, Last]. ProducerID and
// Sequence (the batch's base sequence) are -1 if its header could not be
// read.
type ProduceDuplicate struct {
	Broker      int32
	TP          storage.TopicPartition
	ProducerID  int64
	Sequence    int32
	First, Last int64
}

func (ProduceDuplicate) Key() string { return "produce.duplicate" }
func (e ProduceDuplicate) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("pid", e.ProducerID)
	w.Int("seq", int64(e.Sequence))
	w.Int("first", e.First)
	w.Int("last", e.Last)
}

// ProduceAppended: a leader appended a produced batch at offsets [First,
// Last] in leader epoch Epoch (Partition.appendRecordsToLeader,
// UnifiedLog.appendAsLeader).
type ProduceAppended struct {
	Broker      int32
	TP          storage.TopicPartition
	First, Last int64
	Epoch       int32
}

func (ProduceAppended) Key() string { return "produce.appended" }
func (e ProduceAppended) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("first", e.First)
	w.Int("last", e.Last)
	w.Int("epoch", int64(e.Epoch))
}

// ProducerIDBlockReceived: a broker's producer id manager received the
// block of producer ids [First, Last] from the controller
// (RPCProducerIdManager.handleAllocateProducerIdsResponse).
type ProducerIDBlockReceived struct {
	Broker      int32
	First, Last int64
}

func (ProducerIDBlockReceived) Key() string { return "producerids.block" }
func (e ProducerIDBlockReceived) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Int("first", e.First)
	w.Int("last", e.Last)
}

// ProducerIDAssigned: a broker gave an idempotent producer ProducerID,
// epoch 0 (TransactionCoordinator.handleInitProducerId without a
// transactional id).
type ProducerIDAssigned struct {
	Broker     int32
	ProducerID int64
}

func (ProducerIDAssigned) Key() string { return "producer.id.assigned" }
func (e ProducerIDAssigned) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Int("pid", e.ProducerID)
}

// ISRExpandRequested: a leader asks the controller to add Replica, which
// caught up, to a partition's ISR, From to To (Partition.maybeExpandIsr,
// an AlterPartitionRequest).
type ISRExpandRequested struct {
	Broker   int32
	TP       storage.TopicPartition
	From, To []int32
	Replica  int32
}

func (ISRExpandRequested) Key() string { return "isr.expand.requested" }
func (e ISRExpandRequested) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.IDs("from", e.From)
	w.IDs("to", e.To)
	w.Int("replica", int64(e.Replica))
}

// ISRShrinkRequested: a leader asks the controller to shrink a
// partition's ISR From to To, dropping Replicas, which have not caught up
// within replica.lag.time.max.ms (Partition.maybeShrinkIsr, an
// AlterPartitionRequest).
type ISRShrinkRequested struct {
	Broker             int32
	TP                 storage.TopicPartition
	From, To, Replicas []int32
}

func (ISRShrinkRequested) Key() string { return "isr.shrink.requested" }
func (e ISRShrinkRequested) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.IDs("from", e.From)
	w.IDs("to", e.To)
	w.IDs("replicas", e.Replicas)
}

// FollowerTruncated: a follower truncated its log from its log end offset
// From to To, because the leader said its epoch Epoch ended at offset End
// (a diverging epoch in a Fetch response, or an OffsetsForLeaderEpoch
// answer): AbstractFetcherThread.truncateOnFetchResponse and
// truncateToEpochEndOffsets.
type FollowerTruncated struct {
	Broker   int32
	TP       storage.TopicPartition
	From, To int64
	Epoch    int32
	End      int64
}

func (FollowerTruncated) Key() string { return "follower.truncated" }
func (e FollowerTruncated) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("from", e.From)
	w.Int("to", e.To)
	w.Int("epoch", int64(e.Epoch))
	w.Int("end", e.End)
}

// FollowerTruncatedToHighWatermark: a follower truncated its log from its
// log end offset From to its own high watermark To, the rule before leader
// epochs (KIP-101's flaw), or with no epoch to ask the leader about
// (AbstractFetcherThread.truncateToHighWatermark).
type FollowerTruncatedToHighWatermark struct {
	Broker   int32
	TP       storage.TopicPartition
	From, To int64
}

func (FollowerTruncatedToHighWatermark) Key() string { return "follower.truncated.to-hw" }
func (e FollowerTruncatedToHighWatermark) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("from", e.From)
	w.Int("to", e.To)
}

// FollowerTruncatedToLeaderEnd: a follower whose fetch was out of range
// truncated its log from its log end offset From to the leader's log end
// offset To (AbstractFetcherThread.fetchOffsetAndTruncate).
type FollowerTruncatedToLeaderEnd struct {
	Broker   int32
	TP       storage.TopicPartition
	From, To int64
}

func (FollowerTruncatedToLeaderEnd) Key() string { return "follower.truncated.to-leader-end" }
func (e FollowerTruncatedToLeaderEnd) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("from", e.From)
	w.Int("to", e.To)
}

// FollowerReset: a follower whose log ends before the leader's log start
// offset emptied its log and restarts it at Offset
// (AbstractFetcherThread.fetchOffsetAndTruncate, truncateFullyAndStartAt).
type FollowerReset struct {
	Broker int32
	TP     storage.TopicPartition
	Offset int64
}

func (FollowerReset) Key() string { return "follower.reset" }
func (e FollowerReset) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("offset", e.Offset)
}

// FollowerAppendFailed: a follower could not append the data it fetched
// to its log (ReplicaFetcherThread.processPartitionData failing); it backs
// off for replica.fetch.backoff.ms.
type FollowerAppendFailed struct {
	Broker int32
	TP     storage.TopicPartition
	Error  string
}

func (FollowerAppendFailed) Key() string { return "follower.append.failed" }
func (e FollowerAppendFailed) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("error", e.Error)
}

// SegmentRolled: an append rolled a partition's log to a new active
// segment at offset Base, for Reason (storage.RollSegmentBytes, ...: what
// LogSegment.shouldRoll found), in UnifiedLog.maybeRoll.
type SegmentRolled struct {
	Broker int32
	TP     storage.TopicPartition
	Base   int64
	Reason string
}

func (SegmentRolled) Key() string { return "segment.rolled" }
func (e SegmentRolled) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("base", e.Base)
	w.Str("reason", e.Reason)
}

// LogCreateFailed: a broker could not create its replica's log (a full
// disk, an impossible index size): LogManager.getOrCreateLog failing, and
// the replica stays offline.
type LogCreateFailed struct {
	Broker int32
	TP     storage.TopicPartition
	Error  string
}

func (LogCreateFailed) Key() string { return "log.create.failed" }
func (e LogCreateFailed) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("error", e.Error)
}

// LogRecovered: after an unclean shutdown a broker recovered a partition's
// log from its recovery point From to log end offset LEO, cutting
// TruncatedBytes of an invalid tail for Reason (LogLoader.recoverLog).
type LogRecovered struct {
	Broker         int32
	TP             storage.TopicPartition
	From, LEO      int64
	TruncatedBytes int64
	Reason         string
}

func (LogRecovered) Key() string { return "log.recovered" }
func (e LogRecovered) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("from", e.From)
	w.Int("leo", e.LEO)
	w.Int("truncated", e.TruncatedBytes)
	w.Str("reason", e.Reason)
}

// LogCleanerFailed: a broker's log cleaner failed on a partition's log and
// marks it uncleanable, never to clean it again
// (LogCleaner.CleanerThread.cleanFilthiestLog, markPartitionUncleanable).
type LogCleanerFailed struct {
	Broker int32
	TP     storage.TopicPartition
	Error  string
}

func (LogCleanerFailed) Key() string { return "log.cleaner.failed" }
func (e LogCleanerFailed) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("error", e.Error)
}

// SegmentsDeleted: a broker's retention task deleted old segments of a
// partition's log, the ones with base offsets Bases and Bytes bytes in
// all, for Reason (storage.DeletedRetentionMs or DeletedRetentionBytes,
// the limit Limit breached; storage.DeletedBelowLogStart, wholly below
// the log start offset): UnifiedLog.deleteOldSegments. The log now starts
// at Start; the files stay renamed .deleted for Delay
// (file.delete.delay.ms).
type SegmentsDeleted struct {
	Broker int32
	TP     storage.TopicPartition
	Reason string
	Limit  int64
	Bases  []int64
	Bytes  int64
	Start  int64
	Delay  time.Duration
}

func (SegmentsDeleted) Key() string { return "log.segments.deleted" }
func (e SegmentsDeleted) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	switch e.Reason {
	case storage.DeletedRetentionMs, storage.DeletedRetentionBytes:
		w.Str("reason", e.Reason+"="+strconv.FormatInt(e.Limit, 10))
	default:
		w.Str("reason", "below the log start offset")
	}
	w.Int("count", int64(len(e.Bases)))
	bases := make([]string, len(e.Bases))
	for i, base := range e.Bases {
		bases[i] = strconv.FormatInt(base, 10)
	}
	w.Str("bases", strings.Join(bases, ","))
	w.Int("bytes", e.Bytes)
	w.Int("start", e.Start)
	w.Dur("delay", e.Delay)
}

// LogRetentionFailed: a broker's retention task could not delete a
// partition's old segments (UnifiedLog.deleteOldSegments failing).
type LogRetentionFailed struct {
	Broker int32
	TP     storage.TopicPartition
	Error  string
}

func (LogRetentionFailed) Key() string { return "log.retention.failed" }
func (e LogRetentionFailed) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("error", e.Error)
}

// HighWatermarkUpdated: a replica's high watermark is HW now, in leader
// epoch Epoch: the leader moved it (Partition.maybeIncrementLeaderHW), a
// follower took the leader's from a fetch response, a truncation lowered
// it, or the broker loaded the log at start (from the
// replication-offset-checkpoint). The loss check keeps every replica's
// last HW from it; the feed does not narrate it (one per fetch round).
type HighWatermarkUpdated struct {
	Broker int32
	TP     storage.TopicPartition
	Epoch  int32
	HW     int64
}

func (HighWatermarkUpdated) Key() string { return "hw.updated" }
func (e HighWatermarkUpdated) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("epoch", int64(e.Epoch))
	w.Int("hw", e.HW)
}

// FollowerStarted: a replica follows Leader (-1: none yet) in leader epoch
// Epoch (Partition.makeFollower): the counterpart of LeaderStarted, so
// that every replica's epoch is known from the notes. The feed does not
// narrate it (LeaderStopped and LeaderElected say what a reader needs).
type FollowerStarted struct {
	Broker int32
	TP     storage.TopicPartition
	Leader int32
	Epoch  int32
}

func (FollowerStarted) Key() string { return "follower.started" }
func (e FollowerStarted) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("leader", int64(e.Leader))
	w.Int("epoch", int64(e.Epoch))
}

// TxnMarkerWritten: a leader appended a transaction's COMMIT or ABORT
// marker for ProducerID (epoch Epoch) at Offset, on its transaction
// coordinator's WriteTxnMarkers (KafkaApis.handleWriteTxnMarkersRequest).
type TxnMarkerWritten struct {
	Broker     int32
	TP         storage.TopicPartition
	ProducerID int64
	Epoch      int16
	Commit     bool
	Offset     int64
}

func (TxnMarkerWritten) Key() string { return "txn.marker" }

// TxnPartitionAddedByLeader: under transactions v2 (KIP-890 part 2) the
// leader of TP had the transaction coordinator add it to the producer's
// transaction before appending the transaction's first batch there
// (ReplicaManager.handleProduceAppend, AddPartitionsToTxnManager).
type TxnPartitionAddedByLeader struct {
	Broker          int32
	TP              storage.TopicPartition
	TransactionalID string
	ProducerID      int64
	Epoch           int16
}

func (TxnPartitionAddedByLeader) Key() string { return "txn.added.by.leader" }
func (e TxnPartitionAddedByLeader) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("txnid", e.TransactionalID)
	w.Int("producer", e.ProducerID)
	w.Int("epoch", int64(e.Epoch))
}

// TxnMarkerSkipped: a transaction coordinator completing a transaction
// left out a partition its broker's metadata does not have, taking its
// topic for deleted (TransactionMarkerChannelManager
// .addTxnMarkersToBrokerQueue: "Couldn't find leader endpoint for
// partitions ... likely deleted already and hence can be skipped"). In
// the ZooKeeper era a broker that restarted while no controller ran has
// an empty metadata cache until the UpdateMetadata that follows the
// LeaderAndIsr making it a coordinator: the marker is then never written.
type TxnMarkerSkipped struct {
	Broker          int32
	TransactionalID string
	ProducerID      int64
	TP              storage.TopicPartition
}

func (TxnMarkerSkipped) Key() string { return "txn.marker.skipped" }
func (e TxnMarkerSkipped) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Str("txnid", e.TransactionalID)
	w.Int("producer", e.ProducerID)
}
func (e TxnMarkerWritten) Fields(w sim.FieldWriter) {
	broker(w, e.Broker, e.TP)
	w.Int("producer", e.ProducerID)
	w.Int("epoch", int64(e.Epoch))
	marker := "ABORT"
	if e.Commit {
		marker = "COMMIT"
	}
	w.Str("marker", marker)
	w.Int("offset", e.Offset)
}
