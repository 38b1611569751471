package simulate

import (
	"fmt"

	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// partitionEpoch is one leader epoch of one partition.
type partitionEpoch struct {
	tp    storage.TopicPartition
	epoch int32
}

// observe sees every engine note as it is made and checks the uniqueness
// invariants on them:
//   - one-leader-per-epoch: at most one broker starts leading a partition
//     in a given leader epoch (event.LeaderStarted);
//   - one-quorum-leader-per-epoch: at most one KRaft voter becomes the
//     quorum leader in a given quorum epoch (event.RaftTransition to
//     Leader);
//   - one-controller-per-epoch: at most one node becomes the active
//     controller in a given controller epoch (event.ControllerActivated:
//     the ZooKeeper era's /controller_epoch, KRaft's quorum epoch);
//   - election-allowed: every leader the controller elects is one the
//     cluster's release allows (checks_elections.go);
//   - producer-id-unique: no two blocks of producer ids brokers receive
//     overlap (event.ProducerIDBlockReceived): each id names one producer
//     in the whole cluster, or two producers' sequence numbers meet in
//     one partition's producer state and one's batches are taken as the
//     other's duplicates.
func (run *Run) observe(e sim.TraceEvent) {
	switch n := e.Note.(type) {
	case event.LeaderStarted:
		run.noteLeadAfterPowerLoss(n.Broker, partitionEpoch{n.TP, n.Epoch})
		checkUniqueLeader(run, "one-leader-per-epoch", run.leaderOfEpoch, partitionEpoch{n.TP, n.Epoch}, n.Broker,
			fmt.Sprintf("%s leader epoch %d", n.TP, n.Epoch))
	case event.LeaderElected:
		if run.x.elected == nil {
			run.x.elected = map[string][]electedEpoch{}
		}
		tp := n.TP.String()
		run.x.elected[tp] = append(run.x.elected[tp], electedEpoch{e.At, n.Epoch})
		run.checkElection(n)
	case event.ControllerActivated:
		if run.x.controllerOfEpoch == nil {
			run.x.controllerOfEpoch = map[int32]int32{}
		}
		checkUniqueLeader(run, "one-controller-per-epoch", run.x.controllerOfEpoch, n.Epoch, n.Node,
			fmt.Sprintf("controller epoch %d", n.Epoch))
	case event.TxnStateChanged, event.TxnMarkerWritten:
		run.txn.notes = append(run.txn.notes, e)
	case event.HighWatermarkUpdated:
		run.hwNoted[n.TP] = max(run.hwNoted[n.TP], n.HW)
		run.noteLSO(n.Broker, n.TP)
	case event.ProducerIDBlockReceived:
		run.checkProducerIDBlock(n)
	case event.TxnMarkerSkipped:
		if run.x.markersSkipped == nil {
			run.x.markersSkipped = map[int64][]storage.TopicPartition{}
		}
		run.x.markersSkipped[n.ProducerID] = append(run.x.markersSkipped[n.ProducerID], n.TP)
	case event.FollowerTruncated:
		if n.TP.Topic == metadata.TransactionStateTopic && n.From > n.To {
			if run.x.txnStateTruncated == nil {
				run.x.txnStateTruncated = map[storage.TopicPartition]bool{}
			}
			run.x.txnStateTruncated[n.TP] = true
		}
	case event.RaftTransition:
		if n.Role == "Leader" {
			checkUniqueLeader(run, "one-quorum-leader-per-epoch", run.quorumLeader, n.Epoch, n.Node,
				fmt.Sprintf("quorum epoch %d", n.Epoch))
		}
		if n.Role == "Candidate" {
			run.noteCandidate(n.Node, n.Epoch)
		}
	}
}

// checkUniqueLeader records that node leads key; another node leading the
// same key is a violation. (The same node leading it again, e.g. after a
// restart that reloads its state, is not.)
func checkUniqueLeader[K comparable](run *Run, invariant string, seen map[K]int32, key K, node int32, what string) {
	if prev, ok := seen[key]; ok && prev != node {
		run.violate(invariant, "%s: led by %d, then by %d", what, prev, node)
		return
	}
	seen[key] = node
}

// noteLeadAfterPowerLoss marks tp when broker starts leading an epoch it
// had led before a power loss took records of tp from it: on the
// ZooKeeper era's controller failover (seed 336 on 2.8; first found as 181) a broker that
// lost power and registered again while no controller was active is
// still the leader in the partition's state znode, and the new controller
// sends that state, epoch unchanged, to every replica
// (PartitionStateMachine.initializePartitionState keeps a partition whose
// leader is alive online; ReplicaStateMachine.startup sends the
// LeaderAndIsr it holds). The restarted broker has no partition yet and
// takes the epoch; followers that hold it already ignore the request
// (ReplicaManager.becomeLeaderOrFollower: an equal epoch is
// STALE_CONTROLLER_EPOCH). Two histories then share one epoch. Only the
// ZooKeeper era is marked: a KRaft controller fences a broker that
// registers again and moves its leaderships to a new epoch.
func (run *Run) noteLeadAfterPowerLoss(broker int32, key partitionEpoch) {
	if !run.C.IsZooKeeper() {
		return
	}
	losses := run.x.powerLossesOf[brokerPartition{broker, key.tp}]
	if prev, ok := run.leaderOfEpoch[key]; ok && prev == broker {
		if losses > run.x.ledAfter[key] {
			if run.x.reledAfterLoss == nil {
				run.x.reledAfterLoss = map[storage.TopicPartition]bool{}
			}
			run.x.reledAfterLoss[key.tp] = true
		}
		return
	}
	if run.x.ledAfter == nil {
		run.x.ledAfter = map[partitionEpoch]int{}
	}
	run.x.ledAfter[key] = losses
}

// staleLeadership reports whether a broker that started leading tp in epoch
// at time at was replaying metadata already superseded: the controller had
// committed a later epoch of tp by then. A broker catching up applies each
// committed change in turn, so it may lead an old epoch for an instant
// before the next change moves it to follower; it is then no replica's
// leader (the current ISR follows the current leader) and cannot lose
// committed records (committed-data-lost would report the records it
// lacks; acked-write-lost, isr-identical and liveness still check the
// data itself).
func (run *Run) staleLeadership(tp string, epoch int32, at sim.Time) bool {
	for _, e := range run.x.elected[tp] {
		if e.at <= at && e.epoch > epoch {
			return true
		}
	}
	return false
}

// checkProducerIDBlock (producer-id-unique): a block received must not
// overlap one received before, by any broker (Kafka's controller hands
// out each block once: ProducerIdControlManager.generateNextProducerId
// moves nextProducerId past it in a committed ProducerIdsRecord, which
// every later controller replays; in the ZooKeeper era the
// /latest_producer_id_block znode's version guards it).
func (run *Run) checkProducerIDBlock(b event.ProducerIDBlockReceived) {
	for _, prev := range run.x.idBlocks {
		if b.First <= prev.Last && prev.First <= b.Last {
			run.violate("producer-id-unique", "broker %d received producer ids [%d, %d], which overlap [%d, %d] broker %d received before",
				b.Broker, b.First, b.Last, prev.First, prev.Last, prev.Broker)
			return
		}
	}
	run.x.idBlocks = append(run.x.idBlocks, b)
}

// electionLockstepEpochs is how many consecutive quorum epochs two voters
// must have stood in together for exemptElectionLockstep: at a 1 s
// backoff, 10 s of split votes.
const electionLockstepEpochs = 10

// noteCandidate records voter node standing as a candidate in epoch, and
// the streak of consecutive epochs in which two voters did.
func (run *Run) noteCandidate(node, epoch int32) {
	x := &run.x
	if x.candidateEpoch == nil {
		x.candidateEpoch = map[int32]int32{}
	}
	x.candidateEpoch[node] = epoch
	together := 0
	for _, e := range x.candidateEpoch {
		if e == epoch {
			together++
		}
	}
	if together != 2 {
		return
	}
	if epoch == x.tiedEpoch+1 {
		x.tiedStreak++
	} else {
		x.tiedStreak = 1
	}
	x.tiedEpoch = epoch
}

// electionLockstep (exemptElectionLockstep): no active controller, the
// quorum has two voters, and they stood together in each of the last
// electionLockstepEpochs epochs, the last of them the highest any voter
// reached.
func (run *Run) electionLockstep() bool {
	if !run.exempt(exemptElectionLockstep) || run.C.ControllerImage() != nil || run.x.tiedStreak < electionLockstepEpochs {
		return false
	}
	voters := 0
	for _, id := range run.C.NodeIDs() {
		if !run.C.IsVoter(id) {
			continue
		}
		voters++
		if n := run.voterRaft(id); n == nil || n.LeaderAndEpoch().Epoch > run.x.tiedEpoch {
			return false
		}
	}
	return voters == 2
}
