package simulate

import (
	"fmt"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// txnReader is a consumer of the transactional workload: it is assigned
// every partition of every topic (no group), reads from the earliest
// offset with isolation.level read_committed or read_uncommitted, and
// runs through the whole run. Every record it is given is checked as it
// arrives (checks_txn_reads.go) and kept for the final checks.
type txnReader struct {
	name      string
	host      string
	c         *client.Consumer
	committed bool // isolation.level=read_committed
	// got maps each value received to the offset it was received at (a
	// reset after OFFSET_OUT_OF_RANGE may give a record twice).
	got    map[string]int64
	resets int
}

func (run *Run) startTxnReader(n int, committed bool) error {
	rd := &txnReader{committed: committed, got: map[string]int64{}}
	cfg := client.DefaultConsumerConfigFor(run.Plan.Version)
	cfg.IsolationLevel, rd.name = "read_uncommitted", fmt.Sprintf("read-uncommitted-%d", n)
	if committed {
		cfg.IsolationLevel, rd.name = "read_committed", fmt.Sprintf("read-committed-%d", n)
	}
	cfg.ClientID, cfg.AutoOffsetReset, cfg.EnableAutoCommit = rd.name, "earliest", false
	host, err := run.C.SpawnClient(rd.name, func(host string) sim.Process {
		rd.c = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.clientLog(rd.name))
		rd.c.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { run.txnReceived(rd, recs) })
		rd.c.OnOffsetReset(func(*sim.Env, string, int32, int64) { rd.resets++ })
		return &client.Process{Handlers: []client.Handler{rd.c}, OnStart: func(env *sim.Env) {
			for _, t := range run.Plan.Topics {
				parts := make([]int32, len(t.Assignment))
				for i := range parts {
					parts[i] = int32(i)
				}
				rd.c.Assign(env, t.Name, parts, client.SeekEarliest)
			}
		}}
	})
	rd.host = host
	run.txn.readers = append(run.txn.readers, rd)
	return err
}

// txnReadersCaughtUp reports whether every transactional consumer's
// position in every partition is at its leader's LSO (read_committed) or
// HW (read_uncommitted), or past it (logs: the leaders' logs).
func (run *Run) txnReadersCaughtUp(logs map[storage.TopicPartition]*storage.Log) bool {
	for _, tp := range run.partitions() {
		l := logs[tp]
		if l == nil {
			return false
		}
		lso, err := l.LastStableOffset()
		if err != nil {
			return false
		}
		for _, rd := range run.txn.readers {
			end := l.HighWatermark()
			if rd.committed {
				end = lso
			}
			if rd.position(tp) < end {
				return false
			}
		}
	}
	return true
}

// position is rd's next offset in tp (-1 unknown).
func (rd *txnReader) position(tp storage.TopicPartition) int64 {
	if pos, ok := rd.c.Positions()[tp.String()]; ok {
		return pos
	}
	return -1
}
