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
