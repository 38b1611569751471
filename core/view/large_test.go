package view_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/storage"
	"kafkascope/core/view"
)

// A topic of more than DetailedPartitions partitions comes Light,
// partition by partition: what the metadata says, the committed HW and
// availability, no replicas; PartitionDetail reads one whole, as Take
// reads a smaller topic's.
func TestLargeTopicsComeLight(t *testing.T) {
	s := session(t, "")
	s.Exec("kafka-topics.sh --create --topic big --partitions 100 --replication-factor 3", nil)
	s.Exec("kafka-topics.sh --create --topic small --partitions 2 --replication-factor 3", nil)
	s.Exec("kafka-console-producer.sh --topic big --property parse.key=true --property key.separator=:", []string{"k1:a", "k2:b", "k3:c"})
	advance(t, s, time.Second)
	snap := view.Take(s.Cluster())
	var big, small *view.Topic
	for i := range snap.Topics {
		switch snap.Topics[i].Name {
		case "big":
			big = &snap.Topics[i]
		case "small":
			small = &snap.Topics[i]
		}
	}
	if big == nil || small == nil || len(big.Partitions) != 100 {
		t.Fatal("the topics are missing")
	}
	for _, p := range small.Partitions {
		if p.Light || len(p.Replicas) != 3 {
			t.Fatalf("small-%d: light %v, %d replicas", p.Index, p.Light, len(p.Replicas))
		}
	}
	written := int64(0)
	for _, p := range big.Partitions {
		if !p.Light || len(p.Replicas) != 0 || len(p.Assignment) != 3 || len(p.ISR) != 3 || p.Leader < 0 || p.CommittedHW < 0 {
			t.Fatalf("big-%d: light %v, %d replicas, assignment %v, ISR %v, leader %d, HW %d",
				p.Index, p.Light, len(p.Replicas), p.Assignment, p.ISR, p.Leader, p.CommittedHW)
		}
		written += p.CommittedHW
		full, ok := view.PartitionDetail(s.Cluster(), "big", p.Index)
		if !ok || full.Light || len(full.Replicas) != 3 || full.CommittedHW != p.CommittedHW || full.Leader != p.Leader {
			t.Fatalf("PartitionDetail(big-%d): ok %v, light %v, %d replicas, HW %d (light %d)", p.Index, ok, full.Light, len(full.Replicas), full.CommittedHW, p.CommittedHW)
		}
		for _, r := range full.Replicas {
			if r.LEO != p.CommittedHW || int64(len(r.Cells)) != r.LEO-r.LogStart {
				t.Fatalf("big-%d on %d: LEO %d, %d cells, HW %d", p.Index, r.Broker, r.LEO, len(r.Cells), p.CommittedHW)
			}
		}
	}
	if written != 3 {
		t.Fatalf("the committed HWs add up to %d records, want the 3 sent", written)
	}
	if _, ok := view.PartitionDetail(s.Cluster(), "big", 100); ok {
		t.Error("PartitionDetail read a partition that does not exist")
	}
}

// cellsByScan is cells as it read a log before: every batch of every
// segment.
func cellsByScan(log *storage.Log, committedHW int64) []view.Cell {
	from := max(log.LogStartOffset(), log.LogEndOffset()-view.MaxCells)
	var out []view.Cell
	for _, seg := range log.Segments() {
		for b := range seg.Batches() {
			if b.LastOffset < from {
				continue
			}
			for o := max(b.BaseOffset, from); o <= b.LastOffset; o++ {
				out = append(out, view.Cell{Offset: o, Epoch: b.Epoch, Committed: o < committedHW})
			}
		}
	}
	return out
}

// view.Cells reads only the newest batches and gives what reading them all
// gives, across segments, batches of many records, and a log whose
// start moved (deleted segments).
func TestCellsReadTheNewestBatches(t *testing.T) {
	s := session(t, "")
	s.Exec("kafka-topics.sh --create --topic t --partitions 1 --replication-factor 1 --config internal.segment.bytes=2048 --config retention.bytes=2048", nil)
	key := storage.TopicPartition{Topic: "t", Partition: 0}
	var in []string
	for i := range 20 {
		in = append(in, fmt.Sprintf("record-%02d-%s", i, strings.Repeat("x", i*7)))
	}
	most, started := 0, false
	for round := 0; round < 16; round++ {
		s.Exec("kafka-console-producer.sh --topic t", in[:1+round%len(in)])
		advance(t, s, 2*time.Second)
		if round == 12 {
			advance(t, s, 6*time.Minute) // log.retention.check.interval.ms: old segments go
		}
		for _, id := range s.Cluster().NodeIDs() {
			p := s.Cluster().Node(id).Broker.Partition(key)
			if p == nil {
				continue
			}
			log := p.Log()
			most, started = max(most, len(log.Segments())), started || log.LogStartOffset() > 0
			for _, hw := range []int64{0, log.HighWatermark(), log.LogEndOffset()} {
				if got, want := view.Cells(log, hw), cellsByScan(log, hw); !slices.Equal(got, want) {
					t.Fatalf("round %d, %d segments: cells %v, want %v", round, len(log.Segments()), got, want)
				}
			}
		}
	}
	if most < 3 || !started {
		t.Fatalf("the log had at most %d segments, start moved: %v: the test needs more", most, started)
	}
}
