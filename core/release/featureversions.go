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
	for _, f := range DefaultLevels(mv) {
		out = append(out, fmt.Sprintf("%s=%d", f.Name, f.Default))
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
	fl, known, defined := productionLevel(name, level)
	switch {
	case !known:
		return nil, fmt.Errorf("Unknown feature: %s", name)
	case !defined:
		return nil, fmt.Errorf("No feature:%s with feature level %d", name, level)
	case len(fl.deps) == 0:
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

// productionLevel finds level of production feature name
// (Feature.featureFromName then fromFeatureLevel): known says whether the
// feature exists, defined whether it has that level.
func productionLevel(name string, level int16) (fl featureLevel, known, defined bool) {
	for _, f := range productionFeatures {
		if f.name != name {
			continue
		}
		for _, fl := range f.levels {
			if fl.level == level {
				return fl, true, true
			}
		}
		return featureLevel{}, true, false
	}
	return featureLevel{}, false, false
}

// metadataChanged are the metadata.version levels whose records differ
// from the level before (MetadataVersion's didMetadataChange), the same in
// 3.8, 4.1 and 4.3 for the levels each knows; 3.9-IV0 is set in 3.8's
// enum only.
var metadataChanged = map[int16]bool{1: true, 3: true, 5: true, 6: true, 7: true, 8: true, 11: true, 13: true,
	14: true, 15: true, 17: true, 23: true, 30: true}

// MetadataChanged is MetadataVersion.checkIfMetadataChanged between two
// levels of release r: whether any level above the lower one, up to the
// higher, changed the metadata's records.
func (r Release) MetadataChanged(from, to int16) bool {
	lo, hi := min(from, to), max(from, to)
	for l := hi; l > lo; l-- {
		if metadataChanged[l] || (l == 21 && !r.Version.AtLeast(4, 0)) {
			return true
		}
	}
	return false
}

// FeatureValidationProblem is Feature.validateVersion (with
// Feature.featureFromName and fromFeatureLevel before it) in Kafka 4.x:
// why feature may not be set to level given the levels the update would
// leave (proposed, metadata.version included), or "" if it may.
func FeatureValidationProblem(name string, level int16, proposed map[string]int16) string {
	fl, known, defined := productionLevel(name, level)
	switch {
	case !known:
		return "Feature " + name + " not found."
	case !defined:
		return fmt.Sprintf("No feature:%s with feature level %d", name, level)
	}
	if mv, ok := proposed[MetadataVersionFeature]; level >= 1 && (!ok || mv < minimumMetadataLevel) {
		return fmt.Sprintf("%s could not be set to %d because it depends on metadata.version=%d (%s)",
			name, level, minimumMetadataLevel, metadataName(minimumMetadataLevel))
	}
	for _, d := range fl.deps {
		if have, ok := proposed[d.name]; !ok || have < d.level {
			return fmt.Sprintf("%s could not be set to %d because it depends on %s level %d", name, level, d.name, d.level)
		}
	}
	return ""
}

// DefaultLevels are Feature.defaultLevel of each production feature for
// metadata.version level mv, in Feature.PRODUCTION_FEATURES order (what
// `kafka-features.sh upgrade --release-version` asks for).
func DefaultLevels(mv int16) []Feature {
	var out []Feature
	for _, f := range productionFeatures {
		level := f.levels[0].level
		for _, fl := range f.levels {
			if fl.bootstrap > mv {
				break
			}
			level = fl.level
		}
		out = append(out, Feature{Name: f.name, Default: level})
	}
	return out
}

// ToolMetadataLevel is how release r's FeatureCommand reads --metadata
// (and in 4.1 --release-version): MetadataVersion.fromVersionString, which
// keeps the first two dot-separated parts ("3.8.1" is "3.8") and takes a
// name such as 3.8-IV0 or a release's short form (its last
// metadata.version, production or not). The error is what the tool
// prints. 4.3 uses MetadataLevelOf.
func (r Release) ToolMetadataLevel(s string) (int16, error) {
	key := s
	if parts := strings.Split(s, "."); len(parts) > 2 {
		key = strings.Join(parts[:2], ".")
	}
	lowest := int16(minimumMetadataLevel)
	if !r.Version.AtLeast(4, 0) {
		lowest = 1
	}
	highest := r.latestTestingLevel()
	if !r.Version.AtLeast(4, 0) {
		highest = 21 // 3.8's enum ends at 3.9-IV0, not production there
	}
	found := int16(-1)
	for l := lowest; l <= highest; l++ {
		if n := metadataName(l); n == key || strings.HasPrefix(n, key+"-IV") {
			found = l
		}
	}
	if found >= 0 {
		return found, nil
	}
	first := int16(4) // 3.8: MINIMUM_BOOTSTRAP_VERSION, 3.3-IV0
	verb := "Unsupported"
	if r.Version.AtLeast(4, 0) {
		first, verb = minimumMetadataLevel, "Unknown"
	}
	var all []string
	for l := first; l <= r.MetadataLevel; l++ {
		all = append(all, metadataName(l))
	}
	return 0, fmt.Errorf("%s metadata.version %s. Supported metadata.version are %s", verb, s, strings.Join(all, ", "))
}
