package view

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/storage"
)

// PartitionDisk is one partition's directory on one broker's disk: its
// files as ls -l lists them, its segments in offset order, and the offsets
// that say which part of the log is what (log start, HW, LEO, recovery
// point, and how far the log cleaner has cleaned).
//
// It is not part of a Snapshot: the disk panel asks for it (DiskCache)
// only while it is open, so the frame loop pays nothing for it otherwise.
type PartitionDisk struct {
	Broker    int32
	Topic     string
	Partition int32
	// State is the node's state (running, killed, power-off, stopped).
	// When it is not running, the offsets and segments are those its last
	// process knew, and the files are what is on the disk now.
	State string
	// Present: the broker has (or its last process had) a log for the
	// partition. Without one, only Dir is set.
	Present bool
	LogDir  string // log.dirs: /tmp/kafka-logs
	Dir     string // the partition's directory: /tmp/kafka-logs/<topic>-<partition>
	Files   []DiskFile
	// Segments are in offset order; the last is the active one.
	Segments []DiskSegment
	// logStartOffset <= HighWatermark <= LogEndOffset; RecoveryPoint <=
	// LogEndOffset (the offset below which the log is flushed to disk).
	LogStartOffset int64
	HighWatermark  int64
	LogEndOffset   int64
	RecoveryPoint  int64
	// CleanerCheckpoint is this partition's entry in the log dir's
	// cleaner-offset-checkpoint: the log cleaner has compacted the offsets
	// below it (Kafka's first dirty offset). -1 when the file has no entry:
	// the log was never cleaned.
	CleanerCheckpoint int64
}

// DiskFile is one entry of the partition directory.
type DiskFile struct {
	Name  string
	IsDir bool
	Size  int64
	// Unflushed is how many of its bytes a power loss would lose now.
	Unflushed int64
	// Segment is the base offset of the segment the file belongs to, from
	// its 20-digit name (.log, .index, .timeindex, .log.deleted,
	// .cleaned, ...); -1 for the partition's other files.
	Segment int64
}

// DiskSegment is one segment of the log.
type DiskSegment struct {
	BaseOffset int64
	// NextOffset is the offset after its last batch (BaseOffset when
	// empty): the segment holds [BaseOffset, NextOffset).
	NextOffset int64
	// Size is the bytes of its batches as the log knows them; FileSize the
	// .log file's size on the disk now (-1: no such file). They differ only
	// when the disk changed under a log whose process is gone (a power loss
	// after a crash).
	Size     int64
	FileSize int64
	Name     string // the .log file's name
	Active   bool   // the last segment: appends go here, the cleaner never touches it
	// Clean: every offset of the segment is below the cleaner checkpoint.
	Clean   bool
	Batches []storage.BatchInfo
}

// LastOffset is the offset of the segment's last record (BaseOffset-1 when
// empty).
func (s *DiskSegment) LastOffset() int64 { return s.NextOffset - 1 }

// Empty reports whether the segment holds no batch.
func (s *DiskSegment) Empty() bool { return len(s.Batches) == 0 }

// Segment returns the segment with the base offset, or nil.
func (pd *PartitionDisk) Segment(base int64) *DiskSegment {
	for i := range pd.Segments {
		if pd.Segments[i].BaseOffset == base {
			return &pd.Segments[i]
		}
	}
	return nil
}

// Bytes is the size of every segment together.
func (pd *PartitionDisk) Bytes() int64 {
	var n int64
	for _, s := range pd.Segments {
		n += s.Size
	}
	return n
}

// diskRefresh is how often (virtual time) a partition's directory listing
// is read again while nothing else changed: Linux's writeback pass, the
// only thing that changes a file's unflushed bytes on its own.
const diskRefresh = storage.DirtyWritebackInterval

// diskKey is what a PartitionDisk depends on, beyond the time tick.
type diskKey struct {
	cluster   *cluster.Cluster
	broker    int32
	tp        storage.TopicPartition
	state     cluster.NodeState
	log       *storage.Log
	leo, lso  int64
	hw, rp    int64
	segments  int
	firstBase int64
	active    int64 // the active segment's size
	tick      int64 // virtual time / diskRefresh
}

// DiskCache computes a partition's disk view on demand and keeps the last
// one (and the last batch's byte map) until what they show changes: the
// disk panel calls it every frame it is drawn. It holds no global state;
// the component that shows the panel owns it.
type DiskCache struct {
	key  diskKey
	part *PartitionDisk

	batch   *BatchBytes
	batchOf batchOwner
}

// Partition returns broker's view of topic-partition on c (nil without a
// cluster or such a broker).
func (dc *DiskCache) Partition(c *cluster.Cluster, broker int32, topic string, partition int32) *PartitionDisk {
	if c == nil || c.Node(broker) == nil || c.Disk(broker) == nil {
		return nil
	}
	tp := storage.TopicPartition{Topic: topic, Partition: partition}
	k := diskKey{cluster: c, broker: broker, tp: tp, state: c.State(broker),
		tick: int64(c.World.Now()) / int64(diskRefresh)}
	var log *storage.Log
	if p := c.Node(broker).Broker.Partition(tp); p != nil {
		log = p.Log()
	}
	if log != nil {
		segs := log.Segments()
		k.log, k.leo, k.lso, k.hw, k.rp = log, log.LogEndOffset(), log.LogStartOffset(), log.HighWatermark(), log.RecoveryPoint()
		k.segments = len(segs)
		if len(segs) > 0 {
			k.firstBase, k.active = segs[0].BaseOffset, segs[len(segs)-1].Size
		}
	}
	if dc.part != nil && dc.key == k {
		return dc.part
	}
	dc.key, dc.part = k, takePartitionDisk(c, broker, tp, log)
	return dc.part
}

// takePartitionDisk reads the partition's directory and log.
func takePartitionDisk(c *cluster.Cluster, broker int32, tp storage.TopicPartition, log *storage.Log) *PartitionDisk {
	d := c.Disk(broker)
	pd := &PartitionDisk{Broker: broker, Topic: tp.Topic, Partition: tp.Partition, State: string(c.State(broker)),
		CleanerCheckpoint: -1}
	if log == nil {
		pd.LogDir = c.Config().Static.Broker("log.dirs")
		if pd.LogDir == "" {
			pd.LogDir = "/tmp/kafka-logs"
		}
		pd.Dir = path.Join(pd.LogDir, tp.DirName())
		return pd
	}
	pd.Present = true
	pd.Dir = log.Dir()
	pd.LogDir = path.Dir(pd.Dir)
	pd.LogStartOffset, pd.HighWatermark, pd.LogEndOffset, pd.RecoveryPoint =
		log.LogStartOffset(), log.HighWatermark(), log.LogEndOffset(), log.RecoveryPoint()
	if data, err := d.ReadFile(path.Join(pd.LogDir, storage.CleanerOffsetCheckpoint)); err == nil && len(data) > 0 {
		if offsets, err := storage.DecodeOffsetCheckpoint(data); err == nil {
			if o, ok := offsets[tp]; ok {
				pd.CleanerCheckpoint = o
			}
		}
	}
	sizes := map[string]int64{}
	for _, e := range d.List(pd.Dir) {
		f := DiskFile{Name: e.Name, IsDir: e.IsDir, Size: e.Size, Unflushed: e.Unflushed, Segment: segmentOf(e.Name)}
		pd.Files = append(pd.Files, f)
		if !e.IsDir {
			sizes[e.Name] = e.Size
		}
	}
	segs := log.Segments()
	pd.Segments = make([]DiskSegment, 0, len(segs))
	for i, s := range segs {
		name := path.Base(s.Path)
		ds := DiskSegment{BaseOffset: s.BaseOffset, NextOffset: s.NextOffset(), Size: s.Size, FileSize: -1, Name: name,
			Active: i == len(segs)-1}
		if n := s.NumBatches(); n > 0 {
			ds.Batches = slices.AppendSeq(make([]storage.BatchInfo, 0, n), s.Batches())
		}
		if n, ok := sizes[name]; ok {
			ds.FileSize = n
		}
		ds.Clean = !ds.Active && pd.CleanerCheckpoint >= 0 && ds.NextOffset <= pd.CleanerCheckpoint && !ds.Empty()
		pd.Segments = append(pd.Segments, ds)
	}
	return pd
}

// segmentOf reads the base offset from a segment file's name
// ("00000000000000000170.log", ".index", ".timeindex", ".log.deleted",
// ...): 20 digits, then a dot. -1 for any other name.
func segmentOf(name string) int64 {
	if len(name) < 21 || name[20] != '.' {
		return -1
	}
	digits := name[:20]
	if strings.Trim(digits, "0123456789") != "" {
		return -1
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return -1
	}
	return n
}
