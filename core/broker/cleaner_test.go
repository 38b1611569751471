package broker

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// White-box tests of the broker's log cleaner thread, on the replication
// harness (broker 1 alone, the test playing the controller).

// produceKeyed appends one keyed record per batch (acks=0).
func (h *harness) produceKeyed(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.do(func(env *sim.Env) {
			recs := []record.Record{{Timestamp: env.Now().UnixMilli(), Key: []byte(k), Value: []byte("v")}}
			h.b.handleProduce(env, "client:1", &protocol.ProduceRequest{Acks: 0, TimeoutMs: 1000, Topics: []protocol.ProduceTopic{{
				Name: "t", Partitions: []protocol.ProducePartition{{Index: 0, Records: record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), recs)}},
			}}})
		})
	}
}

func (h *harness) checkpoint() (int64, bool) { return h.b.CleanerCheckpoint(h.tp) }

// The thread looks at the logs when it starts and then every
// log.cleaner.backoff.ms while there is nothing to clean; dirty data waits
// for the next look.
func TestCleanerThreadWakesEveryBackoff(t *testing.T) {
	h := newHarness(t, []int32{1}, []int32{1}, 1, 0, map[string]string{"cleanup.policy": "compact", "segment.bytes": "150"})
	h.do(h.b.startLogCleaner) // at harnessStart
	h.at(harnessStart + time.Second)
	h.produceKeyed("a", "a", "a") // segments [0,1] and [2]: the first is dirty
	h.at(harnessStart + 15*time.Second - time.Millisecond)
	if _, ok := h.checkpoint(); ok {
		t.Fatal("cleaned before the thread's next wake-up")
	}
	h.at(harnessStart + 15*time.Second)
	if o, ok := h.checkpoint(); !ok || o != 2 {
		t.Fatalf("checkpoint %d %v at the wake-up, want 2", o, ok)
	}
	if got := h.b.cfg.Disk.List("/tmp/kafka-logs/t-0"); !strings.Contains(fmt.Sprint(got), "00000000000000000000.log.deleted") {
		t.Fatalf("files %v", got)
	}
}

// A truncation lowers the checkpoint to the new active segment's base, and
// deleting the replica drops its entry, so a new topic of the same name
// starts dirty.
func TestCleanerCheckpointFollowsTruncationAndDeletion(t *testing.T) {
	h := newHarness(t, []int32{1}, []int32{1}, 1, 0, map[string]string{"cleanup.policy": "compact", "segment.bytes": "150"})
	h.produceKeyed("a", "b", "c", "d", "e") // segments 0, 2, 4
	h.b.updateCleanerCheckpoint(map[storage.TopicPartition]int64{h.tp: 4})
	h.do(func(env *sim.Env) { h.p().truncateToHW(env, 3) })
	if o, _ := h.checkpoint(); o != 2 {
		t.Fatalf("checkpoint %d after truncating to 3, want 2 (the active segment's base)", o)
	}
	h.record(&metadata.RemoveTopicRecord{TopicID: h.id})
	h.reconcile()
	if _, ok := h.checkpoint(); ok {
		t.Fatal("a deleted replica kept its checkpoint entry")
	}
}

// Kafka's message lists at most three record errors.
func TestKeylessRecordErrors(t *testing.T) {
	recs := []record.Record{{Value: []byte("a")}, {Key: []byte("k"), Value: []byte("b")}, {Value: []byte("c")}, {Value: []byte("d")}, {Value: []byte("e")}}
	errs, ok := keylessRecordErrors(record.Build(0, -1, record.NoProducer(), recs), storage.TopicPartition{Topic: "t", Partition: 3})
	if !ok || len(errs) != 4 || errs[1].BatchIndex != 2 {
		t.Fatalf("errors %v %v", errs, ok)
	}
	m := "Compacted topic cannot accept message without key in topic partition t-3"
	want := "One or more records have been rejected due to 4 record errors in total, and only showing the first three errors at most: [RecordError(batchIndex=0, message='" + m + "'), RecordError(batchIndex=2, message='" + m + "'), RecordError(batchIndex=3, message='" + m + "')]"
	if got := recordErrorsMessage(errs); got != want {
		t.Fatalf("message\n%s\nwant\n%s", got, want)
	}
	if _, ok := keylessRecordErrors([]byte("not a batch"), storage.TopicPartition{Topic: "t"}); ok {
		t.Fatal("a corrupt batch was judged")
	}
}

// Retention of compacted logs is the cleaner's, as in Kafka: the retention
// task skips every log whose cleanup.policy includes compact, and the
// cleaner runs deleteOldSegments on them at each wake-up, which applies
// retention.ms only with compact,delete.
func TestCleanerAppliesRetentionToCompactDeleteLogs(t *testing.T) {
	for _, tc := range []struct {
		policy    string
		wantStart int64
	}{{"compact", 0}, {"compact,delete", 2}} {
		t.Run(tc.policy, func(t *testing.T) {
			h := newHarness(t, []int32{1}, []int32{1}, 1, 0, map[string]string{"cleanup.policy": tc.policy, "segment.bytes": "150", "retention.ms": "1000"})
			h.produceKeyed("a", "b", "c") // segments [0,1] and [2]
			h.do(func(env *sim.Env) { h.b.cleanupLogs(env) })
			if got := h.p().log.LogStartOffset(); got != 0 {
				t.Fatalf("the retention task moved the log start to %d", got)
			}
			h.do(h.b.startLogCleaner) // wakes at once, then every 15 s
			h.at(harnessStart + 15*time.Second)
			if got := h.p().log.LogStartOffset(); got < tc.wantStart || (tc.wantStart == 0 && got != 0) {
				t.Fatalf("log start %d, want %d", got, tc.wantStart)
			}
		})
	}
}
