package config

import (
	"fmt"
	"slices"
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

// metadataVersions38 are the names of Kafka 3.8's MetadataVersion enum in
// order (server-common MetadataVersion.java at 3.8.0): the ZooKeeper-era
// inter-broker protocol versions up to 3.0-IV0, then the KRaft levels
// 3.0-IV1 (1) to 3.9-IV0 (21). A name without "-IV" has no sub-version.
var metadataVersions38 = []string{
	"0.8.0", "0.8.1", "0.8.2", "0.9.0",
	"0.10.0-IV0", "0.10.0-IV1", "0.10.1-IV0", "0.10.1-IV1", "0.10.1-IV2", "0.10.2-IV0",
	"0.11.0-IV0", "0.11.0-IV1", "0.11.0-IV2", "1.0-IV0", "1.1-IV0", "2.0-IV0", "2.0-IV1",
	"2.1-IV0", "2.1-IV1", "2.1-IV2", "2.2-IV0", "2.2-IV1", "2.3-IV0", "2.3-IV1",
	"2.4-IV0", "2.4-IV1", "2.5-IV0", "2.6-IV0", "2.7-IV0", "2.7-IV1", "2.7-IV2",
	"2.8-IV0", "2.8-IV1", "3.0-IV0",
	"3.0-IV1", "3.1-IV0", "3.2-IV0", "3.3-IV0", "3.3-IV1", "3.3-IV2", "3.3-IV3",
	"3.4-IV0", "3.5-IV0", "3.5-IV1", "3.5-IV2", "3.6-IV0", "3.6-IV1", "3.6-IV2",
	"3.7-IV0", "3.7-IV1", "3.7-IV2", "3.7-IV3", "3.7-IV4", "3.8-IV0", "3.9-IV0",
}

// latestProduction38 is 3.8's MetadataVersion.LATEST_PRODUCTION (3.8-IV0):
// only a production version answers to its release name alone ("3.8").
const latestProduction38 = "3.8-IV0"

// MetadataVersion38 is Kafka 3.8's MetadataVersion.fromVersionString, which
// the MetadataVersionValidator of message.format.version and
// log.message.format.version applies: it keeps the first three
// dot-separated parts of a "0."-version and the first two of any other,
// then looks the result up among the full names (2.8-IV1) and the release
// names of production versions (2.8, the release's last version). It
// returns the full name, or false.
func MetadataVersion38(s string) (string, bool) {
	return lookupVersion(s, metadataVersions38, latestProduction38)
}

// apiVersions28 are the names of Kafka 2.8's ApiVersion.allVersions
// (ApiVersion.scala:51-116 at 2.8.0): 3.8's list up to 2.8-IV1.
var apiVersions28 = metadataVersions38[:slices.Index(metadataVersions38, "2.8-IV1")+1]

// APIVersion28 is Kafka 2.8's ApiVersion.apply, which its
// ApiVersionValidator applies (ApiVersion.scala:119-131, 450-458 at
// 2.8.0): the same reading as MetadataVersion38's, over 2.8's versions,
// where every release name means the release's last version. It returns
// the full name, or false.
func APIVersion28(s string) (string, bool) {
	return lookupVersion(s, apiVersions28, apiVersions28[len(apiVersions28)-1])
}

// lookupVersion reads s among the full names of versions and the release
// names of those up to latestProduction.
func lookupVersion(s string, versions []string, latestProduction string) (string, bool) {
	parts := strings.Split(s, ".")
	n := 2
	if strings.HasPrefix(s, "0.") {
		n = 3
	}
	key := s
	if len(parts) > n {
		key = strings.Join(parts[:n], ".")
	}
	found, production := "", true
	for _, v := range versions {
		rel, _, _ := strings.Cut(v, "-")
		if v == key || production && rel == key {
			found = v // a release name means its last production version
		}
		if v == latestProduction {
			production = false
		}
	}
	return found, found != ""
}

// AlterIsrSupported reports whether inter.broker.protocol.version ibp
// sends ISR changes to the controller with AlterIsr (KIP-497): 2.7-IV2
// and later (ApiVersion.isAlterIsrSupported at tag 2.8.0). "2.7" alone is
// the latest 2.7 version, 2.7-IV2. Earlier versions write the ISR to
// ZooKeeper from the leader.
func AlterIsrSupported(ibp string) bool {
	v, err := ParseProtocolVersion(ibp)
	if err != nil || v.Major != 2 || v.Minor != 7 {
		return err != nil || v.AtLeast(2, 8)
	}
	_, iv, ok := strings.Cut(strings.TrimSpace(ibp), "-IV")
	if !ok {
		return true
	}
	n, err := strconv.Atoi(iv)
	return err != nil || n >= 2
}

// RecordVersion is the record format a protocol or message format version
// writes (ApiVersion.recordVersion): 0 before 0.10.0, 1 (timestamps)
// from 0.10.0, 2 (record batches with producer ids and leader epochs)
// from 0.11.0.
func RecordVersion(v ProtocolVersion) int {
	switch {
	case v.AtLeast(0, 11):
		return 2
	case v.AtLeast(0, 10):
		return 1
	}
	return 0
}
