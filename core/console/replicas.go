package console

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/view"
)

// MaxShownRecords bounds how many records "replicas" prints per replica.
const MaxShownRecords = 50

// cmdReplicas prints every replica of one partition as its broker holds it:
// role, LEO, HW, the leader-epoch cache, and the records with their offsets
// and batch epochs. It reads the brokers' state through the view
// (view.ReplicaLogs: no Kafka tool can show a follower's HW); it takes no
// simulated time.
func (s *Session) cmdReplicas(args []string) {
	if len(args) != 1 {
		s.print("usage: replicas TOPIC-PARTITION   (e.g. replicas peter-test01-0)")
		return
	}
	if !s.needCluster("replicas") {
		return
	}
	tp, ok := storage.ParseDirName(args[0])
	if !ok {
		s.printf("replicas: %q is not TOPIC-PARTITION", args[0])
		return
	}
	logs := view.ReplicaLogs(s.cluster, tp, MaxShownRecords)
	if len(logs) == 0 {
		s.printf("replicas: no broker has a replica of %s", args[0])
	}
	for _, r := range logs {
		role := "follower"
		if r.Leader {
			role = "leader"
		}
		if r.State != cluster.NodeRunning {
			role = string(r.State)
		}
		line := fmt.Sprintf("broker %d (%s): LEO %d, HW %d, leader epoch %d", r.Broker, role, r.LEO, r.HW, r.LeaderEpoch)
		if r.LSO != r.HW {
			// A transaction open below the HW holds read_committed back.
			line = fmt.Sprintf("broker %d (%s): LEO %d, HW %d, LSO %d, leader epoch %d", r.Broker, role, r.LEO, r.HW, r.LSO, r.LeaderEpoch)
		}
		if r.Leader && r.State == cluster.NodeRunning {
			line += ", ISR " + sim.FormatIDs(r.ISR)
		}
		s.print(line)
		var epochs []string
		for _, e := range r.Epochs {
			epochs = append(epochs, fmt.Sprintf("%d@%d", e.Epoch, e.StartOffset))
		}
		s.print("  epochs: " + strings.Join(epochs, " "))
		if r.Err != nil {
			s.printf("  (unreadable: %v)", r.Err)
			continue
		}
		for _, rec := range r.Records {
			switch {
			case rec.Control != "":
				s.printf("  %d: %s marker of producer %d, producer epoch %d (epoch %d)%s", rec.Offset, rec.Control, rec.ProducerID, rec.ProducerEpoch, rec.BatchEpoch, hwMark(rec.Offset, r.HW))
			case rec.Txn != view.NotTransactional:
				s.printf("  %d: %s (epoch %d) [producer %d's transaction: %s]%s", rec.Offset, showRecord(rec.Record), rec.BatchEpoch, rec.ProducerID, rec.Txn, hwMark(rec.Offset, r.HW))
			default:
				s.printf("  %d: %s (epoch %d)%s", rec.Offset, showRecord(rec.Record), rec.BatchEpoch, hwMark(rec.Offset, r.HW))
			}
		}
		if r.More {
			s.print("  ...")
		}
	}
}

func hwMark(offset, hw int64) string {
	if offset >= hw {
		return "  [above HW: not committed]"
	}
	return ""
}

func showRecord(r record.Record) string {
	v := "null"
	if r.Value != nil {
		v = strconv.Quote(string(r.Value))
	}
	if r.Key != nil {
		return strconv.Quote(string(r.Key)) + "=" + v
	}
	return v
}
