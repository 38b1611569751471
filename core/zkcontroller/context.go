package zkcontroller

import (
	"maps"
	"slices"

	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sorts"
	"kafkascope/core/storage"
)

// context is ControllerContext: what the active controller loaded from
// ZooKeeper and keeps in memory. The split that KRaft removed lives here:
// this copy and ZooKeeper's must agree, and a new controller rebuilds it
// by reading ZooKeeper again.
type context struct {
	live         map[int32]liveBroker // brokers with a /brokers/ids znode
	shuttingDown map[int32]bool
	topics       map[string]*topicInfo
	states       map[storage.TopicPartition]*leaderIsr // leadership info: the state znodes as last read or written
	pstate       map[storage.TopicPartition]partitionStateName
	del          deletions // topic deletion (deletion.go)
	// reassigning is partitionsBeingReassigned (reassign.go): each has
	// adding or removing replicas in its topic's assignment.
	reassigning map[storage.TopicPartition]bool
}

// liveBroker is a registered broker and its epoch (its znode's czxid).
type liveBroker struct {
	info  kafkazk.BrokerInfo
	epoch int64
}

// topicInfo is a topic's id and replica assignment, by partition: the
// full replica set of each, and for those being reassigned the replicas
// being added and removed.
type topicInfo struct {
	id               metadata.Uuid
	assignment       [][]int32
	adding, removing map[int32][]int32
	zkHasNoID        bool // its znode was written without a topic_id (kafka-topics --zookeeper)
	dataVersion      int32
}

// leaderIsr is LeaderIsrAndControllerEpoch with its zkVersion.
type leaderIsr struct {
	leader          int32
	leaderEpoch     int32
	isr             []int32
	controllerEpoch int32
	zkVersion       int32
}

func (l *leaderIsr) clone() *leaderIsr {
	c := *l
	c.isr = slices.Clone(l.isr)
	return &c
}

func (l *leaderIsr) state() kafkazk.PartitionState {
	return kafkazk.PartitionState{Leader: l.leader, LeaderEpoch: l.leaderEpoch, ISR: slices.Clone(l.isr), ControllerEpoch: l.controllerEpoch}
}

// partitionStateName is PartitionStateMachine's PartitionState.
type partitionStateName uint8

const (
	nonExistentPartition partitionStateName = iota
	newPartition
	onlinePartition
	offlinePartition
)

func (s partitionStateName) String() string {
	return [...]string{"NonExistentPartition", "NewPartition", "OnlinePartition", "OfflinePartition"}[s]
}

func newContext() *context {
	return &context{
		live: map[int32]liveBroker{}, shuttingDown: map[int32]bool{},
		topics: map[string]*topicInfo{}, states: map[storage.TopicPartition]*leaderIsr{},
		pstate: map[storage.TopicPartition]partitionStateName{}, del: newDeletions(),
		reassigning: map[storage.TopicPartition]bool{},
	}
}

func (x *context) topicNames() []string { return slices.Sorted(maps.Keys(x.topics)) }

func (x *context) liveIDs() []int32 { return sortedIDs(x.live) }

// isLive: the broker is registered and not shutting down
// (isReplicaOnline's liveBrokerIds, which excludes shutting-down brokers).
func (x *context) isLive(id int32) bool {
	_, ok := x.live[id]
	return ok && !x.shuttingDown[id]
}

// isLiveOrShuttingDown: registered at all (liveOrShuttingDownBrokerIds).
func (x *context) isLiveOrShuttingDown(id int32) bool {
	_, ok := x.live[id]
	return ok
}

// replicas is a partition's assignment (nil if unknown).
func (x *context) replicas(tp storage.TopicPartition) []int32 {
	t := x.topics[tp.Topic]
	if t == nil || int(tp.Partition) >= len(t.assignment) {
		return nil
	}
	return t.assignment[tp.Partition]
}

// allPartitions is every partition, sorted.
func (x *context) allPartitions() []storage.TopicPartition {
	var out []storage.TopicPartition
	for _, n := range x.topicNames() {
		for i := range x.topics[n].assignment {
			out = append(out, storage.TopicPartition{Topic: n, Partition: int32(i)})
		}
	}
	return out
}

// partitionsOn is every partition with a replica on broker id.
func (x *context) partitionsOn(id int32) []storage.TopicPartition {
	var out []storage.TopicPartition
	for _, tp := range x.allPartitions() {
		if slices.Contains(x.replicas(tp), id) {
			out = append(out, tp)
		}
	}
	return out
}

// partitionsInState lists the partitions in any of the states, sorted.
func (x *context) partitionsInState(states ...partitionStateName) []storage.TopicPartition {
	var out []storage.TopicPartition
	for tp, s := range x.pstate {
		if slices.Contains(states, s) {
			out = append(out, tp)
		}
	}
	sorts.Func(out, storage.ComparePartitions)
	return out
}

func storageTP(topic string, p int) storage.TopicPartition {
	return storage.TopicPartition{Topic: topic, Partition: int32(p)}
}
