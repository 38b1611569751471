package simulate

import (
	"kafkascope/core/event"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// extras is the state of the fault families and checkers added after the
// first simulator session: controller-voter power losses
// (faults_voters.go), consumer restarts (faults_consumers.go), the
// __consumer_offsets partitions a power loss touched (groups.go) and the
// metadata-log checker (checks_metadata.go). Every field starts at its
// zero value and is filled on first use, so a Run needs no set-up for it.
type extras struct {
	// Each new fault family draws from its own stream, so the main
	// "simulate/faults" stream draws what it drew before they existed: a
	// seed's schedule only changes from the first step one of them fires.
	voters    *sim.Rand // "simulate/faults/voters"
	consumers *sim.Rand // "simulate/faults/consumers"
	zookeeper *sim.Rand // "simulate/faults/zookeeper"

	// offsetsLost marks the __consumer_offsets partitions of which some
	// broker lost records in a power loss (see checkCommits).
	offsetsLost map[int32]bool

	// elected lists, per partition ("topic-p"), the leader epochs the
	// controller committed and when it did (note "leader.elected"), in
	// order: committed-data-lost skips a broker that started leading an
	// epoch already superseded then (see staleLeadership).
	elected map[string][]electedEpoch

	// powerLossesOf counts, per broker and partition, the power losses
	// that took records of the partition from that broker; ledAfter is
	// that count when the broker first started leading an epoch, and
	// reledAfterLoss marks the partitions whose leader led an epoch again
	// after losing records of it (see exemptReledAfterPowerLoss).
	powerLossesOf  map[brokerPartition]int
	ledAfter       map[partitionEpoch]int
	reledAfterLoss map[storage.TopicPartition]bool

	// zkCheckedZxid is the last ZooKeeper transaction the ZooKeeper
	// era's checkers saw (checks_zookeeper.go); controllerOfEpoch names
	// the broker that became the controller in each controller epoch.
	zkCheckedZxid     int64
	zkStatesChecked   int
	controllerOfEpoch map[int32]int32

	// txnStateTruncated marks the __transaction_state partitions a
	// replica truncated records of (exemptTxnStateTruncated).
	txnStateTruncated map[storage.TopicPartition]bool

	// markersSkipped: each producer id's partitions a coordinator
	// completed a transaction without (exemptMarkerSkipped).
	markersSkipped map[int64][]storage.TopicPartition

	// idBlocks are the blocks of producer ids brokers received, in order
	// (producer-id-unique).
	idBlocks []event.ProducerIDBlockReceived

	// candidateEpoch is the last quorum epoch each voter stood in as a
	// candidate; tiedStreak counts the consecutive epochs, up to
	// tiedEpoch, in which two voters did (exemptElectionLockstep).
	candidateEpoch map[int32]int32
	tiedEpoch      int32
	tiedStreak     int

	// metaCommitted is the leader epoch of every metadata-log offset seen
	// committed (index = offset; -1 where it was only in a snapshot).
	metaCommitted []int32
}

// brokerPartition is one broker's replica of a partition.
type brokerPartition struct {
	broker int32
	tp     storage.TopicPartition
}

type electedEpoch struct {
	at    sim.Time
	epoch int32
}

// stream returns *p, creating the named stream of the run's seed first.
func (run *Run) stream(p **sim.Rand, name string) *sim.Rand {
	if *p == nil {
		*p = sim.NewRand(run.Plan.Seed, name)
	}
	return *p
}
