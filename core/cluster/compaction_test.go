package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/config"
	"kafkascope/core/protocol"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Log compaction through real brokers (LogCleaner.scala): every replica's
// cleaner thread compacts its own copy on log.cleaner.backoff.ms wake-ups,
// and consumers read the survivors at their original offsets.

// notesExample is scenario 15's sequence (15-log-compaction) (see the storage test of the
// same example): with internal.segment.bytes=300 (segment.bytes may not go below 1 MiB from 4.1) each segment holds four of these
// one-record batches (71 bytes each), so the active segment starts at 8.
var notesExample = [][2]string{
	{"K1", "1"}, {"K2", "2"}, {"K1", "3"}, {"K1", "4"},
	{"K3", "2"}, {"K2", "3"}, {"K3", "4"}, {"K3", "5"},
	{"K2", "6"}, {"K1", "7"}, {"K3", "8"},
}

// produceKeyed sends each key/value as its own batch (acks=all) to broker
// to, waiting for each answer; value "<nil>" is a tombstone, key "" none.
func (rc *rawClient) produceKeyed(t testing.TB, to int32, topic string, kvs ...[2]string) []protocol.ProducePartitionResponse {
	t.Helper()
	var out []protocol.ProducePartitionResponse
	for _, kv := range kvs {
		c := &call{}
		rc.sendAll(t, outgoing{to: to, c: c, build: func(env *sim.Env) protocol.Request {
			r := record.Record{Timestamp: env.Now().UnixMilli()}
			if kv[0] != "" {
				r.Key = []byte(kv[0])
			}
			if kv[1] != "<nil>" {
				r.Value = []byte(kv[1])
			}
			return &protocol.ProduceRequest{Acks: -1, TimeoutMs: 30000, Topics: []protocol.ProduceTopic{{
				Name: topic, Partitions: []protocol.ProducePartition{{Index: 0, Records: record.Build(0, record.NoPartitionLeaderEpoch, record.NoProducer(), []record.Record{r})}},
			}}}
		}})
		rc.wait(t, c, time.Minute)
		out = append(out, producePart(t, c))
	}
	return out
}

// survivorsOf lists a replica's records as offset:key=value.
func survivorsOf(t testing.TB, c *Cluster, id int32, topic string) string {
	t.Helper()
	l := replica(t, c, id, topic).Log()
	bs, err := l.Batches(l.LogStartOffset(), l.LogEndOffset())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range bs {
		for _, r := range b.Records {
			v := "<nil>"
			if r.Value != nil {
				v = string(r.Value)
			}
			out = append(out, fmt.Sprintf("%d:%s=%s", r.Offset, r.Key, v))
		}
	}
	return strings.Join(out, " ")
}

// partitionFiles lists the files in broker id's directory of topic-0,
// without the checkpoint and metadata files.
func partitionFiles(c *Cluster, id int32, topic string) []string {
	var out []string
	for _, e := range c.Disk(id).List("/tmp/kafka-logs/" + topic + "-0") {
		if e.Name != storage.LeaderEpochCheckpointFile && e.Name != storage.PartitionMetadataFile {
			out = append(out, e.Name)
		}
	}
	return out
}

// consumeAll reads topic-0 from the earliest offset with the client's
// consumer until it has n records.
func consumeAll(t testing.TB, c *Cluster, topic string, n int) []client.ConsumerRecord {
	t.Helper()
	var got []client.ConsumerRecord
	var cons *client.Consumer
	host, err := c.SpawnClient("consumer", func(host string) sim.Process {
		cons = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{BrokerAddr(1)}, client.DefaultConsumerConfig(), func(client.Level, string, string) {})
		cons.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { got = append(got, recs...) })
		return &client.Process{Handlers: []client.Handler{cons}, OnStart: func(env *sim.Env) { cons.Assign(env, topic, []int32{0}, client.SeekEarliest) }}
	})
	if err != nil {
		t.Fatal(err)
	}
	runUntil(t, c, func() bool { return len(got) >= n }, time.Minute, "consuming")
	advance(t, c, 2*time.Second) // nothing more arrives
	c.StopClient(host)
	return got
}

func TestCompactionKeepsLastValuePerKeyOnEveryReplica(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "notes", [][]int32{{1, 2, 3}}, map[string]string{"cleanup.policy": "compact", "internal.segment.bytes": "300"})
	rc := newRawClient(t, c, 1)
	for _, pr := range rc.produceKeyed(t, 1, "notes", notesExample...) {
		if pr.ErrorCode != protocol.NONE {
			t.Fatalf("produce: %s", pr.ErrorCode)
		}
	}
	produced := c.World.Now()
	runUntil(t, c, func() bool {
		for _, id := range []int32{1, 2, 3} {
			if _, ok := c.Node(id).Broker.CleanerCheckpoint(tpOf("notes", 0)); !ok {
				return false
			}
		}
		return true
	}, time.Minute, "every broker cleaning notes-0")
	// The cleaner sleeps log.cleaner.backoff.ms between looks at the logs.
	if waited := c.World.Now().Sub(produced); waited > 15*time.Second {
		t.Fatalf("cleaned %s after the last append, later than one backoff", waited)
	}
	want := "3:K1=4 5:K2=3 7:K3=5 8:K2=6 9:K1=7 10:K3=8"
	var wantFiles []string
	for _, base := range []string{"00000000000000000000", "00000000000000000004"} {
		for _, suffix := range []string{".index", ".index.deleted", ".log", ".log.deleted", ".timeindex", ".timeindex.deleted"} {
			wantFiles = append(wantFiles, base+suffix)
		}
	}
	wantFiles = append(wantFiles, "00000000000000000008.index", "00000000000000000008.log", "00000000000000000008.timeindex")
	for _, id := range []int32{1, 2, 3} {
		if got := survivorsOf(t, c, id, "notes"); got != want {
			t.Fatalf("broker %d: %s, want %s", id, got, want)
		}
		data, err := c.Disk(id).ReadFile("/tmp/kafka-logs/cleaner-offset-checkpoint")
		if err != nil || string(data) != "0\n1\nnotes 0 8\n" {
			t.Fatalf("broker %d cleaner-offset-checkpoint %q (%v)", id, data, err)
		}
		// Two segments of 284 bytes do not fit in one of 300: each is
		// cleaned on its own, into a segment with its own indexes; the
		// replaced files, indexes too, wait to be deleted.
		if got := partitionFiles(c, id, "notes"); !slices.Equal(got, wantFiles) {
			t.Fatalf("broker %d files %v", id, got)
		}
	}
	// A consumer from the beginning sees the survivors at their offsets.
	var got []string
	for _, r := range consumeAll(t, c, "notes", 6) {
		got = append(got, fmt.Sprintf("%d:%s=%s", r.Offset, r.Key, r.Value))
	}
	if strings.Join(got, " ") != want {
		t.Fatalf("consumed %v", got)
	}
	// file.delete.delay.ms (60 s) later the replaced segments are gone.
	advance(t, c, time.Minute)
	for _, id := range []int32{1, 2, 3} {
		var live []string
		for _, f := range wantFiles {
			if !strings.HasSuffix(f, ".deleted") {
				live = append(live, f)
			}
		}
		if got := partitionFiles(c, id, "notes"); !slices.Equal(got, live) {
			t.Fatalf("broker %d files after the delete delay %v", id, got)
		}
	}
	// Nothing new is dirty: later wake-ups leave the log alone.
	before := logBytes(t, replica(t, c, 1, "notes"))
	advance(t, c, time.Minute)
	if !sameBytes(before, logBytes(t, replica(t, c, 1, "notes"))) {
		t.Fatal("a clean log was cleaned again")
	}
}

// A tombstone survives the pass that first sees it and goes at the first
// pass after delete.retention.ms; a later write of its key lives on.
func TestCompactionRemovesTombstonesAfterDeleteRetention(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "ts", [][]int32{{1, 2, 3}}, map[string]string{
		"cleanup.policy": "compact", "internal.segment.bytes": "150", "delete.retention.ms": "60000", "min.cleanable.dirty.ratio": "0.01",
	})
	rc := newRawClient(t, c, 1)
	rc.produceKeyed(t, 1, "ts", [2]string{"a", "1"}, [2]string{"b", "1"}, [2]string{"a", "<nil>"}, [2]string{"c", "1"}, [2]string{"d", "1"})
	advance(t, c, 16*time.Second)
	if got := survivorsOf(t, c, 1, "ts"); got != "1:b=1 2:a=<nil> 3:c=1 4:d=1" {
		t.Fatalf("after the first pass: %s", got)
	}
	// More data keeps the log dirty; the tombstone stays until its horizon.
	rc.produceKeyed(t, 1, "ts", [2]string{"e", "1"}, [2]string{"f", "1"})
	advance(t, c, 30*time.Second)
	if got := survivorsOf(t, c, 1, "ts"); !strings.Contains(got, "2:a=<nil>") {
		t.Fatalf("tombstone gone before delete.retention.ms: %s", got)
	}
	advance(t, c, 30*time.Second)
	rc.produceKeyed(t, 1, "ts", [2]string{"g", "1"}, [2]string{"h", "1"})
	advance(t, c, 16*time.Second)
	for _, id := range []int32{1, 2, 3} {
		if got := survivorsOf(t, c, id, "ts"); strings.Contains(got, "a=") || !strings.HasPrefix(got, "1:b=1 3:c=1 4:d=1 5:e=1") {
			t.Fatalf("broker %d after the horizon: %s", id, got)
		}
	}
}

// log.cleaner.enable=false: no cleaner thread, nothing is compacted.
func TestCompactionOffWithoutTheCleaner(t *testing.T) {
	c := newCluster(t, config.Static{"log.cleaner.enable": "false"})
	createAssigned(t, c, "off", [][]int32{{1, 2, 3}}, map[string]string{"cleanup.policy": "compact", "internal.segment.bytes": "300"})
	rc := newRawClient(t, c, 1)
	rc.produceKeyed(t, 1, "off", notesExample...)
	advance(t, c, time.Minute)
	if got := survivorsOf(t, c, 1, "off"); strings.Count(got, ":") != len(notesExample) {
		t.Fatalf("compacted without a cleaner: %s", got)
	}
}

// A compacted topic refuses records without a key (LogValidator): the
// broker answers INVALID_RECORD naming the record, nothing is appended, and
// the producer's callback gets Kafka's InvalidRecordException.
func TestCompactedTopicRefusesKeylessRecords(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "keys", [][]int32{{1, 2, 3}}, map[string]string{"cleanup.policy": "compact,delete"})
	rc := newRawClient(t, c, 1)
	pr := rc.produceKeyed(t, 1, "keys", [2]string{"", "v"})[0]
	wantMsg := "One or more records have been rejected due to 1 record errors in total, and only showing the first three errors at most: [RecordError(batchIndex=0, message='Compacted topic cannot accept message without key in topic partition keys-0')]"
	if pr.ErrorCode != protocol.INVALID_RECORD || pr.ErrorMessage != wantMsg || len(pr.RecordErrors) != 1 || pr.RecordErrors[0].BatchIndex != 0 {
		t.Fatalf("answer %+v", pr)
	}
	if leo := replica(t, c, 1, "keys").Log().LogEndOffset(); leo != 0 {
		t.Fatalf("appended anyway: LEO %d", leo)
	}
	got := produce(t, c, "keys", -1, "x")
	if len(got) != 1 || got[0] != "x:org.apache.kafka.common.InvalidRecordException: Compacted topic cannot accept message without key in topic partition keys-0" {
		t.Fatalf("producer saw %v", got)
	}
	if pr := rc.produceKeyed(t, 1, "keys", [2]string{"k", "v"})[0]; pr.ErrorCode != protocol.NONE {
		t.Fatalf("keyed record refused: %+v", pr)
	}
}

// A cleaned log survives a crash and a power loss: cleaned segments are
// flushed before they are swapped in, renames and cleaner-offset-checkpoint
// are durable, and a restarted broker deletes the .deleted files its
// timers would have removed.
func TestCompactedLogSurvivesRestarts(t *testing.T) {
	c := newCluster(t, nil)
	createAssigned(t, c, "notes", [][]int32{{1, 2, 3}}, map[string]string{"cleanup.policy": "compact", "internal.segment.bytes": "300"})
	rc := newRawClient(t, c, 1)
	rc.produceKeyed(t, 1, "notes", notesExample...)
	advance(t, c, 15*time.Second)
	want := "3:K1=4 5:K2=3 7:K3=5 8:K2=6 9:K1=7 10:K3=8"
	for _, kill := range []struct {
		id        int32
		powerLoss bool
	}{{2, false}, {3, true}} {
		if err := c.Kill(kill.id, kill.powerLoss); err != nil {
			t.Fatal(err)
		}
		if err := c.Start(kill.id); err != nil {
			t.Fatal(err)
		}
		runUntil(t, c, func() bool { return c.Node(kill.id).Broker.Partition(tpOf("notes", 0)) != nil }, time.Minute, "the restarted broker loading notes-0")
		if got := partitionFiles(c, kill.id, "notes"); slices.ContainsFunc(got, func(f string) bool { return strings.HasSuffix(f, ".deleted") }) {
			t.Fatalf("broker %d kept %v", kill.id, got)
		}
		if o, ok := c.Node(kill.id).Broker.CleanerCheckpoint(tpOf("notes", 0)); !ok || o != 8 {
			t.Fatalf("broker %d checkpoint %d %v", kill.id, o, ok)
		}
		runUntil(t, c, func() bool { return survivorsOf(t, c, kill.id, "notes") == want }, time.Minute, fmt.Sprintf("broker %d holding the compacted log", kill.id))
	}
}
