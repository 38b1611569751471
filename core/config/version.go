package config

import (
	"fmt"
	"strconv"
	"strings"
)

// ProtocolVersion is an inter.broker.protocol.version such as "0.10.2",
// "0.11.0", "2.7-IV2" or "3.8-IV0", reduced to its numbers for comparison.
type ProtocolVersion struct {
	Major, Minor, Patch int
}

// ParseProtocolVersion reads an inter.broker.protocol.version value.
func ParseProtocolVersion(s string) (ProtocolVersion, error) {
	var v ProtocolVersion
	base, _, _ := strings.Cut(strings.TrimSpace(s), "-") // drop "-IV0"
	parts := strings.Split(base, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return v, fmt.Errorf("Invalid value %s for configuration inter.broker.protocol.version: Version %s is not a valid version", s, s)
	}
	nums := []*int{&v.Major, &v.Minor, &v.Patch}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return v, fmt.Errorf("Invalid value %s for configuration inter.broker.protocol.version: Version %s is not a valid version", s, s)
		}
		*nums[i] = n
	}
	return v, nil
}

// AtLeast reports whether v >= major.minor.
func (v ProtocolVersion) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// Follower recovery modes, by inter.broker.protocol.version.
type TruncationMode uint8

const (
	// TruncateToHighWatermark: before 0.11 (pre-KIP-101) a follower that
	// starts following truncates its log to its own high watermark.
	TruncateToHighWatermark TruncationMode = iota + 1
	// TruncateByOffsetsForLeaderEpoch: 0.11 to 2.6 ask the leader where the
	// follower's latest epoch ends (OffsetsForLeaderEpoch) before fetching.
	TruncateByOffsetsForLeaderEpoch
	// TruncateOnFetch: 2.7 and later learn divergence from the Fetch
	// response's diverging epoch (KIP-595).
	TruncateOnFetch
)

// Truncation returns the follower recovery mode of the broker config.
func (s Static) Truncation() TruncationMode {
	v, err := ParseProtocolVersion(s.Broker("inter.broker.protocol.version"))
	switch {
	case err != nil || v.AtLeast(2, 7):
		return TruncateOnFetch
	case v.AtLeast(0, 11):
		return TruncateByOffsetsForLeaderEpoch
	}
	return TruncateToHighWatermark
}

// ZooKeeperEraRegistration reports whether brokers behave as before KRaft
// (inter.broker.protocol.version below 3.0): a broker that restarts while
// its previous session is still alive takes that session over and keeps its
// ISR memberships, instead of being fenced first. It is the behaviour that
// made KIP-101's failures possible.
func (s Static) ZooKeeperEraRegistration() bool {
	v, err := ParseProtocolVersion(s.Broker("inter.broker.protocol.version"))
	return err == nil && !v.AtLeast(3, 0)
}
