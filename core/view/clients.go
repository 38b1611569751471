package view

import (
	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
)

// Producer is one KafkaProducer's record accumulator and sender.
type Producer struct {
	Host        string // the client process
	ClientID    string
	Acks        int16
	BatchSize   int // batch.size
	LingerMs    int64
	MaxInFlight int // max.in.flight.requests.per.connection
	// BufferMemory is buffer.memory, BufferUsed what batches hold of it.
	BufferMemory, BufferUsed int64
	// Waiting counts sends blocked (max.block.ms): on buffer.memory when
	// WaitingForMemory, else on their topic's metadata.
	Waiting          int
	WaitingForMemory bool
	// Idempotent is enable.idempotence; the producer id and epoch come
	// from InitProducerId (-1 until then).
	Idempotent    bool
	ProducerID    int64
	ProducerEpoch int16
	// Records and Bytes are what the accumulator holds in all its batches
	// (in flight included: a batch leaves only when answered).
	Records, Bytes int
	Partitions     []ProducerPartition // the accumulator's queues, drain order
	InFlight       []ProducerInFlight  // by broker id; only brokers with requests
	Closing        bool
	// Txn is the producer's transaction (txn.go); its TransactionalID is
	// "" for a producer without a transactional.id.
	Txn ProducerTxn
}

// ProducerPartition is one partition's queue of batches in the accumulator.
type ProducerPartition struct {
	Topic     string
	Partition int32
	Leader    int32 // the leader the metadata names now (-1: none)
	Batches   []ProducerBatch
	// NextSequence and LastAckedSequence are the idempotent producer's
	// per-partition sequences (-1 when not idempotent / none acked).
	NextSequence      int32
	LastAckedSequence int32
}

// Batch states, as the sender sees them.
const (
	BatchOpen     = "open"      // filling: not full, linger.ms not over
	BatchReady    = "ready"     // may be sent at the next drain
	BatchInFlight = "in-flight" // sent, not answered
	BatchBackoff  = "backoff"   // failed; waiting retry.backoff.ms
)

// ProducerBatch is one ProducerBatch.
type ProducerBatch struct {
	Records int
	Bytes   int // vs batch.size
	State   string
	AgeMs   int64
	// LingerLeftMs is how long an open batch still waits for more records
	// (linger.ms minus its age); 0 once over.
	LingerLeftMs int64
	// Attempt is the retry number (0: the first try); BackoffLeftMs the
	// time left before a retry may go.
	Attempt       int
	BackoffLeftMs int64
	// BaseSequence is the batch's first sequence (idempotence), -1 until
	// it is first drained; LastSequence its last record's.
	BaseSequence, LastSequence int32
}

// ProducerInFlight is the Produce requests awaiting an answer from one broker.
type ProducerInFlight struct {
	Broker   int32
	Requests int
}

// takeClients reads the producers of every running client process, and
// returns its consumers (takeGroups joins them to their groups).
func takeClients(c *cluster.Cluster, s *Snapshot) []client.ConsumerState {
	var consumers []client.ConsumerState
	now := c.World.Now()
	leaders := map[string][]int32{}
	for _, t := range s.Topics {
		ls := make([]int32, len(t.Partitions))
		for i, p := range t.Partitions {
			ls[i] = p.Leader
		}
		leaders[t.Name] = ls
	}
	for _, cs := range c.Clients() {
		consumers = append(consumers, cs.Consumers...)
		var txns []ProducerTxn
		if len(cs.Producers) > 0 {
			txns = producerTxns(c, cs.Host)
		}
		for i, ps := range cs.Producers {
			pv := Producer{
				Host: cs.Host, ClientID: ps.ClientID, Acks: ps.Acks, BatchSize: ps.BatchSize,
				LingerMs: ps.Linger.Milliseconds(), MaxInFlight: ps.MaxInFlight, Waiting: ps.Waiting, Closing: ps.Closing,
				BufferMemory: ps.BufferMemory, BufferUsed: ps.BufferUsed, WaitingForMemory: ps.WaitingForMemory,
				Idempotent: ps.Idempotent, ProducerID: ps.ProducerID, ProducerEpoch: ps.ProducerEpoch,
			}
			if i < len(txns) {
				pv.Txn = txns[i]
			}
			for _, q := range ps.Partitions {
				qv := ProducerPartition{Topic: q.Topic, Partition: q.Partition, Leader: -1,
					NextSequence: q.NextSequence, LastAckedSequence: q.LastAckedSequence}
				if ls := leaders[q.Topic]; int(q.Partition) < len(ls) {
					qv.Leader = ls[q.Partition]
				}
				for _, b := range q.Batches {
					bv := ProducerBatch{Records: b.Records, Bytes: b.SizeBytes, AgeMs: msSince(now, b.Created), Attempt: b.Attempts,
						BaseSequence: b.BaseSequence, LastSequence: -1}
					if b.BaseSequence >= 0 {
						bv.LastSequence = b.BaseSequence + int32(b.Records) - 1
					}
					switch {
					case b.InFlight:
						bv.State = BatchInFlight
					case b.Attempts > 0 && now < b.RetryAt:
						bv.State = BatchBackoff
						bv.BackoffLeftMs = b.RetryAt.Sub(now).Milliseconds()
					case b.Ready:
						bv.State = BatchReady
					default:
						bv.State = BatchOpen
						bv.LingerLeftMs = max(0, pv.LingerMs-bv.AgeMs)
					}
					pv.Records += b.Records
					pv.Bytes += b.SizeBytes
					qv.Batches = append(qv.Batches, bv)
				}
				pv.Partitions = append(pv.Partitions, qv)
			}
			for _, f := range ps.InFlight {
				pv.InFlight = append(pv.InFlight, ProducerInFlight(f))
			}
			s.Producers = append(s.Producers, pv)
		}
	}
	return consumers
}

func msSince(now, t sim.Time) int64 { return max(0, now.Sub(t).Milliseconds()) }
