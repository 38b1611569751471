package metadata

import (
	"reflect"
	"strings"
	"testing"
)

var (
	fooID = Uuid{1, 2, 3}
	barID = Uuid{9, 9, 9}
)

func strp(s string) *string { return &s }

// applyAll applies records at offsets 0, 1, 2... and fails on any error.
func applyAll(t *testing.T, img *Image, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := img.Apply(img.Offset+1, r); err != nil {
			t.Fatalf("Apply(%s %s): %v", r.RecordType(), r.Describe(), err)
		}
	}
}

// baseImage: brokers 1..3 registered (epochs 10, 11, 12), topic foo with
// two partitions, topic bar with one, and a config on each topic.
func baseImage(t *testing.T) *Image {
	img := NewImage()
	applyAll(t, img,
		&FeatureLevelRecord{Name: "metadata.version", FeatureLevel: 21},
		&RegisterBrokerRecord{BrokerID: 1, BrokerEpoch: 10, IncarnationID: Uuid{1}, Endpoints: []Endpoint{{"PLAINTEXT", "kafka-1", 9092}}, Fenced: true},
		&RegisterBrokerRecord{BrokerID: 2, BrokerEpoch: 11, Endpoints: []Endpoint{{"PLAINTEXT", "kafka-2", 9092}}, Rack: "r2", Fenced: true},
		&RegisterBrokerRecord{BrokerID: 3, BrokerEpoch: 12, Fenced: true},
		&TopicRecord{Name: "foo", TopicID: fooID},
		&PartitionRecord{PartitionID: 0, TopicID: fooID, Replicas: []int32{1, 2, 3}, ISR: []int32{1, 2, 3}, Leader: 1},
		&PartitionRecord{PartitionID: 1, TopicID: fooID, Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 6},
		&ConfigRecord{ResourceType: ResourceTopic, ResourceName: "foo", Name: "retention.ms", Value: strp("1000")},
		&TopicRecord{Name: "bar", TopicID: barID},
		&PartitionRecord{PartitionID: 0, TopicID: barID, Replicas: []int32{3}, ISR: []int32{3}, Leader: 3},
		&ConfigRecord{ResourceType: ResourceTopic, ResourceName: "bar", Name: "cleanup.policy", Value: strp("compact")},
	)
	return img
}

func TestNewImageIsEmpty(t *testing.T) {
	img := NewImage()
	if img.Offset != -1 || len(img.Brokers) != 0 || len(img.Topics) != 0 || len(img.TopicIDs) != 0 || len(img.Configs) != 0 || len(img.Features) != 0 {
		t.Fatalf("new image %+v", img)
	}
	if img.Features == nil || img.Brokers == nil || img.Topics == nil || img.TopicIDs == nil || img.Configs == nil {
		t.Fatal("new image has nil maps")
	}
}

func TestApplyBuildsImage(t *testing.T) {
	img := baseImage(t)
	if img.Offset != 10 {
		t.Fatalf("Offset %d after 11 records", img.Offset)
	}
	if img.Features["metadata.version"] != 21 {
		t.Fatalf("features %v", img.Features)
	}
	b2 := img.Brokers[2]
	if b2 == nil || b2.ID != 2 || b2.Epoch != 11 || b2.Rack != "r2" || !b2.Fenced || !reflect.DeepEqual(b2.Endpoints, []Endpoint{{"PLAINTEXT", "kafka-2", 9092}}) {
		t.Fatalf("broker 2 %+v", b2)
	}
	if img.Brokers[1].IncarnationID != (Uuid{1}) {
		t.Fatal("incarnation id not kept")
	}
	if !reflect.DeepEqual(img.BrokerIDs(), []int32{1, 2, 3}) || !reflect.DeepEqual(img.TopicNames(), []string{"bar", "foo"}) {
		t.Fatalf("BrokerIDs %v TopicNames %v", img.BrokerIDs(), img.TopicNames())
	}
	foo := img.Topics["foo"]
	if foo.Name != "foo" || foo.ID != fooID || len(foo.Partitions) != 2 || img.TopicIDs[fooID] != "foo" || img.TopicByID(fooID) != foo {
		t.Fatalf("topic foo %+v", foo)
	}
	p1 := img.Partition("foo", 1)
	want := &PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 6}
	if !reflect.DeepEqual(p1, want) {
		t.Fatalf("foo-1 %+v, want %+v", p1, want)
	}
	for _, c := range []struct {
		topic string
		p     int32
	}{{"foo", 2}, {"foo", -1}, {"nope", 0}} {
		if img.Partition(c.topic, c.p) != nil {
			t.Errorf("Partition(%s, %d) is not nil", c.topic, c.p)
		}
	}
	if img.TopicByID(Uuid{42}) != nil {
		t.Error("TopicByID of an unknown id")
	}
	if !reflect.DeepEqual(img.TopicConfig("foo"), map[string]string{"retention.ms": "1000"}) || img.TopicConfig("nope") != nil {
		t.Fatalf("TopicConfig foo %v", img.TopicConfig("foo"))
	}
}

func TestApplyCopiesRecordSlices(t *testing.T) {
	img := NewImage()
	eps := []Endpoint{{"PLAINTEXT", "h", 1}}
	replicas, isr := []int32{1, 2}, []int32{1, 2}
	applyAll(t, img,
		&RegisterBrokerRecord{BrokerID: 1, Endpoints: eps},
		&TopicRecord{Name: "t", TopicID: fooID},
		&PartitionRecord{TopicID: fooID, Replicas: replicas, ISR: isr, Leader: 1},
	)
	newISR := []int32{2}
	applyAll(t, img, &PartitionChangeRecord{TopicID: fooID, ISR: newISR, Leader: NoLeaderChange, LeaderRecoveryState: NoRecoveryChange})
	eps[0].Host, replicas[0], isr[0], newISR[0] = "X", 9, 9, 9
	if img.Brokers[1].Endpoints[0].Host != "h" {
		t.Error("image shares the record's endpoints")
	}
	p := img.Partition("t", 0)
	if p.Replicas[0] != 1 || p.ISR[0] != 2 {
		t.Errorf("image shares the record's slices: %+v", p)
	}
}

func TestApplyRejectsNonIncreasingOffsets(t *testing.T) {
	img := baseImage(t)
	before := img.Clone()
	for _, off := range []int64{10, 3, -1} {
		if err := img.Apply(off, &NoOpRecord{}); err == nil {
			t.Errorf("Apply at offset %d after %d succeeded", off, img.Offset)
		}
	}
	if !reflect.DeepEqual(img, before) {
		t.Fatal("a refused record changed the image")
	}
	// Gaps are fine (a snapshot, or records another component consumed).
	if err := img.Apply(20, &NoOpRecord{}); err != nil || img.Offset != 20 {
		t.Fatalf("Apply at 20: %v, offset %d", err, img.Offset)
	}
}

// Every record that does not fit the image is an error and leaves it
// exactly as it was, offset included.
func TestApplyBadRecordLeavesImageUnchanged(t *testing.T) {
	cases := map[string]Record{
		"registration change of an unknown broker":    &BrokerRegistrationChangeRecord{BrokerID: 9, BrokerEpoch: 10, Fenced: FencingUnfence},
		"registration change with a stale epoch":      &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 9, Fenced: FencingUnfence},
		"topic name already taken":                    &TopicRecord{Name: "foo", TopicID: Uuid{7}},
		"partition of an unknown topic":               &PartitionRecord{PartitionID: 0, TopicID: Uuid{7}, Replicas: []int32{1}},
		"partition id skipping ahead":                 &PartitionRecord{PartitionID: 3, TopicID: fooID, Replicas: []int32{1}},
		"partition change of an unknown topic":        &PartitionChangeRecord{TopicID: Uuid{7}, Leader: 1, LeaderRecoveryState: NoRecoveryChange},
		"partition change of an unknown partition":    &PartitionChangeRecord{PartitionID: 2, TopicID: fooID, Leader: 1, LeaderRecoveryState: NoRecoveryChange},
		"partition change of a negative partition id": &PartitionChangeRecord{PartitionID: -1, TopicID: fooID, Leader: 1, LeaderRecoveryState: NoRecoveryChange},
		"removal of an unknown topic":                 &RemoveTopicRecord{TopicID: Uuid{7}},
		"a record type the image does not know":       &unknownRecord{},
		"nil record":                                  nil,
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			img := baseImage(t)
			before := img.Clone()
			err := img.Apply(img.Offset+1, r)
			if err == nil {
				t.Fatal("Apply succeeded")
			}
			if !strings.HasPrefix(err.Error(), "metadata: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if !reflect.DeepEqual(img, before) {
				t.Fatal("a refused record changed the image")
			}
		})
	}
}

type unknownRecord struct{}

func (*unknownRecord) RecordType() string { return "UnknownRecord" }
func (*unknownRecord) Describe() string   { return "" }

// Kafka's ClusterControlManager.replay(UnregisterBrokerRecord) throws
// "Unable to replay ...: no broker registration found for that id" and
// "...: no broker registration with that epoch found": an unregistration
// must name the current registration, or a stale record could remove a
// broker that has since re-registered.
func TestApplyUnregisterBrokerChecksRegistration(t *testing.T) {
	for name, r := range map[string]*UnregisterBrokerRecord{
		"unknown broker": {BrokerID: 9, BrokerEpoch: 10},
		"stale epoch":    {BrokerID: 1, BrokerEpoch: 3},
	} {
		t.Run(name, func(t *testing.T) {
			img := baseImage(t)
			before := img.Clone()
			if err := img.Apply(img.Offset+1, r); err == nil {
				t.Errorf("Apply(%s) succeeded", r.Describe())
			}
			if !reflect.DeepEqual(img, before) {
				t.Errorf("a stale unregistration changed the image (brokers now %v)", img.BrokerIDs())
			}
		})
	}
}

func TestApplyBrokerLifecycle(t *testing.T) {
	img := baseImage(t)
	applyAll(t, img, &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 10, Fenced: FencingUnfence})
	if img.Brokers[1].Fenced {
		t.Fatal("unfence did not unfence")
	}
	applyAll(t, img, &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 10, Fenced: FencingNone})
	if img.Brokers[1].Fenced || img.Brokers[1].InControlledShutdown {
		t.Fatal("FencingNone changed the fence state")
	}
	applyAll(t, img, &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 10, Fenced: FencingNone, InControlledShutdown: ShutdownRequested})
	if !img.Brokers[1].InControlledShutdown || img.Brokers[1].Fenced {
		t.Fatalf("controlled shutdown: %+v", img.Brokers[1])
	}
	applyAll(t, img, &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 10, Fenced: FencingFence, InControlledShutdown: ShutdownNone})
	if !img.Brokers[1].Fenced || !img.Brokers[1].InControlledShutdown {
		t.Fatalf("fence (ShutdownNone leaves the shutdown flag): %+v", img.Brokers[1])
	}
	// Re-registration replaces the registration, clearing the shutdown.
	applyAll(t, img, &RegisterBrokerRecord{BrokerID: 1, BrokerEpoch: 20, IncarnationID: Uuid{2}, Fenced: true})
	b := img.Brokers[1]
	if b.Epoch != 20 || b.IncarnationID != (Uuid{2}) || b.InControlledShutdown || len(b.Endpoints) != 0 {
		t.Fatalf("re-registration %+v", b)
	}
	// The old epoch no longer matches.
	if err := img.Apply(img.Offset+1, &BrokerRegistrationChangeRecord{BrokerID: 1, BrokerEpoch: 10, Fenced: FencingUnfence}); err == nil {
		t.Fatal("registration change with the old epoch succeeded")
	}
	applyAll(t, img, &UnregisterBrokerRecord{BrokerID: 1, BrokerEpoch: 20})
	if _, ok := img.Brokers[1]; ok || !reflect.DeepEqual(img.BrokerIDs(), []int32{2, 3}) {
		t.Fatalf("after unregistering 1: %v", img.BrokerIDs())
	}
}

func change(p int32, mod func(r *PartitionChangeRecord)) *PartitionChangeRecord {
	r := &PartitionChangeRecord{PartitionID: p, TopicID: fooID, Leader: NoLeaderChange, LeaderRecoveryState: NoRecoveryChange}
	if mod != nil {
		mod(r)
	}
	return r
}

// PartitionRegistration.merge: the leader epoch goes up whenever the record
// sets the leader (to another broker, the same one, or -1); the partition
// epoch goes up on every change; an ISR-only change never bumps the leader
// epoch.
func TestPartitionChangeEpochBumps(t *testing.T) {
	cases := []struct {
		name string
		rec  *PartitionChangeRecord
		want PartitionState
	}{
		{"new leader", change(1, func(r *PartitionChangeRecord) { r.Leader = 3 }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 3, LeaderEpoch: 5, PartitionEpoch: 7}},
		{"same leader re-set (forced bump)", change(1, func(r *PartitionChangeRecord) { r.Leader = 2 }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 5, PartitionEpoch: 7}},
		{"leader to none", change(1, func(r *PartitionChangeRecord) { r.Leader = NoLeader }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: -1, LeaderEpoch: 5, PartitionEpoch: 7}},
		{"ISR shrink only", change(1, func(r *PartitionChangeRecord) { r.ISR = []int32{2, 3} }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 7}},
		{"ISR to empty", change(1, func(r *PartitionChangeRecord) { r.ISR = []int32{} }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 7}},
		{"replicas only", change(1, func(r *PartitionChangeRecord) { r.Replicas = []int32{2, 3, 1, 4} }),
			PartitionState{Replicas: []int32{2, 3, 1, 4}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 7}},
		{"recovery state only", change(1, func(r *PartitionChangeRecord) { r.LeaderRecoveryState = LeaderRecovering }),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 7, LeaderRecoveryState: 1}},
		{"unclean election: leader, ISR and recovery state", change(1, func(r *PartitionChangeRecord) {
			r.Leader, r.ISR, r.LeaderRecoveryState = 1, []int32{1}, LeaderRecovering
		}), PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{1}, Leader: 1, LeaderEpoch: 5, PartitionEpoch: 7, LeaderRecoveryState: 1}},
		{"nothing set still bumps the partition epoch", change(1, nil),
			PartitionState{Replicas: []int32{2, 3, 1}, ISR: []int32{2, 3, 1}, Leader: 2, LeaderEpoch: 4, PartitionEpoch: 7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			img := baseImage(t)
			applyAll(t, img, c.rec)
			if got := img.Partition("foo", 1); !reflect.DeepEqual(*got, c.want) {
				t.Fatalf("foo-1 = %+v\nwant    %+v", *got, c.want)
			}
			// The other partition is untouched.
			if got := img.Partition("foo", 0); got.LeaderEpoch != 0 || got.PartitionEpoch != 0 || got.Leader != 1 {
				t.Fatalf("foo-0 changed: %+v", got)
			}
		})
	}
}

func TestPartitionChangeSequence(t *testing.T) {
	img := baseImage(t)
	applyAll(t, img,
		change(0, func(r *PartitionChangeRecord) { r.ISR = []int32{1, 2} }),                   // shrink
		change(0, func(r *PartitionChangeRecord) { r.Leader, r.ISR = 2, []int32{2} }),         // 1 fails
		change(0, func(r *PartitionChangeRecord) { r.ISR = []int32{2, 1} }),                   // expand: no leader bump
		change(0, func(r *PartitionChangeRecord) { r.Leader = 1 }),                            // preferred election
		change(0, func(r *PartitionChangeRecord) { r.LeaderRecoveryState = LeaderRecovered }), // no-op value, still applied
	)
	p := img.Partition("foo", 0)
	if p.Leader != 1 || p.LeaderEpoch != 2 || p.PartitionEpoch != 5 || !reflect.DeepEqual(p.ISR, []int32{2, 1}) {
		t.Fatalf("after 5 changes: %+v; want leader 1, leader epoch 2, partition epoch 5", p)
	}
}

func TestRemoveTopicDropsTopicAndItsConfigs(t *testing.T) {
	img := baseImage(t)
	applyAll(t, img, &ConfigRecord{ResourceType: ResourceBroker, ResourceName: "1", Name: "log.retention.ms", Value: strp("5")})
	applyAll(t, img, &RemoveTopicRecord{TopicID: fooID})
	if _, ok := img.Topics["foo"]; ok {
		t.Fatal("topic foo still there")
	}
	if _, ok := img.TopicIDs[fooID]; ok || img.TopicByID(fooID) != nil {
		t.Fatal("topic id of foo still mapped")
	}
	if _, ok := img.Configs[ConfigResource{ResourceTopic, "foo"}]; ok || img.TopicConfig("foo") != nil {
		t.Fatal("foo's configs survived its deletion")
	}
	if img.TopicConfig("bar")["cleanup.policy"] != "compact" || img.Configs[ConfigResource{ResourceBroker, "1"}]["log.retention.ms"] != "5" {
		t.Fatal("deleting foo dropped other configs")
	}
	if img.Topics["bar"] == nil || img.Partition("bar", 0) == nil {
		t.Fatal("deleting foo dropped bar")
	}
	// The name can be used again, with a new id, and starts with no config.
	applyAll(t, img, &TopicRecord{Name: "foo", TopicID: Uuid{5}}, &PartitionRecord{TopicID: Uuid{5}, Replicas: []int32{1}, ISR: []int32{1}, Leader: 1})
	if img.Topics["foo"].ID != (Uuid{5}) || img.TopicConfig("foo") != nil || len(img.Topics["foo"].Partitions) != 1 {
		t.Fatalf("recreated foo %+v", img.Topics["foo"])
	}
	if err := img.Apply(img.Offset+1, &RemoveTopicRecord{TopicID: fooID}); err == nil {
		t.Fatal("removing the old id again succeeded")
	}
}

func TestConfigRecords(t *testing.T) {
	img := NewImage()
	res := ConfigResource{ResourceTopic, "t"}
	applyAll(t, img,
		&ConfigRecord{ResourceType: ResourceTopic, ResourceName: "t", Name: "a", Value: strp("1")},
		&ConfigRecord{ResourceType: ResourceTopic, ResourceName: "t", Name: "b", Value: strp("")},
		&ConfigRecord{ResourceType: ResourceTopic, ResourceName: "t", Name: "a", Value: strp("2")},
		&ConfigRecord{ResourceType: ResourceBroker, ResourceName: "", Name: "a", Value: strp("cluster-wide")},
	)
	if !reflect.DeepEqual(img.Configs[res], map[string]string{"a": "2", "b": ""}) {
		t.Fatalf("topic configs %v (an empty value is a value, not a removal)", img.Configs[res])
	}
	if img.Configs[ConfigResource{ResourceBroker, ""}]["a"] != "cluster-wide" {
		t.Fatal("broker default config missing")
	}
	applyAll(t, img, &ConfigRecord{ResourceType: ResourceTopic, ResourceName: "t", Name: "a"})
	if !reflect.DeepEqual(img.Configs[res], map[string]string{"b": ""}) {
		t.Fatalf("after removing a: %v", img.Configs[res])
	}
	applyAll(t, img, &ConfigRecord{ResourceType: ResourceTopic, ResourceName: "t", Name: "b"})
	if _, ok := img.Configs[res]; ok {
		t.Fatal("a resource with no configs left is still in the map")
	}
	// Removing what is not there is harmless.
	applyAll(t, img, &ConfigRecord{ResourceType: ResourceTopic, ResourceName: "none", Name: "x"})
	if len(img.Configs) != 1 {
		t.Fatalf("configs %v", img.Configs)
	}
}

func TestFeatureAndNoOpRecords(t *testing.T) {
	img := NewImage()
	applyAll(t, img, &FeatureLevelRecord{Name: "metadata.version", FeatureLevel: 7}, &FeatureLevelRecord{Name: "metadata.version", FeatureLevel: 21})
	if img.Features["metadata.version"] != 21 {
		t.Fatalf("features %v", img.Features)
	}
	before := img.Clone()
	if err := img.Apply(5, &NoOpRecord{}); err != nil {
		t.Fatal(err)
	}
	before.Offset = 5
	if !reflect.DeepEqual(img, before) {
		t.Fatal("NoOpRecord changed more than the offset")
	}
}

func TestCloneIsDeep(t *testing.T) {
	img := baseImage(t)
	// A block of producer ids handed out: a clone (the image a new active
	// controller starts from) must not hand it out again.
	if err := img.Apply(img.Offset+1, &ProducerIdsRecord{BrokerID: 1, BrokerEpoch: 1, NextProducerID: 2000}); err != nil {
		t.Fatal(err)
	}
	c := img.Clone()
	if !reflect.DeepEqual(c, img) {
		t.Fatal("clone differs from the original")
	}
	snapshot := img.Clone()
	// Mutate every part of the clone, directly and through Apply.
	c.Offset = 99
	c.Features["x"] = 1
	c.Brokers[2].Endpoints[0].Host = "changed"
	c.Brokers[2].Fenced = false
	delete(c.Brokers, 3)
	c.Topics["foo"].Partitions[0].ISR[0] = 42
	c.Topics["foo"].Partitions[0].Replicas[1] = 42
	c.Topics["foo"].Partitions[1].Leader = 42
	c.Topics["foo"].Partitions = c.Topics["foo"].Partitions[:1]
	c.Topics["bar"].Name = "changed"
	c.TopicIDs[Uuid{77}] = "x"
	c.Configs[ConfigResource{ResourceTopic, "foo"}]["retention.ms"] = "changed"
	if err := c.Apply(100, change(0, func(r *PartitionChangeRecord) { r.Leader = 2 })); err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(101, &RemoveTopicRecord{TopicID: barID}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(img, snapshot) {
		t.Fatal("changing the clone changed the original")
	}
	// And the other way round.
	c2 := img.Clone()
	img.Topics["foo"].Partitions[1].ISR[0] = 7
	img.Brokers[1].Endpoints[0].Port = 1
	if c2.Topics["foo"].Partitions[1].ISR[0] == 7 || c2.Brokers[1].Endpoints[0].Port == 1 {
		t.Fatal("changing the original changed the clone")
	}
}

func TestPartitionStateClone(t *testing.T) {
	p := &PartitionState{Replicas: []int32{1, 2}, ISR: []int32{1}, Leader: 1, LeaderEpoch: 3, PartitionEpoch: 4, LeaderRecoveryState: 1}
	c := p.Clone()
	if !reflect.DeepEqual(c, p) || c == p {
		t.Fatalf("clone %+v", c)
	}
	c.Replicas[0], c.ISR[0] = 9, 9
	if p.Replicas[0] != 1 || p.ISR[0] != 1 {
		t.Fatal("PartitionState.Clone is shallow")
	}
}

// Two images that applied the same records are equal.
func TestReplayIsDeterministic(t *testing.T) {
	a, b := baseImage(t), baseImage(t)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same records gave different images")
	}
}

func TestRecordDescribe(t *testing.T) {
	cases := map[Record]string{
		change(1, func(r *PartitionChangeRecord) { r.ISR = []int32{2, 3} }): "partitionId=1, topicId=" + fooID.String() + ", isr=[2,3]",
		change(0, func(r *PartitionChangeRecord) { r.Leader = NoLeader }):   "partitionId=0, topicId=" + fooID.String() + ", leader=-1",
		&ConfigRecord{ResourceType: 2, ResourceName: "t", Name: "a"}:        "resourceType=2, resourceName=t, name=a, value=null",
		&PartitionRecord{TopicID: fooID, Replicas: []int32{1, 2}, ISR: nil}: "partitionId=0, topicId=" + fooID.String() + ", replicas=[1,2], isr=[], leader=0, leaderRecoveryState=0, leaderEpoch=0, partitionEpoch=0",
	}
	for r, want := range cases {
		if got := r.Describe(); got != want {
			t.Errorf("%s.Describe() = %q, want %q", r.RecordType(), got, want)
		}
	}
	names := []string{}
	for _, r := range []Record{&RegisterBrokerRecord{}, &BrokerRegistrationChangeRecord{}, &UnregisterBrokerRecord{}, &TopicRecord{}, &PartitionRecord{}, &PartitionChangeRecord{}, &RemoveTopicRecord{}, &ConfigRecord{}, &FeatureLevelRecord{}, &NoOpRecord{}} {
		names = append(names, r.RecordType())
	}
	want := "RegisterBrokerRecord BrokerRegistrationChangeRecord UnregisterBrokerRecord TopicRecord PartitionRecord PartitionChangeRecord RemoveTopicRecord ConfigRecord FeatureLevelRecord NoOpRecord"
	if strings.Join(names, " ") != want {
		t.Errorf("record type names %v", names)
	}
}

// Topic ids are unique: a second topic under an existing id is refused, not
// applied (its partition changes would land on the other topic).
func TestApplyRefusesDuplicateTopicID(t *testing.T) {
	img := baseImage(t)
	err := img.Apply(img.Offset+1, &TopicRecord{Name: "baz", TopicID: fooID})
	if err == nil || !strings.Contains(err.Error(), "already foo's") {
		t.Fatalf("duplicate topic id: err = %v", err)
	}
	if _, ok := img.Topics["baz"]; ok || img.TopicIDs[fooID] != "foo" {
		t.Fatal("the refused record changed the image")
	}
}

// ConfigStamp moves with every change of the configs (a config record,
// a topic removal that drops the topic's configs), and only then, so a
// reader may keep what it derived from the configs until it moves; a
// clone keeps it until one of the two changes its configs.
func TestConfigStampMovesWithConfigRecords(t *testing.T) {
	img := baseImage(t)
	v := img.ConfigStamp()
	if err := img.Apply(img.Offset+1, &NoOpRecord{}); err != nil || img.ConfigStamp() != v {
		t.Fatalf("a NoOpRecord moved the config stamp (%v)", err)
	}
	value := "1000"
	if err := img.Apply(img.Offset+1, &ConfigRecord{ResourceType: ResourceBroker, ResourceName: "", Name: "replica.fetch.wait.max.ms", Value: &value}); err != nil {
		t.Fatal(err)
	}
	if img.ConfigStamp() == v {
		t.Fatal("a config record left the config stamp as it was")
	}
	c := img.Clone()
	if c.ConfigStamp() != img.ConfigStamp() {
		t.Fatal("a clone has another config stamp")
	}
	if err := c.Apply(c.Offset+1, &ConfigRecord{ResourceType: ResourceBroker, ResourceName: "", Name: "replica.fetch.wait.max.ms", Value: &value}); err != nil {
		t.Fatal(err)
	}
	if c.ConfigStamp() == img.ConfigStamp() {
		t.Fatal("a clone's config record left it with the original's stamp")
	}
	if NewImage().ConfigStamp() == NewImage().ConfigStamp() {
		t.Fatal("two new images share a config stamp")
	}
	v = img.ConfigStamp()
	if err := img.Apply(img.Offset+1, &RemoveTopicRecord{TopicID: barID}); err != nil {
		t.Fatal(err)
	}
	if img.ConfigStamp() == v || img.TopicConfig("bar") != nil {
		t.Fatal("removing a topic with configs left the config stamp as it was")
	}
}
