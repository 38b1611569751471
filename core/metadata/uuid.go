package metadata

import (
	"encoding/base64"
	"fmt"
)

// Uuid is Kafka's 128-bit id for topics, clusters and incarnations. It prints
// as 22 characters of URL-safe base64 without padding, as Kafka prints it.
type Uuid [16]byte

// ZeroUuid is the all-zero id, which means "none".
var ZeroUuid Uuid

// MetadataTopicID is the reserved id of __cluster_metadata (Kafka's ONE_UUID).
var MetadataTopicID = Uuid{15: 1}

// String renders the id the way Kafka does.
func (u Uuid) String() string { return base64.RawURLEncoding.EncodeToString(u[:]) }

// ParseUuid reads the 22-character form.
func ParseUuid(s string) (Uuid, error) {
	var u Uuid
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		return u, fmt.Errorf("invalid uuid %q", s)
	}
	copy(u[:], b)
	return u, nil
}

// RandomUuid draws an id as Kafka's Uuid.randomUuid does: a version-4 UUID,
// redrawn while it is reserved (zero or the metadata topic's) or its string
// form starts with '-' (which would read as a command-line flag).
func RandomUuid(next func() uint64) Uuid {
	for {
		var u Uuid
		hi, lo := next(), next()
		for i := 0; i < 8; i++ {
			u[i] = byte(hi >> (56 - 8*i))
			u[8+i] = byte(lo >> (56 - 8*i))
		}
		u[6] = u[6]&0x0f | 0x40 // version 4
		u[8] = u[8]&0x3f | 0x80 // IETF variant
		if u == ZeroUuid || u == MetadataTopicID || u.String()[0] == '-' {
			continue
		}
		return u
	}
}
