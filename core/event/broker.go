package event

import (
	"strconv"

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
