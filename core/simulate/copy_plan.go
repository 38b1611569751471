package simulate

import (
	"fmt"
	"time"

	"kafkascope/core/sim"
)

// CopyPlan is a copy pipeline (issue 20): Kafka's TransactionalMessageCopier
// (core/copier) copies the one partition of copy-in to copy-out exactly
// once, while a producer writes the input and faults crash it or make it
// a zombie (its successor, with the same transactional.id and group,
// fences it). copy-exactly-once checks the output against the input.
type CopyPlan struct {
	Records         int           // records the input producer writes
	Gap             time.Duration // between two of them
	TransactionSize int64         // --transaction-size
	Timeout         time.Duration // --transaction-timeout
	RandomAborts    bool          // --enable-random-aborts
	// Assignment is the replicas of both topics' one partition
	// (min.insync.replicas is 2 with three of them, else 1).
	Assignment []int32
}

// copyOneIn: a seed with a transactional workload has a copy pipeline one
// time in copyOneIn.
const copyOneIn = 2

// The pipeline's topics, group and transactional id.
const (
	copyIn    = "copy-in"
	copyOut   = "copy-out"
	copyGroup = "copy"
	copyTxnID = "copier"
)

// drawCopy draws the pipeline from its own stream ("simulate/plan/copy"),
// for a seed with transactional producers: the rest of its plan stays as
// it was drawn before.
func drawCopy(seed uint64, txn TxnPlan, brokers int) *CopyPlan {
	if len(txn.Producers) == 0 {
		return nil
	}
	r := sim.NewRand(seed, "simulate/plan/copy")
	if r.Intn(copyOneIn) != 0 {
		return nil
	}
	ids := make([]int32, brokers)
	for i := range ids {
		ids[i] = int32(i + 1)
	}
	r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
	return &CopyPlan{
		Records:         20 + r.Intn(60),
		Gap:             time.Duration(20+r.Intn(300)) * time.Millisecond,
		TransactionSize: int64(1 + r.Intn(5)),
		Timeout:         []time.Duration{10 * time.Second, 20 * time.Second, time.Minute}[r.Intn(3)],
		RandomAborts:    r.Intn(2) == 0,
		Assignment:      ids[:min(3, brokers)],
	}
}

func (p *CopyPlan) minISR() int {
	if len(p.Assignment) >= 3 {
		return 2
	}
	return 1
}

// describe is the pipeline for Plan.Describe.
func (p *CopyPlan) describe() string {
	if p == nil {
		return ""
	}
	return fmt.Sprintf("; a copy pipeline: %d records into %s%v (min.insync.replicas=%d) every %s, copied to %s by TransactionalMessageCopier (transactional.id=%s, --transaction-size %d, transaction.timeout.ms=%d, random aborts %v)",
		p.Records, copyIn, p.Assignment, p.minISR(), p.Gap, copyOut, copyTxnID, p.TransactionSize, p.Timeout.Milliseconds(), p.RandomAborts)
}
