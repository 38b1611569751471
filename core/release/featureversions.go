package release

import (
	"fmt"
	"strings"
)

// The feature levels a metadata.version implies and the dependencies of
// each level, for `kafka-features.sh version-mapping` and
// `feature-dependencies` (Kafka 4.x's FeatureCommand): each production
// feature's FeatureVersion enum (server-common, KRaftVersion.java,
// TransactionVersion.java, GroupVersion.java,
// EligibleLeaderReplicasVersion.java, ShareVersion.java,
// StreamsVersion.java), the same in 4.1 and 4.3.

// featureLevel is one level of a feature: the metadata.version from which
// a new cluster gets it by default (bootstrapMetadataVersion), and the
// levels of other features it needs.
type featureLevel struct {
	level     int16
	bootstrap int16 // a metadata.version feature level
	deps      []featureDep
}

// featureDep is a level another feature must have.
type featureDep struct {
	name  string
	level int16
}

// productionFeatures are Feature.PRODUCTION_FEATURES in enum order, each
// with its levels ascending.
var productionFeatures = []struct {
	name   string
	levels []featureLevel
}{
	{"kraft.version", []featureLevel{{0, 7, nil}, {1, 21, nil}}},
	{"transaction.version", []featureLevel{{0, 7, nil}, {1, 24, nil}, {2, 24, nil}}},
	{"group.version", []featureLevel{{0, 7, nil}, {1, 22, nil}}},
	{EligibleLeaderReplicasFeature, []featureLevel{{0, 7, nil}, {1, 26, []featureDep{{MetadataVersionFeature, 23}}}}},
	{"share.version", []featureLevel{{0, 7, nil}, {1, 28, nil}}},
	{"streams.version", []featureLevel{{0, 7, nil}, {1, 29, nil}}},
}

// minimumMetadataLevel is MetadataVersion.MINIMUM_VERSION in 4.x (3.3-IV3).
const minimumMetadataLevel = 7

// latestTestingLevel is the release's last metadata.version, production or
// not (MetadataVersion.latestTesting): 4.1 knows 4.2-IV1, 4.3 knows 4.4-IV0.
func (r Release) latestTestingLevel() int16 {
	switch {
	case r.Version.AtLeast(4, 3):
		return 31
	case r.Version.AtLeast(4, 1):
		return 29
	}
	return r.MetadataLevel
}

// MetadataLevelOf is MetadataVersion.fromVersionString(s, true) in release
// r: a version such as "4.1-IV1", or a release such as "4.1" meaning its
// latest production metadata.version; unstable versions are accepted. The
// error is Kafka's message.
func (r Release) MetadataLevelOf(s string) (int16, error) {
	for l := int16(minimumMetadataLevel); l <= r.latestTestingLevel(); l++ {
		if metadataName(l) == s {
			return l, nil
		}
	}
	// A release's short form names its latest production version.
	found := int16(-1)
	for l := int16(minimumMetadataLevel); l <= r.MetadataLevel; l++ {
		if name := metadataName(l); strings.HasPrefix(name, s+"-IV") {
			found = l
		}
	}
	if found >= 0 {
		return found, nil
	}
	var all []string
	for l := int16(minimumMetadataLevel); l <= r.latestTestingLevel(); l++ {
		all = append(all, metadataName(l))
	}
	return 0, fmt.Errorf("Unknown metadata.version '%s'. Supported metadata.version are: %s", s, strings.Join(all, ", "))
}

// metadataName is a metadata.version's name, such as 4.3-IV0.
func metadataName(level int16) string {
	if level == 31 {
		return "4.4-IV0" // known to 4.3 only, not production there
	}
	return LevelString(MetadataVersionFeature, level)
}

// VersionMapping is handleVersionMapping: the lines
// `kafka-features.sh version-mapping` prints for metadata.version level
// mv named as given (Feature.defaultLevel of every production feature:
// its highest level whose bootstrap metadata.version is at most mv).
func VersionMapping(mv int16, given string) []string {
	out := []string{fmt.Sprintf("metadata.version=%d (%s)", mv, given)}
	for _, f := range productionFeatures {
		level := f.levels[0].level
		for _, fl := range f.levels {
			if fl.bootstrap > mv {
				break
			}
			level = fl.level
		}
		out = append(out, fmt.Sprintf("%s=%d", f.name, level))
	}
	return out
}

// FeatureDependencies is handleFeatureDependencies for one feature=level
// in release r: what `kafka-features.sh feature-dependencies` prints, or
// the message it ends with.
func (r Release) FeatureDependencies(name string, level int16) ([]string, error) {
	if name == MetadataVersionFeature {
		if level < minimumMetadataLevel || level > r.latestTestingLevel() {
			return nil, fmt.Errorf("Unknown metadata.version %d", level)
		}
		return []string{fmt.Sprintf("%s=%d (%s) has no dependencies.", name, level, metadataName(level))}, nil
	}
	for _, f := range productionFeatures {
		if f.name != name {
			continue
		}
		for _, fl := range f.levels {
			if fl.level != level {
				continue
			}
			if len(fl.deps) == 0 {
				return []string{fmt.Sprintf("%s=%d has no dependencies.", name, level)}, nil
			}
			out := []string{fmt.Sprintf("%s=%d requires:", name, level)}
			for _, d := range fl.deps {
				if d.name == MetadataVersionFeature {
					out = append(out, fmt.Sprintf("    %s=%d (%s)", d.name, d.level, metadataName(d.level)))
				} else {
					out = append(out, fmt.Sprintf("    %s=%d", d.name, d.level))
				}
			}
			return out, nil
		}
		return nil, fmt.Errorf("No feature:%s with feature level %d", name, level)
	}
	return nil, fmt.Errorf("Unknown feature: %s", name)
}
