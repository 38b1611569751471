package event

import (
	"fmt"
	"strings"

	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// ProducerStuck: producer Client keeps failing on an obstacle the cluster
// knows, explained by a protocol.Cause: its kind (protocol.Cause*) and its
// own name, value fields (the answering broker's "broker" among them).
// Noted once per episode and cause (core/client/stuck.go). Kafka's
// producer only logs the error code (Sender.completeBatch,
// "Got error produce response ... retrying") or nothing, and retries.
type ProducerStuck struct {
	Client      string
	Cause       string   // the cause's kind, protocol.Cause*
	CauseFields []string // the cause's name, value pairs
}

func (ProducerStuck) Key() string { return "producer.stuck" }
func (e ProducerStuck) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("cause", e.Cause)
	pairs(w, e.CauseFields)
}

// ConsumerStuck: consumer Client of group Group ("" without a group, as
// Kafka's log prefix says groupId=) keeps failing on an obstacle the
// cluster knows, as in ProducerStuck. Kafka's consumer only logs the error
// code (AbstractCoordinator's FindCoordinator and join handlers, Fetcher)
// or nothing, and retries.
type ConsumerStuck struct {
	Client      string
	Group       string
	Cause       string   // the cause's kind, protocol.Cause*
	CauseFields []string // the cause's name, value pairs
}

func (ConsumerStuck) Key() string { return "consumer.stuck" }
func (e ConsumerStuck) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("group", e.Group)
	w.Str("cause", e.Cause)
	pairs(w, e.CauseFields)
}

// pairs writes name, value pairs of text as fields.
func pairs(w sim.FieldWriter, f []string) {
	for i := 0; i+1 < len(f); i += 2 {
		w.Str(f[i], f[i+1])
	}
}

// ProducerRecovered: producer Client's writes to TP succeed again after it
// was stuck on them (a ProducerStuck episode of TP's writes ended).
type ProducerRecovered struct {
	Client string
	TP     storage.TopicPartition
}

func (ProducerRecovered) Key() string { return "producer.recovered" }
func (e ProducerRecovered) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("tp", e.TP.String())
}

// CoordinatorDiscovered: consumer Client found group Group's coordinator,
// broker Coordinator, in a FindCoordinator answer (AbstractCoordinator's
// FindCoordinatorResponseHandler, "Discovered group coordinator"). Noted
// when it differs from the last one noted, or follows a loss.
type CoordinatorDiscovered struct {
	Client      string
	Group       string
	Coordinator int32
}

func (CoordinatorDiscovered) Key() string { return "consumer.coordinator" }
func (e CoordinatorDiscovered) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("group", e.Group)
	w.Int("coordinator", int64(e.Coordinator))
}

// CoordinatorUnknown: consumer Client dropped the group coordinator it had
// heard from, for Cause (the error, as text), and will look for it again
// (AbstractCoordinator.markCoordinatorUnknown, "Group coordinator ... is
// unavailable or invalid due to cause").
type CoordinatorUnknown struct {
	Client string
	Cause  string
}

func (CoordinatorUnknown) Key() string { return "consumer.coordinator-unknown" }
func (e CoordinatorUnknown) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("cause", e.Cause)
}

// PartitionsAssigned: consumer Client joined generation Generation of
// group Group and got Partitions partitions
// (ConsumerCoordinator.onJoinComplete).
type PartitionsAssigned struct {
	Client     string
	Group      string
	Generation int32
	Partitions int
}

func (PartitionsAssigned) Key() string { return "consumer.assigned" }
func (e PartitionsAssigned) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("group", e.Group)
	w.Int("generation", int64(e.Generation))
	w.Int("partitions", int64(e.Partitions))
}

// ConsumerLeavingGroup: consumer Client, member Member of group Group,
// sends LeaveGroup and forgets its membership, for Reason
// (AbstractCoordinator.maybeLeaveGroup).
type ConsumerLeavingGroup struct {
	Client string
	Group  string
	Member string
	Reason string
}

func (ConsumerLeavingGroup) Key() string { return "consumer.leave" }
func (e ConsumerLeavingGroup) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("group", e.Group)
	w.Str("member", e.Member)
	w.Str("reason", e.Reason)
}

// OffsetCommitSent: consumer Client sent group Group's coordinator an
// OffsetCommit of Offsets (ConsumerCoordinator.sendOffsetCommitRequest);
// the answer is not part of the note.
type OffsetCommitSent struct {
	Client  string
	Group   string
	Offsets []PartitionOffset
}

func (OffsetCommitSent) Key() string { return "consumer.commit" }
func (e OffsetCommitSent) Fields(w sim.FieldWriter) {
	w.Str("client", e.Client)
	w.Str("group", e.Group)
	w.Str("offsets", FormatOffsets(e.Offsets))
}

// PartitionOffset is one partition's offset to commit, Kafka's
// OffsetAndMetadata (with no metadata): the next record to read, with the
// leader epoch of the last record read (-1 unknown).
type PartitionOffset struct {
	TP          storage.TopicPartition
	Offset      int64
	LeaderEpoch int32
}

// FormatOffsets renders offsets as Java's Map<TopicPartition,
// OffsetAndMetadata>.toString, in the order given.
func FormatOffsets(offsets []PartitionOffset) string {
	parts := make([]string, len(offsets))
	for i, o := range offsets {
		epoch := "null"
		if o.LeaderEpoch >= 0 {
			epoch = fmt.Sprint(o.LeaderEpoch)
		}
		parts[i] = fmt.Sprintf("%s=OffsetAndMetadata{offset=%d, leaderEpoch=%s, metadata=''}", o.TP, o.Offset, epoch)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
