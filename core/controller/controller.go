package controller

import (
	"fmt"
	"strconv"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Config is what a controller needs to know at start.
type Config struct {
	NodeID    int32
	Addr      sim.Addr // its listener, e.g. kafka-1:9093
	ClusterID string
	Static    config.Static
}

// Limits on the retained metadata log. Older records are folded into a
// snapshot of the image, as KRaft's metadata snapshots bound its log.
const (
	MaxRetainedRecords = 20000
	metadataFetchBatch = 2000
	noOpInterval       = 500 * time.Millisecond // metadata.max.idle.interval.ms
	metadataFetchWait  = 500 * time.Millisecond // KafkaRaftClient's fetch max wait
)

// Controller is the active controller of the cluster.
//
// Invariants: image is the result of replaying snapshot and then every entry
// of log; log offsets are contiguous from logStart; every appended record is
// committed at once (single voter).
type Controller struct {
	cfg   Config
	epoch int32 // the quorum epoch (leader epoch of __cluster_metadata)

	log      []metadata.Entry
	logStart int64           // offset of log[0]
	snapshot *metadata.Image // the image just before logStart
	image    *metadata.Image

	sessions map[int32]*session
	expiry   *sim.Timer
	parked   []*parkedFetch
	placer   stripedPlacer
	ids      *sim.Rand
	running  bool

	uncleanPending bool // the periodic unclean-election check is armed
}

type session struct {
	lastContact sim.Time
}

type parkedFetch struct {
	from  sim.Addr
	req   *protocol.MetadataFetchRequest
	timer *sim.Timer
	done  bool
}

// New makes a controller; it starts serving when Start runs.
func New(cfg Config) *Controller {
	return &Controller{
		cfg:      cfg,
		image:    metadata.NewImage(),
		snapshot: metadata.NewImage(),
		sessions: map[int32]*session{},
	}
}

// Start makes this controller the active one: a single voter elects itself
// at once.
func (c *Controller) Start(env *sim.Env) {
	c.placer = stripedPlacer{rnd: env.Rand(fmt.Sprintf("controller-%d/placement", c.cfg.NodeID))}
	c.ids = env.Rand(fmt.Sprintf("controller-%d/ids", c.cfg.NodeID))
	c.epoch++ // a restarted voter starts a new epoch
	c.running = true
	c.parked = nil
	c.expiry = nil
	c.uncleanPending = false
	// A new active controller gives every registered broker a fresh session:
	// it cannot know when they last heartbeated to its predecessor.
	c.sessions = map[int32]*session{}
	for _, id := range c.image.BrokerIDs() {
		c.sessions[id] = &session{lastContact: env.Now()}
	}
	if len(c.log) == 0 && c.logStart == 0 {
		c.appendRecords(env, &metadata.FeatureLevelRecord{Name: "metadata.version", FeatureLevel: MetadataVersionLevel})
	}
	c.scheduleExpiry(env)
	c.scheduleLeaderBalance(env)
	env.Note("controller.active", "node", id32(c.cfg.NodeID), "epoch", id32(c.epoch))
	c.scheduleNoOp(env)
}

// MetadataVersionLevel is the feature level of metadata.version 3.8-IV0.
const MetadataVersionLevel = 20

func (c *Controller) scheduleNoOp(env *sim.Env) {
	env.After(noOpInterval, "metadata-no-op", func(env *sim.Env) {
		c.appendRecords(env, &metadata.NoOpRecord{})
		c.scheduleNoOp(env)
	})
}

// Image is the committed metadata image (read-only for callers).
func (c *Controller) Image() *metadata.Image { return c.image }

// Epoch is the quorum epoch.
func (c *Controller) Epoch() int32 { return c.epoch }

// NodeID is the controller's node id.
func (c *Controller) NodeID() int32 { return c.cfg.NodeID }

// HighWatermark is the offset after the last committed record.
func (c *Controller) HighWatermark() int64 { return c.logStart + int64(len(c.log)) }

// Entries returns the retained log entries from offset from (inclusive).
func (c *Controller) Entries(from int64) []metadata.Entry {
	if from < c.logStart {
		from = c.logStart
	}
	i := from - c.logStart
	if i >= int64(len(c.log)) {
		return nil
	}
	return c.log[i:]
}

// LogStart is the first retained offset; older records live in the snapshot.
func (c *Controller) LogStart() int64 { return c.logStart }

// appendRecords writes records to the metadata log, applies them to the
// image, and wakes brokers waiting for metadata. A record the image rejects
// is a controller bug: it panics (the world reports it) rather than diverge.
func (c *Controller) appendRecords(env *sim.Env, recs ...metadata.Record) {
	for _, r := range recs {
		off := c.HighWatermark()
		if err := c.image.Apply(off, r); err != nil {
			panic(fmt.Sprintf("controller: %v", err))
		}
		c.log = append(c.log, metadata.Entry{Offset: off, Epoch: c.epoch, Record: r})
		c.explain(env, r)
	}
	if len(c.log) > MaxRetainedRecords {
		c.takeSnapshot(len(c.log) / 2)
	}
	c.wakeFetches(env)
	c.maybeScheduleUncleanCheck(env)
}

// explain notes the partition changes a committed record made: leader
// elections and ISR changes, the moments the timeline marks.
func (c *Controller) explain(env *sim.Env, r metadata.Record) {
	if cr, ok := r.(*metadata.ConfigRecord); ok {
		resource := "topic " + cr.ResourceName
		if cr.ResourceType == metadata.ResourceBroker {
			resource = "broker " + cr.ResourceName
			if cr.ResourceName == "" {
				resource = "every broker (cluster default)"
			}
		}
		if cr.Value == nil {
			env.Note("config.deleted", "resource", resource, "name", cr.Name)
		} else {
			env.Note("config.changed", "resource", resource, "name", cr.Name, "value", *cr.Value)
		}
		return
	}
	pc, ok := r.(*metadata.PartitionChangeRecord)
	if !ok {
		return
	}
	t := c.image.TopicByID(pc.TopicID)
	if t == nil {
		return
	}
	p := t.Partitions[pc.PartitionID]
	tp := fmt.Sprintf("%s-%d", t.Name, pc.PartitionID)
	if pc.Leader != metadata.NoLeaderChange {
		leader := "none"
		if p.Leader >= 0 {
			leader = id32(p.Leader)
		}
		unclean := pc.LeaderRecoveryState == metadata.LeaderRecovering
		env.Note("leader.elected", "tp", tp, "leader", leader, "epoch", id32(p.LeaderEpoch), "isr", ids(p.ISR), "unclean", strconv.FormatBool(unclean))
	}
	if pc.ISR != nil {
		env.Note("isr.changed", "tp", tp, "isr", ids(p.ISR), "leader", id32(p.Leader))
	}
}

// takeSnapshot folds the first n entries into the snapshot.
func (c *Controller) takeSnapshot(n int) {
	for _, e := range c.log[:n] {
		if err := c.snapshot.Apply(e.Offset, e.Record); err != nil {
			panic(fmt.Sprintf("controller: snapshot: %v", err))
		}
	}
	c.log = append([]metadata.Entry(nil), c.log[n:]...)
	c.logStart += int64(n)
}

// Receive dispatches a request addressed to the controller listener.
func (c *Controller) Receive(env *sim.Env, e *sim.Envelope) {
	if !c.running {
		return
	}
	switch m := e.Msg.(type) {
	case *protocol.BrokerRegistrationRequest:
		c.handleRegistration(env, e.From, m)
	case *protocol.BrokerHeartbeatRequest:
		c.handleHeartbeat(env, e.From, m)
	case *protocol.MetadataFetchRequest:
		c.handleMetadataFetch(env, e.From, m)
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
	case *protocol.IncrementalAlterConfigsRequest:
		c.handleIncrementalAlterConfigs(env, e.From, m)
	case *protocol.AlterConfigsRequest:
		c.handleAlterConfigs(env, e.From, m)
	case *protocol.AlterPartitionReassignmentsRequest:
		c.handleAlterPartitionReassignments(env, e.From, m)
	case *protocol.ListPartitionReassignmentsRequest:
		c.handleListPartitionReassignments(env, e.From, m)
	}
}

func (c *Controller) reply(env *sim.Env, to sim.Addr, m sim.Message) { env.Send(c.cfg.Addr, to, m) }

// acceptable reports whether a broker may lead or join an ISR.
func (c *Controller) acceptable(id int32) bool {
	b, ok := c.image.Brokers[id]
	return ok && !b.Fenced && !b.InControlledShutdown
}

// conf is the controller's view of broker-level configs: its own
// server.properties under the cluster-default and its own node's dynamic
// configs (ConfigurationControlManager.getTopicConfig's order).
func (c *Controller) conf() config.Layers {
	return config.Layers{Static: c.cfg.Static, ClusterDefault: c.image.BrokerConfig(""), PerBroker: c.image.BrokerConfig(strconv.Itoa(int(c.cfg.NodeID)))}
}

// topicConfig resolves a topic config for id's topic.
func (c *Controller) topicConfig(topic, name string) config.Effective {
	return c.conf().Topic(c.image.TopicConfig(topic), name)
}
