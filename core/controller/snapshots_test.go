package controller

import (
	"testing"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
)

// TestSnapshotRulesFollowConfigChanges: the snapshot settings afterCommit
// reads are cached (snapshotPolicy.rules), and every way they can change
// reaches them: a cluster default set, this voter's own value over it, its
// value deleted, and the controller's image replaced (a snapshot load, the
// active controller's uncommitted image).
func TestSnapshotRulesFollowConfigChanges(t *testing.T) {
	c := New(Config{NodeID: 1, Static: config.Static{"metadata.log.max.snapshot.interval.ms": "60000"}}, nil)
	p := &c.snapshots
	off := int64(0)
	set := func(broker, name string, value *string) {
		off++
		if err := c.image.Apply(off, &metadata.ConfigRecord{ResourceType: metadata.ResourceBroker, ResourceName: broker, Name: name, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string, maxBytes int64, interval time.Duration) {
		t.Helper()
		r := p.rules(c)
		if r.maxBytes != maxBytes || r.interval != interval {
			t.Fatalf("%s: rules give %d bytes, %v; want %d, %v", what, r.maxBytes, r.interval, maxBytes, interval)
		}
		conf := c.conf()
		if r.maxBytes != conf.BrokerInt("metadata.log.max.record.bytes.between.snapshots") ||
			r.interval != time.Duration(conf.BrokerInt("metadata.log.max.snapshot.interval.ms"))*time.Millisecond {
			t.Fatalf("%s: rules %+v differ from the configs", what, r)
		}
	}
	v := func(s string) *string { return &s }
	check("static and default", 20971520, time.Minute)
	set("", "metadata.log.max.record.bytes.between.snapshots", v("1000"))
	check("cluster default set", 1000, time.Minute)
	set("1", "metadata.log.max.record.bytes.between.snapshots", v("2000"))
	set("1", "metadata.log.max.snapshot.interval.ms", v("5000"))
	check("own value set", 2000, 5*time.Second)
	set("2", "metadata.log.max.record.bytes.between.snapshots", v("3000"))
	check("another voter's value set", 2000, 5*time.Second)
	set("1", "metadata.log.max.record.bytes.between.snapshots", nil)
	check("own value deleted", 1000, 5*time.Second)
	c.image = metadata.NewImage()
	check("image replaced", 20971520, time.Minute)
}
