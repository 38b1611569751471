package controller

import (
	"reflect"
	"testing"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
)

func featureController(t *testing.T, v release.Version) *Controller {
	t.Helper()
	r, err := release.Lookup(v)
	if err != nil {
		t.Fatal(err)
	}
	c := New(Config{NodeID: 1, Release: r, Static: config.Static{}}, nil)
	for i, rec := range c.bootstrapRecords() {
		if err := c.image.Apply(int64(i), rec); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestUpdateFeature follows FeatureControlManager.updateFeature's checks
// at each release.
func TestUpdateFeature(t *testing.T) {
	v38, v41, v43 := release.Version{Major: 3, Minor: 8}, release.Version{Major: 4, Minor: 1}, release.Version{Major: 4, Minor: 3}
	cases := []struct {
		v       release.Version
		name    string
		level   int16
		typ     int8
		wantMsg string
		wantRec metadata.Record
	}{
		{v43, "group.version", 1, protocol.UpgradeTypeUpgrade, "", &metadata.FeatureLevelRecord{Name: "group.version", FeatureLevel: 1}},
		{v43, "group.version", 0, protocol.UpgradeTypeUpgrade, "Invalid update version 0 for feature group.version. Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.", nil},
		{v43, "group.version", 1, 4, "Invalid update version 1 for feature group.version. The controller does not support the given upgrade type.", nil},
		{v43, "nope", 0, protocol.UpgradeTypeSafeDowngrade, "Invalid update version 0 for feature nope. Feature nope not found.", nil},
		{v43, "nope", 1, protocol.UpgradeTypeUpgrade, "Invalid update version 1 for feature nope. Local controller 1 does not support this feature.", nil},
		{v43, "metadata.version", 29, protocol.UpgradeTypeSafeDowngrade, "Unsupported metadata.version downgrade from 30 to 29. Refusing to perform the requested downgrade because it might delete metadata information.", nil},
		{v43, "metadata.version", 31, protocol.UpgradeTypeUpgrade, "Invalid update version 31 for feature metadata.version. Local controller 1 only supports versions 7-30", nil},
		{v43, "kraft.version", 0, protocol.UpgradeTypeUpgrade, "", &metadata.NoOpRecord{}},
		{v43, "kraft.version", 0, protocol.UpgradeTypeSafeDowngrade, "", nil},
		{v41, "metadata.version", 23, protocol.UpgradeTypeSafeDowngrade, "", &metadata.FeatureLevelRecord{Name: "metadata.version", FeatureLevel: 23}},
		{v41, "metadata.version", 22, protocol.UpgradeTypeUnsafeDowngrade, "Invalid metadata.version 22. Unsafe metadata downgrade is not supported in this version.", nil},
		{v41, "streams.version", 1, protocol.UpgradeTypeUpgrade, "Invalid update version 1 for feature streams.version. Local controller 1 does not support this feature.", nil},
		{v38, "metadata.version", 3, protocol.UpgradeTypeSafeDowngrade, "Invalid metadata.version 3. Unable to set a metadata.version less than 3.3-IV0", nil},
		{v38, "metadata.version", 19, protocol.UpgradeTypeSafeDowngrade, "", &metadata.FeatureLevelRecord{Name: "metadata.version", FeatureLevel: 19}},
		{v38, "nope", 0, protocol.UpgradeTypeSafeDowngrade, "", &metadata.FeatureLevelRecord{Name: "nope", FeatureLevel: 0}},
	}
	for _, tc := range cases {
		c := featureController(t, tc.v)
		proposed := map[string]int16{}
		for n, l := range c.image.Features {
			proposed[n] = l
		}
		proposed[tc.name] = tc.level
		var recs []metadata.Record
		if !tc.v.AtLeast(4, 0) {
			proposed = nil
		}
		e := c.updateFeature(tc.name, tc.level, tc.typ, &recs, proposed)
		if e.msg != tc.wantMsg {
			t.Errorf("%v %s=%d: got %q, want %q", tc.v, tc.name, tc.level, e.msg, tc.wantMsg)
		}
		var want []metadata.Record
		if tc.wantRec != nil {
			want = []metadata.Record{tc.wantRec}
		}
		if !reflect.DeepEqual(recs, want) {
			t.Errorf("%v %s=%d: records %s, want %s", tc.v, tc.name, tc.level, describe(recs), describe(want))
		}
	}
}

// TestFeatureDependency: eligible leader replicas need metadata.version
// 4.0-IV1 in the levels the whole update leaves (Feature.validateVersion).
func TestFeatureDependency(t *testing.T) {
	c := featureController(t, release.Version{Major: 4, Minor: 3})
	var recs []metadata.Record
	e := c.updateFeature(release.EligibleLeaderReplicasFeature, 1, protocol.UpgradeTypeUpgrade, &recs, map[string]int16{"metadata.version": 22})
	want := "Invalid update version 1 for feature eligible.leader.replicas.version. eligible.leader.replicas.version could not be set to 1 because it depends on metadata.version level 23"
	if e.msg != want || len(recs) != 0 {
		t.Errorf("got %q %s, want %q", e.msg, describe(recs), want)
	}
}

// TestElrSafetyRecords: the cluster-level min.insync.replicas when absent,
// and every broker-level one removed, brokers in id order.
func TestElrSafetyRecords(t *testing.T) {
	c := featureController(t, release.Version{Major: 4, Minor: 3})
	one := "1"
	for i, r := range []metadata.Record{
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "", Name: "min.insync.replicas"},
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "3", Name: "min.insync.replicas", Value: &one},
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "10", Name: "min.insync.replicas", Value: &one},
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "2", Name: "log.retention.ms", Value: &one},
	} {
		if err := c.image.Apply(int64(100+i), r); err != nil {
			t.Fatal(err)
		}
	}
	want := []metadata.Record{
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "", Name: "min.insync.replicas", Value: &one},
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "3", Name: "min.insync.replicas"},
		&metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: "10", Name: "min.insync.replicas"},
	}
	if got := c.elrSafetyRecords(); !reflect.DeepEqual(got, want) {
		t.Errorf("got %s, want %s", describe(got), describe(want))
	}
}
