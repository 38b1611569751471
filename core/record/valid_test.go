package record

import (
	"bytes"
	"errors"
	"testing"
)

// A Valid batch's header is the parsed header of its bytes, and a
// restamped copy is a valid batch whose header is its bytes' header: the
// proof a Valid carries holds for the copies made from it.
func TestRestampedBatchesAreValid(t *testing.T) {
	recs := []Record{{Timestamp: 1_000, Value: []byte("a")}, {Timestamp: 1_250, Value: []byte("bc")}}
	v, err := ValidateBatch(Build(7, 3, NoProducer(), recs))
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := ParseHeader(v.Bytes()); h != v.Header() {
		t.Fatalf("header %+v, parsed %+v", v.Header(), h)
	}
	dst := make([]byte, len(v.Bytes()))
	r := v.Restamped(dst, 42, 90_000)
	if &r.Bytes()[0] != &dst[0] {
		t.Fatal("Restamped did not write into dst")
	}
	if err := Validate(r.Bytes()); err != nil {
		t.Fatalf("restamped batch: %v", err)
	}
	h, _ := ParseHeader(r.Bytes())
	if h != r.Header() {
		t.Fatalf("restamped header %+v, parsed %+v", r.Header(), h)
	}
	if h.BaseOffset != 42 || h.BaseTimestamp != 90_000 || h.MaxTimestamp != 90_250 {
		t.Fatalf("restamped header %+v", h)
	}
	// The copy is the batch Build makes at that offset and time.
	moved := []Record{{Timestamp: 90_000, Value: []byte("a")}, {Timestamp: 90_250, Value: []byte("bc")}}
	if want := Build(42, 3, NoProducer(), moved); !bytes.Equal(r.Bytes(), want) {
		t.Fatalf("restamped %x\nbuilt     %x", r.Bytes(), want)
	}
	if !bytes.Equal(v.Bytes(), Build(7, 3, NoProducer(), recs)) {
		t.Fatal("Restamped changed the batch it copied")
	}
}

// ValidateBatch refuses what Validate refuses.
func TestValidateBatchRefusesCorruptBatches(t *testing.T) {
	b := Build(0, 0, NoProducer(), []Record{{Timestamp: 1, Value: []byte("x")}})
	b[len(b)-1] ^= 1
	if _, err := ValidateBatch(b); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("corrupt batch: %v", err)
	}
}
