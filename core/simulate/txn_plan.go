package simulate

import (
	"fmt"
	"strings"
	"time"

	"kafkascope/core/sim"
)

// TxnPlan is a run's transactional workload (issue 20): producers with a
// transactional.id that write transactions across partitions and topics,
// committing or aborting them, and consumers that read every partition
// with isolation.level=read_committed, and one with read_uncommitted for
// contrast. The zero value is no transactional workload.
type TxnPlan struct {
	Producers []TxnProducerPlan
	// ReadCommitted is the number of read_committed consumers (1–2 when
	// there are transactional producers); one read_uncommitted consumer
	// runs beside them.
	ReadCommitted int
	// Copy is the copy pipeline, if any (copy_plan.go).
	Copy *CopyPlan
}

// TxnProducerPlan is one transactional application: a transactional.id
// and the producer processes that run it in turn (a successor after a
// crash or a zombie, txn_faults.go; after a fatal error, its supervisor).
type TxnProducerPlan struct {
	Name            string // client.id of its processes
	TransactionalID string
	// Records is the most records a transaction writes (1 to Records,
	// each to a partition drawn from the workload stream): most
	// transactions span several partitions, often of both topics.
	Records int
	Gap     time.Duration // between two sends of a transaction
	Pause   time.Duration // between the end of a transaction and the next
	// AbortOneIn: the application aborts one transaction in AbortOneIn
	// on its own (the rest it commits; faults abort some of those).
	AbortOneIn int
	// Timeout is transaction.timeout.ms: the coordinator aborts a
	// transaction left open longer (and fences its producer).
	Timeout time.Duration
}

// txnOneIn: a transactional workload is drawn for one seed in txnOneIn.
const txnOneIn = 3

// drawTxn draws the transactional workload from its own stream
// ("simulate/plan/txn"), so adding it kept every earlier seed's cluster,
// topics, producers and groups; a seed that draws none runs exactly as
// before (no transactional.id means no __transaction_state either).
func drawTxn(seed uint64) TxnPlan {
	r := sim.NewRand(seed, "simulate/plan/txn")
	if r.Intn(txnOneIn) != 0 {
		return TxnPlan{}
	}
	var p TxnPlan
	for i, n := 0, 1+r.Intn(2); i < n; i++ {
		p.Producers = append(p.Producers, TxnProducerPlan{
			Name:            fmt.Sprintf("txn-producer-%d", i+1),
			TransactionalID: fmt.Sprintf("txn-app-%d", i+1),
			Records:         1 + r.Intn(5),
			Gap:             time.Duration(10+r.Intn(190)) * time.Millisecond,
			Pause:           time.Duration(50+r.Intn(450)) * time.Millisecond,
			AbortOneIn:      3 + r.Intn(3),
			// Kafka's default is 60 s; shorter ones let the coordinator's
			// timeout abort within the safety phase.
			Timeout: []time.Duration{10 * time.Second, 20 * time.Second, time.Minute}[r.Intn(3)],
		})
	}
	p.ReadCommitted = 1 + r.Intn(2)
	return p
}

// describe is the transactional workload for Plan.Describe.
func (p TxnPlan) describe() string {
	if len(p.Producers) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("; transactional producers")
	for _, tp := range p.Producers {
		fmt.Fprintf(&b, " %s(transactional.id=%s, up to %d records per transaction every %s, aborts 1 in %d, transaction.timeout.ms=%d)",
			tp.Name, tp.TransactionalID, tp.Records, tp.Gap, tp.AbortOneIn, tp.Timeout.Milliseconds())
	}
	fmt.Fprintf(&b, "; %d read_committed consumer(s) and 1 read_uncommitted", p.ReadCommitted)
	b.WriteString(p.Copy.describe())
	return b.String()
}
