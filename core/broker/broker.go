package broker

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"kafkascope/core/config"
	"kafkascope/core/groupcoordinator"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/txncoordinator"
)

// Listener ports, as in the usual KRaft combined-mode setup.
const (
	BrokerPort     = 9092
	ControllerPort = 9093
)

// Config is what a broker is started with.
type Config struct {
	NodeID      int32
	Host        string // e.g. kafka-1
	ClusterID   string
	DirectoryID string
	// Quorum is what the broker knows of the controller quorum through
	// its raft client (its own observer, or the voter it shares with the
	// controller in combined mode).
	Quorum Quorum
	Static config.Static
	Disk   *storage.Disk
	// Release is the Kafka release the broker's software is: the features
	// it supports (ApiVersions).
	Release release.Release
	// OnShutdown runs when a controlled shutdown has finished, before the
	// process exits (a combined node's controller resigns there).
	OnShutdown func(env *sim.Env)
	// ZooKeeper is set for a ZooKeeper-era broker (Kafka 2.8): its
	// session and its controller (zkmode.go). Quorum is then unused.
	ZooKeeper *ZooKeeperMode
}

// Quorum is the broker's view of the KRaft controller quorum.
type Quorum interface {
	// ActiveController is the controller listener of the quorum leader, if
	// one is known.
	ActiveController() (sim.Addr, bool)
	// HighWatermark is the metadata log's high watermark as the broker's
	// raft client knows it.
	HighWatermark() int64
}

// State is the broker's lifecycle state (Kafka's BrokerState).
type State uint8

const (
	StateStarting State = iota + 1
	StateRecovery
	StateRunning
	StatePendingControlledShutdown
	StateShuttingDown
	StateStopped
)

func (s State) String() string {
	return [...]string{"", "STARTING", "RECOVERY", "RUNNING", "PENDING_CONTROLLED_SHUTDOWN", "SHUTTING_DOWN", "NOT_RUNNING"}[s]
}

// Broker is one broker process's state.
type Broker struct {
	cfg    Config
	addr   sim.Addr
	logDir string
	// truncation is how followers find where to truncate, from the static
	// inter.broker.protocol.version (read on every fetch).
	truncation config.TruncationMode
	net        *rpc.Client

	state       State
	incarnation metadata.Uuid
	// features is what this incarnation registers as supported
	// (registrationFeatures).
	features     []metadata.BrokerFeature
	brokerEpoch  int64
	registered   bool
	readyToServe bool // the first metadata publish happened
	wantShutdown bool

	image     *metadata.Image
	published bool
	confInts  confIntCache // confInt

	partitions map[storage.TopicPartition]*Partition
	// byTopic is partitions by topic, each indexed by partition number
	// (nil: no local replica there; no trailing nils, no empty topic).
	// Fetches and produces name every partition they touch: the topic is
	// hashed once a request, the partitions are indexed (hashing each
	// partition's key was a tenth of sending to a 1000-partition topic in
	// the page, where WebAssembly hashes in software).
	byTopic map[string][]*Partition
	// sortedParts is partitions sorted (Partitions), nil until asked for
	// after a change (setPartition): a view of a broker with a thousand
	// partitions sorted them every frame (9% of a frame's time).
	sortedParts []*Partition
	fetchers    map[int32]*fetcher
	conns       map[sim.Addr]*conn
	parked      []*delayedFetch
	fetchDraft  fetchDraft      // readFetch's storage, reused while no answer holds it
	held        []*sim.Envelope // client requests that arrived before the broker could serve

	heartbeatInFlight bool
	heartbeatFailures int // heartbeats in a row that no controller answered
	heartbeatTimer    *sim.Timer
	heartbeatCall     *controllerCall // the heartbeat in flight, if any
	registerBackoff   time.Duration
	cleanShutdown     bool // the previous run ended cleanly
	// previousBrokerEpoch is the broker epoch the clean-shutdown file
	// recorded (-1 without one): the registration sends it so that the
	// controller can tell a clean restart from a crash (KIP-966).
	previousBrokerEpoch int64
	recoveries          []string
	quorumCalls         *quorumForwards   // forwarded raft client requests (raftforward.go)
	cleaner             *logCleaner       // the log cleaner (cleaner.go), from the first publish
	retentionEvery      time.Duration     // the retention task's period, read when it started (retention.go)
	controllerPick      *sim.Rand         // which alive broker a Metadata answer names as controller
	producerIDs         producerIDManager // producer-id blocks for InitProducerId (producerids.go)
	// env is this process's handle on the world, kept for the logs'
	// scheduler (schedule); like any Env it is used only while the broker
	// handles an event.
	env *sim.Env
	// creations are the topics this broker asked the controller to
	// create and has not seen yet, to explain its answers to clients
	// (causes.go).
	creations map[string]*topicCreation
	// metrics are this incarnation's meters (metrics.go), from Start.
	metrics *brokerMetrics

	// The group coordinator this broker hosts, its writes waiting for the
	// HW, and whether a CreateTopics for __consumer_offsets is on its way
	// (groups.go).
	coordinator          *groupcoordinator.Coordinator
	groupAppends         []*groupAppend
	creatingOffsetsTopic bool
	txnCoordinator       *txncoordinator.Coordinator
	creatingTxnTopic     bool
	// markerNet is the transaction marker channel's own client (and so
	// its own connections): a WriteTxnMarkers waits at the leader for its
	// followers, whose fetches from this broker must not queue behind it.
	markerNet *rpc.Client
	// addPartitionsNet is AddPartitionsToTxnManager's client: a leader
	// adding partitions to transactions (addpartitions.go).
	addPartitionsNet *rpc.Client

	// zk is the ZooKeeper era's state (zkmode.go), nil on KRaft.
	zk *zkState
}

// New makes a broker; it starts when the process starts.
func New(cfg Config) *Broker {
	addr := sim.Addr(fmt.Sprintf("%s:%d", cfg.Host, BrokerPort))
	b := &Broker{
		cfg:        cfg,
		addr:       addr,
		logDir:     cfg.Static.Broker("log.dirs"),
		truncation: cfg.Static.Truncation(),
		net:        rpc.NewClient(addr, fmt.Sprintf("broker-%d", cfg.NodeID)),
		image:      metadata.NewImage(),
		partitions: map[storage.TopicPartition]*Partition{},
		byTopic:    map[string][]*Partition{},
		fetchers:   map[int32]*fetcher{},
		conns:      map[sim.Addr]*conn{},
	}
	b.coordinator = groupcoordinator.New(cfg.NodeID, (*coordinatorHost)(b))
	b.txnCoordinator = txncoordinator.New((*txnHost)(b))
	if cfg.ZooKeeper != nil {
		b.zk = newZkState(cfg.ZooKeeper)
		b.cfg.Quorum = zkControllerView{b}
	}
	return b
}

// ID is the broker's node id.
func (b *Broker) ID() int32 { return b.cfg.NodeID }

// Addr is the broker listener's address.
func (b *Broker) Addr() sim.Addr { return b.addr }

// State is the lifecycle state.
func (b *Broker) State() State { return b.state }

// Image is the broker's metadata image (its possibly stale view).
func (b *Broker) Image() *metadata.Image { return b.image }

// Epoch is the broker epoch the controller gave this incarnation (-1 before
// registration).
func (b *Broker) Epoch() int64 {
	if !b.registered {
		return -1
	}
	return b.brokerEpoch
}

// Recoveries lists what log recovery did at start, one line per partition.
func (b *Broker) Recoveries() []string { return b.recoveries }

// Partition returns the local replica of tp, or nil.
func (b *Broker) Partition(tp storage.TopicPartition) *Partition { return b.partitions[tp] }

// Partitions lists local replicas sorted by topic and partition (a new
// slice: the caller may keep or change it).
func (b *Broker) Partitions() []*Partition {
	if b.sortedParts == nil {
		b.sortedParts = make([]*Partition, 0, len(b.partitions))
		for _, p := range b.partitions {
			b.sortedParts = append(b.sortedParts, p)
		}
		slices.SortFunc(b.sortedParts, func(x, y *Partition) int { return storage.ComparePartitions(x.tp, y.tp) })
	}
	return slices.Clone(b.sortedParts)
}

// setPartition makes p the local replica of tp (nil: none), the only way
// b.partitions changes.
func (b *Broker) setPartition(tp storage.TopicPartition, p *Partition) {
	ps := b.byTopic[tp.Topic]
	if p == nil {
		delete(b.partitions, tp)
		if int(tp.Partition) < len(ps) {
			ps[tp.Partition] = nil
		}
		for len(ps) > 0 && ps[len(ps)-1] == nil {
			ps = ps[:len(ps)-1]
		}
	} else {
		b.partitions[tp] = p
		for int(tp.Partition) >= len(ps) {
			ps = append(ps, nil)
		}
		ps[tp.Partition] = p
	}
	if len(ps) == 0 {
		delete(b.byTopic, tp.Topic)
	} else {
		b.byTopic[tp.Topic] = ps
	}
	b.sortedParts = nil
}

// topicPartitions is the local replicas of topic, by partition number.
func (b *Broker) topicPartitions(topic string) []*Partition { return b.byTopic[topic] }

// partitionAt is ps's partition i, or nil.
func partitionAt(ps []*Partition, i int32) *Partition {
	if i < 0 || int(i) >= len(ps) {
		return nil
	}
	return ps[i]
}

// conf is this broker's configs: server.properties under the dynamic
// broker configs of its metadata image (the cluster default, then its own
// id). Read at each use, so a kafka-configs.sh change takes effect as soon
// as the broker has replayed its ConfigRecord.
func (b *Broker) conf() config.Layers {
	return config.Layers{Static: b.cfg.Static, ClusterDefault: b.image.BrokerConfig(""), PerBroker: b.image.BrokerConfig(strconv.Itoa(int(b.cfg.NodeID))), Release: b.cfg.Release.Version}
}

func (b *Broker) ms(name string) time.Duration {
	return time.Duration(b.confInt(name)) * time.Millisecond
}

// confInt is conf().BrokerInt(name), remembered until the image or its
// configs change (the static layer never does): the replica fetch paths
// read several settings on every fetch, and parsing them each time was a
// twentieth of an idle cluster's time.
func (b *Broker) confInt(name string) int64 {
	c := b.confCache()
	v, ok := c.values[name]
	if !ok {
		v = b.conf().BrokerInt(name)
		c.values[name] = v
	}
	return v
}

// fetchConf is what a replica fetcher reads on every Fetch it sends. It is
// confInt's values, held in fields: looking four names up in confInt's map
// hashed them on every fetch, 1.3% of an idle cluster's time in wasm (which
// has no AES instructions for the runtime's string hash).
type fetchConf struct {
	waitMaxMs, minBytes, responseMaxBytes, partitionMaxBytes int32
}

// replicaFetchConf is the fetcher's settings, from the same cache as
// confInt and so dropped with it.
func (b *Broker) replicaFetchConf() fetchConf {
	c := b.confCache()
	if !c.fetchRead {
		c.fetch = fetchConf{
			waitMaxMs:         int32(b.confInt("replica.fetch.wait.max.ms")),
			minBytes:          int32(b.confInt("replica.fetch.min.bytes")),
			responseMaxBytes:  int32(b.confInt("replica.fetch.response.max.bytes")),
			partitionMaxBytes: int32(b.confInt("replica.fetch.max.bytes")),
		}
		c.fetchRead = true
	}
	return c.fetch
}

// confCache is the broker's config cache, emptied first if the configs
// it was read from are not the image's any more (their stamp moved: a
// config changed, or the image was rebuilt from a snapshot).
func (b *Broker) confCache() *confIntCache {
	c := &b.confInts
	if c.stamp != b.image.ConfigStamp() || c.values == nil {
		*c = confIntCache{stamp: b.image.ConfigStamp(), values: map[string]int64{}}
	}
	return c
}

// confIntCache holds numeric broker configs as read from the image's
// configs with one stamp (the images a broker publishes share it until a
// config changes, so the cache outlives them).
//
// Invariant: every value in it was read from configs with stamp; fetch
// holds fetchConf's values only if fetchRead.
type confIntCache struct {
	stamp     metadata.ConfigStamp
	values    map[string]int64
	fetch     fetchConf
	fetchRead bool
}

// Start runs when the process starts: recover the logs, then register with
// the controller and begin replaying metadata.
func (b *Broker) Start(env *sim.Env) {
	b.state = StateStarting
	b.env = env
	b.metrics = newBrokerMetrics(env, b.cfg.NodeID)
	// The broker's own requests (to the controller, to the leaders it
	// follows) go out from an ephemeral port of this incarnation, as a
	// socket's would: an answer the controller or a leader still owed
	// the previous incarnation arrives at a port nothing here listens on
	// and is dropped (seed 3183), instead of being taken for the answer
	// to a new request that carries the same correlation id.
	b.net = rpc.NewClient(env.EphemeralPort(), fmt.Sprintf("broker-%d", b.cfg.NodeID))
	rnd := env.Rand(fmt.Sprintf("broker-%d/incarnation/%d", b.cfg.NodeID, env.Now()))
	b.incarnation = metadata.RandomUuid(rnd.Uint64)
	b.features = registrationFeatures(b.cfg.Release, rnd)
	if err := b.loadLogs(env); err != nil {
		panic(fmt.Sprintf("broker %d: loading logs: %v", b.cfg.NodeID, err))
	}
	if b.zk != nil {
		b.zkStart(env)
	} else {
		b.register(env)
	}
	env.After(0, "isr-expiration", b.isrExpirationTask)
	env.After(b.ms("replica.high.watermark.checkpoint.interval.ms"), "highwatermark-checkpoint", b.hwCheckpointTask)
	env.After(30*time.Second, "kafka-recovery-point-checkpoint", b.recoveryPointCheckpointTask)
}

// HandleChannelReply takes the answers to the broker's own requests,
// which come back to the ephemeral ports they went out from: its
// controller channel and replica fetchers (net), the transaction marker
// channel and the leader's AddPartitionsToTxn.
func (b *Broker) HandleChannelReply(env *sim.Env, e *sim.Envelope) bool {
	if b.state == StateStopped {
		return false
	}
	return b.net.Handle(env, e) || b.markerNet != nil && b.markerNet.Handle(env, e) || b.addPartitionsNet != nil && b.addPartitionsNet.Handle(env, e)
}

// Receive handles every message to the broker listener.
func (b *Broker) Receive(env *sim.Env, e *sim.Envelope) {
	if b.state == StateStopped {
		return
	}
	if b.handleQuorumForwardReply(env, e) {
		return
	}
	if _, ok := e.Msg.(*sim.Closed); ok {
		b.closeConn(e.From)
		return
	}
	if _, ok := e.Msg.(protocol.Request); !ok {
		return
	}
	if !b.readyToServe {
		if len(b.held) < maxHeldRequests {
			b.held = append(b.held, e)
		}
		return
	}
	b.dispatch(env, e)
}

const maxHeldRequests = 10000

// Stopped reports whether the broker finished a controlled shutdown and
// wants its process to exit.
func (b *Broker) Stopped() bool { return b.state == StateStopped }
