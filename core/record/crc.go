package record

import (
	"encoding/binary"
	"hash/crc32"
)

// castagnoli is the CRC-32C table. Magic v2 uses CRC-32C, not the IEEE
// CRC-32 of magic 0/1, for its hardware support.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ComputeCRC is the CRC-32C of buf[21:batchEnd], where batchEnd is read from
// the batchLength field: the bytes from attributes to the end of the batch.
// baseOffset, batchLength, partitionLeaderEpoch and magic are deliberately
// outside it, so a leader can assign offsets and stamp its epoch without
// recomputing it.
//
// It never panics: if buf is shorter than the batch claims, it covers what
// is present (which then cannot match a stored CRC); callers wanting to know
// why should use ParseHeader first.
func ComputeCRC(buf []byte) uint32 {
	if len(buf) <= attributesOffset {
		return crc32.Checksum(nil, castagnoli)
	}
	end := len(buf)
	if l := int64(int32(binary.BigEndian.Uint32(buf[lengthOffset:]))) + LogOverhead; l < int64(end) {
		end = int(l)
	}
	if end < attributesOffset {
		end = attributesOffset
	}
	return crc32.Checksum(buf[attributesOffset:end], castagnoli)
}
