package metadata

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/sorts"
)

// SnapshotRecords restates img as records, in the order Kafka's
// MetadataImage.write uses (features, then the cluster's brokers, then
// topics with their partitions, then configs), each group in a fixed order
// (names and ids ascending) so that equal images give equal snapshots.
// Replaying them into an empty image gives img back (ImageFromSnapshot),
// except for ELR kept while eligible.leader.replicas.version is off.
func SnapshotRecords(img *Image) []Record {
	var out []Record
	// metadata.version first, then the other features in the order of
	// FeaturesDelta's presized HashMap, filled from the bootstrap's
	// changes (a default HashMap) (4.x; 3.8 has no other), then, before 4.0,
	// the ZooKeeper-migration state (FeaturesImage.write; a cluster born
	// in KRaft is NONE).
	names := make([]string, 0, len(img.Features))
	for n := range img.Features {
		if n != "metadata.version" {
			names = append(names, n)
		}
	}
	slices.Sort(names) // HashSetOrder's input order decides ties
	mv, hasMV := img.Features["metadata.version"]
	if hasMV {
		out = append(out, &FeatureLevelRecord{Name: "metadata.version", FeatureLevel: mv})
	}
	for _, n := range jdk.PresizedHashSetOrder(jdk.HashSetOrder(names)) {
		out = append(out, &FeatureLevelRecord{Name: n, FeatureLevel: img.Features[n]})
	}
	if hasMV && WritesZkMigrationState(mv) {
		out = append(out, &ZkMigrationStateRecord{State: ZkMigrationNone})
	}
	for _, id := range img.BrokerIDs() {
		b := img.Brokers[id]
		out = append(out, &RegisterBrokerRecord{
			BrokerID: b.ID, IncarnationID: b.IncarnationID, BrokerEpoch: b.Epoch,
			Endpoints: slices.Clone(b.Endpoints), Rack: b.Rack, Fenced: b.Fenced, InControlledShutdown: b.InControlledShutdown,
			LogDirs: slices.Clone(b.LogDirs), Features: hashOrderedFeatures(b.Features), CordonedLogDirs: slices.Clone(b.CordonedLogDirs),
		})
	}
	elr := img.Features["eligible.leader.replicas.version"] >= 1
	for _, name := range img.TopicNames() {
		t := img.Topics[name]
		out = append(out, &TopicRecord{Name: t.Name, TopicID: t.ID})
		for i, p := range t.Partitions {
			out = append(out, &PartitionRecord{
				PartitionID: int32(i), TopicID: t.ID, Replicas: slices.Clone(p.Replicas), ISR: slices.Clone(p.ISR),
				Leader: p.Leader, LeaderRecoveryState: p.LeaderRecoveryState, LeaderEpoch: p.LeaderEpoch, PartitionEpoch: p.PartitionEpoch,
				AddingReplicas: slices.Clone(p.AddingReplicas), RemovingReplicas: slices.Clone(p.RemovingReplicas),
				Directories: slices.Clone(p.Directories),
				// Empty ELR fields stay nil, the version-1 record a
				// metadata.version without ELR support writes.
				EligibleLeaderReplicas: slices.Clone(p.ELR), LastKnownElr: slices.Clone(p.LastKnownElr),
			})
			if !elr {
				// PartitionRegistration.toRecord leaves both out while
				// eligible.leader.replicas.version is off
				// (ImageWriterOptions.isEligibleLeaderReplicasEnabled):
				// ELR kept from before the feature was disabled does not
				// survive a snapshot.
				last := out[len(out)-1].(*PartitionRecord)
				last.EligibleLeaderReplicas, last.LastKnownElr = nil, nil
			}
		}
	}
	res := make([]ConfigResource, 0, len(img.Configs))
	for r := range img.Configs {
		res = append(res, r)
	}
	sorts.Func(res, func(a, b ConfigResource) int {
		if a.Type != b.Type {
			return int(a.Type) - int(b.Type)
		}
		return strings.Compare(a.Name, b.Name)
	})
	for _, r := range res {
		keys := make([]string, 0, len(img.Configs[r]))
		for k := range img.Configs[r] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := img.Configs[r][k]
			out = append(out, &ConfigRecord{ResourceType: r.Type, ResourceName: r.Name, Name: k, Value: &v})
		}
	}
	// Producer ids after configs, as MetadataImage.write orders them.
	if img.NextProducerID > 0 {
		out = append(out, &ProducerIdsRecord{BrokerID: -1, BrokerEpoch: -1, NextProducerID: img.NextProducerID})
	}
	return out
}

// hashOrderedFeatures is a registration's features as BrokerRegistration
// holds them, a HashMap by name, so a snapshot lists them in its order
// whatever order the broker sent (4.3 brokers send a random one).
func hashOrderedFeatures(fs []BrokerFeature) []BrokerFeature {
	if fs == nil {
		return nil
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	slices.Sort(names)
	out := make([]BrokerFeature, 0, len(fs))
	for _, n := range jdk.HashSetOrder(names) {
		for _, f := range fs {
			if f.Name == n {
				out = append(out, f)
			}
		}
	}
	return out
}

// ImageFromSnapshot replays a snapshot's records into a fresh image that
// stands at lastOffset (the snapshot's end offset minus one).
func ImageFromSnapshot(lastOffset int64, recs []Record) (*Image, error) {
	img := NewImage()
	img.Offset = -1 - int64(len(recs)) // room for the records' own ordering check
	for i, r := range recs {
		if err := img.Apply(img.Offset+1, r); err != nil {
			return nil, fmt.Errorf("metadata: snapshot record %d: %w", i, err)
		}
	}
	img.Offset = lastOffset
	return img, nil
}

// ImageFromPayloads is ImageFromSnapshot over encoded records, as a raft
// snapshot delivers them.
func ImageFromPayloads(lastOffset int64, payloads [][]byte) (*Image, error) {
	recs := make([]Record, 0, len(payloads))
	for i, b := range payloads {
		r, err := Decode(b)
		if err != nil {
			return nil, fmt.Errorf("metadata: snapshot record %d: %w", i, err)
		}
		recs = append(recs, r)
	}
	return ImageFromSnapshot(lastOffset, recs)
}
