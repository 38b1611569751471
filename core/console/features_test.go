package console

import (
	"slices"
	"testing"

	"kafkascope/core/protocol"
)

// TestFeatureLinesLayouts: the tab layout (3.8 to 4.2) and 4.3's padded
// columns, on the features a fresh 4.3 cluster reports (sorted by name
// whatever order the broker sent; an unfinalized feature prints 0).
func TestFeatureLinesLayouts(t *testing.T) {
	f := &protocol.ApiVersionsResponse{
		SupportedFeatures: []protocol.SupportedFeature{
			{Name: "metadata.version", MinLevel: 7, MaxLevel: 30},
			{Name: "kraft.version", MinLevel: 0, MaxLevel: 1},
			{Name: "group.version", MinLevel: 0, MaxLevel: 1},
		},
		FinalizedFeatures:      []protocol.FinalizedFeature{{Name: "group.version", MaxLevel: 1}, {Name: "metadata.version", MaxLevel: 30}},
		FinalizedFeaturesEpoch: 123,
	}
	want := []string{
		"Feature: group.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 1\tEpoch: 123",
		"Feature: kraft.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 0\tEpoch: 123",
		"Feature: metadata.version\tSupportedMinVersion: 3.3-IV3\tSupportedMaxVersion: 4.3-IV0\tFinalizedVersionLevel: 4.3-IV0\tEpoch: 123",
	}
	if got := featureLines(f, false); !slices.Equal(got, want) {
		t.Errorf("tabs:\n%q\nwant\n%q", got, want)
	}
	want = []string{
		"Feature: group.version                             SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 1                Epoch: 123",
		"Feature: kraft.version                             SupportedMinVersion: 0                SupportedMaxVersion: 1                FinalizedVersionLevel: 0                Epoch: 123",
		"Feature: metadata.version                          SupportedMinVersion: 3.3-IV3          SupportedMaxVersion: 4.3-IV0          FinalizedVersionLevel: 4.3-IV0          Epoch: 123",
	}
	if got := featureLines(f, true); !slices.Equal(got, want) {
		t.Errorf("padded:\n%q\nwant\n%q", got, want)
	}
	f.FinalizedFeaturesEpoch = -1
	if got := featureLines(f, false)[0]; got != "Feature: group.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 1\tEpoch: -" {
		t.Errorf("no epoch: %q", got)
	}
}
