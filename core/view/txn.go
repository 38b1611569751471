package view

import (
	"slices"
	"strconv"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Transactions as the diagram draws them: in each replica's cells, which
// offsets are transaction markers (control batches) and how each
// transactional record's transaction ended as far as that replica's log
// knows; each replica's last stable offset; each transactional
// producer's TransactionManager; and the transactional ids the brokers'
// transaction coordinators hold.

// ProducerTxn is a transactional producer's transaction as its
// TransactionManager holds it (client.TxnView).
type ProducerTxn struct {
	TransactionalID string
	// State is TransactionManager.State: UNINITIALIZED, INITIALIZING,
	// READY, IN_TRANSACTION, COMMITTING_TRANSACTION, ABORTING_TRANSACTION,
	// ABORTABLE_ERROR, FATAL_ERROR.
	State string
	// Partitions were added to the transaction (AddPartitionsToTxn
	// answered), sorted; Pending wait for AddPartitionsToTxn.
	Partitions []string
	Pending    []string
	Error      string // what put it in ABORTABLE_ERROR or FATAL_ERROR
	// V2: the producer uses transactions v2 (KIP-890 part 2: the leaders
	// add the partitions, every end bumps the producer epoch).
	V2 bool
}

// Transaction is one transactional id a broker's transaction coordinator
// holds: the broker leading its __transaction_state partition, and the
// state of its transaction there (Kafka's TransactionState: Empty,
// Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort,
// PrepareEpochFence).
type Transaction struct {
	TransactionalID string
	Coordinator     int32
	Partition       int32 // of __transaction_state
	State           string
}

// takeTransactions lists the transactional ids every running broker's
// coordinator holds, by id (a coordinator keeps them in a map).
func takeTransactions(c *cluster.Cluster, running map[int32]bool) []Transaction {
	var out []Transaction
	for _, id := range c.NodeIDs() {
		n := c.Node(id)
		if !running[id] || n == nil || n.Broker == nil || n.Broker.TxnCoordinator() == nil {
			continue
		}
		tc := n.Broker.TxnCoordinator()
		for txnID, st := range tc.Transactions() {
			out = append(out, Transaction{TransactionalID: txnID, Coordinator: id, Partition: tc.PartitionFor(txnID), State: st.String()})
		}
	}
	slices.SortFunc(out, func(a, b Transaction) int {
		if a.TransactionalID != b.TransactionalID {
			if a.TransactionalID < b.TransactionalID {
				return -1
			}
			return 1
		}
		return int(a.Coordinator - b.Coordinator)
	})
	return out
}

// producerTxns is, for each producer of the client process on host in the
// order cluster.Clients lists them, its transaction (ok false: the
// producer has no transactional.id). cluster.ClientState copies a
// producer's accumulator but not its TransactionManager, so the view
// finds the producers the way cluster.Clients does.
func producerTxns(c *cluster.Cluster, host string) (out []ProducerTxn) {
	for _, h := range cluster.ClientHandlers(c.World.Process(host)) {
		p, ok := h.(*client.Producer)
		if !ok {
			continue
		}
		var pt ProducerTxn
		if tv, ok := p.Transaction(); ok {
			pt = ProducerTxn{TransactionalID: tv.TransactionalID, State: tv.State, Partitions: tv.Partitions, Pending: tv.Pending, Error: tv.Error,
				V2: tv.V2}
		}
		out = append(out, pt)
	}
	return out
}

// txnBatch is a batch of the cells' window with what its header says of
// transactions: the cells it covers [from, to) in the cells slice.
type txnBatch struct {
	from, to   int
	producerID int64
	control    bool
	txn        bool
}

// markTxns fills in the transactional part of cells: each marker's kind
// and each transactional record's outcome, resolved by the next marker of
// its producer in the window (a transaction's records precede its
// marker, and the window runs to the log's end, so a record whose marker
// is not in the window has none yet in this log: open). Only the
// batches' headers are read, and a control batch's one record (markers
// are few). A batch whose header cannot be read is drawn as plain data.
func markTxns(log *storage.Log, cells []Cell, batches []txnBatch) {
	// Walk back from the log's end: the latest marker seen of each
	// producer decides its records before it.
	type decided struct {
		producerID int64
		outcome    TxnOutcome
	}
	var seen []decided // a few producers at most
	for i := len(batches) - 1; i >= 0; i-- {
		b := batches[i]
		switch {
		case b.control:
			outcome := markerOutcome(log, cells[b.from].Offset)
			for j := b.from; j < b.to; j++ {
				cells[j].Marker, cells[j].Txn = true, outcome
			}
			k := slices.IndexFunc(seen, func(d decided) bool { return d.producerID == b.producerID })
			if k < 0 {
				seen = append(seen, decided{b.producerID, outcome})
			} else {
				seen[k].outcome = outcome
			}
		case b.txn:
			outcome := TxnOpen
			if k := slices.IndexFunc(seen, func(d decided) bool { return d.producerID == b.producerID }); k >= 0 {
				outcome = seen[k].outcome
			}
			for j := b.from; j < b.to; j++ {
				cells[j].Txn = outcome
			}
		}
	}
}

// markerOutcome is what the control batch at offset marks: TxnCommitted
// for a COMMIT marker, TxnAborted for an ABORT (or an unreadable one:
// a control record that commits nothing).
func markerOutcome(log *storage.Log, offset int64) TxnOutcome {
	bs, err := log.Batches(offset, offset+1)
	if err != nil || len(bs) == 0 || len(bs[0].Records) == 0 {
		return TxnAborted
	}
	if typ, err := record.ParseControlKey(bs[0].Records[0].Key); err == nil && typ == record.ControlCommit {
		return TxnCommitted
	}
	return TxnAborted
}

// lastStableOffset is the replica's LSO (storage.Log.LastStableOffset),
// or its HW when the producer state cannot be read.
func lastStableOffset(log *storage.Log) int64 {
	if lso, err := log.LastStableOffset(); err == nil {
		return lso
	}
	return log.HighWatermark()
}

// txnLabel is the label of a transaction's request on the wire: which
// way EndTxn and WriteTxnMarkers end it (Kafka's TransactionResult), the
// partition AddPartitionsToTxn adds when it is one; "" for the API's name
// alone.
func txnLabel(m sim.Message) string {
	result := func(commit bool) string {
		if commit {
			return "COMMIT"
		}
		return "ABORT"
	}
	switch r := m.(type) {
	case *protocol.EndTxnRequest:
		return "EndTxn " + result(r.Committed)
	case *protocol.WriteTxnMarkersRequest:
		if len(r.Markers) > 0 && !slices.ContainsFunc(r.Markers, func(mk protocol.WritableTxnMarker) bool { return mk.Commit != r.Markers[0].Commit }) {
			return "WriteTxnMarkers " + result(r.Markers[0].Commit)
		}
	case *protocol.AddPartitionsToTxnRequest:
		if len(r.Topics) == 1 && len(r.Topics[0].Partitions) == 1 {
			return "AddPartitionsToTxn " + r.Topics[0].Name + "-" + strconv.Itoa(int(r.Topics[0].Partitions[0]))
		}
	}
	return ""
}
