package storage

import (
	"encoding/binary"
	"fmt"
)

// AbortedTxn is one entry of a segment's transaction index (.txnindex):
// a transaction that ended with an ABORT marker in the segment, from its
// producer's first offset to the marker, and the partition's last stable
// offset when it completed (storage/internals/log/AbortedTxn.java, 3.8.0).
// A read_committed fetch hands the entries its range overlaps to the
// consumer, which skips those producers' records up to the markers.
type AbortedTxn struct {
	ProducerID       int64
	FirstOffset      int64
	LastOffset       int64
	LastStableOffset int64
}

// abortedTxnSize is an entry: version int16 (0), producer id, first,
// last and last stable offsets, all int64, big-endian.
const abortedTxnSize = 34

func (a AbortedTxn) encode() []byte {
	b := make([]byte, abortedTxnSize)
	binary.BigEndian.PutUint16(b[0:], 0)
	binary.BigEndian.PutUint64(b[2:], uint64(a.ProducerID))
	binary.BigEndian.PutUint64(b[10:], uint64(a.FirstOffset))
	binary.BigEndian.PutUint64(b[18:], uint64(a.LastOffset))
	binary.BigEndian.PutUint64(b[26:], uint64(a.LastStableOffset))
	return b
}

// txnIndex is a segment's .txnindex (TransactionIndex.java): entries in
// the order their markers were appended, so by increasing LastOffset. The
// file exists only once an entry was appended.
type txnIndex struct {
	disk *Disk
	path string
}

// entries reads the file's entries. Kafka reads an entry's version with
// one byte (AbortedTxn.version: buffer.get(VERSION_OFFSET)), and so does
// this; a version above 0 is refused.
func (x txnIndex) entries() ([]AbortedTxn, error) {
	if !x.disk.Exists(x.path) {
		return nil, nil
	}
	data, err := x.disk.ReadFile(x.path)
	if err != nil {
		return nil, err
	}
	out := make([]AbortedTxn, 0, len(data)/abortedTxnSize)
	for pos := 0; pos+abortedTxnSize <= len(data); pos += abortedTxnSize {
		e := data[pos : pos+abortedTxnSize]
		if v := e[0]; v > 0 {
			return nil, fmt.Errorf("Unexpected aborted transaction version %d in transaction index %s, current version is 0", v, x.path)
		}
		out = append(out, AbortedTxn{
			ProducerID:       int64(binary.BigEndian.Uint64(e[2:])),
			FirstOffset:      int64(binary.BigEndian.Uint64(e[10:])),
			LastOffset:       int64(binary.BigEndian.Uint64(e[18:])),
			LastStableOffset: int64(binary.BigEndian.Uint64(e[26:])),
		})
	}
	return out, nil
}

// append adds an entry; its last offset must be past the last entry's
// (TransactionIndex.append).
func (x txnIndex) append(a AbortedTxn) error {
	es, err := x.entries()
	if err != nil {
		return err
	}
	if n := len(es); n > 0 && a.LastOffset <= es[n-1].LastOffset {
		return fmt.Errorf("The last offset of appended transactions must increase sequentially, but %d is not greater than current last offset %d of index %s",
			a.LastOffset, es[n-1].LastOffset, x.path)
	}
	return x.disk.Append(x.path, a.encode())
}

// truncateTo drops the entries whose transaction ended at or after offset
// (TransactionIndex.truncateTo).
func (x txnIndex) truncateTo(offset int64) error {
	es, err := x.entries()
	if err != nil || len(es) == 0 {
		return err
	}
	keep := 0
	for keep < len(es) && es[keep].LastOffset < offset {
		keep++
	}
	return x.disk.Truncate(x.path, int64(keep*abortedTxnSize))
}

// reset empties the index (a segment being recovered rebuilds it).
func (x txnIndex) reset() error {
	if !x.disk.Exists(x.path) {
		return nil
	}
	return x.disk.Truncate(x.path, 0)
}

// collect is collectAbortedTxns: the entries that overlap [fetchOffset,
// upperBound); complete once an entry's last stable offset reaches the
// upper bound (no later segment can hold more that matter).
func (x txnIndex) collect(fetchOffset, upperBound int64) ([]AbortedTxn, bool, error) {
	es, err := x.entries()
	if err != nil {
		return nil, false, err
	}
	var out []AbortedTxn
	for _, a := range es {
		if a.LastOffset >= fetchOffset && a.FirstOffset < upperBound {
			out = append(out, a)
		}
		if a.LastStableOffset >= upperBound {
			return out, true, nil
		}
	}
	return out, false, nil
}

// flush makes the index durable.
func (x txnIndex) flush() error {
	if !x.disk.Exists(x.path) {
		return nil
	}
	return x.disk.Fsync(x.path)
}

// ReadTxnIndex reads the entries of the .txnindex file at p, in file
// order; a missing file has none (TransactionIndex opens it only if it
// exists).
func ReadTxnIndex(d *Disk, p string) ([]AbortedTxn, error) {
	return txnIndex{d, p}.entries()
}
