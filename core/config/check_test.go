package config

import (
	"math"
	"strconv"
	"testing"
)

// Every kind of validator rejects with Kafka's message and accepts the
// values in range.
func TestChecksReadLikeKafka(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{RetentionMs, "-2", "Invalid value -2 for configuration retention.ms: Value must be at least -1"},
		{RetentionMs, "-1", ""},
		{MinCleanableDirtyRatio, "-0.1", "Invalid value -0.1 for configuration min.cleanable.dirty.ratio: Value must be at least 0"},
		{MinCleanableDirtyRatio, "1", ""},
		{CompressionType, "brotli", "Invalid value brotli for configuration compression.type: String must be one of: uncompressed, zstd, lz4, snappy, gzip, producer"},
		{CompressionType, "zstd", ""},
		{CleanupPolicy, "compact,gone", "Invalid value compact,gone for configuration cleanup.policy: Invalid value gone for configuration cleanup.policy: String must be one of: compact, delete"},
		{CleanupPolicy, "compact, delete", ""},
		{Preallocate, "true", ""},
	}
	for _, c := range cases {
		err := ValidateTopic(c.name, c.value, v38)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("%s=%s: %q, want %q", c.name, c.value, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%s=%s accepted, want %q", c.name, c.value, c.want)
		}
	}
	d, _ := BrokerDef("inter.broker.protocol.version", v38)
	if _, err := d.Parse("x.y", v38); err == nil || err.Error() != "Invalid value x.y for configuration inter.broker.protocol.version: Version x.y is not a valid version" {
		t.Errorf("inter.broker.protocol.version=x.y: %v", err)
	}
	if _, err := d.Parse("3.8-IV0", v38); err != nil {
		t.Errorf("inter.broker.protocol.version=3.8-IV0: %v", err)
	}
	if maxLong != strconv.FormatInt(math.MaxInt64, 10) {
		t.Errorf("maxLong = %s", maxLong)
	}
}
