package record

import (
	"bytes"
	"testing"
)

func benchRecords() []Record {
	recs := make([]Record, 100)
	for i := range recs {
		recs[i] = Record{Timestamp: 1704067200000 + int64(i), Key: []byte("user-1"), Value: bytes.Repeat([]byte{'v'}, 200),
			Headers: []Header{{Key: "trace", Value: []byte("0123456789")}}}
	}
	return recs
}

func BenchmarkBuild(b *testing.B) {
	recs := benchRecords()
	b.ReportAllocs()
	for b.Loop() {
		Build(0, 0, NoProducer(), recs)
	}
}

func BenchmarkDecode(b *testing.B) {
	buf := Build(0, 0, NoProducer(), benchRecords())
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	buf := Build(0, 0, NoProducer(), benchRecords())
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(buf); err != nil {
			b.Fatal(err)
		}
	}
}
