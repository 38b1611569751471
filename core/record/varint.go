package record

import "fmt"

// Zigzag varints as in Kafka's ByteUtils (and protobuf's sint32/sint64):
// zigzag maps small magnitudes of either sign to small unsigned numbers
// (0,-1,1,-2 -> 0,1,2,3), which are then written 7 bits per byte, least
// significant group first, high bit set on every byte but the last.
//
// Readers here accept only the canonical (shortest) encoding, which is what
// every writer produces; see the package comment for why.

const (
	maxVarintLen  = 5  // 32 bits in 7-bit groups: 4*7 + 4
	maxVarlongLen = 10 // 64 bits in 7-bit groups: 9*7 + 1

	// The largest final byte of a maximum-length encoding: only the bits
	// left over after the full 7-bit groups (and no continuation bit).
	varintLastMax  = 0x0f
	varlongLastMax = 0x01
)

// AppendVarint appends v as a zigzag varint.
func AppendVarint(dst []byte, v int32) []byte {
	return appendUvarint(dst, uint64(uint32(v<<1)^uint32(v>>31)))
}

// AppendVarlong appends v as a zigzag varlong.
func AppendVarlong(dst []byte, v int64) []byte {
	return appendUvarint(dst, uint64(v<<1)^uint64(v>>63))
}

func appendUvarint(dst []byte, u uint64) []byte {
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// SizeOfVarint is the encoded size of v as a zigzag varint (1-5).
func SizeOfVarint(v int32) int {
	return sizeOfUvarint(uint64(uint32(v<<1) ^ uint32(v>>31)))
}

// SizeOfVarlong is the encoded size of v as a zigzag varlong (1-10).
func SizeOfVarlong(v int64) int {
	return sizeOfUvarint(uint64(v<<1) ^ uint64(v>>63))
}

func sizeOfUvarint(u uint64) int {
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}

// ReadVarint reads a zigzag varint from the front of buf and returns it with
// the number of bytes read. It fails with ErrTruncated if buf ends inside the
// varint and ErrCorrupt if the encoding is longer than 5 bytes, carries bits
// beyond 32, or is not the shortest form.
func ReadVarint(buf []byte) (int32, int, error) {
	u, n, err := readUvarint(buf, maxVarintLen, varintLastMax)
	if err != nil {
		return 0, 0, err
	}
	return int32(uint32(u)>>1) ^ -int32(u&1), n, nil
}

// ReadVarlong is ReadVarint for 64-bit values (up to 10 bytes).
func ReadVarlong(buf []byte) (int64, int, error) {
	u, n, err := readUvarint(buf, maxVarlongLen, varlongLastMax)
	if err != nil {
		return 0, 0, err
	}
	return int64(u>>1) ^ -int64(u&1), n, nil
}

// readUvarint reads at most maxLen bytes. Canonical form means: the final
// byte is non-zero unless it is the only byte, and the final byte of a
// maximum-length encoding is at most lastMax.
func readUvarint(buf []byte, maxLen int, lastMax byte) (uint64, int, error) {
	var u uint64
	for i := 0; i < maxLen; i++ {
		if i >= len(buf) {
			return 0, 0, fmt.Errorf("%w: varint cut off after %d bytes", ErrTruncated, i)
		}
		b := buf[i]
		if i == maxLen-1 && b > lastMax {
			return 0, 0, fmt.Errorf("%w: varint too long or out of range", ErrCorrupt)
		}
		u |= uint64(b&0x7f) << (7 * uint(i))
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, 0, fmt.Errorf("%w: overlong varint", ErrCorrupt)
			}
			return u, i + 1, nil
		}
	}
	// Unreachable: the final byte either fails the range check or is < 0x80.
	return 0, 0, fmt.Errorf("%w: varint too long", ErrCorrupt)
}
