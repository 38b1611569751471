package release

import "strconv"

// Feature is a feature flag a release's brokers support (KIP-584): the
// range of levels its software accepts, and the level a freshly
// formatted cluster finalizes (Feature.defaultLevel for the release's
// metadata.version; 0 leaves it unset).
type Feature struct {
	Name     string
	MinLevel int16
	MaxLevel int16
	Default  int16
}

// Feature names the engine reads.
const (
	MetadataVersionFeature        = "metadata.version"
	EligibleLeaderReplicasFeature = "eligible.leader.replicas.version" // KIP-966
	TransactionVersionFeature     = "transaction.version"              // KIP-890
)

// metadataVersions are the metadata.version names by feature level, from
// 1 (MetadataVersion.IBP_3_0_IV1, the first KRaft level) on, as Kafka's
// MetadataVersion enum numbers them.
var metadataVersions = []string{
	1: "3.0-IV1", 2: "3.1-IV0", 3: "3.2-IV0", 4: "3.3-IV0", 5: "3.3-IV1", 6: "3.3-IV2", 7: "3.3-IV3",
	8: "3.4-IV0", 9: "3.5-IV0", 10: "3.5-IV1", 11: "3.5-IV2", 12: "3.6-IV0", 13: "3.6-IV1", 14: "3.6-IV2",
	15: "3.7-IV0", 16: "3.7-IV1", 17: "3.7-IV2", 18: "3.7-IV3", 19: "3.7-IV4", 20: "3.8-IV0", 21: "3.9-IV0",
	22: "4.0-IV0", 23: "4.0-IV1", 24: "4.0-IV2", 25: "4.0-IV3", 26: "4.1-IV0", 27: "4.1-IV1", 28: "4.2-IV0",
	29: "4.2-IV1", 30: "4.3-IV0",
}

// LevelString is a feature level as FeatureCommand.levelToString prints
// it: metadata.version by its name (3.8-IV0), or "UNKNOWN n" for a level
// it has none for; any other feature by its number.
func LevelString(feature string, level int16) string {
	if feature != MetadataVersionFeature {
		return strconv.Itoa(int(level))
	}
	if level > 0 && int(level) < len(metadataVersions) {
		return metadataVersions[level]
	}
	return "UNKNOWN " + strconv.Itoa(int(level))
}
