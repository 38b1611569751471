package event

import (
	"time"

	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// LeaderElected: the controller committed a new leader for a partition
// (a PartitionChangeRecord with a leader): Leader in leader epoch Epoch,
// or no leader (-1, NoLeader). Unclean says the leader was taken from
// outside the ISR (unclean.leader.election.enable), its log recovering
// (LeaderRecoveryState RECOVERING).
type LeaderElected struct {
	TP      storage.TopicPartition
	Leader  int32
	Epoch   int32
	ISR     []int32
	Unclean bool
	// PrevISR, PrevELR and PrevLastKnownElr are the partition's ISR,
	// eligible leader replicas and last known leader before the change:
	// what the election could pick from.
	PrevISR, PrevELR, PrevLastKnownElr []int32
}

// NoLeader is LeaderElected.Leader when no replica can lead.
const NoLeader = -1

func (LeaderElected) Key() string { return "leader.elected" }
func (e LeaderElected) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	if e.Leader == NoLeader {
		w.Str("leader", "none")
	} else {
		w.Int("leader", int64(e.Leader))
	}
	w.Int("epoch", int64(e.Epoch))
	w.IDs("isr", e.ISR)
	w.Bool("unclean", e.Unclean)
}

// ISRChanged: the controller committed a partition's new ISR (a
// PartitionChangeRecord with an ISR), under Leader.
type ISRChanged struct {
	TP     storage.TopicPartition
	ISR    []int32
	Leader int32
}

func (ISRChanged) Key() string { return "isr.changed" }
func (e ISRChanged) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	w.IDs("isr", e.ISR)
	w.Int("leader", int64(e.Leader))
}

// ELRChanged: the controller committed a partition's eligible leader
// replicas (KIP-966, a PartitionChangeRecord with an ELR): replicas that
// left the ISR while it was below min.insync.replicas and so still hold
// every committed record. Empty once the ISR is back at min ISR, or after
// an unclean election.
type ELRChanged struct {
	TP  storage.TopicPartition
	ELR []int32
}

func (ELRChanged) Key() string { return "elr.changed" }
func (e ELRChanged) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	w.IDs("elr", e.ELR)
}

// ControllerActivated: node Node became the active controller, leader of
// the metadata quorum in epoch Epoch (QuorumController's
// QuorumMetaLogListener.handleLeaderChange, claim).
type ControllerActivated struct {
	Node  int32
	Epoch int32
}

func (ControllerActivated) Key() string { return "controller.active" }
func (e ControllerActivated) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("epoch", int64(e.Epoch))
}

// ControllerDeactivated: node Node, the active controller of epoch Epoch,
// is no longer active (another voter leads, or it resigned); its
// uncommitted changes are dropped (QuorumController.renounce).
type ControllerDeactivated struct {
	Node  int32
	Epoch int32
}

func (ControllerDeactivated) Key() string { return "controller.inactive" }
func (e ControllerDeactivated) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("epoch", int64(e.Epoch))
}

// configResource writes a config note's resource as words: "topic t",
// "broker 1", or the cluster default for every broker (a broker resource
// with no name).
func configResource(w sim.FieldWriter, typ int8, name string) {
	switch {
	case typ == metadata.ResourceBroker && name == "":
		w.Str("resource", "every broker (cluster default)")
	case typ == metadata.ResourceBroker:
		w.Str("resource", "broker "+name)
	default:
		w.Str("resource", "topic "+name)
	}
}

// ConfigChanged: a committed ConfigRecord set config Name of a resource
// (ResourceType metadata.ResourceTopic or ResourceBroker; a broker's id,
// or "" for the cluster default) to Value
// (ConfigurationControlManager.replay).
type ConfigChanged struct {
	ResourceType int8
	ResourceName string
	Name, Value  string
}

func (ConfigChanged) Key() string { return "config.changed" }
func (e ConfigChanged) Fields(w sim.FieldWriter) {
	configResource(w, e.ResourceType, e.ResourceName)
	w.Str("name", e.Name)
	w.Str("value", e.Value)
}

// ConfigDeleted: a committed ConfigRecord with a null value removed config
// Name of a resource (as in ConfigChanged): it is back to its default
// (ConfigurationControlManager.replay).
type ConfigDeleted struct {
	ResourceType int8
	ResourceName string
	Name         string
}

func (ConfigDeleted) Key() string { return "config.deleted" }
func (e ConfigDeleted) Fields(w sim.FieldWriter) {
	configResource(w, e.ResourceType, e.ResourceName)
	w.Str("name", e.Name)
}

// BrokerRegistered: the controller accepted broker Broker's
// BrokerRegistrationRequest with broker epoch Epoch
// (ClusterControlManager.registerBroker).
type BrokerRegistered struct {
	Broker int32
	Epoch  int64
}

func (BrokerRegistered) Key() string { return "broker.registered" }
func (e BrokerRegistered) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Int("epoch", e.Epoch)
}

// BrokerFenced: the controller fenced broker Broker, for Reason: "session"
// (no heartbeat within broker.session.timeout.ms,
// QuorumController's maybeFenceStaleBroker) or "asked" (its heartbeat
// asked to be fenced); it leaves every ISR and loses its leaderships
// (ReplicationControlManager.handleBrokerFenced).
type BrokerFenced struct {
	Broker int32
	Reason string
}

func (BrokerFenced) Key() string { return "broker.fenced" }
func (e BrokerFenced) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Str("reason", e.Reason)
}

// BrokerUnfenced: the controller unfenced broker Broker, caught up with the
// metadata, and gives leaderless partitions it can lead a leader
// (ReplicationControlManager.handleBrokerUnfenced).
type BrokerUnfenced struct{ Broker int32 }

func (BrokerUnfenced) Key() string { return "broker.unfenced" }
func (e BrokerUnfenced) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
}

// ControlledShutdownStarted: broker Broker asked for a controlled shutdown,
// and the controller moves its leaderships and ISR memberships off it
// (ReplicationControlManager.handleBrokerInControlledShutdown).
type ControlledShutdownStarted struct{ Broker int32 }

func (ControlledShutdownStarted) Key() string { return "broker.shutdown.controlled" }
func (e ControlledShutdownStarted) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
}

// TopicCreated: the controller created topic Topic with Partitions
// partitions and replication factor ReplicationFactor
// (ReplicationControlManager.createTopics).
type TopicCreated struct {
	Topic             string
	Partitions        int32
	ReplicationFactor int16
}

func (TopicCreated) Key() string { return "topic.created" }
func (e TopicCreated) Fields(w sim.FieldWriter) {
	w.Str("topic", e.Topic)
	w.Int("partitions", int64(e.Partitions))
	w.Int("rf", int64(e.ReplicationFactor))
}

// TopicDeleted: the controller deleted topic Topic (a RemoveTopicRecord,
// ReplicationControlManager.deleteTopics).
type TopicDeleted struct{ Topic string }

func (TopicDeleted) Key() string { return "topic.deleted" }
func (e TopicDeleted) Fields(w sim.FieldWriter) {
	w.Str("topic", e.Topic)
}

// PartitionsIncreased: the controller raised topic Topic to Count
// partitions (CreatePartitions, ReplicationControlManager.createPartitions).
type PartitionsIncreased struct {
	Topic string
	Count int32
}

func (PartitionsIncreased) Key() string { return "partitions.increased" }
func (e PartitionsIncreased) Fields(w sim.FieldWriter) {
	w.Str("topic", e.Topic)
	w.Int("count", int64(e.Count))
}

// ReassignmentsAltered: an AlterPartitionReassignments request started or
// cancelled the reassignment of Partitions partitions
// (ReplicationControlManager.alterPartitionReassignments).
type ReassignmentsAltered struct{ Partitions int }

func (ReassignmentsAltered) Key() string { return "reassignment.changed" }
func (e ReassignmentsAltered) Fields(w sim.FieldWriter) {
	w.Int("partitions", int64(e.Partitions))
}

// ReassignmentCompleted: a ZooKeeper-era controller finished moving TP
// to Replicas (KafkaController.onPartitionReassignment's phase B): the
// removed replicas are stopped and deleted, the topic znode lists the
// new ones.
type ReassignmentCompleted struct {
	TP       storage.TopicPartition
	Replicas []int32
}

func (ReassignmentCompleted) Key() string { return "reassignment.completed" }
func (e ReassignmentCompleted) Fields(w sim.FieldWriter) {
	w.Str("tp", e.TP.String())
	w.IDs("replicas", e.Replicas)
}

// LeadersRebalanced: the leader imbalance check moved Count partition
// leaderships back to their preferred replicas through preferred
// elections (auto.leader.rebalance.enable;
// ReplicationControlManager.maybeBalancePartitionLeaders).
type LeadersRebalanced struct{ Count int }

func (LeadersRebalanced) Key() string { return "leaders.rebalanced" }
func (e LeadersRebalanced) Fields(w sim.FieldWriter) {
	w.Int("count", int64(e.Count))
}

// ProducerIDsAllocated: the controller gave broker Broker the block of
// Size producer ids from First (AllocateProducerIds, a ProducerIdsRecord;
// ProducerIdControlManager.generateNextProducerId, a ProducerIdsBlock).
type ProducerIDsAllocated struct {
	Broker int32
	First  int64
	Size   int32
}

func (ProducerIDsAllocated) Key() string { return "producerids.allocated" }
func (e ProducerIDsAllocated) Fields(w sim.FieldWriter) {
	w.Int("broker", int64(e.Broker))
	w.Int("first", e.First)
	w.Int("last", e.First+int64(e.Size)-1)
}

// ZkControllerLoaded: a ZooKeeper-era controller, just elected in epoch
// Epoch, finished reading the cluster back from ZooKeeper
// (initializeControllerContext): Brokers registrations, Topics topic
// znodes and Partitions partition state znodes, in Took since it won.
// Nothing else is decided until it has.
type ZkControllerLoaded struct {
	Node                        int32
	Epoch                       int32
	Brokers, Topics, Partitions int
	Took                        time.Duration
}

func (ZkControllerLoaded) Key() string { return "controller.loaded" }
func (e ZkControllerLoaded) Fields(w sim.FieldWriter) {
	w.Int("node", int64(e.Node))
	w.Int("epoch", int64(e.Epoch))
	w.Int("brokers", int64(e.Brokers))
	w.Int("topics", int64(e.Topics))
	w.Int("partitions", int64(e.Partitions))
	w.Dur("took", e.Took)
}
