package player

import (
	"kafkascope/core/dashboard"
	"kafkascope/core/view"
)

// What the page reads of the cluster shown beyond the Snapshot, as
// core/view values: the page never holds the engine's cluster (ui does
// not import core/cluster), so whatever mode is shown and whatever it
// replaces, a component draws from values and cannot change the engine.
// Each answers as without a cluster when none is shown.

// PartitionDetail is one partition with its replicas (view.PartitionDetail):
// the diagram asks for those in view of a topic the Snapshot reads Light.
func (p *Player) PartitionDetail(topic string, index int32) (view.Partition, bool) {
	c := p.cluster()
	if c == nil {
		return view.Partition{}, false
	}
	return view.PartitionDetail(c, topic, index)
}

// TopicDetail is one topic with its replicas (view.TopicDetail): the
// diagram asks for an internal topic's while the viewer has it unfolded.
func (p *Player) TopicDetail(name string) (view.Topic, bool) {
	c := p.cluster()
	if c == nil {
		return view.Topic{}, false
	}
	return view.TopicDetail(c, name)
}

// PageCaches is every machine's page cache (view.PageCaches), for the
// disk panel while it is open.
func (p *Player) PageCaches() []view.PageCache { return view.PageCaches(p.cluster()) }

// PartitionDisk is broker's view of a partition's disk, through the disk
// panel's cache dc (view.DiskCache.Partition; nil without such a broker).
func (p *Player) PartitionDisk(dc *view.DiskCache, broker int32, topic string, partition int32) *view.PartitionDisk {
	return dc.Partition(p.cluster(), broker, topic, partition)
}

// BatchBytes is pd's batch at base offset base as its segment file holds
// it, through the disk panel's cache dc (view.DiskCache.Batch).
func (p *Player) BatchBytes(dc *view.DiskCache, pd *view.PartitionDisk, base int64) *view.BatchBytes {
	return dc.Batch(p.cluster(), pd, base)
}

// Dashboard is the on-call dashboard's history of the cluster shown (nil
// without one): the Metrics tab plots it, the story lists what a step
// changed in it.
func (p *Player) Dashboard() *dashboard.Board {
	c := p.cluster()
	if c == nil {
		return nil
	}
	return c.Dashboard()
}
