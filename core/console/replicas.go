package console

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/record"
	"kafkascope/core/storage"
)

// MaxShownRecords bounds how many records "replicas" prints per replica.
const MaxShownRecords = 50

// cmdReplicas prints every replica of one partition as its broker holds it:
// role, LEO, HW, the leader-epoch cache, and the records with their offsets
// and batch epochs. It reads the brokers' state directly (no Kafka tool can
// show a follower's HW); it takes no simulated time.
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
	found := false
	for _, id := range s.cluster.NodeIDs() {
		n := s.cluster.Node(id)
		state := s.cluster.State(id)
		p := n.Broker.Partition(tp)
		if p == nil {
			continue
		}
		found = true
		role := "follower"
		if p.IsLeader() {
			role = "leader"
		}
		if state != cluster.NodeRunning {
			role = string(state)
		}
		log := p.Log()
		line := fmt.Sprintf("broker %d (%s): LEO %d, HW %d, leader epoch %d", id, role, log.LogEndOffset(), log.HighWatermark(), p.LeaderEpoch())
		if p.IsLeader() && state == cluster.NodeRunning {
			line += ", ISR " + joinIDs(p.ISR())
		}
		s.print(line)
		var epochs []string
		for _, e := range log.Epochs().Entries() {
			epochs = append(epochs, fmt.Sprintf("%d@%d", e.Epoch, e.StartOffset))
		}
		s.print("  epochs: " + strings.Join(epochs, " "))
		batches, err := log.Batches(log.LogStartOffset(), log.LogEndOffset())
		if err != nil {
			s.printf("  (unreadable: %v)", err)
			continue
		}
		shown := 0
		for _, b := range batches {
			for _, r := range b.Records {
				if shown == MaxShownRecords {
					s.print("  ...")
					break
				}
				s.printf("  %d: %s (epoch %d)%s", r.Offset, showRecord(r), b.PartitionLeaderEpoch, hwMark(r.Offset, log.HighWatermark()))
				shown++
			}
		}
	}
	if !found {
		s.printf("replicas: no broker has a replica of %s", args[0])
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
