package controller

import (
	"reflect"
	"testing"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
	"kafkascope/core/release"
)

func TestBootstrapRecords(t *testing.T) {
	rel := func(v release.Version) release.Release {
		for _, r := range release.Known() {
			if r.Version == v {
				return r
			}
		}
		t.Fatalf("no release %v", v)
		return release.Release{}
	}
	level := func(name string, l int16) metadata.Record {
		return &metadata.FeatureLevelRecord{Name: name, FeatureLevel: l}
	}
	zk := &metadata.ZkMigrationStateRecord{State: metadata.ZkMigrationNone}
	minISR := func(v string) metadata.Record {
		return &metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, Name: "min.insync.replicas", Value: &v}
	}
	cases := []struct {
		v      release.Version
		static config.Static
		want   []metadata.Record
	}{
		// 3.8: metadata.version alone; ELR does not exist.
		{release.Version{Major: 3, Minor: 8}, config.Static{}, []metadata.Record{level("metadata.version", 20), zk}},
		// 4.3: the features it finalizes, no ZooKeeper migration state
		// (gone in 4.0), and ELR's cluster-level min.insync.replicas from
		// the controller's own config, parsed and written back.
		{release.Version{Major: 4, Minor: 3}, config.Static{}, []metadata.Record{level("metadata.version", 30),
			level("eligible.leader.replicas.version", 1), level("group.version", 1), level("share.version", 1),
			level("streams.version", 1), level("transaction.version", 2), minISR("1")}},
		{release.Version{Major: 4, Minor: 1}, config.Static{"min.insync.replicas": " 2"}, []metadata.Record{level("metadata.version", 27),
			level("eligible.leader.replicas.version", 1), level("group.version", 1),
			level("transaction.version", 2), minISR("2")}},
	}
	for _, c := range cases {
		ctl := New(Config{Static: c.static, Release: rel(c.v)}, nil)
		if got := ctl.bootstrapRecords(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v:\n got %s\nwant %s", c.v, describe(got), describe(c.want))
		}
	}
}

func describe(recs []metadata.Record) string {
	var s string
	for _, r := range recs {
		s += r.RecordType() + "{" + r.Describe() + "} "
	}
	return s
}
