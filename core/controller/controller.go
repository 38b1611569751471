package controller

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/metrics"
	"kafkascope/core/placement"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// Config is what a controller needs to know at start.
type Config struct {
	NodeID    int32
	Addr      sim.Addr // its listener, e.g. kafka-1:9093
	ClusterID string
	Static    config.Static
	// Release is the Kafka release the cluster was formatted as: its
	// metadata.version is the one the bootstrap records set.
	Release release.Release
}

// Controller is one controller voter's state machine over the
// __cluster_metadata log that its raft node replicates. Every voter replays
// the committed log into its image; the voter that leads the quorum is the
// active controller: it decides changes, appends them through raft, and
// answers each request once what it wrote is committed. The others answer
// NOT_CONTROLLER.
//
// Invariants: committed is the replay of every committed batch delivered
// so far (committed.Offset is the last one's offset). While inactive, image
// is committed. While active, image is committed plus every record this
// controller appended in its epoch and not yet delivered as committed, in
// offset order, and lastWritten is the offset of the last of them.
type Controller struct {
	cfg  Config
	raft *raft.Node
	raft.BaseListener

	committed *metadata.Image
	image     *metadata.Image

	active      bool
	epoch       int32 // the quorum epoch this controller was last active in
	gen         int   // bumped on every activation and deactivation: stale timers check it
	lastWritten int64
	replies     []deferredReply
	handling    protocol.Request // the request Receive is handling
	snapshots   snapshotPolicy

	sessions map[int32]*session
	expiry   *sim.Timer
	placer   placement.Striped
	ids      *sim.Rand

	uncleanPending bool // the periodic unclean-election check is armed
	// uncleanElections is kafka.controller:type=ControllerStats,
	// name=UncleanLeaderElectionsPerSec (Kafka 3.9+; nil before): every
	// controller marks it as it replays committed partition changes.
	uncleanElections *metrics.Meter
	// quorum holds the QuorumControllerMetrics that follow the metadata
	// log (offsets.go).
	quorum quorumOffsets
	// newActiveControllers is NewActiveControllersCount.
	newActiveControllers int64
}

type session struct {
	lastContact sim.Time
}

// deferredReply is a response held until the records written before it
// are committed (QuorumController's deferred event queue).
type deferredReply struct {
	offset int64
	to     sim.Addr
	msg    sim.Message
	req    protocol.Request // what it answers: NOT_CONTROLLER goes back if this controller steps down first
}

// New makes a controller over rn (a voter's raft node); the host registers
// it as a listener of rn and calls Start.
func New(cfg Config, rn *raft.Node) *Controller {
	img := metadata.NewImage()
	return &Controller{cfg: cfg, raft: rn, committed: img, image: img, sessions: map[int32]*session{}, lastWritten: -1, quorum: newQuorumOffsets()}
}

// Start prepares the controller's random streams; it becomes active when
// its raft node wins an election and has replayed the log.
func (c *Controller) Start(env *sim.Env) {
	c.placer = placement.Striped{Rand: env.Rand(fmt.Sprintf("controller-%d/placement", c.cfg.NodeID)), CordonedText: c.cfg.Release.Version.AtLeast(4, 3)}
	c.ids = env.Rand(fmt.Sprintf("controller-%d/ids", c.cfg.NodeID))
	if c.cfg.Release.Version.AtLeast(3, 9) {
		c.uncleanElections = metrics.NewMeter(env.Now())
	}
}

// bootstrapRecords are what a fresh cluster's first active controller
// writes: the release's metadata.version, the other features it finalizes
// at format time (by name), before 4.0 the ZooKeeper migration state, and, where eligible leader replicas start on
// (4.1+), the cluster-level min.insync.replicas that ELR's rules read,
// set to the controller's own static value (ActivationRecordsGenerator,
// KAFKA-16540).
func (c *Controller) bootstrapRecords() []metadata.Record {
	rel := c.cfg.Release
	recs := []metadata.Record{&metadata.FeatureLevelRecord{Name: release.MetadataVersionFeature, FeatureLevel: rel.MetadataLevel}}
	for _, f := range rel.Features {
		if f.Name != release.MetadataVersionFeature && f.Default > 0 {
			recs = append(recs, &metadata.FeatureLevelRecord{Name: f.Name, FeatureLevel: f.Default})
		}
	}
	if metadata.WritesZkMigrationState(rel.MetadataLevel) {
		recs = append(recs, &metadata.ZkMigrationStateRecord{State: metadata.ZkMigrationNone})
	}
	if rel.FeatureDefault(release.EligibleLeaderReplicasFeature) > 0 {
		recs = append(recs, c.elrSafetyRecords()...)
	}
	return recs
}

// HandleBecomeLeader (raft.Listener) makes this the active controller of
// epoch: it has replayed everything committed before the epoch.
func (c *Controller) HandleBecomeLeader(env *sim.Env, epoch int32) {
	c.active = true
	c.epoch = epoch
	c.gen++
	c.image = c.committed.Clone()
	c.lastWritten = c.image.Offset
	c.replies = nil
	c.expiry = nil
	c.uncleanPending = false
	// A new active controller gives every registered broker a fresh session:
	// it cannot know when they last heartbeated to its predecessor.
	c.sessions = map[int32]*session{}
	for _, id := range c.image.BrokerIDs() {
		c.sessions[id] = &session{lastContact: env.Now()}
	}
	env.Note(event.ControllerActivated{Node: c.cfg.NodeID, Epoch: epoch})
	if _, ok := c.image.Features["metadata.version"]; !ok {
		// An empty log: write the bootstrap records (kafka-storage format's
		// bootstrap.checkpoint holds metadata.version) in a metadata
		// transaction, as ActivationRecordsGenerator does from 3.6-IV1.
		name := "Bootstrap records"
		c.appendRecords(env, append(append([]metadata.Record{&metadata.BeginTransactionRecord{Name: &name}},
			c.bootstrapRecords()...), &metadata.EndTransactionRecord{})...)
	}
	c.scheduleExpiry(env)
	c.scheduleLeaderBalance(env)
	c.scheduleNoOp(env)
	c.maybeScheduleUncleanCheck(env)
}

// HandleResign (raft.Listener): another voter leads now, or this one gave
// up. Uncommitted changes are dropped (the new leader's log decides), and
// requests waiting for them get NOT_CONTROLLER.
func (c *Controller) HandleResign(env *sim.Env, epoch int32) {
	if !c.active || epoch != c.epoch {
		return
	}
	c.deactivate(env)
}

func (c *Controller) deactivate(env *sim.Env) {
	c.active = false
	c.quorum.deactivated(c.committed.Offset)
	c.gen++
	c.image = c.committed
	c.expiry.Stop()
	c.expiry = nil
	for _, r := range c.replies {
		if resp := protocol.ErrorResponse(r.req, protocol.NOT_CONTROLLER); resp != nil {
			env.Send(c.cfg.Addr, r.to, resp)
		}
	}
	c.replies = nil
	env.Note(event.ControllerDeactivated{Node: c.cfg.NodeID, Epoch: c.epoch})
}

// HandleCommit (raft.Listener) replays a committed batch.
func (c *Controller) HandleCommit(env *sim.Env, b raft.CommittedBatch) {
	var bytes int64
	for _, e := range b.Entries {
		if e.Control {
			continue
		}
		bytes += int64(len(e.Payload))
		r, err := metadata.Decode(e.Payload)
		if err != nil {
			panic(fmt.Sprintf("controller %d: metadata record at offset %d: %v", c.cfg.NodeID, e.Offset, err))
		}
		var before *metadata.PartitionState
		if pc, ok := r.(*metadata.PartitionChangeRecord); ok && (c.active || c.uncleanElections != nil) {
			if t := c.committed.TopicByID(pc.TopicID); t != nil && int(pc.PartitionID) < len(t.Partitions) {
				before = t.Partitions[pc.PartitionID].Clone()
			}
		}
		if err := c.committed.Apply(e.Offset, r); err != nil {
			panic(fmt.Sprintf("controller %d: %v", c.cfg.NodeID, err))
		}
		c.countUncleanElection(env, r, before)
		if c.active {
			c.explain(env, r, before)
		}
	}
	if b.LastOffset > c.committed.Offset {
		c.committed.Offset = b.LastOffset
	}
	c.quorum.committed(c.active, b.LastOffset, b.AppendTimestamp)
	if !c.active {
		c.image = c.committed
	}
	c.releaseReplies(env)
	c.snapshots.afterCommit(env, c, bytes)
}

// HandleCommitRun (raft.RunListener) replays a leap's run of NoOps: each
// moves only the committed offset, releases the replies waiting for it
// (in offset order, at this one instant either way) and counts its bytes
// towards a snapshot. A run during which a snapshot falls due goes batch
// by batch: the snapshot ends at the batch that made it due.
func (c *Controller) HandleCommitRun(env *sim.Env, run raft.CommittedRun) bool {
	bytes := (run.Last - run.First + 1) * int64(len(run.Payload))
	if r, err := metadata.Decode(run.Payload); err != nil || run.First <= c.committed.Offset || c.snapshots.dueAfter(env, c, bytes) {
		return false
	} else if _, ok := r.(*metadata.NoOpRecord); !ok {
		return false
	}
	c.committed.Offset = run.Last
	c.quorum.committed(c.active, run.Last, run.LastAppendTimestamp)
	if !c.active {
		c.image = c.committed
	}
	c.releaseReplies(env)
	c.snapshots.afterCommit(env, c, bytes)
	return true
}

// HandleLoadSnapshot (raft.Listener) starts the image from a snapshot.
func (c *Controller) HandleLoadSnapshot(env *sim.Env, s raft.LoadedSnapshot) {
	img, err := imageFromSnapshot(s)
	if err != nil {
		panic(fmt.Sprintf("controller %d: %v", c.cfg.NodeID, err))
	}
	c.committed = img
	if c.active {
		c.deactivate(env) // cannot happen while leading; stay safe
	}
	c.quorum.loaded(img.Offset, s.LastContainedLogTimestamp)
	c.image = img
	c.snapshots.loaded(s.ID)
}

// Active reports whether this controller is the active one.
func (c *Controller) Active() bool { return c.active }

// Image is the controller's metadata image (read-only for callers): the
// committed image, plus on the active controller what it wrote and is
// waiting to commit.
func (c *Controller) Image() *metadata.Image { return c.image }

// Committed is the image of the committed log as this voter replayed it.
func (c *Controller) Committed() *metadata.Image { return c.committed }

// Epoch is the quorum epoch this controller was last active in.
func (c *Controller) Epoch() int32 { return c.epoch }

// NodeID is the controller's node id.
func (c *Controller) NodeID() int32 { return c.cfg.NodeID }

// Raft is the controller's raft node.
func (c *Controller) Raft() *raft.Node { return c.raft }

// scheduleNoOp writes a NoOpRecord every metadata.max.idle.interval.ms
// (0: never), so that brokers can tell a live controller from a silent one
// and followers learn the high watermark.
func (c *Controller) scheduleNoOp(env *sim.Env) {
	every := time.Duration(c.conf().BrokerInt("metadata.max.idle.interval.ms")) * time.Millisecond
	if every <= 0 {
		return
	}
	c.after(env, every, "metadata-no-op", func(env *sim.Env) {
		c.appendRecords(env, &metadata.NoOpRecord{})
		c.scheduleNoOp(env)
	})
}

// after runs fn after d if this controller is still active in the same
// activation: a timer armed in an old epoch must not act in a new one.
func (c *Controller) after(env *sim.Env, d time.Duration, name string, fn func(env *sim.Env)) *sim.Timer {
	gen := c.gen
	return env.After(d, name, func(env *sim.Env) {
		if c.active && c.gen == gen {
			fn(env)
		}
	})
}

// nextOffset is the offset the next appended record gets.
func (c *Controller) nextOffset() int64 { return c.raft.LogEndOffset() }

// lastCommitted is the offset of the last committed record, -1 if none.
func (c *Controller) lastCommitted() int64 { return c.raft.HighWatermark() - 1 }

// appendRecords applies records to the working image at the offsets they
// will get and appends them through raft as one batch. A record the image
// rejects is a controller bug: it panics (the world reports it) rather
// than diverge. If raft refuses (this node stopped leading), the controller
// steps down.
func (c *Controller) appendRecords(env *sim.Env, recs ...metadata.Record) {
	if len(recs) == 0 || !c.active {
		return
	}
	var b batch
	c.stage(&b, recs...)
	c.flush(env, &b)
}

// batch is records staged for one append: applied to the working image
// already, so that records computed after them see their effect (an
// unfenced broker is electable in the same batch, as one ControllerResult
// of Kafka's is one batch).
type batch struct {
	off      int64
	payloads [][]byte
}

// stage applies recs to the working image at the offsets they will get in
// b and encodes them.
func (c *Controller) stage(b *batch, recs ...metadata.Record) {
	if b.payloads == nil {
		b.off = c.nextOffset()
	}
	for _, r := range recs {
		c.assignDirectories(r)
		if err := c.image.Apply(b.off+int64(len(b.payloads)), r); err != nil {
			panic(fmt.Sprintf("controller: %v", err))
		}
		b.payloads = append(b.payloads, metadata.Encode(r, c.image.Features[release.MetadataVersionFeature]))
	}
}

// flush appends a staged batch through raft.
func (c *Controller) flush(env *sim.Env, b *batch) {
	if len(b.payloads) == 0 || !c.active {
		return
	}
	last, _, err := c.raft.Append(env, b.payloads)
	if err != nil {
		c.deactivate(env)
		return
	}
	if end := b.off + int64(len(b.payloads)) - 1; last != end {
		panic(fmt.Sprintf("controller: raft put records %d..%d at %d", b.off, end, last))
	}
	c.lastWritten = last
	c.quorum.wrote(last, env.Now())
	c.maybeScheduleUncleanCheck(env)
}

// assignDirectories fills the log directory of each replica in a
// partition record, and in a change that sets new replicas, as Kafka's
// controller does: a replica keeps the directory it had, a new one gets
// its broker's default (DefaultDirectory).
func (c *Controller) assignDirectories(r metadata.Record) {
	dirOf := func(id int32) metadata.Uuid {
		b, ok := c.image.Brokers[id]
		if !ok {
			return metadata.DefaultDirectory(false, nil)
		}
		return metadata.DefaultDirectory(true, b.LogDirs)
	}
	switch r := r.(type) {
	case *metadata.PartitionRecord:
		if r.Directories == nil {
			for _, id := range r.Replicas {
				r.Directories = append(r.Directories, dirOf(id))
			}
		}
	case *metadata.PartitionChangeRecord:
		if r.Replicas == nil || r.Directories != nil {
			return
		}
		var p *metadata.PartitionState
		if t := c.image.TopicByID(r.TopicID); t != nil && int(r.PartitionID) < len(t.Partitions) {
			p = t.Partitions[r.PartitionID]
		}
		for _, id := range r.Replicas {
			dir := dirOf(id)
			if p != nil {
				if i := slices.Index(p.Replicas, id); i >= 0 && i < len(p.Directories) {
					dir = p.Directories[i]
				}
			}
			r.Directories = append(r.Directories, dir)
		}
	}
}

// explain notes the partition changes a committed record made: leader
// elections and ISR changes, the moments the timeline marks. before is
// the partition a PartitionChangeRecord changed, as it was.
func (c *Controller) explain(env *sim.Env, r metadata.Record, before *metadata.PartitionState) {
	if cr, ok := r.(*metadata.ConfigRecord); ok {
		if cr.Value == nil {
			env.Note(event.ConfigDeleted{ResourceType: cr.ResourceType, ResourceName: cr.ResourceName, Name: cr.Name})
		} else {
			env.Note(event.ConfigChanged{ResourceType: cr.ResourceType, ResourceName: cr.ResourceName, Name: cr.Name, Value: *cr.Value})
		}
		return
	}
	pc, ok := r.(*metadata.PartitionChangeRecord)
	if !ok {
		return
	}
	t := c.committed.TopicByID(pc.TopicID)
	if t == nil {
		return
	}
	p := t.Partitions[pc.PartitionID]
	tp := storage.TopicPartition{Topic: t.Name, Partition: pc.PartitionID}
	if pc.Leader != metadata.NoLeaderChange {
		leader := p.Leader
		if leader < 0 {
			leader = event.NoLeader
		}
		unclean := pc.LeaderRecoveryState == metadata.LeaderRecovering
		if before != nil && before.LeaderRecoveryState == metadata.LeaderRecovering && leader >= 0 &&
			!slices.Contains(before.ISR, leader) && !slices.Contains(before.ELR, leader) {
			// Elected uncleanly again while the partition still recovers
			// from an earlier unclean election: the record leaves the
			// recovery state as it is (PartitionChangeBuilder.tryElection).
			unclean = true
		}
		n := event.LeaderElected{TP: tp, Leader: leader, Epoch: p.LeaderEpoch, ISR: slices.Clone(p.ISR), Unclean: unclean}
		if before != nil {
			n.PrevISR, n.PrevELR, n.PrevLastKnownElr = before.ISR, before.ELR, before.LastKnownElr
		}
		env.Note(n)
	}
	if pc.ISR != nil {
		env.Note(event.ISRChanged{TP: tp, ISR: slices.Clone(p.ISR), Leader: p.Leader})
	}
	if pc.EligibleLeaderReplicas != nil {
		env.Note(event.ELRChanged{TP: tp, ELR: slices.Clone(p.ELR)})
	}
}

// Receive dispatches a request addressed to the controller listener. Only
// the active controller decides; the others answer NOT_CONTROLLER, and the
// sender looks for the new one.
func (c *Controller) Receive(env *sim.Env, e *sim.Envelope) {
	req, ok := e.Msg.(protocol.Request)
	if !ok {
		return
	}
	if !c.active {
		if resp := protocol.ErrorResponse(req, protocol.NOT_CONTROLLER); resp != nil {
			env.Send(c.cfg.Addr, e.From, resp)
		} else {
			c.refuse(env, e)
		}
		return
	}
	c.handling = req
	defer func() { c.handling = nil }()
	switch m := req.(type) {
	case *protocol.BrokerRegistrationRequest:
		c.handleRegistration(env, e.From, m)
	case *protocol.BrokerHeartbeatRequest:
		c.handleHeartbeat(env, e.From, m)
	case *protocol.CreateTopicsRequest:
		c.handleCreateTopics(env, e.From, m)
	case *protocol.DeleteTopicsRequest:
		c.handleDeleteTopics(env, e.From, m)
	case *protocol.CreatePartitionsRequest:
		c.handleCreatePartitions(env, e.From, m)
	case *protocol.AlterPartitionRequest:
		c.handleAlterPartition(env, e.From, m)
	case *protocol.ElectLeadersRequest:
		c.handleElectLeaders(env, e.From, m)
	case *protocol.AllocateProducerIdsRequest:
		c.handleAllocateProducerIds(env, e.From, m)
	case *protocol.IncrementalAlterConfigsRequest:
		c.handleIncrementalAlterConfigs(env, e.From, m)
	case *protocol.AlterConfigsRequest:
		c.handleAlterConfigs(env, e.From, m)
	case *protocol.AlterPartitionReassignmentsRequest:
		c.handleAlterPartitionReassignments(env, e.From, m)
	case *protocol.ListPartitionReassignmentsRequest:
		c.handleListPartitionReassignments(env, e.From, m)
	case *protocol.UpdateFeaturesRequest:
		c.handleUpdateFeatures(env, e.From, m)
	default:
		c.refuse(env, e)
	}
}

// refuse closes the connection of a request the controller listener does
// not serve (a Metadata or Produce sent to port 9093): Kafka's controller
// does not expose those APIs, and its socket server drops the connection.
func (c *Controller) refuse(env *sim.Env, e *sim.Envelope) {
	env.Send(c.cfg.Addr, e.From, &sim.Disconnected{Peer: c.cfg.Addr, Request: e.Msg})
}

// reply answers a request once everything written so far is committed,
// as Kafka's controller completes an operation only when its records (and
// every record before them) are committed: a reader of the answer can
// count on brokers learning of it.
func (c *Controller) reply(env *sim.Env, to sim.Addr, m sim.Message) {
	if c.lastWritten <= c.lastCommitted() {
		env.Send(c.cfg.Addr, to, m)
		return
	}
	c.replies = append(c.replies, deferredReply{offset: c.lastWritten, to: to, msg: m, req: c.handling})
}

func (c *Controller) releaseReplies(env *sim.Env) {
	done := c.lastCommitted()
	n := 0
	for n < len(c.replies) && c.replies[n].offset <= done {
		env.Send(c.cfg.Addr, c.replies[n].to, c.replies[n].msg)
		n++
	}
	c.replies = c.replies[n:]
}

// acceptable reports whether a broker may lead or join an ISR.
func (c *Controller) acceptable(id int32) bool {
	b, ok := c.image.Brokers[id]
	return ok && !b.Fenced && !b.InControlledShutdown
}

// conf is the controller's view of broker-level configs: its own
// server.properties under the cluster-default and its own node's dynamic
// configs (ConfigurationControlManager.getTopicConfig's order).
func (c *Controller) conf() config.Layers {
	return config.Layers{Static: c.cfg.Static, ClusterDefault: c.image.BrokerConfig(""), PerBroker: c.image.BrokerConfig(strconv.Itoa(int(c.cfg.NodeID))), Release: c.cfg.Release.Version}
}

// topicConfig resolves a topic config for id's topic.
func (c *Controller) topicConfig(topic, name string) config.Effective {
	return c.conf().Topic(c.image.TopicConfig(topic), name)
}
