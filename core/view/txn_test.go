package view_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/view"
)

// txnSession is transactions.txt's start: a 3.8 cluster, topic payments
// (one partition, three replicas) and four records committed in
// transactions of at most a second: offsets 0-3, COMMIT marker at 4.
func txnSession(t *testing.T) *console.Session {
	t.Helper()
	s := session(t, "cluster create --brokers 3 --controllers 1 --version 3.8")
	exec(t, s, "kafka-topics.sh --create --topic payments --partitions 1 --replication-factor 3")
	exec(t, s, "kafka-producer-perf-test.sh --topic payments --num-records 4 --record-size 8 --throughput 5 --transaction-duration-ms 1000 --producer-props bootstrap.servers=kafka-1:9092")
	advance(t, s, 2*time.Second) // the marker reaches the followers, the HW passes it
	return s
}

func payments(t *testing.T, s *view.Snapshot) view.Partition {
	t.Helper()
	for _, tp := range s.Topics {
		if tp.Name == "payments" {
			return tp.Partitions[0]
		}
	}
	t.Fatal("no topic payments")
	return view.Partition{}
}

// cellKinds writes a replica's cells as offset:kind, kind one of data,
// open, committed, aborted, COMMIT, ABORT.
func cellKinds(rp view.Replica) string {
	var out []string
	for _, c := range rp.Cells {
		k := "data"
		switch {
		case c.Marker && c.Txn == view.TxnCommitted:
			k = "COMMIT"
		case c.Marker:
			k = "ABORT"
		case c.Txn != view.NotTransactional:
			k = c.Txn.String()
		}
		out = append(out, fmt.Sprintf("%d:%s", c.Offset, k))
	}
	return strings.Join(out, " ")
}

// The cells say what the replicas command prints (transactions.txt): the
// committed transaction and its COMMIT marker; a transaction left open by
// a killed producer, whose first offset holds every replica's LSO below
// its HW; then, once the coordinator aborted it on timeout, its records
// aborted, the ABORT marker, and the LSO back at the HW.
func TestCellsShowTransactions(t *testing.T) {
	s := txnSession(t)
	for _, rp := range payments(t, view.Take(s.Cluster())).Replicas {
		if got, want := cellKinds(rp), "0:committed 1:committed 2:committed 3:committed 4:COMMIT"; got != want {
			t.Errorf("broker %d: cells %s, want %s", rp.Broker, got, want)
		}
		if rp.LSO != rp.HW || rp.HW != 5 {
			t.Errorf("broker %d: LSO %d, HW %d; want both 5", rp.Broker, rp.LSO, rp.HW)
		}
	}

	out := s.Exec("kafka-producer-perf-test.sh --topic payments --num-records 100 --record-size 8 --throughput 2 --transaction-duration-ms 600000 --transactional-id orders-app --producer-props bootstrap.servers=kafka-1:9092 &", nil)
	if len(out) == 0 || !strings.Contains(out[0], "Running") {
		t.Fatalf("background perf test: %v", out)
	}
	advance(t, s, 3*time.Second)
	snap := view.Take(s.Cluster())
	var txn view.ProducerTxn
	for _, p := range snap.Producers {
		if p.Txn.TransactionalID != "" {
			txn = p.Txn
		}
	}
	if txn.TransactionalID != "orders-app" || txn.State != "IN_TRANSACTION" || !slices.Equal(txn.Partitions, []string{"payments-0"}) || txn.Error != "" {
		t.Errorf("the producer's transaction: %+v", txn)
	}
	var held []view.Transaction
	for _, tr := range snap.Transactions {
		if tr.TransactionalID == "orders-app" {
			held = append(held, tr)
		}
	}
	if len(held) != 1 || held[0].State != "Ongoing" || held[0].Coordinator < 1 || held[0].Coordinator > 3 {
		t.Errorf("coordinators hold orders-app as %+v, want one, Ongoing", held)
	}

	exec(t, s, "kill -9 %1")
	advance(t, s, time.Second)
	for _, rp := range payments(t, view.Take(s.Cluster())).Replicas {
		cells := cellKinds(rp)
		if !strings.HasPrefix(cells, "0:committed 1:committed 2:committed 3:committed 4:COMMIT 5:open 6:open") || strings.Contains(cells, "aborted") {
			t.Errorf("broker %d with a transaction open: cells %s", rp.Broker, cells)
		}
		if rp.LSO != 5 || rp.HW <= rp.LSO {
			t.Errorf("broker %d: LSO %d, HW %d; want the LSO at 5, below the HW", rp.Broker, rp.LSO, rp.HW)
		}
	}

	advance(t, s, 70*time.Second) // transaction.timeout.ms 60 s, checked every 10 s
	for _, rp := range payments(t, view.Take(s.Cluster())).Replicas {
		if got, want := cellKinds(rp), "0:committed 1:committed 2:committed 3:committed 4:COMMIT 5:aborted 6:aborted 7:aborted 8:aborted 9:aborted 10:ABORT"; got != want {
			t.Errorf("broker %d after the timeout: cells %s, want %s", rp.Broker, got, want)
		}
		if rp.LSO != rp.HW {
			t.Errorf("broker %d: LSO %d, HW %d after the abort", rp.Broker, rp.LSO, rp.HW)
		}
	}
}

// A plain producer's records are data: no marker, no outcome, LSO = HW.
func TestCellsOfPlainRecords(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	produce(t, s, "t", "", "a", "b", "c")
	advance(t, s, time.Second)
	snap := view.Take(s.Cluster())
	for _, rp := range snap.Topics[0].Partitions[0].Replicas {
		if got := cellKinds(rp); got != "0:data 1:data 2:data" || rp.LSO != rp.HW {
			t.Errorf("broker %d: cells %s, LSO %d, HW %d", rp.Broker, got, rp.LSO, rp.HW)
		}
	}
	for _, p := range snap.Producers {
		if p.Txn.TransactionalID != "" {
			t.Errorf("a plain producer shows a transaction: %+v", p.Txn)
		}
	}
}

// A transaction's requests on the wire say what they do: the partition
// AddPartitionsToTxn adds, and which way EndTxn and the coordinator's
// WriteTxnMarkers end the transaction.
func TestTransactionRequestLabels(t *testing.T) {
	s := session(t, "cluster create --brokers 3 --controllers 1 --version 3.8")
	// Three partitions, so that some leader is not the coordinator's broker
	// (a broker writes its own markers without a request).
	exec(t, s, "kafka-topics.sh --create --topic payments --partitions 3 --replication-factor 3")
	s.Exec("kafka-producer-perf-test.sh --topic payments --num-records 12 --record-size 8 --throughput 6 --transaction-duration-ms 1000 --producer-props bootstrap.servers=kafka-1:9092 &", nil)
	seen := map[string]bool{}
	for range 3000 {
		advance(t, s, time.Millisecond)
		for _, m := range view.Take(s.Cluster()).InFlight {
			seen[m.Label] = true
		}
	}
	if !slices.ContainsFunc(slices.Collect(maps.Keys(seen)), func(l string) bool { return strings.HasPrefix(l, "AddPartitionsToTxn payments-") }) {
		t.Errorf("no AddPartitionsToTxn naming its partition (saw %v)", slices.Sorted(maps.Keys(seen)))
	}
	for _, want := range []string{"EndTxn COMMIT", "WriteTxnMarkers COMMIT"} {
		if !seen[want] {
			t.Errorf("no %q on the wire (saw %v)", want, slices.Sorted(maps.Keys(seen)))
		}
	}
}
