package event

import "kafkascope/core/sim"

// TxnStateChanged: a transaction coordinator's write of a transactional
// id's new state is replicated, so the transition is complete
// (TransactionMetadata.completeTransitionTo): the id is now in State
// (Kafka's TransactionState names: Empty, Ongoing, PrepareCommit, ...)
// with producer ProducerID at Epoch and Partitions partitions in its
// transaction.
type TxnStateChanged struct {
	Broker          int32
	TransactionalID string
	ProducerID      int64
	Epoch           int16
	State           string
	Partitions      int
	// Bumped: a transactions-v2 end (EndTxn v5) took the epoch one up
	// with this PrepareCommit or PrepareAbort.
	Bumped bool
}

func (TxnStateChanged) Key() string { return "txn.state" }
func (e TxnStateChanged) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Str("txnid", e.TransactionalID)
	w.Int("producer", e.ProducerID)
	w.Int("epoch", int64(e.Epoch))
	w.Str("state", e.State)
	w.Int("partitions", int64(e.Partitions))
	if e.Bumped {
		w.Bool("bumped", true)
	}
}
