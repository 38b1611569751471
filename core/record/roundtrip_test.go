package record

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// roundTrip encodes b, decodes it, and checks the decode equals b (with the
// computed CRC and Magic filled in) and re-encodes to identical bytes.
func roundTrip(t *testing.T, b Batch) []byte {
	t.Helper()
	enc := b.AppendTo(nil)
	if len(enc) != b.encodedSize() {
		t.Fatalf("encodedSize %d, encoded %d bytes", b.encodedSize(), len(enc))
	}
	if err := Validate(enc); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	got, n, err := Decode(enc)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if n != len(enc) {
		t.Fatalf("Decode consumed %d of %d", n, len(enc))
	}
	want := b
	want.Magic = MagicV2
	want.CRC = ComputeCRC(enc)
	if len(want.Records) == 0 {
		want.Records = nil
	}
	for i := range want.Records {
		if len(want.Records[i].Headers) == 0 {
			want.Records[i].Headers = nil
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Decode =\n%+v\nwant\n%+v", got, want)
	}
	if re := got.AppendTo(nil); !bytes.Equal(re, enc) {
		t.Fatal("re-encoding the decoded batch changed the bytes")
	}
	return enc
}

func TestRoundTripBuild(t *testing.T) {
	recs := sampleRecords()
	buf := Build(100, 7, ProducerInfo{ID: 42, Epoch: 3, BaseSequence: 10}, recs)
	b, n, err := Decode(buf)
	if err != nil || n != len(buf) {
		t.Fatalf("Decode: %d %v", n, err)
	}
	if b.BaseOffset != 100 || b.PartitionLeaderEpoch != 7 || b.ProducerID != 42 || b.ProducerEpoch != 3 ||
		b.BaseSequence != 10 || b.Attributes != 0 || b.LastOffsetDelta != int32(len(recs)-1) ||
		b.BaseTimestamp != 1000 || b.MaxTimestamp != 1020 {
		t.Fatalf("header %+v", b)
	}
	for i, r := range b.Records {
		w := recs[i]
		if r.Offset != 100+int64(i) || r.Timestamp != w.Timestamp || !reflect.DeepEqual(r.Key, w.Key) ||
			!reflect.DeepEqual(r.Value, w.Value) || !reflect.DeepEqual(r.Headers, w.Headers) {
			t.Errorf("record %d = %+v, want %+v", i, r, w)
		}
		// null and empty must stay distinct.
		if (r.Key == nil) != (w.Key == nil) || (r.Value == nil) != (w.Value == nil) {
			t.Errorf("record %d: null/empty confused", i)
		}
	}
	// Build must not have touched the caller's records.
	for i, r := range recs {
		if r.Offset != 0 {
			t.Fatalf("Build modified recs[%d].Offset", i)
		}
	}
}

func TestBuildEmptyIsNil(t *testing.T) {
	if got := Build(0, 0, NoProducer(), nil); got != nil {
		t.Fatalf("Build(no records) = % x", got)
	}
}

func TestRoundTripCases(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	many := make([]Record, 10000)
	for i := range many {
		many[i] = Record{Offset: 5000 + int64(i), Timestamp: int64(1e12) + int64(i%97), Value: []byte(strings.Repeat("x", i%300))}
	}
	cases := map[string]Batch{
		"empty batch (left by compaction)": {
			BaseOffset: 77, LastOffsetDelta: 12, BaseTimestamp: NoTimestamp, MaxTimestamp: 5555,
			ProducerID: 9, ProducerEpoch: 1, BaseSequence: 100,
		},
		"null key":            {BaseOffset: 1, Records: []Record{{Offset: 1, Value: []byte("v")}}},
		"null value":          {BaseOffset: 1, Records: []Record{{Offset: 1, Key: []byte("k")}}},
		"null key and value":  {Records: []Record{{}}},
		"empty key and value": {Records: []Record{{Key: []byte{}, Value: []byte{}}}},
		"headers":             {Records: sampleRecords()},
		"large value":         {BaseTimestamp: 10, MaxTimestamp: 10, Records: []Record{{Timestamp: 10, Key: []byte("big"), Value: big}}},
		"large header value":  {Records: []Record{{Headers: []Header{{Key: "blob", Value: big[:300000]}}}}},
		"many records":        {BaseOffset: 5000, LastOffsetDelta: 9999, BaseTimestamp: 1e12, MaxTimestamp: 1e12 + 96, Records: many},
		"negative deltas": {BaseOffset: 1000, BaseTimestamp: 50000, MaxTimestamp: 50000, Records: []Record{
			{Offset: 990, Timestamp: 40000},
			{Offset: 1000 + math.MinInt32, Timestamp: math.MinInt64},
			{Offset: 1000 + math.MaxInt32, Timestamp: math.MaxInt64},
		}},
		"gaps (compacted)": {BaseOffset: 10, LastOffsetDelta: 9, Records: []Record{{Offset: 12}, {Offset: 19, Key: []byte("k")}}},
		"attributes": {
			Attributes: TransactionalFlagMask | ControlFlagMask | TimestampTypeMask | DeleteHorizonFlagMask | 0x7f00,
			Records:    []Record{{Key: []byte{0, 0, 0, 1}, Value: []byte{0, 0, 0, 0, 0, 0}}},
		},
		"extreme header fields": {
			BaseOffset: math.MaxInt64 - 5, PartitionLeaderEpoch: math.MinInt32, LastOffsetDelta: math.MaxInt32,
			BaseTimestamp: math.MinInt64, MaxTimestamp: math.MaxInt64, ProducerID: math.MaxInt64,
			ProducerEpoch: math.MaxInt16, BaseSequence: math.MaxInt32,
			Records: []Record{{Offset: math.MaxInt64, Timestamp: 0}}, // offset delta 5; timestamp delta wraps
		},
		"non-UTF-8 header key": {Records: []Record{{Headers: []Header{{Key: "\xff\xfe", Value: nil}}}}},
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) { roundTrip(t, b) })
	}
}

func TestRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	bytesOrNil := func() []byte {
		if rng.IntN(5) == 0 {
			return nil
		}
		p := make([]byte, rng.IntN(40))
		for i := range p {
			p[i] = byte(rng.Uint32())
		}
		return p
	}
	for range 500 {
		b := Batch{
			BaseOffset:           rng.Int64N(1 << 40),
			PartitionLeaderEpoch: int32(rng.Uint32()),
			Attributes:           int16(rng.Uint32()) &^ CompressionCodecMask,
			LastOffsetDelta:      int32(rng.Uint32()),
			BaseTimestamp:        int64(rng.Uint64()) >> rng.IntN(64),
			MaxTimestamp:         int64(rng.Uint64()),
			ProducerID:           int64(rng.Uint64()),
			ProducerEpoch:        int16(rng.Uint32()),
			BaseSequence:         int32(rng.Uint32()),
		}
		for range rng.IntN(20) {
			r := Record{
				Offset:    b.BaseOffset + int64(int32(rng.Uint32())>>rng.IntN(32)),
				Timestamp: b.BaseTimestamp + int64(rng.Uint64())>>rng.IntN(64),
				Key:       bytesOrNil(),
				Value:     bytesOrNil(),
			}
			for range rng.IntN(4) {
				r.Headers = append(r.Headers, Header{Key: string(bytesOrNil()), Value: bytesOrNil()})
			}
			b.Records = append(b.Records, r)
		}
		roundTrip(t, b)
	}
}

// Decoded byte slices are copies, and appending to one cannot clobber the next.
func TestDecodeDoesNotAlias(t *testing.T) {
	buf := Build(0, 0, NoProducer(), []Record{
		{Key: []byte("k1"), Value: []byte("v1")},
		{Key: []byte("k2"), Value: []byte("v2")},
	})
	orig := bytes.Clone(buf)
	b, _, err := Decode(buf)
	if err != nil {
		t.Fatal(err)
	}
	b.Records[0].Value[0] = 'X'
	b.Records[0].Key = append(b.Records[0].Key, "overflow"...)
	if !bytes.Equal(buf, orig) {
		t.Fatal("mutating a decoded record changed the input buffer")
	}
	if string(b.Records[0].Value) != "X1" || string(b.Records[1].Key) != "k2" {
		t.Fatalf("records interfere: %q %q", b.Records[0].Value, b.Records[1].Key)
	}
}

func TestDecodeIgnoresTrailingBytes(t *testing.T) {
	one := Build(0, 0, NoProducer(), sampleRecords())
	two := append(bytes.Clone(one), Build(5, 0, NoProducer(), sampleRecords()[:1])...)
	_, n, err := Decode(two)
	if err != nil || n != len(one) {
		t.Fatalf("Decode = %d, %v; want %d", n, err, len(one))
	}
}

func TestAppendToPanicsOnCallerBugs(t *testing.T) {
	cases := map[string]Batch{
		"compression bits":     {Attributes: CompressionGzip},
		"offset delta > int32": {BaseOffset: 0, Records: []Record{{Offset: math.MaxInt32 + 1}}},
		"offset delta < int32": {BaseOffset: 0, Records: []Record{{Offset: math.MinInt32 - 1}}},
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			b.AppendTo(nil)
		})
	}
}

func TestAppendToAppends(t *testing.T) {
	prefix := []byte("prefix")
	b := Batch{Records: []Record{{Value: []byte("v")}}}
	out := b.AppendTo(bytes.Clone(prefix))
	if !bytes.HasPrefix(out, prefix) || !bytes.Equal(out[len(prefix):], b.AppendTo(nil)) {
		t.Fatal("AppendTo must append after dst's contents")
	}
}

func TestRecordTimestampLogAppendTime(t *testing.T) {
	b := Batch{BaseTimestamp: 100, MaxTimestamp: 999, Records: []Record{{Timestamp: 105}}}
	if got := b.RecordTimestamp(&b.Records[0]); got != 105 {
		t.Fatalf("CreateTime: %d", got)
	}
	b.Attributes |= TimestampTypeMask
	if got := b.RecordTimestamp(&b.Records[0]); got != 999 {
		t.Fatalf("LogAppendTime: %d", got)
	}
	if b.TimestampType() != LogAppendTime {
		t.Fatal(b.TimestampType())
	}
}
