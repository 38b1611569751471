package simulate

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/cluster"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/record"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
	"kafkascope/core/storage"
)

func pick[T any](r *sim.Rand, xs []T) T { return xs[r.Intn(len(xs))] }

// fault applies one fault drawn from r, chosen among those that apply to
// the cluster's current state (so the same seed makes the same choices),
// then the fault families that draw from their own streams: a controller
// voter's power loss (faults_voters.go) and a consumer restart
// (faults_consumers.go). Every node may be crashed, stopped or cut,
// controller voters included; the main stream's power losses are of
// broker-only nodes, the voters' come from their own stream (so adding
// them kept every seed's main draws).
func (run *Run) fault(r *sim.Rand) {
	run.brokerFault(r)
	run.voterPowerLoss()
	run.zooKeeperFault()
	if err := run.consumerFault(); err != nil {
		run.violate("simulator", "a consumer restart failed: %v", err)
	}
	if err := run.txnFault(); err != nil {
		run.violate("simulator", "a transactional producer's restart failed: %v", err)
	}
}

// brokerFault applies the fault the main stream draws.
func (run *Run) brokerFault(r *sim.Rand) {
	c := run.C
	var running, down, notPowerOff []int32
	for _, id := range c.NodeIDs() {
		switch st := c.State(id); {
		case st == cluster.NodeRunning && !run.stopping(id):
			running = append(running, id)
		case st != cluster.NodeRunning:
			down = append(down, id)
		}
		if !c.IsVoter(id) && c.State(id) != cluster.NodePowerOff {
			notPowerOff = append(notPowerOff, id)
		}
	}
	var choices faultChoices
	add := choices.add
	add(14, len(running) > 0, func() error {
		id := pick(r, running)
		run.note("broker kill %d", id)
		return c.Kill(id, false)
	})
	add(4, !run.Opts.NoPowerLoss && len(notPowerOff) > 0, func() error {
		id := pick(r, notPowerOff)
		run.note("broker kill %d --power-loss", id)
		return run.powerLoss(id)
	})
	add(8, len(running) > 0, func() error {
		id := pick(r, running)
		run.note("broker stop %d", id)
		return c.Stop(id)
	})
	active := run.activeController()
	add(4, active > 0 && slices.Contains(running, active), func() error {
		run.note("broker kill %d (the active controller)", active)
		return c.Kill(active, false)
	})
	add(16, len(down) > 0, func() error {
		id := pick(r, down)
		run.note("broker start %d", id)
		return c.Start(id)
	})
	n := len(c.NodeIDs())
	a, b := int32(1+r.Intn(n)), int32(1+r.Intn(n))
	net := c.World.Net()
	add(10, a != b && !(net.IsCut(cluster.Host(a), cluster.Host(b)) && net.IsCut(cluster.Host(b), cluster.Host(a))), func() error {
		run.note("network cut %d %d", a, b)
		return c.Cut(a, b, false)
	})
	add(8, a != b && !net.IsCut(cluster.Host(a), cluster.Host(b)), func() error {
		run.note("network cut %d->%d", a, b)
		return c.Cut(a, b, true)
	})
	cuts := brokerCuts(net)
	add(8, len(cuts) > 0, func() error {
		l := pick(r, cuts)
		x, y := hostID(l[0]), hostID(l[1])
		run.note("network heal %d %d", x, y)
		return c.Heal(x, y, false)
	})
	add(3, len(cuts) > 0, func() error {
		return run.healAll()
	})
	add(5, true, func() error {
		id := int32(1 + r.Intn(n))
		d := time.Duration(r.Intn(4)) * 100 * time.Millisecond
		if r.Intn(4) == 0 {
			d = time.Duration(1+r.Intn(5)) * time.Second
		}
		run.note("network delay %d %s", id, sim.FormatDuration(d))
		return c.Delay(id, d)
	})
	add(5, true, func() error { run.note("(no fault)"); return nil })
	run.apply(r, choices)
}

// faultChoices are the faults that apply at one step, with their weights.
type faultChoices []faultChoice

type faultChoice struct {
	weight int
	do     func() error
}

// add offers a fault with weight w if it applies (ok).
func (cs *faultChoices) add(w int, ok bool, do func() error) {
	if ok {
		*cs = append(*cs, faultChoice{w, do})
	}
}

// apply draws one of the choices by weight from r and applies it (a
// refusal is noted in the schedule); nothing when none applies.
func (run *Run) apply(r *sim.Rand, choices faultChoices) {
	total := 0
	for _, ch := range choices {
		total += ch.weight
	}
	if total == 0 {
		return
	}
	x := r.Intn(total)
	for _, ch := range choices {
		if x < ch.weight {
			if err := ch.do(); err != nil {
				run.note("  (refused: %v)", err)
			}
			return
		}
		x -= ch.weight
	}
}

// activeController is the node whose controller leads the quorum (0: none).
func (run *Run) activeController() int32 { return run.C.ActiveControllerID() }

func hostID(host string) int32 {
	id, err := strconv.ParseInt(strings.TrimPrefix(host, "kafka-"), 10, 32)
	if err != nil || !strings.HasPrefix(host, "kafka-") {
		panic(fmt.Sprintf("simulate: %q is not a broker's host name", host))
	}
	return int32(id)
}

// stopping reports whether a running node is in a controlled shutdown.
func (run *Run) stopping(id int32) bool {
	st := run.C.Node(id).Broker.State()
	return st == broker.StatePendingControlledShutdown || st == broker.StateShuttingDown || st == broker.StateStopped
}

// restartAll waits for controlled shutdowns in progress to end, then starts
// every node that is down.
func (run *Run) restartAll() error {
	c := run.C
	err := run.advanceUntil(func() bool {
		for _, id := range c.NodeIDs() {
			if c.State(id) == cluster.NodeRunning && run.stopping(id) {
				return false
			}
		}
		return true
	}, settleLimit)
	if err != nil {
		return err
	}
	for _, id := range c.NodeIDs() {
		if c.State(id) != cluster.NodeRunning {
			run.note("broker start %d", id)
			if err := c.Start(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// powerLoss kills broker id with a power loss (it may already be down),
// first noting which records its replicas lose: those in the page cache
// but not flushed. Both sides are read from the disk, not from the
// broker's logs in memory: a node started in the same instant has not
// opened its logs yet, and a killed node has none, but its page cache
// still holds what it wrote.
func (run *Run) powerLoss(id int32) error {
	c := run.C
	dirs := run.partitionDirs(id)
	before := map[storage.TopicPartition][]record.Record{}
	for tp, dir := range dirs {
		before[tp] = diskRecords(c.Disk(id), dir)
	}
	if err := c.Kill(id, true); err != nil {
		return err
	}
	run.Stats.PowerLosses++
	lost := 0
	for _, tp := range sortedTPs(before) {
		lostHere := false
		kept := map[lostRecord]bool{}
		for _, r := range diskRecords(c.Disk(id), dirs[tp]) {
			kept[lostRecord{tp, r.Offset, string(r.Value)}] = true
		}
		for _, r := range before[tp] {
			if k := (lostRecord{tp, r.Offset, string(r.Value)}); !kept[k] {
				if run.lostToPowerLoss[k] == nil {
					run.lostToPowerLoss[k] = map[int32]bool{}
				}
				run.lostToPowerLoss[k][id] = true
				lost++
				lostHere = true
				if tp.Topic == metadata.ConsumerOffsetsTopic {
					if run.x.offsetsLost == nil {
						run.x.offsetsLost = map[int32]bool{}
					}
					run.x.offsetsLost[tp.Partition] = true
				}
			}
		}
		if lostHere {
			if run.x.powerLossesOf == nil {
				run.x.powerLossesOf = map[brokerPartition]int{}
			}
			run.x.powerLossesOf[brokerPartition{id, tp}]++
		}
	}
	if lost > 0 {
		run.tainted[id] = true
	}
	run.note("  (broker %d lost %d unflushed records)", id, lost)
	return nil
}

// partitionDirs lists the partition directories on broker id's disk (the
// metadata log's excepted: KRaft keeps what it fsynced, checks_metadata.go).
func (run *Run) partitionDirs(id int32) map[storage.TopicPartition]string {
	root := run.C.Config().Static.Broker("log.dirs")
	if root == "" {
		root = "/tmp/kafka-logs"
	}
	out := map[storage.TopicPartition]string{}
	for _, e := range run.C.Disk(id).List(root) {
		tp, ok := storage.ParseDirName(e.Name)
		if e.IsDir && ok && tp.Topic != raft.MetadataTopic {
			out[tp] = root + "/" + e.Name
		}
	}
	return out
}

// sortedTPs lists m's partitions by topic, then partition.
func sortedTPs[V any](m map[storage.TopicPartition]V) []storage.TopicPartition {
	keys := slices.Collect(maps.Keys(m))
	sorts.Func(keys, func(a, b storage.TopicPartition) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return int(a.Partition - b.Partition)
	})
	return keys
}

// logRecords lists a log's records in offset order.
func logRecords(l *storage.Log) []record.Record {
	bs, err := l.Batches(l.LogStartOffset(), l.LogEndOffset())
	if err != nil {
		return nil
	}
	var out []record.Record
	for _, b := range bs {
		out = append(out, b.Records...)
	}
	return out
}

// diskRecords decodes the records in a partition directory's segment files
// as they are now on disk, stopping at the first damaged batch (as recovery
// does).
func diskRecords(d *storage.Disk, dir string) []record.Record {
	var out []record.Record
	for _, e := range d.List(dir) {
		if e.IsDir || !strings.HasSuffix(e.Name, ".log") {
			continue
		}
		data, err := d.ReadFile(dir + "/" + e.Name)
		if err != nil {
			continue
		}
		for len(data) > 0 {
			b, n, err := record.Decode(data)
			if err != nil {
				break
			}
			out = append(out, b.Records...)
			data = data[n:]
		}
	}
	return out
}
