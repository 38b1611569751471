package player

import (
	"reflect"
	"testing"
	"time"

	"kafkascope/core/view"
)

// What the page reads of the cluster beyond the Snapshot answers as
// without a cluster when none is shown (the page asks before any link
// opened, and must not panic), and otherwise reads the cluster shown as
// the Snapshot does.
func TestViewsReadTheClusterShown(t *testing.T) {
	p := New()
	var dc view.DiskCache
	if _, ok := p.PartitionDetail("t", 0); ok {
		t.Error("a partition's detail without a cluster")
	}
	if _, ok := p.TopicDetail("t"); ok {
		t.Error("a topic's detail without a cluster")
	}
	if p.PageCaches() != nil || p.PartitionDisk(&dc, 1, "t", 0) != nil || p.BatchBytes(&dc, nil, 0) != nil {
		t.Error("page caches or a disk without a cluster")
	}

	p.Boot("", "")
	p.Run("kafka-topics.sh --create --topic t --partitions 2 --replication-factor 3", nil)
	for i := 0; p.Busy(); i++ {
		if i > 1000 {
			t.Fatal("the topic was not created")
		}
		p.Tick(50 * time.Millisecond)
	}
	p.Tick(time.Second)
	var want *view.Topic
	for i, tp := range p.Snapshot().Topics {
		if tp.Name == "t" {
			want = &p.Snapshot().Topics[i]
		}
	}
	if want == nil || len(want.Partitions) != 2 {
		t.Fatalf("the snapshot's topic t: %+v", want)
	}
	if got, ok := p.TopicDetail("t"); !ok || !reflect.DeepEqual(got, *want) {
		t.Errorf("TopicDetail:\n%+v\nthe snapshot's:\n%+v", got, *want)
	}
	if got, ok := p.PartitionDetail("t", 1); !ok || !reflect.DeepEqual(got, want.Partitions[1]) {
		t.Errorf("PartitionDetail:\n%+v\nthe snapshot's:\n%+v", got, want.Partitions[1])
	}
	if pcs := p.PageCaches(); len(pcs) != len(p.Snapshot().Nodes) {
		t.Errorf("%d page caches for %d nodes", len(pcs), len(p.Snapshot().Nodes))
	}
	leader := want.Partitions[0].Leader
	if pd := p.PartitionDisk(&dc, leader, "t", 0); pd == nil || pd.Topic != "t" || pd.Broker != leader {
		t.Errorf("the leader's disk of t-0: %+v", pd)
	}
}
