package record

import "encoding/binary"

// SetBaseOffset overwrites the baseOffset of the batch at the front of buf.
// This is how a leader assigns offsets to a produced batch: records hold only
// deltas and baseOffset is outside the CRC, so the batch stays valid and no
// record is touched. buf must hold at least 8 bytes.
func SetBaseOffset(buf []byte, off int64) {
	binary.BigEndian.PutUint64(buf[baseOffsetOffset:], uint64(off))
}

// SetPartitionLeaderEpoch overwrites the partitionLeaderEpoch of the batch at
// the front of buf, which is outside the CRC for the same reason as
// baseOffset: the leader stamps it on append. buf must hold at least 16 bytes.
func SetPartitionLeaderEpoch(buf []byte, e int32) {
	binary.BigEndian.PutUint32(buf[partitionLeaderEpochOffset:], uint32(e))
}

// Restamp moves every timestamp of the batch at the front of buf by the
// same amount, to baseTimestamp base (maxTimestamp moves with it), and
// recomputes the CRC the timestamps are under. Records hold their
// timestamps as deltas from baseTimestamp, so no record is touched: a
// batch built once is the batch Build would give at another time (a
// KRaft leader's NoOps, written every metadata.max.idle.interval.ms with
// nothing but their offset and time changing). buf must hold a whole
// batch.
func Restamp(buf []byte, base int64) {
	first := int64(binary.BigEndian.Uint64(buf[baseTimestampOffset:]))
	last := int64(binary.BigEndian.Uint64(buf[maxTimestampOffset:]))
	binary.BigEndian.PutUint64(buf[baseTimestampOffset:], uint64(base))
	binary.BigEndian.PutUint64(buf[maxTimestampOffset:], uint64(base+last-first))
	binary.BigEndian.PutUint32(buf[crcOffset:], ComputeCRC(buf))
}
