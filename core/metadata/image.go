package metadata

import (
	"fmt"
	"slices"
	"sort"
)

// BrokerRegistration is what the metadata knows of a broker.
type BrokerRegistration struct {
	ID    int32
	Epoch int64 // the broker epoch: the offset of its registration's first record
	// RegisteredAt is the offset of its latest RegisterBrokerRecord (after
	// any partition changes its restart brought): the broker has caught up
	// once it replayed that far.
	RegisteredAt         int64
	IncarnationID        Uuid
	Endpoints            []Endpoint
	Rack                 string
	Fenced               bool
	InControlledShutdown bool
	LogDirs              []Uuid // the broker's online log directories (directory.id of each)
	// Features is what the broker registered as supported (nil: a 3.8
	// broker's default, DefaultBrokerFeatures), in its order.
	Features []BrokerFeature
	// CordonedLogDirs is what the broker last reported as cordoned
	// (Kafka 4.3); nil until it reports.
	CordonedLogDirs []Uuid
}

// PartitionState is one partition's replicated state.
// Invariants: Leader is NoLeader or a member of Replicas; ISR ⊆ Replicas;
// LeaderEpoch and PartitionEpoch never decrease.
type PartitionState struct {
	Replicas []int32
	ISR      []int32
	// AddingReplicas and RemovingReplicas describe a reassignment in
	// progress (both nil when none): Replicas is then the target followed
	// by the replicas being removed.
	AddingReplicas      []int32
	RemovingReplicas    []int32
	Leader              int32
	LeaderEpoch         int32
	PartitionEpoch      int32
	LeaderRecoveryState int8
	// Directories is the log directory of each replica, parallel to
	// Replicas (nil when the records carried none).
	Directories []Uuid
	// ELR and LastKnownElr are KIP-966's eligible leader replicas (replicas
	// that left the ISR while it was below min.insync.replicas, so they
	// hold every committed record) and, in Kafka 4.3's controller, the
	// last leader of a partition left with neither ISR nor ELR. Both stay
	// empty unless eligible.leader.replicas.version is finalized at 1+.
	ELR          []int32
	LastKnownElr []int32
}

// Clone returns a deep copy.
func (p *PartitionState) Clone() *PartitionState {
	c := *p
	c.Replicas = slices.Clone(p.Replicas)
	c.ISR = slices.Clone(p.ISR)
	c.AddingReplicas = slices.Clone(p.AddingReplicas)
	c.RemovingReplicas = slices.Clone(p.RemovingReplicas)
	c.Directories = slices.Clone(p.Directories)
	c.ELR = slices.Clone(p.ELR)
	c.LastKnownElr = slices.Clone(p.LastKnownElr)
	return &c
}

// Topic is a topic and its partitions, indexed by partition id.
type Topic struct {
	Name       string
	ID         Uuid
	Partitions []*PartitionState
}

// ConfigResource names what a config applies to.
type ConfigResource struct {
	Type int8
	Name string // topic name, or broker id as a string ("" for the cluster default)
}

// Image is the state that replaying the metadata log up to Offset produces.
// Two images that applied the same records are equal.
type Image struct {
	Offset   int64 // offset of the last applied record; -1 when empty
	Features map[string]int16
	Brokers  map[int32]*BrokerRegistration
	Topics   map[string]*Topic
	TopicIDs map[Uuid]string
	Configs  map[ConfigResource]map[string]string
	// NextProducerID is the first producer id of the next block the
	// controller hands out (ProducerIdsImage); blocks start at 0.
	NextProducerID int64
	// configs is the state of Configs (ConfigStamp): a new one with every
	// config record, and every topic removal, which drops the topic's
	// configs; a clone shares it.
	configs ConfigStamp
}

// ConfigStamp names one state of an image's configs. Two images with the
// same stamp have the same configs: every change gives the changed image
// a new stamp, and only a clone (a copy with the same configs) shares
// one. So a reader may keep what it derived from the configs under their
// stamp, across the image copies a broker publishes, until it changes.
type ConfigStamp struct{ state *configState }

// configState is what a ConfigStamp points to. It has a size, so that
// each is a distinct pointer (zero-size ones need not be).
type configState struct{ _ byte }

func newConfigStamp() ConfigStamp { return ConfigStamp{&configState{}} }

// ConfigStamp is the state of the image's configs (see ConfigStamp).
func (img *Image) ConfigStamp() ConfigStamp { return img.configs }

// NewImage returns the empty image.
func NewImage() *Image {
	return &Image{
		Offset:   -1,
		Features: map[string]int16{},
		Brokers:  map[int32]*BrokerRegistration{},
		Topics:   map[string]*Topic{},
		TopicIDs: map[Uuid]string{},
		Configs:  map[ConfigResource]map[string]string{},
		configs:  newConfigStamp(),
	}
}

// Apply replays one record at offset. It returns an error (and changes
// nothing) if the record does not fit the image, which would mean the log and
// the image disagree.
func (img *Image) Apply(offset int64, r Record) error {
	if offset <= img.Offset {
		return fmt.Errorf("metadata: record at offset %d applied after offset %d", offset, img.Offset)
	}
	switch r := r.(type) {
	case *RegisterBrokerRecord:
		img.Brokers[r.BrokerID] = &BrokerRegistration{
			ID: r.BrokerID, Epoch: r.BrokerEpoch, RegisteredAt: offset, IncarnationID: r.IncarnationID,
			Endpoints: slices.Clone(r.Endpoints), Rack: r.Rack, Fenced: r.Fenced, InControlledShutdown: r.InControlledShutdown,
			LogDirs: slices.Clone(r.LogDirs), Features: slices.Clone(r.Features), CordonedLogDirs: slices.Clone(r.CordonedLogDirs),
		}
	case *BrokerRegistrationChangeRecord:
		b, ok := img.Brokers[r.BrokerID]
		if !ok || b.Epoch != r.BrokerEpoch {
			return fmt.Errorf("metadata: registration change for unknown broker %d epoch %d", r.BrokerID, r.BrokerEpoch)
		}
		switch r.Fenced {
		case FencingFence:
			b.Fenced = true
		case FencingUnfence:
			b.Fenced = false
		}
		if r.InControlledShutdown == ShutdownRequested {
			b.InControlledShutdown = true
		}
		if r.CordonedLogDirs != nil {
			b.CordonedLogDirs = append([]Uuid{}, r.CordonedLogDirs...)
		}
	case *UnregisterBrokerRecord:
		b, ok := img.Brokers[r.BrokerID]
		if !ok || b.Epoch != r.BrokerEpoch {
			return fmt.Errorf("metadata: unregistration of unknown broker %d epoch %d", r.BrokerID, r.BrokerEpoch)
		}
		delete(img.Brokers, r.BrokerID)
	case *TopicRecord:
		if _, ok := img.Topics[r.Name]; ok {
			return fmt.Errorf("metadata: topic %s already exists", r.Name)
		}
		if other, ok := img.TopicIDs[r.TopicID]; ok {
			// Two topics under one id would send one's changes to the other.
			return fmt.Errorf("metadata: topic id %s of %s is already %s's", r.TopicID, r.Name, other)
		}
		img.Topics[r.Name] = &Topic{Name: r.Name, ID: r.TopicID}
		img.TopicIDs[r.TopicID] = r.Name
	case *PartitionRecord:
		t := img.topicByID(r.TopicID)
		if t == nil {
			return fmt.Errorf("metadata: partition for unknown topic %s", r.TopicID)
		}
		if int(r.PartitionID) != len(t.Partitions) {
			return fmt.Errorf("metadata: partition %d of %s out of order", r.PartitionID, t.Name)
		}
		t.Partitions = append(t.Partitions, &PartitionState{
			Replicas: slices.Clone(r.Replicas), ISR: slices.Clone(r.ISR), Leader: r.Leader,
			LeaderEpoch: r.LeaderEpoch, PartitionEpoch: r.PartitionEpoch, LeaderRecoveryState: r.LeaderRecoveryState,
			AddingReplicas: nilIfEmpty(r.AddingReplicas), RemovingReplicas: nilIfEmpty(r.RemovingReplicas),
			Directories: nilIfNoDirs(r.Directories),
			ELR:         nilIfEmpty(r.EligibleLeaderReplicas), LastKnownElr: nilIfEmpty(r.LastKnownElr),
		})
	case *PartitionChangeRecord:
		t := img.topicByID(r.TopicID)
		if t == nil || int(r.PartitionID) >= len(t.Partitions) || r.PartitionID < 0 {
			return fmt.Errorf("metadata: change for unknown partition %s-%d", r.TopicID, r.PartitionID)
		}
		p := t.Partitions[r.PartitionID]
		if r.ISR != nil {
			p.ISR = slices.Clone(r.ISR)
		}
		if r.Replicas != nil {
			p.Replicas = slices.Clone(r.Replicas)
		}
		if r.Directories != nil {
			p.Directories = nilIfNoDirs(r.Directories)
		}
		if r.AddingReplicas != nil {
			p.AddingReplicas = nilIfEmpty(r.AddingReplicas)
		}
		if r.RemovingReplicas != nil {
			p.RemovingReplicas = nilIfEmpty(r.RemovingReplicas)
		}
		if r.EligibleLeaderReplicas != nil {
			p.ELR = nilIfEmpty(r.EligibleLeaderReplicas)
		}
		if r.LastKnownElr != nil {
			p.LastKnownElr = nilIfEmpty(r.LastKnownElr)
		}
		if r.Leader != NoLeaderChange {
			p.Leader = r.Leader
			p.LeaderEpoch++
		}
		if r.LeaderRecoveryState != NoRecoveryChange {
			p.LeaderRecoveryState = r.LeaderRecoveryState
		}
		p.PartitionEpoch++
	case *RemoveTopicRecord:
		name, ok := img.TopicIDs[r.TopicID]
		if !ok {
			return fmt.Errorf("metadata: removal of unknown topic %s", r.TopicID)
		}
		delete(img.Topics, name)
		delete(img.TopicIDs, r.TopicID)
		delete(img.Configs, ConfigResource{ResourceTopic, name})
		img.configs = newConfigStamp() // the topic's configs went with it
	case *ConfigRecord:
		img.configs = newConfigStamp()
		res := ConfigResource{r.ResourceType, r.ResourceName}
		if r.Value == nil {
			delete(img.Configs[res], r.Name)
			if len(img.Configs[res]) == 0 {
				delete(img.Configs, res)
			}
		} else {
			if img.Configs[res] == nil {
				img.Configs[res] = map[string]string{}
			}
			img.Configs[res][r.Name] = *r.Value
		}
	case *FeatureLevelRecord:
		// Level 0 takes the feature out of the finalized set
		// (FeatureControlManager.replay, FeaturesDelta).
		if r.FeatureLevel == 0 && r.Name != "metadata.version" {
			delete(img.Features, r.Name)
		} else {
			img.Features[r.Name] = r.FeatureLevel
		}
	case *ProducerIdsRecord:
		img.NextProducerID = r.NextProducerID
	case *ClearElrRecord:
		// ReplicationControlManager.replay(ClearElrRecord): every partition
		// that has an ELR or a last known ELR gets both emptied, as a
		// partition change, which bumps its partition epoch.
		var topics []*Topic
		if r.TopicName == "" {
			for _, name := range img.TopicNames() {
				topics = append(topics, img.Topics[name])
			}
		} else if t, ok := img.Topics[r.TopicName]; ok {
			topics = []*Topic{t}
		} else {
			return fmt.Errorf("metadata: ELR cleared for unknown topic %s", r.TopicName)
		}
		for _, t := range topics {
			for _, p := range t.Partitions {
				if len(p.ELR) > 0 || len(p.LastKnownElr) > 0 {
					p.ELR, p.LastKnownElr = nil, nil
					p.PartitionEpoch++
				}
			}
		}
	case *NoOpRecord, *BeginTransactionRecord, *EndTransactionRecord, *ZkMigrationStateRecord:
		// Transactions only group records (every record here applies at
		// once, and a controller never leaves one open); the migration
		// state is not part of the image.
	default:
		return fmt.Errorf("metadata: unknown record %T", r)
	}
	img.Offset = offset
	return nil
}

func (img *Image) topicByID(id Uuid) *Topic {
	if name, ok := img.TopicIDs[id]; ok {
		return img.Topics[name]
	}
	return nil
}

// TopicByID returns the topic with id, or nil.
func (img *Image) TopicByID(id Uuid) *Topic { return img.topicByID(id) }

// Partition returns a partition's state, or nil.
func (img *Image) Partition(topic string, p int32) *PartitionState {
	return img.Topics[topic].Partition(p)
}

// Partition returns partition p's state, or nil (also for a nil topic:
// a request's topic is looked up once, its partitions by index).
func (t *Topic) Partition(p int32) *PartitionState {
	if t == nil || p < 0 || int(p) >= len(t.Partitions) {
		return nil
	}
	return t.Partitions[p]
}

// TopicNames lists topic names sorted.
func (img *Image) TopicNames() []string {
	out := make([]string, 0, len(img.Topics))
	for n := range img.Topics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// BrokerIDs lists registered broker ids sorted.
func (img *Image) BrokerIDs() []int32 {
	out := make([]int32, 0, len(img.Brokers))
	for id := range img.Brokers {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// BrokerRacks is the broker.rack of each of ids ("" for none or an
// unknown broker), in ids' order.
func (img *Image) BrokerRacks(ids []int32) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		if b := img.Brokers[id]; b != nil {
			out[i] = b.Rack
		}
	}
	return out
}

// TopicConfig returns a topic's dynamic configs (nil if none). The map is the
// image's own: do not modify it.
func (img *Image) TopicConfig(topic string) map[string]string {
	return img.Configs[ConfigResource{ResourceTopic, topic}]
}

// Reassigning reports whether a reassignment of the partition is in
// progress.
func (p *PartitionState) Reassigning() bool {
	return len(p.AddingReplicas) > 0 || len(p.RemovingReplicas) > 0
}

func nilIfEmpty(ids []int32) []int32 {
	if len(ids) == 0 {
		return nil
	}
	return slices.Clone(ids)
}

// BrokerConfig returns the dynamic configs of one broker ("<id>") or of the
// cluster default (""); nil if none. The map is the image's own.
func (img *Image) BrokerConfig(name string) map[string]string {
	return img.Configs[ConfigResource{ResourceBroker, name}]
}

// Clone returns a deep copy, for snapshots.
func (img *Image) Clone() *Image {
	c := NewImage()
	c.Offset = img.Offset
	c.NextProducerID = img.NextProducerID
	c.configs = img.configs
	for k, v := range img.Features {
		c.Features[k] = v
	}
	for id, b := range img.Brokers {
		bc := *b
		bc.Endpoints = slices.Clone(b.Endpoints)
		bc.LogDirs = slices.Clone(b.LogDirs)
		bc.Features = slices.Clone(b.Features)
		bc.CordonedLogDirs = slices.Clone(b.CordonedLogDirs)
		c.Brokers[id] = &bc
	}
	for name, t := range img.Topics {
		tc := &Topic{Name: t.Name, ID: t.ID, Partitions: make([]*PartitionState, len(t.Partitions))}
		for i, p := range t.Partitions {
			tc.Partitions[i] = p.Clone()
		}
		c.Topics[name] = tc
		c.TopicIDs[t.ID] = name
	}
	for res, m := range img.Configs {
		mc := make(map[string]string, len(m))
		for k, v := range m {
			mc[k] = v
		}
		c.Configs[res] = mc
	}
	return c
}

func nilIfNoDirs(ids []Uuid) []Uuid {
	if len(ids) == 0 {
		return nil
	}
	return slices.Clone(ids)
}
