package view_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"kafkascope/core/console"
	"kafkascope/core/record"
	"kafkascope/core/storage"
	"kafkascope/core/view"
)

// checkCoverage fails unless m's fields cover [0, n) in order, each byte
// exactly once, with no empty field.
func checkCoverage(t *testing.T, m view.BatchMap, n int) {
	t.Helper()
	pos := 0
	for i, f := range m.Fields {
		if f.Start != pos || f.End <= f.Start {
			t.Fatalf("field %d %s covers [%d,%d), expected to start at %d", i, f.Name, f.Start, f.End, pos)
		}
		pos = f.End
	}
	if pos != n {
		t.Fatalf("the fields end at byte %d of %d", pos, n)
	}
	for i := 0; i < n; i++ {
		if f := m.Field(i); f < 0 || m.Fields[f].Start > i || m.Fields[f].End <= i {
			t.Fatalf("Field(%d) = %d", i, f)
		}
	}
}

// fieldsOf lists the fields of record r (-1: the batch header) by name;
// a name that repeats (header fields) keeps its last occurrence.
func fieldsOf(m view.BatchMap, r int) map[string]view.BatchField {
	out := map[string]view.BatchField{}
	for _, f := range m.Fields {
		if f.Record == r {
			out[f.Name] = f
		}
	}
	return out
}

func sampleBatches() map[string][]byte {
	recs := []record.Record{
		{Offset: 0, Timestamp: 1_700_000_000_000, Key: []byte("k1"), Value: []byte("hello")},
		{Offset: 1, Timestamp: 1_700_000_000_005, Key: nil, Value: []byte("no key")},
		{Offset: 2, Timestamp: 1_699_999_999_990, Key: []byte("gone"), Value: nil},
		{Offset: 3, Timestamp: 1_700_000_000_010, Key: []byte{}, Value: []byte{},
			Headers: []record.Header{{Key: "trace", Value: []byte("abc")}, {Key: "n", Value: nil}, {Key: "", Value: []byte{}}}},
		{Offset: 4, Timestamp: 1_700_000_000_011, Key: bytes.Repeat([]byte("K"), 70), Value: bytes.Repeat([]byte("v"), 300)},
	}
	idem := record.ProducerInfo{ID: 4000, Epoch: 3, BaseSequence: 17}
	out := map[string][]byte{
		"one record":     record.Build(0, 0, record.NoProducer(), recs[:1]),
		"no key":         record.Build(41, 2, record.NoProducer(), []record.Record{{Offset: 41, Timestamp: 5, Value: []byte("x")}}),
		"five records":   record.Build(0, 7, idem, recs),
		"headers only":   record.Build(9, 1, record.NoProducer(), []record.Record{{Offset: 9, Timestamp: 9, Headers: recs[3].Headers}}),
		"no records":     (&record.Batch{BaseOffset: 3, ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}).AppendTo(nil),
		"big base":       record.Build(1<<40, 1<<20, idem, []record.Record{{Offset: 1 << 40, Timestamp: -1, Key: []byte("k"), Value: []byte("v")}}),
		"large varints ": record.Build(0, 0, record.NoProducer(), recs[4:]),
	}
	return out
}

func TestMapBatchLabelsEveryByte(t *testing.T) {
	for name, b := range sampleBatches() {
		t.Run(name, func(t *testing.T) {
			m := view.MapBatch(b)
			checkCoverage(t, m, len(b))
			if m.Err != "" || !m.HeaderOK || !m.CRCValid || m.Compressed {
				t.Fatalf("map %+v", m)
			}
			h, err := record.ParseHeader(b)
			if err != nil {
				t.Fatal(err)
			}
			if m.Header != h || m.ComputedCRC != h.CRC {
				t.Errorf("header %+v, want %+v (computed crc %d)", m.Header, h, m.ComputedCRC)
			}
			// The header's fields, at the offsets core/record documents.
			want := []struct {
				name       string
				start, end int
				value      int64
			}{
				{view.FieldBaseOffset, 0, 8, h.BaseOffset}, {view.FieldBatchLength, 8, 12, int64(h.BatchLength)},
				{view.FieldPartitionLeaderEpoch, 12, 16, int64(h.PartitionLeaderEpoch)}, {view.FieldMagic, 16, 17, 2},
				{view.FieldCRC, 17, 21, int64(h.CRC)}, {view.FieldAttributes, 21, 23, int64(h.Attributes)},
				{view.FieldLastOffsetDelta, 23, 27, int64(h.LastOffsetDelta)}, {view.FieldBaseTimestamp, 27, 35, h.BaseTimestamp},
				{view.FieldMaxTimestamp, 35, 43, h.MaxTimestamp}, {view.FieldProducerID, 43, 51, h.ProducerID},
				{view.FieldProducerEpoch, 51, 53, int64(h.ProducerEpoch)}, {view.FieldBaseSequence, 53, 57, int64(h.BaseSequence)},
				{view.FieldRecordsCount, 57, 61, int64(h.RecordCount)},
			}
			for i, w := range want {
				f := m.Fields[i]
				if f.Name != w.name || f.Start != w.start || f.End != w.end || f.Value != w.value || f.Record != -1 {
					t.Errorf("header field %d: %+v, want %+v", i, f, w)
				}
			}
			// Every record's fields, against the decoder.
			dec, n, err := record.Decode(b)
			if err != nil || n != len(b) {
				t.Fatal(n, err)
			}
			if m.Records != len(dec.Records) {
				t.Fatalf("%d records mapped, %d decoded", m.Records, len(dec.Records))
			}
			for i, r := range dec.Records {
				fs := fieldsOf(m, i)
				length := fs[view.FieldLength]
				last := -1
				for _, f := range m.Fields {
					if f.Record == i {
						last = f.End
					}
				}
				if int64(last-length.End) != length.Value {
					t.Errorf("record %d: length %d, its fields end %d bytes after it", i, length.Value, last-length.End)
				}
				if got := dec.BaseOffset + fs[view.FieldOffsetDelta].Value; got != r.Offset {
					t.Errorf("record %d: offset %d, want %d", i, got, r.Offset)
				}
				if got := dec.BaseTimestamp + fs[view.FieldTimestampDelta].Value; got != r.Timestamp {
					t.Errorf("record %d: timestamp %d, want %d", i, got, r.Timestamp)
				}
				if a := fs[view.FieldAttributes]; a.End-a.Start != 1 || a.Value != 0 {
					t.Errorf("record %d: attributes %+v", i, a)
				}
				checkData := func(lenName, dataName string, want []byte) {
					t.Helper()
					l, ok := fs[lenName]
					if !ok || !l.Varint {
						t.Fatalf("record %d: no %s", i, lenName)
					}
					d, has := fs[dataName]
					switch {
					case want == nil:
						if l.Value != -1 || has {
							t.Errorf("record %d: null %s is %s %d, field %+v", i, dataName, lenName, l.Value, d)
						}
					case len(want) == 0:
						if l.Value != 0 || has {
							t.Errorf("record %d: empty %s is %s %d, field %+v", i, dataName, lenName, l.Value, d)
						}
					default:
						if l.Value != int64(len(want)) || !bytes.Equal(d.Data, want) || !bytes.Equal(b[d.Start:d.End], want) || d.Start != l.End {
							t.Errorf("record %d: %s %q at [%d,%d) after %s %d, want %q", i, dataName, d.Data, d.Start, d.End, lenName, l.Value, want)
						}
					}
				}
				checkData(view.FieldKeyLength, view.FieldKey, r.Key)
				checkData(view.FieldValueLength, view.FieldValue, r.Value)
				if hc := fs[view.FieldHeadersCount]; hc.Value != int64(len(r.Headers)) {
					t.Errorf("record %d: headersCount %d, want %d", i, hc.Value, len(r.Headers))
				}
				for hi, hd := range r.Headers {
					var key, val []byte
					var keyLen, valLen int64 = -2, -2
					for _, f := range m.Fields {
						if f.Record != i || f.Header != hi {
							continue
						}
						switch f.Name {
						case view.FieldHeaderKeyLength:
							keyLen = f.Value
						case view.FieldHeaderKey:
							key = f.Data
						case view.FieldHeaderValueLength:
							valLen = f.Value
						case view.FieldHeaderValue:
							val = f.Data
						}
					}
					wantValLen := int64(len(hd.Value))
					if hd.Value == nil {
						wantValLen = -1
					}
					if keyLen != int64(len(hd.Key)) || string(key) != hd.Key || valLen != wantValLen || !bytes.Equal(val, hd.Value) {
						t.Errorf("record %d header %d: key %d %q value %d %q, want %+v", i, hi, keyLen, key, valLen, val, hd)
					}
				}
			}
		})
	}
}

func TestMapBatchDamagedAndCompressed(t *testing.T) {
	b := sampleBatches()["five records"]

	bad := slices.Clone(b)
	bad[len(bad)-1] ^= 0xff
	m := view.MapBatch(bad)
	checkCoverage(t, m, len(bad))
	if m.CRCValid || m.ComputedCRC == m.Header.CRC || !m.HeaderOK {
		t.Errorf("a flipped value byte verifies: %+v", m)
	}

	for _, n := range []int{0, 1, 16, 17, 60, 61, 62, 80, len(b) - 1} {
		m := view.MapBatch(b[:n])
		checkCoverage(t, m, n)
		if n > 0 && m.Err == "" {
			t.Errorf("%d bytes of %d: no error", n, len(b))
		}
		if m.HeaderOK != (n >= record.HeaderSize) || m.CRCValid {
			t.Errorf("%d bytes: header %v, crc %v", n, m.HeaderOK, m.CRCValid)
		}
	}

	gz := slices.Clone(b)
	binary.BigEndian.PutUint16(gz[21:], uint16(record.CompressionGzip))
	binary.BigEndian.PutUint32(gz[17:], record.ComputeCRC(gz))
	m = view.MapBatch(gz)
	checkCoverage(t, m, len(gz))
	if !m.Compressed || !m.CRCValid || m.Records != 0 || m.Err != "" {
		t.Errorf("compressed: %+v", m)
	}
	if last := m.Fields[len(m.Fields)-1]; last.Name != view.FieldRecords || last.Start != record.HeaderSize {
		t.Errorf("compressed records field %+v", last)
	}

	long := append(slices.Clone(b), 1, 2, 3)
	m = view.MapBatch(long)
	checkCoverage(t, m, len(long))
	if last := m.Fields[len(m.Fields)-1]; last.Name != view.FieldUnparsed || last.Start != len(b) || !m.CRCValid {
		t.Errorf("trailing bytes: %+v, crc %v", last, m.CRCValid)
	}
}

func FuzzMapBatch(f *testing.F) {
	for _, b := range sampleBatches() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := view.MapBatch(b)
		checkCoverage(t, m, len(b))
		if _, n, err := record.Decode(b); err == nil && n == len(b) {
			if !m.CRCValid || m.Err != "" || m.Records != int(m.Header.RecordCount) {
				t.Fatalf("a batch Decode accepts maps with %q (%d records)", m.Err, m.Records)
			}
		}
	})
}

func TestMapBatchSurvivesMutations(t *testing.T) {
	for _, b := range sampleBatches() {
		for i := range b {
			for _, x := range []byte{0x01, 0x80, 0xff} {
				mut := slices.Clone(b)
				mut[i] ^= x
				checkCoverage(t, view.MapBatch(mut), len(mut))
			}
		}
	}
}

// produce writes lines to topic with the console producer.
func produce(t *testing.T, s *console.Session, topic string, props string, lines ...string) {
	t.Helper()
	out := s.Exec("kafka-console-producer.sh --topic "+topic+" --producer-property acks=all "+props, lines)
	for _, l := range out {
		if strings.Contains(l, "Exception") || strings.Contains(l, "ERROR") {
			t.Fatalf("producer: %v", out)
		}
	}
}

func exec(t *testing.T, s *console.Session, line string) {
	t.Helper()
	out := s.Exec(line, nil)
	for _, l := range out {
		if strings.Contains(l, "rror") {
			t.Fatalf("%s: %v", line, out)
		}
	}
}

func TestPartitionDiskOfAFreshTopic(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	produce(t, s, "t", "--property parse.key=true --property key.separator=:", "k1:hello", "k2:world")
	produce(t, s, "t", "", "no key here")
	advance(t, s, time.Second)
	c := s.Cluster()
	snap := view.Take(c)
	leader := snap.Topics[0].Partitions[0].Leader
	var dc view.DiskCache
	pd := dc.Partition(c, leader, "t", 0)
	if pd == nil || !pd.Present || pd.State != "running" {
		t.Fatalf("disk view %+v", pd)
	}
	if pd.Dir != "/tmp/kafka-logs/t-0" || pd.LogDir != "/tmp/kafka-logs" {
		t.Errorf("dir %q in %q", pd.Dir, pd.LogDir)
	}
	if pd.LogStartOffset != 0 || pd.LogEndOffset != 3 || pd.HighWatermark != 3 || pd.CleanerCheckpoint != -1 {
		t.Errorf("offsets %+v", pd)
	}
	// The files are the directory's, as Disk.List gives them.
	list := c.Disk(leader).List(pd.Dir)
	if len(list) != len(pd.Files) {
		t.Fatalf("files %+v, directory %+v", pd.Files, list)
	}
	for i, e := range list {
		f := pd.Files[i]
		if f.Name != e.Name || f.Size != e.Size || f.Unflushed != e.Unflushed || f.IsDir != e.IsDir {
			t.Errorf("file %+v, directory entry %+v", f, e)
		}
		if wantSeg := strings.HasPrefix(e.Name, "00000000000000000000."); wantSeg != (f.Segment == 0) {
			t.Errorf("file %s: segment %d", f.Name, f.Segment)
		}
	}
	names := []string{}
	for _, f := range pd.Files {
		names = append(names, f.Name)
	}
	for _, want := range []string{"00000000000000000000.log", storage.LeaderEpochCheckpointFile, storage.PartitionMetadataFile} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
	if len(pd.Segments) != 1 {
		t.Fatalf("segments %+v", pd.Segments)
	}
	seg := pd.Segments[0]
	logData, _ := c.Disk(leader).ReadFile(path.Join(pd.Dir, seg.Name))
	if !seg.Active || seg.BaseOffset != 0 || seg.NextOffset != 3 || seg.LastOffset() != 2 || seg.Size != int64(len(logData)) || seg.FileSize != seg.Size || len(seg.Batches) != 2 {
		t.Errorf("segment %+v (file of %d bytes)", seg, len(logData))
	}
	if pd.Bytes() != seg.Size {
		t.Errorf("bytes %d", pd.Bytes())
	}
	// The log's dirty pages: not flushed yet, right after the appends.
	for _, f := range pd.Files {
		if f.Name == seg.Name && f.Unflushed != f.Size {
			t.Errorf("%s: %d of %d bytes unflushed", f.Name, f.Unflushed, f.Size)
		}
	}

	// The first batch, as xxd shows it: base offset 0, magic 2 at 0x10,
	// the key and value in the bytes.
	bb := dc.Batch(c, pd, 0)
	if bb == nil {
		t.Fatal("no batch 0")
	}
	checkCoverage(t, bb.BatchMap, len(bb.Bytes))
	if !bytes.Equal(bb.Bytes, logData[:bb.Info.Size]) || bb.Position != 0 || bb.Missing != 0 || bb.File != seg.Name {
		t.Fatalf("batch bytes %d at %d, file %s", len(bb.Bytes), bb.Position, bb.File)
	}
	if f := bb.Fields[bb.Field(0x10)]; f.Name != view.FieldMagic || f.Value != 2 || bb.Bytes[0x10] != 2 {
		t.Errorf("byte 0x10: %+v", f)
	}
	if f := bb.Fields[0]; f.Name != view.FieldBaseOffset || f.Value != 0 {
		t.Errorf("first field %+v", f)
	}
	if !bb.CRCValid || bb.Records != 2 {
		t.Errorf("crc %v, %d records", bb.CRCValid, bb.Records)
	}
	batches, err := c.Node(leader).Broker.Partition(storage.TopicPartition{Topic: "t", Partition: 0}).Log().Batches(0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range batches[0].Records {
		fs := fieldsOf(bb.BatchMap, i)
		if string(fs[view.FieldKey].Data) != string(r.Key) || string(fs[view.FieldValue].Data) != string(r.Value) {
			t.Errorf("record %d: key %q value %q, want %q %q", i, fs[view.FieldKey].Data, fs[view.FieldValue].Data, r.Key, r.Value)
		}
	}
	if !bytes.Contains(bb.Bytes, []byte("hello")) || !bytes.Contains(bb.Bytes, []byte("k2")) {
		t.Error("the payload is not in the batch's bytes")
	}
	second := dc.Batch(c, pd, 2)
	if second == nil || second.Position != int64(bb.Info.Size) || second.Records != 1 || second.Header.BaseOffset != 2 {
		t.Fatalf("second batch %+v", second)
	}
	if fs := fieldsOf(second.BatchMap, 0); fs[view.FieldKeyLength].Value != -1 || string(fs[view.FieldValue].Data) != "no key here" {
		t.Errorf("the keyless record: %+v", fs)
	}
	if dc.Batch(c, pd, 1) != nil || dc.Batch(c, pd, 7) != nil {
		t.Error("a batch at an offset no batch starts at")
	}
	if again := dc.Batch(c, pd, 2); again != second {
		t.Error("the same batch is mapped again")
	}

	// A broker without a replica of the partition (there is none with
	// three brokers and RF 3): a partition that does not exist.
	if none := dc.Partition(c, leader, "nope", 0); none == nil || none.Present || none.Dir != "/tmp/kafka-logs/nope-0" {
		t.Errorf("an absent partition: %+v", none)
	}
	if dc.Partition(c, 99, "t", 0) != nil || dc.Partition(nil, 1, "t", 0) != nil {
		t.Error("a view of a broker that does not exist")
	}
}

func TestDiskCacheFollowsTheLog(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	produce(t, s, "t", "", "a")
	c := s.Cluster()
	leader := view.Take(c).Topics[0].Partitions[0].Leader
	var dc view.DiskCache
	first := dc.Partition(c, leader, "t", 0)
	if dc.Partition(c, leader, "t", 0) != first {
		t.Fatal("an unchanged partition is read again")
	}
	produce(t, s, "t", "", "b")
	second := dc.Partition(c, leader, "t", 0)
	if second == first || second.LogEndOffset != 2 || len(second.Segments[0].Batches) != 2 {
		t.Fatalf("after a produce: %+v", second)
	}
	if len(first.Segments[0].Batches) != 1 {
		t.Error("an earlier view changed under its holder")
	}
	// Linux writes the dirty pages back within 35 s: the listing follows.
	advance(t, s, 40*time.Second)
	third := dc.Partition(c, leader, "t", 0)
	for _, f := range third.Files {
		if f.Unflushed != 0 {
			t.Errorf("%s: %d bytes unflushed after 40 s", f.Name, f.Unflushed)
		}
	}
	// Another partition, then back.
	if other := dc.Partition(c, leader%3+1, "t", 0); other == third || other.Broker != leader%3+1 {
		t.Error("another broker's view is the same")
	}
}

func TestPartitionDiskSegmentsAndCleanerCheckpoint(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic small --partitions 1 --replication-factor 1 --config internal.segment.bytes=150")
	for i := 0; i < 5; i++ {
		produce(t, s, "small", "", fmt.Sprintf("value-%d", i))
	}
	c := s.Cluster()
	p := view.Take(c).Topics[0].Partitions[0]
	var dc view.DiskCache
	pd := dc.Partition(c, p.Leader, "small", 0)
	if len(pd.Segments) < 3 {
		t.Fatalf("segments %+v", pd.Segments)
	}
	next := int64(0)
	for i, sg := range pd.Segments {
		if sg.BaseOffset != next || sg.Active != (i == len(pd.Segments)-1) || sg.Clean {
			t.Errorf("segment %d: %+v (expected base %d)", i, sg, next)
		}
		if sg.Name != storage.SegmentFileName(sg.BaseOffset, ".log") || sg.FileSize != sg.Size {
			t.Errorf("segment %d: %s, %d bytes, file %d", i, sg.Name, sg.Size, sg.FileSize)
		}
		next = sg.NextOffset
	}
	if next != 5 || pd.LogEndOffset != 5 {
		t.Errorf("segments end at %d, LEO %d", next, pd.LogEndOffset)
	}
	for _, f := range pd.Files {
		if strings.HasSuffix(f.Name, ".log") && pd.Segment(f.Segment) == nil {
			t.Errorf("file %s: no segment %d", f.Name, f.Segment)
		}
	}
	if pd.RecoveryPoint < pd.Segments[len(pd.Segments)-1].BaseOffset {
		t.Errorf("recovery point %d: a roll flushes the segment it closes", pd.RecoveryPoint)
	}

	// The hook for the log cleaner: its checkpoint, once it writes one,
	// says which segments are clean.
	ckpt := path.Join(pd.LogDir, storage.CleanerOffsetCheckpoint)
	d := c.Disk(p.Leader)
	if data, err := d.ReadFile(ckpt); err != nil || len(data) != 0 {
		t.Fatalf("cleaner-offset-checkpoint: %q %v", data, err)
	}
	cleanTo := pd.Segments[1].NextOffset
	if err := d.WriteFileDurable(ckpt, storage.EncodeOffsetCheckpoint(map[storage.TopicPartition]int64{
		{Topic: "small", Partition: 0}: cleanTo, {Topic: "other", Partition: 0}: 99})); err != nil {
		t.Fatal(err)
	}
	advance(t, s, 6*time.Second) // the listing is re-read at the next writeback tick
	pd = dc.Partition(c, p.Leader, "small", 0)
	if pd.CleanerCheckpoint != cleanTo {
		t.Fatalf("cleaner checkpoint %d, want %d", pd.CleanerCheckpoint, cleanTo)
	}
	for i, sg := range pd.Segments {
		if want := sg.NextOffset <= cleanTo && !sg.Active; sg.Clean != want {
			t.Errorf("segment %d [%d,%d): clean %v", i, sg.BaseOffset, sg.NextOffset, sg.Clean)
		}
	}
}

func TestPartitionDiskOfAKilledBroker(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3")
	produce(t, s, "t", "", "a", "b")
	c := s.Cluster()
	leader := view.Take(c).Topics[0].Partitions[0].Leader
	follower := leader%3 + 1
	exec(t, s, fmt.Sprintf("broker kill %d --power-loss", follower))
	var dc view.DiskCache
	pd := dc.Partition(c, follower, "t", 0)
	if pd == nil || !pd.Present || pd.State != "power-off" {
		t.Fatalf("a powered-off broker's view: %+v", pd)
	}
	// The log its process knew is still listed; the disk lost the
	// unflushed appends, so the batch's bytes are missing.
	seg := pd.Segments[0]
	if seg.Size == 0 || seg.FileSize >= seg.Size {
		t.Fatalf("segment %+v after a power loss", seg)
	}
	bb := dc.Batch(c, pd, seg.Batches[0].BaseOffset)
	if bb == nil || bb.Missing == 0 || int64(len(bb.Bytes))+bb.Missing != int64(bb.Info.Size) {
		t.Fatalf("batch after a power loss: %+v", bb)
	}
	checkCoverage(t, bb.BatchMap, len(bb.Bytes))
}

func BenchmarkDiskCache(b *testing.B) {
	s := session(b, "")
	if out := s.Exec("kafka-topics.sh --create --topic t --partitions 1 --replication-factor 3 --config internal.segment.bytes=4096", nil); len(out) != 1 {
		b.Fatal(out)
	}
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = fmt.Sprintf("record number %d with some payload", i)
	}
	// Batches must fit the 4 KiB segments: a larger one is refused
	// (RecordBatchTooLargeException), as Kafka refuses it.
	if out := s.Exec("kafka-console-producer.sh --topic t --command-property linger.ms=0 --command-property batch.size=1024", lines); len(out) != 0 {
		b.Fatal(out[0])
	}
	c := s.Cluster()
	leader := view.Take(c).Topics[0].Partitions[0].Leader
	var probe view.DiskCache
	if pd := probe.Partition(c, leader, "t", 0); len(pd.Segments) < 2 || len(pd.Segments[0].Batches) == 0 {
		b.Fatalf("the log has %d segments, the first with %d batches: nothing to read", len(pd.Segments), len(pd.Segments[0].Batches))
	}
	b.Run("hit", func(b *testing.B) {
		var dc view.DiskCache
		for b.Loop() {
			pd := dc.Partition(c, leader, "t", 0)
			dc.Batch(c, pd, pd.Segments[0].Batches[0].BaseOffset)
		}
	})
	b.Run("miss", func(b *testing.B) {
		for b.Loop() {
			var dc view.DiskCache
			pd := dc.Partition(c, leader, "t", 0)
			dc.Batch(c, pd, pd.Segments[0].Batches[0].BaseOffset)
		}
	})
}

// Reading a disk (the listing settles the page cache's writeback lazily)
// must not change what the cluster does: a run watched through the disk
// view every 100 ms ends as the same run left alone.
func TestDiskViewDoesNotChangeTheRun(t *testing.T) {
	script := func(watch func(*console.Session)) (*console.Session, string) {
		s := session(t, "")
		exec(t, s, "kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3 --config internal.segment.bytes=300")
		for i := 0; i < 6; i++ {
			produce(t, s, "t", "", fmt.Sprintf("v%d", i))
			for j := 0; j < 5; j++ {
				advance(t, s, 100*time.Millisecond)
				watch(s)
			}
		}
		exec(t, s, "broker kill 2 --power-loss")
		for j := 0; j < 400; j++ {
			advance(t, s, 100*time.Millisecond)
			watch(s)
		}
		exec(t, s, "broker start 2")
		advance(t, s, 5*time.Second)
		var b strings.Builder
		c := s.Cluster()
		for _, id := range c.NodeIDs() {
			for _, p := range c.Disk(id).Walk("/tmp/kafka-logs") {
				data, _ := c.Disk(id).ReadFile(p)
				fmt.Fprintf(&b, "%d %s %x\n", id, p, data)
			}
		}
		fmt.Fprintf(&b, "trace %x %d\n", c.World.Trace().Hash(), c.World.Trace().Count())
		return s, b.String()
	}
	_, alone := script(func(*console.Session) {})
	var dc view.DiskCache
	_, watched := script(func(s *console.Session) {
		c := s.Cluster()
		for _, id := range c.NodeIDs() {
			for p := int32(0); p < 2; p++ {
				pd := dc.Partition(c, id, "t", p)
				if n := len(pd.Segments); n > 0 && len(pd.Segments[0].Batches) > 0 {
					dc.Batch(c, pd, pd.Segments[0].Batches[0].BaseOffset)
				}
			}
		}
	})
	if alone != watched {
		t.Fatalf("watching the disks changed the run:\n--- alone\n%s\n--- watched\n%s", alone, watched)
	}
}

// After the log cleaner and the segments' indexes: the listing has each
// segment's .index and .timeindex and the replaced files awaiting
// deletion, and a cleaned segment holds only the batches the cleaner kept
// (the notes' example: K1=4 at 3 in segment 0, K2=3 at 5 and K3=5 at 7 in
// segment 4), its offsets keeping their gaps.
func TestPartitionDiskOfACleanedLog(t *testing.T) {
	s := session(t, "")
	exec(t, s, "kafka-topics.sh --create --topic c --partitions 1 --replication-factor 1 --config cleanup.policy=compact --config internal.segment.bytes=300")
	for _, r := range []string{"K1:1", "K2:2", "K1:3", "K1:4", "K3:2", "K2:3", "K3:4", "K3:5", "K2:6", "K1:7", "K3:8"} {
		// One producer per record: without idempotence, so that no batch is
		// its producer's last one, which the cleaner would keep (emptied).
		produce(t, s, "c", "--property parse.key=true --property key.separator=: --producer-property enable.idempotence=false", r)
	}
	advance(t, s, 16*time.Second)
	c := s.Cluster()
	p := view.Take(c).Topics[0].Partitions[0]
	var dc view.DiskCache
	pd := dc.Partition(c, p.Leader, "c", 0)
	var names []string
	for _, f := range pd.Files {
		names = append(names, f.Name)
	}
	for _, want := range []string{"00000000000000000000.index", "00000000000000000000.timeindex", "00000000000000000000.log.deleted",
		"00000000000000000000.index.deleted", "00000000000000000004.timeindex.deleted", "00000000000000000008.index"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s in %v", want, names)
		}
	}
	if pd.CleanerCheckpoint != 8 || len(pd.Segments) != 3 {
		t.Fatalf("checkpoint %d, segments %+v", pd.CleanerCheckpoint, pd.Segments)
	}
	for i, want := range [][]int64{{3}, {5, 7}} {
		sg := pd.Segments[i]
		var bases []int64
		for _, b := range sg.Batches {
			bases = append(bases, b.BaseOffset)
		}
		if !slices.Equal(bases, want) || !sg.Clean {
			t.Errorf("segment %d: batches at %v, clean %v; want %v, clean", i, bases, sg.Clean, want)
		}
	}
}
