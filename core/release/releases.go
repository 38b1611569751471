package release

import (
	"fmt"
	"strings"
)

// Release is what the engine knows of one Kafka release line.
type Release struct {
	Version Version
	// Tag is the apache/kafka tag whose behaviour the engine follows for
	// this line.
	Tag string
	// MetadataVersion is the release's latest production metadata.version
	// (MetadataVersion.LATEST_PRODUCTION), which `kafka-storage.sh format`
	// writes to a new cluster's bootstrap, and MetadataLevel its feature
	// level.
	MetadataVersion string
	MetadataLevel   int16
	// Features are the feature flags the release's brokers support
	// (BrokerFeatures.defaultSupportedFeatures: metadata.version and the
	// production features whose latest production level is above 0), by
	// name.
	Features []Feature
	// PaddedFeatures is kafka-features.sh describe's layout from 4.3
	// (padded columns instead of tabs, FeatureCommand.handleDescribe).
	PaddedFeatures bool
	// Refused says why the engine cannot run this release yet (empty: it
	// can). Asking for it is an error that says so.
	Refused string
	// ZooKeeper says the release keeps its metadata in ZooKeeper (the
	// ZooKeeper era: a controller broker, no metadata quorum).
	ZooKeeper bool
}

// FeatureDefault is the level a freshly formatted cluster of r finalizes
// for feature (0: none).
func (r Release) FeatureDefault(feature string) int16 {
	for _, f := range r.Features {
		if f.Name == feature {
			return f.Default
		}
	}
	return 0
}

// Default is the release `cluster create` makes without --version.
var Default = Version{4, 3}

// releases are the release lines `cluster create --version` knows, oldest
// first.
var releases = []Release{
	// 2.8 is the last release line before KRaft was usable (KIP-500's
	// early access came with it, not production-ready): a ZooKeeper
	// ensemble and a controller broker. Its brokers have no feature
	// flags (BrokerFeatures supports none) and no metadata.version.
	{Version: Version{2, 8}, Tag: "2.8.0", ZooKeeper: true},
	// 3.8's only production feature is metadata.version, supported from
	// 3.0-IV1 (MetadataVersion.MINIMUM_KRAFT_VERSION).
	{Version: Version{3, 8}, Tag: "3.8.0", MetadataVersion: "3.8-IV0", MetadataLevel: 20,
		Features: []Feature{{Name: MetadataVersionFeature, MinLevel: 1, MaxLevel: 20, Default: 20}}},
	// From 4.0 the brokers support every production feature whose latest
	// production level is above 0 (BrokerFeatures), metadata.version from
	// 3.3-IV3 (MetadataVersion.MINIMUM_VERSION). The defaults are
	// Feature.defaultLevel for the release's metadata.version, except
	// kraft.version: 0 for the static controller.quorum.voters every
	// kafkascope cluster has (KIP-853's dynamic quorum is not simulated).
	// 4.1 turned eligible leader replicas on for new clusters (4.1-IV0);
	// its streams.version's latest production level is still 0.
	{Version: Version{4, 1}, Tag: "4.1.0", MetadataVersion: "4.1-IV1", MetadataLevel: 27,
		Features: []Feature{
			{Name: EligibleLeaderReplicasFeature, MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "group.version", MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "kraft.version", MinLevel: 0, MaxLevel: 1, Default: 0},
			{Name: MetadataVersionFeature, MinLevel: 7, MaxLevel: 27, Default: 27},
			{Name: "share.version", MinLevel: 0, MaxLevel: 1, Default: 0},
			{Name: "transaction.version", MinLevel: 0, MaxLevel: 2, Default: 2},
		}},
	// 4.2 made share groups (4.2-IV0) and streams groups (4.2-IV1) default.
	{Version: Version{4, 3}, Tag: "4.3.0", MetadataVersion: "4.3-IV0", MetadataLevel: 30, PaddedFeatures: true,
		Features: []Feature{
			{Name: EligibleLeaderReplicasFeature, MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "group.version", MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "kraft.version", MinLevel: 0, MaxLevel: 1, Default: 0},
			{Name: MetadataVersionFeature, MinLevel: 7, MaxLevel: 30, Default: 30},
			{Name: "share.version", MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "streams.version", MinLevel: 0, MaxLevel: 1, Default: 1},
			{Name: "transaction.version", MinLevel: 0, MaxLevel: 2, Default: 2},
		}},
}

// Known lists the release lines `cluster create --version` knows, oldest
// first.
func Known() []Release { return releases }

// Simulated lists the release lines the engine runs (Known without the
// refused ones), oldest first: the simulator draws each seed's from them.
func Simulated() []Release {
	var out []Release
	for _, r := range releases {
		if r.Refused == "" {
			out = append(out, r)
		}
	}
	return out
}

// Runnable reads a --version argument ("4.3", "3.8.0") and returns the
// release line it names if the engine runs it: the error says why not
// (not a version, not a known release, a known one not simulated yet).
func Runnable(s string) (Version, error) {
	v, err := Parse(s)
	if err != nil {
		return Version{}, err
	}
	if _, err := Lookup(v); err != nil {
		return Version{}, err
	}
	return v, nil
}

// Lookup returns the release line v, or an error naming the known ones.
func Lookup(v Version) (Release, error) {
	for _, r := range releases {
		if r.Version == v {
			if r.Refused != "" {
				var run []string
				for _, s := range Simulated() {
					run = append(run, s.Version.String())
				}
				return r, fmt.Errorf("Kafka %s: %s; kafkascope runs Kafka %s", v, r.Refused, strings.Join(run, ", "))
			}
			return r, nil
		}
	}
	names := make([]string, len(releases))
	for i, r := range releases {
		names[i] = r.Version.String()
	}
	return Release{}, fmt.Errorf("Kafka %s is not a release kafkascope knows (known: %s)", v, strings.Join(names, ", "))
}
