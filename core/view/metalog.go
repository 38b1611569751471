package view

import (
	"bytes"
	"strconv"
	"strings"

	"kafkascope/core/cluster"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
)

// Bounds on the metadata log view.
const (
	// MaxMetaEntries bounds the entries listed (a run of NoOpRecords counts
	// once): the newest ones.
	MaxMetaEntries = 200
	// metaScanMax bounds the offsets read in one Take: a first read, or a
	// jump (time advance 7d writes a million NoOpRecords), lists what the
	// last metaScanMax offsets hold.
	metaScanMax = 4096
	// maxPendingEntries bounds the entries listed past the high watermark.
	maxPendingEntries = 50
)

// MetaLog is the __cluster_metadata-0 log as one node holds it: its
// committed entries (the newest MaxMetaEntries, oldest first), then those
// written but not committed yet (Pending). It grows as the cluster
// changes; being part of the snapshot, it follows time travel.
type MetaLog struct {
	// Source is the node whose log is read: the quorum leader, else the
	// running node that knows the most of the log; -1 when none runs (the
	// entries are then those last read).
	Source         int32
	LogStartOffset int64 // the source's first offset still in its log
	HighWatermark  int64 // the source's: entries below it are committed (-1 unknown)
	LogEndOffset   int64
	// Snapshot is the source's latest snapshot (EndOffset -1: none); the
	// committed state before EndOffset is in it.
	Snapshot raft.SnapshotID
	// From is the first offset Entries covers; older entries exist (in the
	// log or the snapshot) when From is above 0.
	From    int64
	Entries []MetaEntry
}

// MetaEntry is one record of the metadata log, or a run of NoOpRecords
// (which the active controller writes every 500 ms), folded into one.
// Entries are never changed once listed: snapshots share them.
type MetaEntry struct {
	Offset     int64
	LastOffset int64 // Offset, or the last NoOpRecord of a run
	Epoch      int32 // the quorum epoch of the leader that wrote it
	// Type is Kafka's record name (RegisterBrokerRecord, TopicRecord,
	// PartitionRecord, PartitionChangeRecord, ...), or for KRaft's control
	// records LeaderChange, SnapshotHeader, SnapshotFooter.
	Type    string
	Control bool
	Pending bool // written on the source's log, not committed yet
	// Topic is the name of the topic a topic, partition or topic config
	// record is about ("" otherwise, or when unknown).
	Topic string
	// Record is the decoded record (nil for control records and for
	// payloads that do not decode: then Err says why).
	Record       metadata.Record
	LeaderChange *raft.LeaderChangeMessage
	Err          string
	payload      []byte
}

// Count is how many records the entry stands for (more than 1 for a run of
// NoOpRecords).
func (e *MetaEntry) Count() int64 { return e.LastOffset - e.Offset + 1 }

// JSON is the record as kafka-dump-log.sh --cluster-metadata-decoder
// prints it (a control record as DumpLogSegments prints a LeaderChange).
// It is computed on demand: the UI asks only for the rows opened.
func (e *MetaEntry) JSON() string {
	switch {
	case e.LeaderChange != nil:
		return leaderChangeJSON(e.LeaderChange)
	case e.Control:
		return "{}"
	}
	return metadata.DumpPayload(e.LastOffset, e.payload)
}

// leaderChangeJSON is LeaderChangeMessageJsonConverter.write's output.
func leaderChangeJSON(m *raft.LeaderChangeMessage) string {
	var b strings.Builder
	voters := func(name string, ids []int32) {
		b.WriteString(`,"` + name + `":[`)
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"voterId":` + strconv.Itoa(int(id)) + `}`)
		}
		b.WriteByte(']')
	}
	b.WriteString(`{"version":` + strconv.Itoa(int(m.Version)) + `,"leaderId":` + strconv.Itoa(int(m.LeaderID)))
	voters("voters", m.Voters)
	voters("grantingVoters", m.GrantingVoters)
	b.WriteByte('}')
	return b.String()
}

// controlNames are the control record types as the metadata log list names
// them (ControlRecordType in Kafka, in the record names' style).
var controlNames = map[raft.ControlType]string{
	raft.ControlAbort:          "Abort",
	raft.ControlCommit:         "Commit",
	raft.ControlLeaderChange:   "LeaderChange",
	raft.ControlSnapshotHeader: "SnapshotHeader",
	raft.ControlSnapshotFooter: "SnapshotFooter",
	raft.ControlKRaftVersion:   "KRaftVersion",
	raft.ControlKRaftVoters:    "KRaftVoters",
}

// metaCache is one cluster's committed entries read so far, kept on the
// cluster itself (cluster.ViewState, viewstate.go), so that what a view lists depends
// only on that cluster's history. A cluster's committed log never changes
// (Raft never loses or rewrites a committed entry, and every node's
// committed prefix is the same), so the list only grows, from whichever
// node is the source at the time; a replayed or new cluster is another
// cluster and gets its own list.
type metaCache struct {
	from    int64 // the first offset listed
	next    int64 // the committed offsets below next have been read
	entries []MetaEntry
	topics  map[metadata.Uuid]string // names from the TopicRecords read
	// noop is the last NoOpRecord read, decoded from noopPayload.
	noop        *metadata.NoOpRecord
	noopPayload []byte
}

// cacheFor returns c's list, made on first use.
func cacheFor(c *cluster.Cluster) *metaCache {
	vs := stateFor(c)
	if vs.meta == nil {
		vs.meta = &metaCache{topics: map[metadata.Uuid]string{}}
	}
	return vs.meta
}

// takeMetaLog lists src's metadata log (src nil: the entries last read).
// img names the topics the records refer to by id.
func takeMetaLog(c *cluster.Cluster, src *raft.Node, img *metadata.Image) MetaLog {
	ml := MetaLog{Source: -1, HighWatermark: -1, Snapshot: raft.SnapshotID{EndOffset: -1, Epoch: -1}}
	mc := cacheFor(c)
	if src != nil {
		ml.Source = src.NodeID()
		ml.LogStartOffset, ml.HighWatermark, ml.LogEndOffset = src.LogStartOffset(), src.HighWatermark(), src.LogEndOffset()
		if snaps := src.Snapshots(); len(snaps) > 0 {
			ml.Snapshot = snaps[len(snaps)-1]
		}
		mc.extend(src, ml.HighWatermark, img)
	}
	ml.From, ml.Entries = mc.from, mc.entries
	if src != nil && ml.LogEndOffset > ml.HighWatermark && ml.HighWatermark >= 0 {
		if es, _ := src.Entries(max(ml.HighWatermark, mc.next), ml.LogEndOffset, maxPendingEntries); len(es) > 0 {
			pending := make([]MetaEntry, 0, len(es))
			for _, e := range es {
				pending = appendEntry(pending, mc.entry(e, img, true))
			}
			ml.Entries = append(ml.Entries[:len(ml.Entries):len(ml.Entries)], pending...)
		}
	}
	return ml
}

// extend reads src's committed entries from mc.next up to hw.
func (mc *metaCache) extend(src *raft.Node, hw int64, img *metadata.Image) {
	if hw <= mc.next {
		return
	}
	start := mc.next
	if hw-start > metaScanMax || start < src.LogStartOffset() {
		// A first read, a jump, or a gap (the source's log starts past what
		// was read: it began from a snapshot): list the newest offsets.
		start = max(src.LogStartOffset(), hw-metaScanMax)
		mc.entries, mc.from = nil, start
	}
	es, _ := src.Entries(start, hw, metaScanMax)
	if len(es) == 0 {
		return
	}
	// Copy on write: earlier snapshots keep the slice they were given.
	out := make([]MetaEntry, len(mc.entries), len(mc.entries)+len(es))
	copy(out, mc.entries)
	for _, e := range es {
		out = appendEntry(out, mc.entry(e, img, false))
	}
	if len(out) > MaxMetaEntries {
		out = out[len(out)-MaxMetaEntries:]
	}
	mc.entries, mc.next = out, es[len(es)-1].Offset+1
	if len(out) > 0 {
		mc.from = out[0].Offset
	}
}

// appendEntry adds e, folding a NoOpRecord into a run it continues.
func appendEntry(list []MetaEntry, e MetaEntry) []MetaEntry {
	if e.Type == "NoOpRecord" && len(list) > 0 {
		last := &list[len(list)-1]
		if last.Type == "NoOpRecord" && last.Epoch == e.Epoch && last.Pending == e.Pending && last.LastOffset+1 == e.Offset {
			last.LastOffset, last.payload = e.Offset, e.payload
			return list
		}
	}
	return append(list, e)
}

// entry turns a raft entry into a listed one.
func (mc *metaCache) entry(e raft.Entry, img *metadata.Image, pending bool) MetaEntry {
	me := MetaEntry{Offset: e.Offset, LastOffset: e.Offset, Epoch: e.Epoch, Control: e.Control, Pending: pending, payload: e.Payload}
	if e.Control {
		me.Type = controlNames[e.ControlType]
		if me.Type == "" {
			me.Type = "Control(" + strconv.Itoa(int(e.ControlType)) + ")"
		}
		if e.ControlType == raft.ControlLeaderChange {
			if m, err := raft.DecodeLeaderChangeMessage(e.Payload); err == nil {
				me.LeaderChange = &m
			} else {
				me.Err = err.Error()
			}
		}
		return me
	}
	// An idle leader writes the same NoOpRecord twice a second: decode
	// its payload once (the view reads every entry it lists).
	if mc.noop != nil && bytes.Equal(e.Payload, mc.noopPayload) {
		me.Type, me.Record = mc.noop.RecordType(), mc.noop
		return me
	}
	r, err := metadata.Decode(e.Payload)
	if err != nil {
		me.Type, me.Err = "?", err.Error()
		return me
	}
	me.Type, me.Record = r.RecordType(), r
	if noop, ok := r.(*metadata.NoOpRecord); ok {
		mc.noop, mc.noopPayload = noop, e.Payload
	}
	name := func(id metadata.Uuid) string {
		if n, ok := mc.topics[id]; ok {
			return n
		}
		if img != nil {
			if n, ok := img.TopicIDs[id]; ok {
				return n
			}
		}
		return ""
	}
	switch r := r.(type) {
	case *metadata.TopicRecord:
		me.Topic = r.Name
		if !pending {
			mc.topics[r.TopicID] = r.Name
		}
	case *metadata.PartitionRecord:
		me.Topic = name(r.TopicID)
	case *metadata.PartitionChangeRecord:
		me.Topic = name(r.TopicID)
	case *metadata.RemoveTopicRecord:
		me.Topic = name(r.TopicID)
	case *metadata.ConfigRecord:
		if r.ResourceType == metadata.ResourceTopic {
			me.Topic = r.ResourceName
		}
	}
	return me
}
