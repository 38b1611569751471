package simulate

import (
	"strconv"
	"strings"

	"kafkascope/core/config"
	"kafkascope/core/kafkazk"
	"kafkascope/core/zookeeper"
)

// The ZooKeeper era's checkers, on every transaction an ensemble member
// commits (cluster.OnZooKeeperCommit; checked once per zxid, by the first
// member to apply it):
//   - zk-state-epoch: a partition's state znode is written by the current
//     controller only. Every controller write is guarded by the
//     /controller_epoch znode's version (KafkaZkClient's
//     checkControllerAndEpoch ops, 2.8.0), so the controller_epoch a
//     committed state carries is the epoch /controller_epoch holds. Below
//     IBP 2.7-IV2 leaders write their ISR changes themselves with the
//     controller epoch of the LeaderAndIsr that made them leader
//     (Partition.updateIsr, conditional on the znode's version only), so
//     there it may be older, never newer.
//
// One controller per controller epoch is checked on the engine's notes
// (one-controller-per-epoch, checks_notes.go).
func (run *Run) onZooKeeperCommit(t zookeeper.Txn, tree *zookeeper.Tree) {
	if t.Zxid <= run.x.zkCheckedZxid {
		return
	}
	run.x.zkCheckedZxid = t.Zxid
	ops := []zookeeper.Txn{t}
	if t.Type == zookeeper.OpMulti {
		ops = t.Ops
	}
	for _, op := range ops {
		if op.Type != zookeeper.OpCreate && op.Type != zookeeper.OpSetData {
			continue
		}
		tp, ok := partitionOfStatePath(op.Path)
		if !ok {
			continue
		}
		st, err := kafkazk.DecodePartitionState(op.Data)
		if err != nil {
			run.violate("zk-state-epoch", "%s: the state znode written at zxid %#x does not decode: %v", tp, t.Zxid, err)
			continue
		}
		data, _, err := tree.GetData(kafkazk.ControllerEpochPath, zookeeper.NoWatch)
		if err != nil {
			continue // no controller yet
		}
		epoch, err := kafkazk.DecodeControllerEpoch(data)
		if err != nil {
			continue
		}
		run.x.zkStatesChecked++
		if v := stateEpochViolation(st.ControllerEpoch, epoch, run.leadersWriteISR()); v != "" {
			run.violate("zk-state-epoch", "%s: state written at zxid %#x %s", tp, t.Zxid, v)
		}
	}
}

// stateEpochViolation says what is wrong with a state znode written by
// controller epoch wrote while /controller_epoch holds current ("": nothing).
func stateEpochViolation(wrote, current int32, leadersWrite bool) string {
	switch {
	case wrote > current:
		return "by controller epoch " + strconv.Itoa(int(wrote)) + ", newer than /controller_epoch " + strconv.Itoa(int(current))
	case wrote < current && !leadersWrite:
		return "by controller epoch " + strconv.Itoa(int(wrote)) + " while /controller_epoch is " + strconv.Itoa(int(current)) + ": a deposed controller's write went through"
	}
	return ""
}

// leadersWriteISR reports whether leaders write their ISR changes to
// ZooKeeper themselves (inter.broker.protocol.version below 2.7-IV2).
func (run *Run) leadersWriteISR() bool {
	ibp, ok := run.Opts.Overrides["inter.broker.protocol.version"]
	return ok && !config.AlterIsrSupported(ibp)
}

// partitionOfStatePath reads "topic-p" from
// /brokers/topics/T/partitions/P/state.
func partitionOfStatePath(path string) (string, bool) {
	rest, ok := strings.CutPrefix(path, kafkazk.TopicsPath+"/")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, "/state")
	if !ok {
		return "", false
	}
	topic, p, ok := strings.Cut(rest, "/partitions/")
	if !ok {
		return "", false
	}
	return topic + "-" + p, true
}
