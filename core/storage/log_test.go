package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path"
	"reflect"
	"testing"

	"kafkascope/core/record"
)

func TestCreateLogLayout(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	dir := "/tmp/kafka-logs/foo-0"
	if l.Dir() != dir || l.TopicPartition() != fooTP || l.TopicID() != "AAAAAAAAAAAAAAAAAAAAAQ" {
		t.Fatalf("Dir %q, tp %v, id %q", l.Dir(), l.TopicPartition(), l.TopicID())
	}
	want := []string{dir + "/00000000000000000000.index", dir + "/00000000000000000000.log", dir + "/00000000000000000000.timeindex", dir + "/leader-epoch-checkpoint", dir + "/partition.metadata"}
	if got := d.Walk(dir); !reflect.DeepEqual(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
	if got := string(fileContent(t, d, dir+"/partition.metadata")); got != "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ" {
		t.Fatalf("partition.metadata %q", got)
	}
	if got := string(fileContent(t, d, dir+"/leader-epoch-checkpoint")); got != "0\n0\n" {
		t.Fatalf("leader-epoch-checkpoint %q", got)
	}
	if sz, _ := d.Size(dir + "/00000000000000000000.log"); sz != 0 {
		t.Fatalf("new segment has %d bytes", sz)
	}
	if l.LogStartOffset() != 0 || l.LogEndOffset() != 0 || l.HighWatermark() != 0 || l.RecoveryPoint() != 0 || l.LatestEpoch() != -1 {
		t.Fatalf("new log: start %d, LEO %d, HW %d, RP %d, epoch %d", l.LogStartOffset(), l.LogEndOffset(), l.HighWatermark(), l.RecoveryPoint(), l.LatestEpoch())
	}
	if l.Config() != DefaultLogConfig || DefaultLogConfig.SegmentBytes != 1073741824 {
		t.Fatalf("config %+v; segment.bytes default must be 1073741824", l.Config())
	}
	checkInvariants(t, l)
	// Checkpoint files are written durably: they survive an immediate power loss.
	d.PowerLoss()
	if !d.Exists(dir+"/partition.metadata") || !d.Exists(dir+"/leader-epoch-checkpoint") {
		t.Fatal("partition.metadata or leader-epoch-checkpoint was not durable")
	}
	if _, err := CreateLog(d, testLogDir, fooTP, "x", DefaultLogConfig); err == nil {
		t.Fatal("CreateLog over an existing directory succeeded")
	}
}

func TestAppendAsLeaderAssignsOffsetsAndStampsEpoch(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	b1 := producerBatch(3)
	orig := bytes.Clone(b1)
	info := mustLeaderAppend(t, l, b1, 7)
	if !bytes.Equal(b1, orig) {
		t.Fatal("AppendAsLeader modified the caller's bytes")
	}
	if info.FirstOffset != 0 || info.LastOffset != 2 || info.Records != 3 || info.MaxTimestamp != 1002 {
		t.Fatalf("first append info %+v", info)
	}
	// Two batches in one request get consecutive offsets.
	info = mustLeaderAppend(t, l, append(producerBatch(2), producerBatch(1)...), 7)
	if info.FirstOffset != 3 || info.LastOffset != 5 || info.Records != 3 {
		t.Fatalf("second append info %+v", info)
	}
	if l.LogEndOffset() != 6 {
		t.Fatalf("LEO %d, want 6", l.LogEndOffset())
	}
	stored := mustRead(t, l, 0, 1<<20, l.LogEndOffset(), false)
	bs := decodeAll(t, stored) // also checks every CRC is still valid
	if len(bs) != 3 {
		t.Fatalf("%d batches stored", len(bs))
	}
	wantBase := []int64{0, 3, 5}
	next := int64(0)
	for i, b := range bs {
		if b.BaseOffset != wantBase[i] || b.PartitionLeaderEpoch != 7 {
			t.Errorf("batch %d: base %d epoch %d, want base %d epoch 7", i, b.BaseOffset, b.PartitionLeaderEpoch, wantBase[i])
		}
		for _, r := range b.Records {
			if r.Offset != next {
				t.Errorf("record offset %d, want %d", r.Offset, next)
			}
			next++
		}
	}
	// Only baseOffset and partitionLeaderEpoch changed: the stored CRC is
	// the producer's.
	h, _ := record.ParseHeader(orig)
	if bs[0].CRC != h.CRC {
		t.Errorf("stored CRC %d, producer's CRC %d", bs[0].CRC, h.CRC)
	}
	if !bytes.Equal(stored[17:len(orig)], orig[17:]) {
		t.Error("bytes from the CRC on differ from the producer's")
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{7 0}]" {
		t.Fatalf("epoch cache %s", got)
	}
	checkInvariants(t, l)
}

func TestAppendAsLeaderRecordsNewEpochs(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(2), 0)
	mustLeaderAppend(t, l, producerBatch(1), 0)
	mustLeaderAppend(t, l, producerBatch(2), 3)
	mustLeaderAppend(t, l, producerBatch(1), 5)
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {3 3} {5 5}]" {
		t.Fatalf("epoch cache %s", got)
	}
	cp := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile)))
	if cp != "0\n3\n0 0\n3 3\n5 5\n" {
		t.Fatalf("leader-epoch-checkpoint %q", cp)
	}
	if e, o := l.EndOffsetForEpoch(3); e != 3 || o != 5 {
		t.Fatalf("EndOffsetForEpoch(3) = (%d, %d), want (3, 5)", e, o)
	}
	if e, o := l.EndOffsetForEpoch(5); e != 5 || o != 6 {
		t.Fatalf("EndOffsetForEpoch(5) = (%d, %d), want (5, LEO 6)", e, o)
	}
}

// Kafka's shouldFollowLeaderEpochBasicWorkflow ends with the cache
// [(0,0),(1,1),(2,2)] on both brokers: one message per leader epoch.
func TestEpochCacheOfLeaderAndFollowerAgree(t *testing.T) {
	d1, _ := newTestDisk()
	d2, _ := newTestDisk()
	leader := mustCreate(t, d1, DefaultLogConfig)
	follower := mustCreate(t, d2, DefaultLogConfig)
	for epoch := int32(0); epoch < 3; epoch++ {
		if err := leader.AssignEpoch(epoch); err != nil {
			t.Fatal(err)
		}
		mustLeaderAppend(t, leader, producerBatch(1), epoch)
		data := mustRead(t, leader, follower.LogEndOffset(), 1<<20, leader.LogEndOffset(), true)
		if _, err := follower.AppendAsFollower(data); err != nil {
			t.Fatal(err)
		}
	}
	for name, l := range map[string]*Log{"leader": leader, "follower": follower} {
		if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {1 1} {2 2}]" {
			t.Errorf("%s epoch cache %s", name, got)
		}
	}
	a := mustRead(t, leader, 0, 1<<20, 3, false)
	b := mustRead(t, follower, 0, 1<<20, 3, false)
	if !bytes.Equal(a, b) {
		t.Error("follower's bytes differ from the leader's")
	}
}

func TestAssignEpochOnBecomingLeader(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(4), 0)
	if err := l.AssignEpoch(2); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {2 4}]" {
		t.Fatalf("after AssignEpoch(2) at LEO 4: %s", got)
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n2\n0 0\n2 4\n" {
		t.Fatalf("checkpoint %q", got)
	}
	// Appending in that epoch does not add an entry.
	mustLeaderAppend(t, l, producerBatch(1), 2)
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {2 4}]" {
		t.Fatalf("after appending in epoch 2: %s", got)
	}
}

// invalidBatches are produce payloads a leader must refuse, each with why.
func invalidBatches() map[string][]byte {
	good := producerBatch(3)
	m := map[string][]byte{}
	m["empty request"] = nil
	bad := bytes.Clone(good)
	bad[len(bad)-1] ^= 0xff
	m["crc mismatch"] = bad
	m["batch cut short"] = bytes.Clone(good[:len(good)-1])
	m["header cut short"] = bytes.Clone(good[:30])
	m["valid batch then garbage"] = append(bytes.Clone(good), 1, 2, 3)
	m["valid batch then a corrupt one"] = append(bytes.Clone(good), bad...)
	magic := bytes.Clone(good)
	magic[16] = 1
	m["magic 1"] = magic
	return m
}

func TestAppendAsLeaderRejectsInvalidBatches(t *testing.T) {
	for name, data := range invalidBatches() {
		t.Run(name, func(t *testing.T) {
			d, _ := newTestDisk()
			l := mustCreate(t, d, DefaultLogConfig)
			mustLeaderAppend(t, l, producerBatch(2), 0)
			before := fileContent(t, d, l.Segments()[0].Path)
			_, err := l.AppendAsLeader(data, 1)
			if !errors.Is(err, ErrInvalidRecord) {
				t.Fatalf("err = %v, want ErrInvalidRecord", err)
			}
			if l.LogEndOffset() != 2 || !bytes.Equal(fileContent(t, d, l.Segments()[0].Path), before) {
				t.Fatalf("a refused append changed the log (LEO %d)", l.LogEndOffset())
			}
			if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0}]" {
				t.Fatalf("a refused append changed the epoch cache: %s", got)
			}
			checkInvariants(t, l)
		})
	}
}

func TestAppendAsLeaderRejectsCompressedBatch(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	b := producerBatch(1)
	// Set the gzip bit and fix the CRC: a well-formed compressed batch this
	// engine cannot read.
	binary.BigEndian.PutUint16(b[21:], uint16(record.CompressionGzip))
	binary.BigEndian.PutUint32(b[17:], record.ComputeCRC(b))
	if _, err := l.AppendAsLeader(b, 0); !errors.Is(err, ErrInvalidRecord) {
		t.Fatalf("err = %v, want ErrInvalidRecord", err)
	}
	if l.LogEndOffset() != 0 {
		t.Fatal("compressed batch appended")
	}
}

// Kafka's LogValidator.validateBatch refuses, from clients, a v2 batch whose
// offset range [baseOffset, lastOffset] is empty ("Batch has an invalid
// offset range"), whose record count is not positive ("Invalid reported
// count for record batch"), or whose offset range disagrees with its record
// count ("Inconsistent batch offset range [..] and count of records ..").
// The leader assigns offsets from lastOffsetDelta, so accepting such a batch
// corrupts the log's offsets.
func TestAppendAsLeaderRejectsBatchWithInconsistentOffsetRange(t *testing.T) {
	recs := []record.Record{{Timestamp: 1, Value: []byte("a")}, {Timestamp: 1, Offset: 1, Value: []byte("b")}, {Timestamp: 1, Offset: 2, Value: []byte("c")}}
	cases := map[string]record.Batch{
		"lastOffsetDelta -1 with 3 records (invalid offset range)": {LastOffsetDelta: -1, Records: recs},
		"lastOffsetDelta 5 with 3 records (inconsistent)":          {LastOffsetDelta: 5, Records: recs},
		"lastOffsetDelta 0 with 3 records (inconsistent)":          {LastOffsetDelta: 0, Records: recs},
		"no records (invalid reported count 0)":                    {LastOffsetDelta: 0},
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			b.BaseTimestamp, b.MaxTimestamp = 1, 1
			b.ProducerID, b.ProducerEpoch, b.BaseSequence = -1, -1, -1
			data := b.AppendTo(nil)
			if err := record.Validate(data); err != nil {
				t.Fatalf("test batch is not even well-formed: %v", err)
			}
			d, _ := newTestDisk()
			l := mustCreate(t, d, DefaultLogConfig)
			mustLeaderAppend(t, l, producerBatch(1), 0)
			info, err := l.AppendAsLeader(data, 0)
			if !errors.Is(err, ErrInvalidRecord) {
				t.Errorf("AppendAsLeader accepted it: %+v, err %v; LEO now %d", info, err, l.LogEndOffset())
			}
			if l.LogEndOffset() != 1 {
				t.Errorf("LEO %d after a refused append, want 1", l.LogEndOffset())
			}
		})
	}
}

func TestAppendAsFollower(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	data := append(batchAt(0, 0, 3), batchAt(3, 0, 2)...)
	orig := bytes.Clone(data)
	info, err := l.AppendAsFollower(data)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, orig) {
		t.Fatal("AppendAsFollower modified its input")
	}
	if info.FirstOffset != 0 || info.LastOffset != 4 || info.Records != 5 || l.LogEndOffset() != 5 {
		t.Fatalf("info %+v, LEO %d", info, l.LogEndOffset())
	}
	// Stored exactly as the leader sent them.
	if got := mustRead(t, l, 0, 1<<20, 5, false); !bytes.Equal(got, orig) {
		t.Fatal("follower did not store the leader's bytes verbatim")
	}
	// Offsets at or below the LEO are refused, and nothing is appended.
	for name, bad := range map[string][]byte{
		"overlaps the log":               batchAt(4, 0, 2),
		"starts below the LEO":           batchAt(2, 0, 1),
		"second batch goes backwards":    append(batchAt(5, 0, 2), batchAt(6, 0, 1)...),
		"second batch repeats an offset": append(batchAt(5, 0, 1), batchAt(5, 0, 1)...),
	} {
		if _, err := l.AppendAsFollower(bad); !errors.Is(err, ErrOffsetOrder) {
			t.Errorf("%s: err = %v, want ErrOffsetOrder", name, err)
		}
		if l.LogEndOffset() != 5 {
			t.Fatalf("%s: LEO moved to %d", name, l.LogEndOffset())
		}
	}
	corrupt := batchAt(5, 0, 1)
	corrupt[len(corrupt)-1] ^= 1
	if _, err := l.AppendAsFollower(append(batchAt(5, 0, 1), corrupt...)); !errors.Is(err, ErrInvalidRecord) {
		t.Errorf("corrupt batch: err = %v, want ErrInvalidRecord", err)
	}
	if l.LogEndOffset() != 5 {
		t.Fatalf("a batch before a corrupt one was appended: LEO %d", l.LogEndOffset())
	}
	// A gap (left by compaction on the leader) is fine.
	info, err = l.AppendAsFollower(batchAt(9, 0, 1))
	if err != nil || info.FirstOffset != 9 || l.LogEndOffset() != 10 {
		t.Fatalf("append after a gap: %+v, %v, LEO %d", info, err, l.LogEndOffset())
	}
	// Nothing to append is not an error.
	info, err = l.AppendAsFollower(nil)
	if err != nil || info.FirstOffset != -1 || info.LastOffset != -1 || l.LogEndOffset() != 10 {
		t.Fatalf("empty append: %+v, %v", info, err)
	}
	checkInvariants(t, l)
}

func TestAppendAsFollowerLearnsEpochs(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	data := append(append(batchAt(0, 0, 2), batchAt(2, 0, 1)...), batchAt(3, 2, 2)...)
	if _, err := l.AppendAsFollower(data); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {2 3}]" {
		t.Fatalf("epoch cache %s, want [{0 0} {2 3}]", got)
	}
	// Every batch is assigned (Kafka's UnifiedLog.append calls
	// LeaderEpochFileCache.assign for each one): a batch of an older epoch
	// replaces the entries it contradicts. The leader this follower fetches
	// from wrote epoch 1 at 5, so whatever said epoch 2 starts at 3 was
	// this replica's own history, not the leader's.
	if _, err := l.AppendAsFollower(batchAt(5, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {1 5}]" {
		t.Fatalf("epoch cache %s after an epoch-1 batch at 5, want [{0 0} {1 5}]", got)
	}
	// The same epoch again changes nothing.
	if _, err := l.AppendAsFollower(batchAt(6, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AppendAsFollower(batchAt(7, 4, 1)); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0} {1 5} {4 7}]" {
		t.Fatalf("epoch cache %s, want [{0 0} {1 5} {4 7}]", got)
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n3\n0 0\n1 5\n4 7\n" {
		t.Fatalf("checkpoint %q", got)
	}
	// A refused append teaches nothing.
	if _, err := l.AppendAsFollower(append(batchAt(8, 9, 1), batchAt(8, 9, 1)...)); err == nil {
		t.Fatal("out-of-order append succeeded")
	}
	if l.LatestEpoch() != 4 {
		t.Fatalf("a refused append changed the latest epoch to %d", l.LatestEpoch())
	}
}

// TestChaos seed 337: a broker lost power as leader of epoch 1 (which it had
// started at 129) and came back with 111 records. Its old session was still
// alive, so the metadata still named it leader of epoch 1: it assigned
// epoch 1 at its LEO, 111. Following the next leader, it then fetched the
// epoch-0 batches 111..128 it had lost. Kept as (1,111), the cache would
// claim those batches for epoch 1 and, were this replica to lead, tell
// followers that epoch 0 ends at 111: they would cut committed records.
// Kafka's assign for each appended batch replaces the contradicted entry.
func TestFollowerAppendOfOlderEpochReplacesOwnEpochEntry(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	if _, err := l.AppendAsFollower(batchAt(0, 0, 3)); err != nil { // 0..2
		t.Fatal(err)
	}
	if err := l.AssignEpoch(1); err != nil { // leads epoch 1 from 3
		t.Fatal(err)
	}
	if _, err := l.AppendAsFollower(append(batchAt(3, 0, 2), batchAt(5, 1, 1)...)); err != nil { // the real epoch 1 starts at 5
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 3} {1 5}]" {
		t.Fatalf("epoch cache %s, want [{0 3} {1 5}]", got)
	}
	if e, end := l.EndOffsetForEpoch(0); e != 0 || end != 5 {
		t.Fatalf("endOffsetFor(0) = (%d, %d), want (0, 5): epoch 0 ends where the leader's epoch 1 began", e, end)
	}
}

// readFixture: batches [0..2], [3..4], [5..9] in one segment.
func readFixture(t *testing.T) (*Log, []int) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	var sizes []int
	for _, n := range []int{3, 2, 5} {
		b := producerBatch(n)
		sizes = append(sizes, len(b))
		mustLeaderAppend(t, l, b, 0)
	}
	return l, sizes
}

func TestReadMaxOffsetIsExclusive(t *testing.T) {
	l, _ := readFixture(t)
	cases := []struct {
		start, maxOffset int64
		want             []span
	}{
		{0, 10, []span{{0, 2}, {3, 4}, {5, 9}}},
		// A consumer reading up to the HW gets only whole batches below it.
		{0, 9, []span{{0, 2}, {3, 4}}},
		{0, 6, []span{{0, 2}, {3, 4}}},
		{0, 5, []span{{0, 2}, {3, 4}}},
		{0, 4, []span{{0, 2}}},
		{0, 3, []span{{0, 2}}},
		{0, 2, nil},
		{0, 0, nil},
		// The batch holding the start offset comes whole.
		{1, 10, []span{{0, 2}, {3, 4}, {5, 9}}},
		{4, 10, []span{{3, 4}, {5, 9}}},
		{5, 10, []span{{5, 9}}},
		{7, 10, []span{{5, 9}}},
		// Reading at the HW returns nothing, even if more is in the log.
		{5, 5, nil},
		{10, 10, nil},
	}
	for _, c := range cases {
		data := mustRead(t, l, c.start, 1<<20, c.maxOffset, true)
		if got := spans(t, data); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Read(start %d, maxOffset %d) = %v, want %v", c.start, c.maxOffset, got, c.want)
		}
	}
}

func TestReadMaxBytes(t *testing.T) {
	l, sizes := readFixture(t)
	cases := []struct {
		maxBytes int
		minOne   bool
		want     []span
	}{
		{sizes[0], false, []span{{0, 2}}},
		{sizes[0] - 1, false, nil},
		{sizes[0] - 1, true, []span{{0, 2}}},
		{0, true, []span{{0, 2}}},
		{sizes[0] + sizes[1] - 1, true, []span{{0, 2}}},
		{sizes[0] + sizes[1], false, []span{{0, 2}, {3, 4}}},
		{sizes[0] + sizes[1] + sizes[2], false, []span{{0, 2}, {3, 4}, {5, 9}}},
	}
	for _, c := range cases {
		data := mustRead(t, l, 0, c.maxBytes, 10, c.minOne)
		if got := spans(t, data); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Read(maxBytes %d, minOneBatch %v) = %v, want %v", c.maxBytes, c.minOne, got, c.want)
		}
		if len(data) > c.maxBytes && !(c.minOne && len(spans(t, data)) == 1) {
			t.Errorf("Read(maxBytes %d) returned %d bytes", c.maxBytes, len(data))
		}
	}
	// minOneBatch never overrides the HW.
	if got := mustRead(t, l, 5, 0, 9, true); len(got) != 0 {
		t.Errorf("minOneBatch returned a batch reaching beyond maxOffset")
	}
}

func TestReadOutOfRange(t *testing.T) {
	l, _ := readFixture(t)
	for _, start := range []int64{-1, 11, 1 << 40} {
		if _, err := l.Read(start, 1<<20, 10, true); !errors.Is(err, ErrOffsetOutOfRange) {
			t.Errorf("Read(%d) on a log [0, 10): err = %v, want ErrOffsetOutOfRange", start, err)
		}
	}
	data, err := l.Read(10, 1<<20, 10, true)
	if err != nil || len(data) != 0 {
		t.Errorf("Read at the LEO = %d bytes, %v; want nothing and no error", len(data), err)
	}
	if err := l.TruncateFullyAndStartAt(20); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Read(19, 1<<20, 20, true); !errors.Is(err, ErrOffsetOutOfRange) {
		t.Errorf("Read below the log start offset: %v", err)
	}
}

func TestReadReturnsACopy(t *testing.T) {
	l, _ := readFixture(t)
	a := mustRead(t, l, 0, 1<<20, 10, true)
	for i := range a {
		a[i] = 0
	}
	b := mustRead(t, l, 0, 1<<20, 10, true)
	if len(spans(t, b)) != 3 {
		t.Fatal("modifying a Read result changed the log")
	}
}

func TestBatchesDecodesRange(t *testing.T) {
	l, _ := readFixture(t)
	bs, err := l.Batches(3, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 2 || bs[0].BaseOffset != 3 || bs[1].BaseOffset != 5 || string(bs[1].Records[4].Value) != "v0000004" {
		t.Fatalf("Batches(3, 10) = %d batches", len(bs))
	}
	if bs, err := l.Batches(0, 5); err != nil || len(bs) != 2 {
		t.Fatalf("Batches(0, 5) = %d, %v", len(bs), err)
	}
}

func TestUpdateHighWatermarkClamps(t *testing.T) {
	l, _ := readFixture(t)
	for _, c := range [][2]int64{{5, 5}, {11, 10}, {-3, 0}, {10, 10}, {0, 0}} {
		if got := l.UpdateHighWatermark(c[0]); got != c[1] || l.HighWatermark() != c[1] {
			t.Errorf("UpdateHighWatermark(%d) = %d (HW %d), want %d", c[0], got, l.HighWatermark(), c[1])
		}
	}
	// The HW may go down: it is the caller who keeps it monotonic.
	l.UpdateHighWatermark(8)
	if l.UpdateHighWatermark(3) != 3 {
		t.Error("UpdateHighWatermark refused to lower the HW")
	}
}

// rollFixture: segment.bytes fits exactly two 1-record batches; five
// appends give segments based at 0, 2 and 4.
func rollFixture(t *testing.T) (*Disk, *Log, int) {
	d, _ := newTestDisk()
	size := len(producerBatch(1))
	l := mustCreate(t, d, withSegmentBytes(int64(2*size)))
	for range 5 {
		mustLeaderAppend(t, l, producerBatch(1), 0)
	}
	return d, l, size
}

func TestSegmentRollsOnSegmentBytes(t *testing.T) {
	d, l, size := rollFixture(t)
	want := []string{"00000000000000000000.log", "00000000000000000002.log", "00000000000000000004.log"}
	if got := segmentFiles(d, l.Dir()); !reflect.DeepEqual(got, want) {
		t.Fatalf("segment files %v, want %v", got, want)
	}
	var bases []int64
	for _, s := range l.Segments() {
		bases = append(bases, s.BaseOffset)
	}
	if !reflect.DeepEqual(bases, []int64{0, 2, 4}) {
		t.Fatalf("segment bases %v", bases)
	}
	if l.Segments()[0].Size != int64(2*size) || l.Segments()[2].Size != int64(size) {
		t.Fatalf("segment sizes %d, %d", l.Segments()[0].Size, l.Segments()[2].Size)
	}
	// A roll flushes the closed segment and moves the recovery point.
	if l.RecoveryPoint() != 4 {
		t.Fatalf("recovery point %d after rolling at 4", l.RecoveryPoint())
	}
	// A read stays within one segment, as Kafka's does: the next fetch
	// goes on in the next segment.
	for start, wantSpans := range map[int64][]span{
		0: {{0, 0}, {1, 1}},
		1: {{1, 1}},
		2: {{2, 2}, {3, 3}},
		3: {{3, 3}},
		4: {{4, 4}},
	} {
		if got := spans(t, mustRead(t, l, start, 1<<20, 5, true)); !reflect.DeepEqual(got, wantSpans) {
			t.Errorf("Read(%d) = %v, want %v", start, got, wantSpans)
		}
	}
	if got := spans(t, mustRead(t, l, 0, size, 5, true)); !reflect.DeepEqual(got, []span{{0, 0}}) {
		t.Errorf("maxBytes within a segment: %v", got)
	}
	// Reading on from each read's end crosses the boundaries.
	var all []span
	for next := int64(0); next < l.LogEndOffset(); {
		got := spans(t, mustRead(t, l, next, 1<<20, 5, true))
		all = append(all, got...)
		next = got[len(got)-1].last + 1
	}
	if want := []span{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}; !reflect.DeepEqual(all, want) {
		t.Errorf("reading on: %v", all)
	}
	checkInvariants(t, l)
}

func TestRollUsesBatchBaseOffset(t *testing.T) {
	d, _ := newTestDisk()
	size := len(producerBatch(3))
	l := mustCreate(t, d, withSegmentBytes(int64(size)))
	for range 3 {
		mustLeaderAppend(t, l, producerBatch(3), 0)
	}
	want := []string{"00000000000000000000.log", "00000000000000000003.log", "00000000000000000006.log"}
	if got := segmentFiles(d, l.Dir()); !reflect.DeepEqual(got, want) {
		t.Fatalf("segment files %v, want %v", got, want)
	}
	// A follower append after a gap rolls at the batch's own base offset.
	if _, err := l.AppendAsFollower(batchAt(20, 0, 3)); err != nil {
		t.Fatal(err)
	}
	if got := l.Segments()[len(l.Segments())-1].BaseOffset; got != 20 {
		t.Fatalf("segment rolled at %d, want 20", got)
	}
	// An append larger than segment.bytes is refused, as Kafka's
	// RecordBatchTooLargeException refuses it; one exactly that size fills
	// an empty segment, and the next append rolls.
	d2, _ := newTestDisk()
	l2 := mustCreate(t, d2, withSegmentBytes(int64(size)))
	if _, err := l2.AppendAsLeader(producerBatch(4), 0); !errors.Is(err, ErrRecordBatchTooLarge) {
		t.Fatalf("append above segment.bytes: %v", err)
	}
	mustLeaderAppend(t, l2, producerBatch(3), 0)
	mustLeaderAppend(t, l2, producerBatch(3), 0)
	if got := segmentFiles(d2, l2.Dir()); !reflect.DeepEqual(got, []string{"00000000000000000000.log", "00000000000000000003.log"}) {
		t.Fatalf("segment-sized batches: %v", got)
	}
	checkInvariants(t, l)
	checkInvariants(t, l2)
}

func TestSetConfigAffectsLaterAppends(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(1), 0)
	l.SetConfig(withSegmentBytes(int64(len(producerBatch(1)))))
	mustLeaderAppend(t, l, producerBatch(1), 0)
	if n := len(l.Segments()); n != 2 {
		t.Fatalf("%d segments after lowering segment.bytes", n)
	}
}

func TestTruncateToWithinSegment(t *testing.T) {
	for _, c := range []struct {
		to, wantLEO int64
	}{
		{5, 5}, // at a batch boundary
		{7, 5}, // inside [5..9]: the whole batch goes
		{4, 3}, // inside [3..4]
		{3, 3},
		{1, 0}, // inside the first batch
		{10, 10},
		{11, 10},
	} {
		t.Run(fmt.Sprint(c.to), func(t *testing.T) {
			l, sizes := readFixture(t)
			l.UpdateHighWatermark(10)
			if err := l.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := l.TruncateTo(c.to); err != nil {
				t.Fatal(err)
			}
			if l.LogEndOffset() != c.wantLEO {
				t.Fatalf("TruncateTo(%d): LEO %d, want %d", c.to, l.LogEndOffset(), c.wantLEO)
			}
			if l.HighWatermark() != c.wantLEO || l.RecoveryPoint() != c.wantLEO {
				t.Fatalf("HW %d and recovery point %d must follow the LEO %d down", l.HighWatermark(), l.RecoveryPoint(), c.wantLEO)
			}
			wantSize := map[int64]int{0: 0, 3: sizes[0], 5: sizes[0] + sizes[1], 10: sizes[0] + sizes[1] + sizes[2]}[c.wantLEO]
			if sz, _ := l.disk.Size(l.Segments()[0].Path); sz != int64(wantSize) {
				t.Fatalf("segment file %d bytes, want %d", sz, wantSize)
			}
			checkInvariants(t, l)
			// The log continues at the new LEO.
			info := mustLeaderAppend(t, l, producerBatch(1), 0)
			if info.FirstOffset != c.wantLEO {
				t.Fatalf("next append at %d, want %d", info.FirstOffset, c.wantLEO)
			}
			if got := spans(t, mustRead(t, l, 0, 1<<20, l.LogEndOffset(), true)); got[len(got)-1] != (span{c.wantLEO, c.wantLEO}) {
				t.Fatalf("log after truncate and append: %v", got)
			}
		})
	}
}

func TestTruncateToAcrossSegments(t *testing.T) {
	cases := []struct {
		to        int64
		wantLEO   int64
		wantFiles []string
	}{
		{3, 3, []string{"00000000000000000000.log", "00000000000000000002.log"}},
		// The segment based at the offset stays, emptied, as the active
		// one (LocalLog.truncateTo deletes only the segments above it).
		{4, 4, []string{"00000000000000000000.log", "00000000000000000002.log", "00000000000000000004.log"}},
		{2, 2, []string{"00000000000000000000.log", "00000000000000000002.log"}},
		{1, 1, []string{"00000000000000000000.log"}},
		{0, 0, []string{"00000000000000000000.log"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.to), func(t *testing.T) {
			d, l, _ := rollFixture(t)
			l.UpdateHighWatermark(5)
			if err := l.TruncateTo(c.to); err != nil {
				t.Fatal(err)
			}
			if l.LogEndOffset() != c.wantLEO || l.HighWatermark() != c.wantLEO {
				t.Fatalf("LEO %d HW %d, want %d", l.LogEndOffset(), l.HighWatermark(), c.wantLEO)
			}
			if got := segmentFiles(d, l.Dir()); !reflect.DeepEqual(got, c.wantFiles) {
				t.Fatalf("segment files %v, want %v", got, c.wantFiles)
			}
			if len(l.Segments()) != len(c.wantFiles) {
				t.Fatalf("%d segments in memory, %d files", len(l.Segments()), len(c.wantFiles))
			}
			checkInvariants(t, l)
			var want []span
			for o := int64(0); o < c.wantLEO; o++ {
				want = append(want, span{o, o})
			}
			bs, err := l.Batches(0, l.LogEndOffset())
			if err != nil {
				t.Fatal(err)
			}
			var got []span
			for _, b := range bs {
				got = append(got, span{b.BaseOffset, b.LastOffset()})
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("remaining batches %v, want %v", got, want)
			}
			// Appends go on from the new LEO and roll as before.
			for range 3 {
				mustLeaderAppend(t, l, producerBatch(1), 1)
			}
			if l.LogEndOffset() != c.wantLEO+3 {
				t.Fatalf("LEO %d after 3 more appends", l.LogEndOffset())
			}
			checkInvariants(t, l)
		})
	}
}

func TestTruncateToTrimsEpochCache(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 0) // 0..2
	mustLeaderAppend(t, l, producerBatch(2), 1) // 3..4
	mustLeaderAppend(t, l, producerBatch(2), 2) // 5..6
	if err := l.TruncateTo(4); err != nil {     // inside epoch 1's batch: LEO 3
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{0 0}]" {
		t.Fatalf("epoch cache after truncating to LEO 3: %s", got)
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n1\n0 0\n" {
		t.Fatalf("checkpoint %q", got)
	}
}

// Kafka's UnifiedLog.truncateTo: a truncation at or beyond the LEO cuts no
// batch but still drops epoch entries starting at the LEO. A replica that
// became leader (its epoch assigned at its LEO) and lost the leadership
// before appending keeps such an entry; as a follower it must not report
// that epoch as its last fetched one, or the leader would answer "diverging"
// forever (found by TestChaos, seed 274).
func TestTruncateToAtLEODropsEpochStartingThere(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 3) // 0..2
	if err := l.AssignEpoch(4); err != nil {    // leader in epoch 4 at LEO 3, nothing appended
		t.Fatal(err)
	}
	if got := l.LatestEpoch(); got != 4 {
		t.Fatalf("setup: latest epoch %d", got)
	}
	if err := l.TruncateTo(3); err != nil {
		t.Fatal(err)
	}
	if l.LogEndOffset() != 3 {
		t.Fatalf("LEO %d, want 3 (nothing to cut)", l.LogEndOffset())
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{3 0}]" {
		t.Fatalf("epoch cache %s, want [{3 0}]", got)
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n1\n3 0\n" {
		t.Fatalf("checkpoint %q", got)
	}
	// Beyond the LEO: the same, and entries below the LEO stay.
	if err := l.TruncateTo(10); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(l.Epochs().Entries()); got != "[{3 0}]" || l.LogEndOffset() != 3 {
		t.Fatalf("after TruncateTo(10): epochs %s LEO %d", got, l.LogEndOffset())
	}
}

func TestTruncateToKeepsLogStartAtOrBelowLEO(t *testing.T) {
	// A log whose start offset lies inside its first segment (as after
	// OpenLog with a log-start-offset-checkpoint, or DeleteRecords).
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(5), 0) // 0..4
	mustLeaderAppend(t, l, producerBatch(5), 0) // 5..9
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	l2, _, err := OpenLog(d, testLogDir, fooTP, DefaultLogConfig, 10, 10, 7, true)
	if err != nil {
		t.Fatal(err)
	}
	if l2.LogStartOffset() != 7 {
		t.Fatalf("log start %d, want 7", l2.LogStartOffset())
	}
	// Kafka's UnifiedLog.truncateTo: logStartOffset = min(targetOffset, logStartOffset).
	if err := l2.TruncateTo(6); err != nil {
		t.Fatal(err)
	}
	if l2.LogStartOffset() > l2.LogEndOffset() {
		t.Errorf("after TruncateTo(6): log start %d > LEO %d", l2.LogStartOffset(), l2.LogEndOffset())
	}
	checkInvariants(t, l2)
}

func TestTruncateFullyAndStartAt(t *testing.T) {
	d, l, _ := rollFixture(t)
	l.UpdateHighWatermark(5)
	if err := l.TruncateFullyAndStartAt(100); err != nil {
		t.Fatal(err)
	}
	if got := segmentFiles(d, l.Dir()); !reflect.DeepEqual(got, []string{"00000000000000000100.log"}) {
		t.Fatalf("segment files %v", got)
	}
	if l.LogStartOffset() != 100 || l.LogEndOffset() != 100 || l.HighWatermark() != 100 || l.RecoveryPoint() != 100 {
		t.Fatalf("start %d LEO %d HW %d RP %d, want all 100", l.LogStartOffset(), l.LogEndOffset(), l.HighWatermark(), l.RecoveryPoint())
	}
	if len(l.Epochs().Entries()) != 0 {
		t.Fatalf("epoch cache %v, want empty", l.Epochs().Entries())
	}
	if got := string(fileContent(t, d, path.Join(l.Dir(), LeaderEpochCheckpointFile))); got != "0\n0\n" {
		t.Fatalf("checkpoint %q", got)
	}
	if _, err := l.AppendAsFollower(batchAt(99, 3, 1)); !errors.Is(err, ErrOffsetOrder) {
		t.Fatalf("follower append below the new start: %v", err)
	}
	if _, err := l.AppendAsFollower(batchAt(100, 3, 2)); err != nil {
		t.Fatal(err)
	}
	if l.LogEndOffset() != 102 || fmt.Sprint(l.Epochs().Entries()) != "[{3 100}]" {
		t.Fatalf("LEO %d, epochs %v", l.LogEndOffset(), l.Epochs().Entries())
	}
	if got := spans(t, mustRead(t, l, 100, 1<<20, 102, true)); !reflect.DeepEqual(got, []span{{100, 101}}) {
		t.Fatalf("read %v", got)
	}
	checkInvariants(t, l)
}

func TestFlushMovesRecoveryPoint(t *testing.T) {
	d, clk := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	mustLeaderAppend(t, l, producerBatch(3), 0)
	if l.RecoveryPoint() != 0 {
		t.Fatalf("recovery point %d before any flush", l.RecoveryPoint())
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	if l.RecoveryPoint() != 3 {
		t.Fatalf("recovery point %d after flush, want 3", l.RecoveryPoint())
	}
	for _, e := range d.List(l.Dir()) {
		if e.Unflushed != 0 {
			t.Errorf("%s has %d unflushed bytes after Flush", e.Name, e.Unflushed)
		}
	}
	clk.at(1)
	mustLeaderAppend(t, l, producerBatch(1), 0)
	if l.RecoveryPoint() != 3 {
		t.Fatalf("recovery point moved to %d without a flush", l.RecoveryPoint())
	}
}

func TestDeleteRemovesDirectory(t *testing.T) {
	d, l, _ := rollFixture(t)
	other, err := CreateLog(d, testLogDir, TopicPartition{"foo", 1}, "id", DefaultLogConfig)
	if err != nil {
		t.Fatal(err)
	}
	l.Delete()
	if d.Exists(l.Dir()) || len(d.Walk(l.Dir())) != 0 {
		t.Fatal("Delete left files behind")
	}
	if !d.Exists(other.Dir()) {
		t.Fatal("Delete removed another partition")
	}
}

func TestSegmentFileNames(t *testing.T) {
	for off, want := range map[int64]string{
		0:                   "00000000000000000000.log",
		170:                 "00000000000000000170.log",
		9223372036854775807: "09223372036854775807.log",
	} {
		if got := SegmentFileName(off, ".log"); got != want {
			t.Errorf("SegmentFileName(%d) = %q, want %q", off, got, want)
		}
		if back, ok := parseSegmentFileName(want); !ok || back != off {
			t.Errorf("parseSegmentFileName(%q) = %d, %v", want, back, ok)
		}
	}
	if got := SegmentFileName(42, ".index"); got != "00000000000000000042.index" {
		t.Errorf("index name %q", got)
	}
	for _, bad := range []string{
		"00000000000000000000.index", "0000000000000000000.log", "000000000000000000000.log",
		"0000000000000000000a.log", "00000000000000000000.log.deleted", "leader-epoch-checkpoint",
		"-0000000000000000001.log", ".log",
	} {
		if _, ok := parseSegmentFileName(bad); ok {
			t.Errorf("parseSegmentFileName(%q) accepted", bad)
		}
	}
}

func TestSegmentFindAndNextOffset(t *testing.T) {
	s := &Segment{BaseOffset: 10}
	for _, e := range []batchEntry{{baseDelta: 0, lastDelta: 2}, {baseDelta: 5, lastDelta: 0}, {baseDelta: 6, lastDelta: 4}} {
		s.batches.push(e)
	}
	for off, want := range map[int64]int{0: 0, 10: 0, 12: 0, 13: 1, 14: 1, 15: 1, 16: 2, 20: 2, 21: 3} {
		if got := s.find(off); got != want {
			t.Errorf("find(%d) = %d, want %d", off, got, want)
		}
	}
	if s.NextOffset() != 21 {
		t.Errorf("NextOffset %d", s.NextOffset())
	}
	if (&Segment{BaseOffset: 7}).NextOffset() != 7 {
		t.Error("empty segment's next offset is not its base")
	}
}

// Lookups resume the previous scan of a segment (segmentScan); after a
// truncation and appends of batches laid out differently, or a power loss
// that reverted the file, they must find what a scan from the index entry
// finds, never a position of the old layout.
func TestOffsetLookupAfterTheFileChanged(t *testing.T) {
	d, _ := newTestDisk()
	l := mustCreate(t, d, DefaultLogConfig)
	for i := 0; i < 10; i++ {
		mustLeaderAppend(t, l, producerBatch(1), 0)
	}
	if err := l.Flush(); err != nil {
		t.Fatal(err)
	}
	baseOf := func(o int64) int64 {
		t.Helper()
		got := spans(t, mustRead(t, l, o, 1, l.LogEndOffset(), true))
		if len(got) != 1 {
			t.Fatalf("read at %d gave %v", o, got)
		}
		return got[0].base
	}
	for o := int64(0); o < 10; o++ {
		if b := baseOf(o); b != o {
			t.Fatalf("offset %d is in the batch at %d", o, b)
		}
	}
	if err := l.TruncateTo(4); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		mustLeaderAppend(t, l, producerBatch(3), 0) // 4-6, 7-9, 10-12
	}
	for _, c := range []struct{ o, base int64 }{{10, 10}, {12, 10}, {9, 7}, {4, 4}, {11, 10}} {
		if b := baseOf(c.o); b != c.base {
			t.Fatalf("after the truncation offset %d is in the batch at %d, want %d", c.o, b, c.base)
		}
	}
	// A power loss reverts the file to what was flushed, the first
	// layout with one record a batch (the truncation was not committed),
	// while this Log still holds the second. A lookup must walk the
	// reverted bytes as a scan from the index entry does, not resume in
	// the middle of a batch where the second layout had one.
	d.PowerLoss()
	for _, o := range []int64{11, 12} {
		data, err := l.Read(o, 1, l.LogEndOffset(), true)
		for _, seg := range l.Segments() {
			seg.scan = segmentScan{}
		}
		want, wantErr := l.Read(o, 1, l.LogEndOffset(), true)
		if !bytes.Equal(data, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("read at %d after the power loss: %d bytes, %v; a scan from the index entry gives %d bytes, %v", o, len(data), err, len(want), wantErr)
		}
	}
}
