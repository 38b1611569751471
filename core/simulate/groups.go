package simulate

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"kafkascope/core/groupcoordinator"
	"kafkascope/core/hashing"
	"kafkascope/core/metadata"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// member is one consumer process of a group of the workload. A consumer
// restart (faults_consumers.go) ends a member's process and starts another
// member with the same client.id: a new process, a new member id.
type member struct {
	group string
	name  string // client.id
	host  string
	c     *client.Consumer

	crashed bool // its process was killed: no close, no LeaveGroup
	closing bool // Close was called (by a fault or at the end)
	closed  bool // Close finished: its last commit and LeaveGroup are done
	exited  bool // its process ended after closing
	// fatalSince is when the member was first seen FATAL (0: not seen);
	// its supervisor may restart it fatalRestartBackoff later
	// (restartFatal).
	fatalSince sim.Time
	// fatal is the error that stopped a classic-protocol consumer for good
	// (its poll would throw it), "" while none did.
	fatal string

	consumed int // records it was given
}

// live reports whether the member's process runs and nothing ended it yet.
func (m *member) live() bool { return !m.crashed && !m.closing }

// groupTopics are the topics every member subscribes to.
func (run *Run) groupTopics() []string {
	var topics []string
	for _, t := range run.Plan.Topics {
		topics = append(topics, t.Name)
	}
	return topics
}

// startGroups spawns every group's members: subscribed to every topic,
// reading from the earliest offset, committing automatically every
// auto.commit.interval.ms (5 s). Each record a member receives is checked
// against the partition's HW (read-above-hw).
func (run *Run) startGroups() error {
	for _, g := range run.Plan.Groups {
		for i := 0; i < g.Members; i++ {
			if _, err := run.startMember(g.ID, fmt.Sprintf("%s-consumer-%d", g.ID, i+1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// startMember spawns one consumer process of group with client.id name on
// a fresh host, and adds it to run.members.
func (run *Run) startMember(group, name string) (*member, error) {
	topics := run.groupTopics()
	m := &member{group: group, name: name}
	cfg := client.DefaultConsumerConfigFor(run.Plan.Version)
	cfg.ClientID, cfg.GroupID, cfg.AutoOffsetReset = name, group, "earliest"
	for _, g := range run.Plan.Groups {
		if g.ID != group {
			continue
		}
		if memberUsesConsumerProtocol(g, name) {
			cfg.GroupProtocol = "consumer"
		}
		if g.Static {
			cfg.GroupInstanceID = name
		}
	}
	host, err := run.C.SpawnClient(name, func(host string) sim.Process {
		m.c = client.NewConsumer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.clientLog(name))
		m.c.OnRecords(func(env *sim.Env, recs []client.ConsumerRecord) { run.consumed(m, recs) })
		m.c.OnError(func(env *sim.Env, err *client.Error) { m.fatal = err.Error() })
		run.watchCommits(m)
		return &client.Process{Handlers: []client.Handler{m.c}, OnStart: func(env *sim.Env) {
			m.c.Subscribe(env, sim.Addr(host+":2"), topics)
		}}
	})
	if err != nil {
		return nil, err
	}
	m.host = host
	run.members = append(run.members, m)
	return m, nil
}

// consumed (read-above-hw): a consumer is only given records below the
// high watermark, so each record's offset is below the highest HW any
// replica of its partition has now (read under the lockstep, as
// cluster/loss.go does).
func (run *Run) consumed(m *member, recs []client.ConsumerRecord) {
	for _, r := range recs {
		tp := storage.TopicPartition{Topic: r.Topic, Partition: r.Partition}
		hw := run.highestHW(tp)
		if r.Offset >= hw {
			run.violate("read-above-hw", "%s received %s offset %d, but no replica's HW is above %d", m.name, tp, r.Offset, hw)
		}
		if d := run.markerDelivered(tp, r); d != "" {
			run.violate("marker-delivered", "%s was given %s", m.name, d)
		}
	}
	m.consumed += len(recs)
	run.Stats.Consumed += len(recs)
}

// highestHW is the highest HW any replica of tp has now or had, at a
// sample or as it moved. An HW can go down: a leader's HW passes an
// offset just before it hands leadership to a replica that, under
// min.insync.replicas, cannot raise its own
// (Partition.maybeIncrementLeaderHW returns early), and the followers
// take the lower one; a fetch the old leader answered below its HW read
// records above the later HW (seed 3281 on 4.1: 564, then 563).
func (run *Run) highestHW(tp storage.TopicPartition) int64 {
	hw := max(run.maxHW[tp], run.hwNoted[tp])
	for _, id := range run.C.NodeIDs() {
		if run.C.State(id) != cluster.NodeRunning {
			continue
		}
		if p := run.C.Node(id).Broker.Partition(tp); p != nil {
			hw = max(hw, p.Log().HighWatermark())
		}
	}
	return hw
}

// closeMember calls the member's Close (a last commit, then LeaveGroup);
// m.closed is set when it has finished (bounded by the client's commit
// timeout).
func (run *Run) closeMember(m *member) error {
	m.closing = true
	return run.C.World.Call(m.host, "close", func(env *sim.Env) {
		m.c.Close(env, func(*sim.Env) { m.closed = true })
	})
}

// groupsSettled (group-liveness): every group of the workload with a live
// member is Stable at its coordinator (the leader of its __consumer_offsets
// partition), and its members are exactly the live members' processes (or,
// for static members, their instance ids): crashed ones expired after
// session.timeout.ms or were replaced by their instance, closed ones left. A group
// with no live member is Empty (or not loaded yet: it is then skipped).
func (run *Run) groupsSettled() bool {
	if run.C.ControllerImage() == nil {
		return false
	}
	for _, g := range run.Plan.Groups {
		// A member is known by its process's host, or by its
		// group.instance.id when static: a static member that takes its
		// own place back keeps the old process's client host (classic:
		// GroupMetadata.replaceStaticMember moves the old MemberMetadata
		// to the new member id).
		key := func(host, instanceID string) string {
			if instanceID != "" {
				return instanceID
			}
			return host
		}
		var want []string
		for _, m := range run.members {
			if m.group == g.ID && m.live() && !run.diedWithItsGroup(m) {
				instance := ""
				if g.Static {
					instance = m.name
				}
				want = append(want, key("/"+m.host, instance))
			}
		}
		v, ok := run.coordinatorView(g.ID)
		switch {
		case !ok:
			if len(want) > 0 {
				return false
			}
			continue
		case len(want) == 0:
			if v.State != "Empty" {
				return false
			}
			continue
		case v.State != "Stable":
			return false
		}
		var got []string
		for _, mv := range v.Members {
			got = append(got, key(mv.ClientHost, mv.InstanceID))
		}
		if !sameSet(got, want) {
			return false
		}
	}
	return true
}

// diedWithItsGroup (exemptGroupLostToPowerLoss): m is a consumer-protocol
// member that stopped for good (FATAL) after a power loss took records of
// its group's __consumer_offsets partition.
func (run *Run) diedWithItsGroup(m *member) bool {
	if !run.exempt(exemptGroupLostToPowerLoss) || m.c.State().MemberState != "FATAL" {
		return false
	}
	tp := storage.TopicPartition{Topic: metadata.ConsumerOffsetsTopic, Partition: run.groupPartition(m.group)}
	for k := range run.lostToPowerLoss {
		if k.tp == tp {
			return true
		}
	}
	return false
}

// groupPartition is group id's __consumer_offsets partition
// (GroupMetadataManager.partitionFor).
func (run *Run) groupPartition(id string) int32 {
	n := int32(run.C.Config().Static.BrokerInt("offsets.topic.num.partitions"))
	return hashing.CoordinatorPartition(id, n)
}

// brokerAt is the broker listening at addr.
func (run *Run) brokerAt(addr sim.Addr) (int32, bool) {
	for _, id := range run.C.NodeIDs() {
		if cluster.BrokerAddr(id) == addr {
			return id, true
		}
	}
	return 0, false
}

// coordinatorView is what group id's coordinator shows of it: the broker
// the controller names as leader of its __consumer_offsets partition, if
// it runs and has the group loaded.
func (run *Run) coordinatorView(id string) (groupcoordinator.GroupView, bool) {
	img := run.C.ControllerImage()
	if img == nil {
		return groupcoordinator.GroupView{}, false
	}
	st := img.Partition(metadata.ConsumerOffsetsTopic, run.groupPartition(id))
	if st == nil || st.Leader < 0 || run.C.State(st.Leader) != cluster.NodeRunning {
		return groupcoordinator.GroupView{}, false
	}
	for _, v := range run.C.Node(st.Leader).Broker.GroupCoordinator().Groups() {
		if v.ID == id {
			return v, true
		}
	}
	return groupcoordinator.GroupView{}, false
}

// describeGroups is every group as its coordinator shows it (for a
// group-liveness violation).
func (run *Run) describeGroups() string {
	var b strings.Builder
	for _, g := range run.Plan.Groups {
		fmt.Fprintf(&b, "    %s: live members", g.ID)
		for _, m := range run.members {
			if m.group == g.ID && m.live() {
				fmt.Fprintf(&b, " /%s", m.host)
			}
		}
		if v, ok := run.coordinatorView(g.ID); ok {
			fmt.Fprintf(&b, "; coordinator: %s generation %d members", v.State, v.Generation)
			for _, mv := range v.Members {
				fmt.Fprintf(&b, " %s", mv.ClientHost)
			}
		} else {
			b.WriteString("; no coordinator has it loaded")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// groupSettleLimit bounds how long the groups may take to settle after
// healing. It is longer than settleLimit because Kafka's own bound is: a
// JoinGroup is given max.poll.interval.ms + 5 s (305 s, AbstractCoordinator's
// JOIN_GROUP_TIMEOUT_LAPSE) before the client gives up on it, so a
// JoinGroup sent to a coordinator whose machine then lost power (no TCP
// reset) is only retried after that; then the dead member's
// session.timeout.ms (45 s) and a rebalance.
const groupSettleLimit = 6 * time.Minute

// closeGroups first requires every group to settle (group-liveness, within
// groupSettleLimit), then closes every member still running (a last commit,
// then LeaveGroup), waits for the closes, including those a fault began,
// and ends their processes. Crashed members are long gone.
func (run *Run) closeGroups() error {
	if len(run.Plan.Groups) > 0 {
		// Polled every half second of virtual time, not after every event:
		// a coordinator's group view is costly to build.
		end := run.C.World.Now().Add(groupSettleLimit)
		for !run.groupsSettled() && run.C.World.Now() < end {
			if err := run.restartFatal(); err != nil {
				return err
			}
			if err := run.advance(500 * time.Millisecond); err != nil {
				return err
			}
		}
		if !run.groupsSettled() {
			run.violate("group-liveness", "the consumer groups did not settle within %s after healing:\n%s", groupSettleLimit, run.describeGroups())
		}
	}
	for _, m := range run.members {
		if m.live() {
			if err := run.closeMember(m); err != nil {
				return err
			}
		}
	}
	allClosed := func() bool {
		for _, m := range run.members {
			if m.closing && !m.closed {
				return false
			}
		}
		return true
	}
	if err := run.advanceUntil(allClosed, settleLimit); err != nil {
		return err
	}
	for _, m := range run.members {
		if !m.crashed && !m.exited {
			run.C.StopClient(m.host)
			m.exited = true
		}
	}
	return nil
}

// memberUsesConsumerProtocol says whether member name of g runs
// group.protocol=consumer: every member of a consumer group, and the
// second member of a mixed one.
func memberUsesConsumerProtocol(g GroupPlan, name string) bool {
	switch g.Protocol {
	case "consumer":
		return true
	case "mixed":
		return strings.HasSuffix(name, "-consumer-2")
	}
	return false
}

// fatalRestartBackoff is how long a supervisor waits before starting a
// member that stopped on a fatal error again.
const fatalRestartBackoff = 10 * time.Second

// restartFatal restarts the members that stopped for good where Kafka's
// consumer does so without any fault of the engine, as a deployment's
// supervisor would, fatalRestartBackoff after they stopped:
//   - static members. On the consumer protocol (KIP-848) a static member
//     that crashed keeps its group.instance.id until its session expires
//     (45 s), and a new process with that id gets UNRELEASED_INSTANCE_ID,
//     which AsyncKafkaConsumer treats as fatal. On the classic protocol a
//     static member's JoinGroup is answered FENCED_INSTANCE_ID, fatal too
//     (AbstractCoordinator's JoinGroupResponseHandler), when the
//     coordinator maps its instance id to another member id: seed 2827 on
//     4.3, where a new coordinator loaded the group as last written,
//     generations behind the one the old coordinator had gone on to in
//     memory (a SyncGroup whose group write fails keeps the in-memory
//     generation: GroupCoordinator.doSyncGroup →
//     resetAndPropagateAssignmentError). It is started again until the
//     old member is gone and the new one takes its place.
//   - the consumer-protocol member of a mixed group whose session expired
//     while the classic member stayed: the coordinator downgrades the
//     group to classic (group.consumer.migration.policy bidirectional,
//     GroupMetadataManager's "Downgrade group ... for member leaving"), and
//     the member's next heartbeat, at its old epoch, is answered
//     GROUP_ID_NOT_FOUND "Group G is not a consumer group."
//     (getOrMaybeCreateConsumerGroup creates or upgrades only for epoch 0),
//     which the consumer treats as fatal
//     (AbstractHeartbeatRequestManager.onErrorResponse; seed 5714 on 4.1).
//     Started again, it joins at epoch 0 and the group is upgraded back.
func (run *Run) restartFatal() error {
	now := run.C.World.Now()
	for _, m := range slices.Clone(run.members) {
		if !m.live() || m.c.State().MemberState != "FATAL" && m.fatal == "" {
			continue
		}
		if !run.groupPlan(m.group).Static && !strings.Contains(m.fatal, "is not a consumer group") {
			continue
		}
		if m.fatalSince == 0 {
			m.fatalSince = now
			continue
		}
		if now < m.fatalSince.Add(fatalRestartBackoff) {
			continue
		}
		run.note("consumer %s (%s) stopped on a fatal error; its supervisor starts it again", m.name, m.group)
		run.C.StopClient(m.host)
		m.crashed = true
		if _, err := run.startMember(m.group, m.name); err != nil {
			return err
		}
	}
	return nil
}
