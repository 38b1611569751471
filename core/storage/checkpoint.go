package storage

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Names of the broker-wide files at the top of a log dir.
const (
	ReplicationOffsetCheckpoint = "replication-offset-checkpoint"
	RecoveryPointCheckpoint     = "recovery-point-offset-checkpoint"
	LogStartOffsetCheckpoint    = "log-start-offset-checkpoint"
	MetaProperties              = "meta.properties"
	CleanShutdownFile           = ".kafka_cleanshutdown"
	LockFile                    = ".lock"
	CleanerOffsetCheckpoint     = "cleaner-offset-checkpoint"
	LeaderEpochCheckpointFile   = "leader-epoch-checkpoint"
	PartitionMetadataFile       = "partition.metadata"
)

// TopicPartition names a partition.
type TopicPartition struct {
	Topic     string
	Partition int32
}

func (tp TopicPartition) String() string { return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition) }

// ComparePartitions orders partitions by topic name, then number: the
// order every listing and every batch of requests walks them in.
func ComparePartitions(a, b TopicPartition) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return int(a.Partition - b.Partition)
}

// DirName is the partition's directory name under the log dir.
func (tp TopicPartition) DirName() string { return tp.String() }

// ParseDirName reads "<topic>-<partition>" (the topic may contain '-').
func ParseDirName(name string) (TopicPartition, bool) {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return TopicPartition{}, false
	}
	p, err := strconv.ParseInt(name[i+1:], 10, 32)
	if err != nil || p < 0 {
		return TopicPartition{}, false
	}
	return TopicPartition{name[:i], int32(p)}, true
}

// EncodeOffsetCheckpoint renders an offset checkpoint file
// (replication-offset-checkpoint and its siblings): version 0, the count,
// then "topic partition offset" per line. Entries are sorted so the file is
// the same in every run (Kafka writes them in hash-map order).
func EncodeOffsetCheckpoint(offsets map[TopicPartition]int64) []byte {
	keys := make([]TopicPartition, 0, len(offsets))
	for tp := range offsets {
		keys = append(keys, tp)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Topic != keys[j].Topic {
			return keys[i].Topic < keys[j].Topic
		}
		return keys[i].Partition < keys[j].Partition
	})
	var b strings.Builder
	fmt.Fprintf(&b, "0\n%d\n", len(keys))
	for _, tp := range keys {
		fmt.Fprintf(&b, "%s %d %d\n", tp.Topic, tp.Partition, offsets[tp])
	}
	return []byte(b.String())
}

// DecodeOffsetCheckpoint parses an offset checkpoint file.
func DecodeOffsetCheckpoint(data []byte) (map[TopicPartition]int64, error) {
	lines, err := checkpointLines(data, 3)
	if err != nil {
		return nil, err
	}
	out := make(map[TopicPartition]int64, len(lines))
	for _, f := range lines {
		p, err1 := strconv.ParseInt(f[1], 10, 32)
		o, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("malformed checkpoint entry %q", strings.Join(f, " "))
		}
		out[TopicPartition{f[0], int32(p)}] = o
	}
	return out, nil
}

// EncodePartitionMetadata renders partition.metadata (Kafka writes no final
// newline).
func EncodePartitionMetadata(topicID string) []byte {
	return []byte("version: 0\ntopic_id: " + topicID)
}

// DecodePartitionMetadata returns the topic id in a partition.metadata file.
func DecodePartitionMetadata(data []byte) (string, error) {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "version: 0" || !strings.HasPrefix(lines[1], "topic_id: ") {
		return "", fmt.Errorf("malformed partition.metadata")
	}
	return strings.TrimPrefix(lines[1], "topic_id: "), nil
}

// EncodeMetaProperties renders a KRaft log dir's meta.properties as Java's
// Properties.store writes it: an empty comment line, a comment with the date
// (Date.toString, in UTC), then the keys in the order Java's hash table
// yields them for these four names.
func EncodeMetaProperties(nodeID int32, directoryID, clusterID string, written time.Time) []byte {
	var b strings.Builder
	b.WriteString("#\n#" + written.UTC().Format("Mon Jan 02 15:04:05 MST 2006") + "\n")
	fmt.Fprintf(&b, "node.id=%d\ndirectory.id=%s\nversion=1\ncluster.id=%s\n", nodeID, directoryID, clusterID)
	return []byte(b.String())
}

// DecodeMetaProperties reads the keys of a meta.properties file.
func DecodeMetaProperties(data []byte) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	return out
}
