package view

import (
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/broker"
	"kafkascope/core/cluster"
	"kafkascope/core/controller"
	"kafkascope/core/feed"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Snapshot is the cluster at one instant.
type Snapshot struct {
	Now        sim.Time
	Seed       uint64
	Version    string // the Kafka release the cluster runs ("3.8")
	Nodes      []Node
	Controller Controller
	Topics     []Topic
	InFlight   []Message
	Clients    []string // client processes running (tools), by host
	Cuts       [][2]int32
	// Quorum is the KRaft controller quorum; MetaLog the
	// __cluster_metadata-0 log it replicates.
	Quorum  Quorum
	MetaLog MetaLog
	// ZooKeeper is the ensemble of a ZooKeeper-era cluster (--version
	// 2.8: zookeeper.go), which has no quorum and no metadata log (Quorum
	// and MetaLog are empty); nil on KRaft.
	ZooKeeper *ZooKeeper
	// Producers are the running clients' producers (clients.go); Groups
	// the groups the running brokers coordinate (groups.go);
	// Transactions the transactional ids their transaction coordinators
	// hold (txn.go), by id.
	Producers    []Producer
	Groups       []Group
	Transactions []Transaction
	// Metrics are the on-call dashboard's latest samples, by
	// dashboard.MetricID (nil: the cluster keeps no dashboard).
	Metrics []MetricValue
}

// MetricValue is one dashboard metric's latest sample (Ok false: no value,
// as in a gap).
type MetricValue struct {
	V  float64
	Ok bool
}

// Node is one Kafka node.
type Node struct {
	ID           int32
	Host         string
	State        string // running, killed, power-off, stopped
	BrokerState  string // STARTING, RECOVERY, RUNNING, ... (empty when down)
	Fenced       bool   // as the controller sees it
	Registered   bool
	IsController bool // hosts the active controller
	// ZkSession is a ZooKeeper-era broker's session id (0: none yet, or
	// KRaft); ZkConnected whether it is connected now.
	ZkSession      int64
	ZkConnected    bool
	Isolated       bool // every link to and from it is cut
	DelayMs        int64
	MetadataOffset int64  // how far it replayed __cluster_metadata
	Leads          int    // partitions it leads (per its own state)
	Rack           string // broker.rack ("" for none)
}

// Controller is the metadata quorum's view.
type Controller struct {
	NodeID        int32 // -1 if down
	Epoch         int32
	HighWatermark int64 // records committed to __cluster_metadata
}

// Topic is one topic's partitions.
type Topic struct {
	Name       string
	ID         string
	Partitions []Partition
	// Light: the partitions carry what the metadata says (leader, epochs,
	// replicas, ISR) but no replica state (Replicas empty, CommittedHW -1).
	// Take reads Kafka's internal topics so (__consumer_offsets has 50
	// partitions, and the diagram folds them); TopicDetail reads them whole.
	Light bool
}

// Partition is one partition: the controller's decision and every replica.
type Partition struct {
	Topic          string
	Index          int32
	Leader         int32 // -1 none (controller's metadata)
	LeaderEpoch    int32
	PartitionEpoch int32
	Assignment     []int32
	ISR            []int32
	// ELR and LastKnownElr are KIP-966's eligible leader replicas and
	// last known leader (empty unless the release has ELR on).
	ELR          []int32
	LastKnownElr []int32
	Replicas     []Replica // in assignment order
	// CommittedHW is the leader's HW: offsets below it are committed.
	CommittedHW int64
	// Down is true while no running broker serves as the partition's
	// leader, since DownSince (cluster.Availability): the "unavailable
	// since" timer.
	Down      bool
	DownSince sim.Time
	// Lost lists committed offsets this partition lost (unclean election,
	// old-rule truncation, power loss), oldest first.
	Lost []LostRange
	// Light: Replicas are not read (a topic of more than
	// DetailedPartitions partitions); the rest is. PartitionDetail reads
	// one whole.
	Light bool
}

// DetailedPartitions is the most partitions of a topic whose replicas
// Take reads: a larger topic's partitions come Light. Reading every
// replica's log of a 1000-partition topic every frame took most of the
// frame (issue 15); the diagram draws the partitions in view, reading
// those whole (PartitionDetail), and says what the others add up to.
const DetailedPartitions = 64

// LostRange is committed data a partition lost (cluster.LostRange).
type LostRange struct {
	From, To int64 // [From, To)
	Leader   int32
	Epoch    int32
	At       sim.Time
	Values   []string
}

// Replica is one broker's copy of a partition. Its LSO (last stable
// offset, LSO <= HW) is the HW, or the first offset of the earliest
// transaction still open in its log, or completed by a marker not yet
// below the HW: read_committed consumers read below it.
type Replica struct {
	Broker      int32
	Present     bool   // the broker holds the replica (false: node never created it)
	Role        string // leader, follower, offline
	InISR       bool
	InELR       bool // an eligible leader replica (KIP-966): out of the ISR, yet holds every committed record
	LogStart    int64
	LEO         int64
	HW          int64 // this replica's own knowledge of the HW
	LSO         int64 // its last stable offset (see above)
	LeaderEpoch int32 // the epoch it believes current
	Cells       []Cell
	// LeaderViewLEO is the leader's view of this follower's LEO (-1 unknown).
	LeaderViewLEO int64
}

// Cell is one offset of a replica's log.
type Cell struct {
	Offset    int64
	Epoch     int32 // the batch's partition leader epoch (colour)
	Committed bool  // below the leader's HW
	// Marker: the offset holds a transaction marker (a control batch),
	// whose kind Txn is: TxnCommitted for COMMIT, TxnAborted for ABORT.
	Marker bool
	// Txn is a transactional record's outcome in this replica's log
	// (TxnOpen until its producer's marker follows it), or a marker's
	// kind; NotTransactional for other records.
	Txn TxnOutcome
}

// Message is one message on the wire.
type Message struct {
	ID       uint64
	From, To int32 // node ids; 0 for a client
	FromHost string
	ToHost   string
	Kind     string // the message kind (Produce, FetchResponse, ...)
	Label    string // e.g. "Fetch t-0@5", "HW 5"
	Category string // data, metadata, heartbeat, quorum, zookeeper, admin
	Progress float64
}

// MaxCells bounds the cells shown per replica (the latest ones).
const MaxCells = 16

// Take reads the cluster now.
func Take(c *cluster.Cluster) *Snapshot {
	w := c.World
	s := &Snapshot{Now: w.Now(), Seed: w.Seed(), Version: c.Release().Version.String()}
	ctl := c.Controller()
	s.Controller.NodeID = -1
	if ctl != nil {
		s.Controller = Controller{NodeID: ctl.NodeID(), Epoch: ctl.Epoch(), HighWatermark: ctl.Raft().HighWatermark()}
	}
	if b := c.Dashboard(); b != nil {
		s.Metrics = make([]MetricValue, len(b.Series))
		for i := range b.Series {
			s.Metrics[i].V, s.Metrics[i].Ok = b.Series[i].At(s.Now)
		}
	}
	zkLive := zkController(c, s)
	// Each node's state, read once: cluster.State re-checks every node on
	// each call, and a partition asks for each of its replicas (150 calls
	// for __consumer_offsets alone).
	running := map[int32]bool{}
	for _, id := range c.NodeIDs() {
		running[id] = c.State(id) == cluster.NodeRunning
	}
	for _, id := range c.NodeIDs() {
		n := c.Node(id)
		nv := Node{ID: id, Host: cluster.Host(id), State: string(c.State(id)), DelayMs: w.Net().Delay(cluster.Host(id)).Milliseconds()}
		if running[id] {
			nv.BrokerState = n.Broker.State().String()
			nv.MetadataOffset = n.Broker.Image().Offset
			for _, p := range n.Broker.Partitions() {
				if p.IsLeader() {
					nv.Leads++
				}
			}
		}
		if ctl != nil {
			if reg, ok := ctl.Committed().Brokers[id]; ok {
				nv.Registered, nv.Fenced = true, reg.Fenced
			}
			nv.IsController = ctl.NodeID() == id
		}
		if n.ZK != nil {
			nv.ZkSession, nv.ZkConnected = n.ZK.Session(), running[id] && n.ZK.Connected()
			nv.Registered = zkLive[id]
			nv.IsController = s.Controller.NodeID == id
		}
		nv.Isolated = isolated(c, id)
		nv.Rack = c.Rack(id)
		s.Nodes = append(s.Nodes, nv)
	}
	// With racks, the nodes come rack by rack (then by id): the diagram
	// draws each rack's brokers side by side.
	if len(c.RackNames()) > 0 {
		slices.SortStableFunc(s.Nodes, func(a, b Node) int { return strings.Compare(a.Rack, b.Rack) })
	}
	for _, cut := range w.Net().Cuts() {
		a, okA := nodeID(cut[0])
		b, okB := nodeID(cut[1])
		if okA && okB {
			s.Cuts = append(s.Cuts, [2]int32{a, b})
		}
	}
	img := agreedImage(c, ctl, running)
	if c.IsZooKeeper() {
		// No quorum and no metadata log: the ensemble instead.
		s.Quorum = Quorum{LeaderID: -1, HighWatermark: -1}
		s.MetaLog = takeMetaLog(c, nil, img)
		s.ZooKeeper = takeZooKeeper(c)
	} else {
		var src *raft.Node
		s.Quorum, src = takeQuorum(c, ctl, w.Now())
		s.MetaLog = takeMetaLog(c, src, img)
	}
	if img != nil {
		for _, name := range img.TopicNames() {
			s.Topics = append(s.Topics, topic(c, running, img, name, !metadata.IsInternalTopic(name)))
		}
	}
	now := w.Now()
	for _, env := range w.InFlight() {
		m := Message{ID: env.ID, FromHost: env.From.Host(), ToHost: env.To.Host(), Kind: env.Msg.Kind(), Category: category(env.Msg)}
		m.From, _ = nodeID(m.FromHost)
		m.To, _ = nodeID(m.ToHost)
		if span := env.DeliverAt.Sub(env.SentAt); span > 0 {
			m.Progress = float64(now.Sub(env.SentAt)) / float64(span)
		}
		m.Label = label(env.Msg)
		s.InFlight = append(s.InFlight, m)
	}
	for _, h := range w.Hosts() {
		if _, isNode := nodeID(h); !isNode && !isZkServer(h) {
			if st, _ := w.State(h); st == sim.ProcRunning {
				s.Clients = append(s.Clients, h)
			}
		}
	}
	consumers := takeClients(c, s)
	takeGroups(c, s, running, consumers)
	s.Transactions = takeTransactions(c, running)
	return s
}

// agreedImage is the metadata topics are read from: the active
// controller's committed image; without one, the most up-to-date running
// broker's (what the cluster last agreed on).
func agreedImage(c *cluster.Cluster, ctl *controller.Controller, running map[int32]bool) *metadata.Image {
	if ctl != nil {
		return ctl.Committed()
	}
	// ZooKeeper era: the controller's own broker, whose metadata cache
	// the controller updates first (UpdateMetadata).
	if zc := c.ZkController(); zc != nil && running[zc.ActiveID()] {
		return c.Node(zc.ActiveID()).Broker.Image()
	}
	var img *metadata.Image
	for _, id := range c.NodeIDs() {
		if running[id] {
			if bi := c.Node(id).Broker.Image(); img == nil || bi.Offset > img.Offset {
				img = bi
			}
		}
	}
	return img
}

// topic reads one topic of img; without replicas, only what the metadata
// says of each partition (Light).
func topic(c *cluster.Cluster, running map[int32]bool, img *metadata.Image, name string, replicas bool) Topic {
	t := img.Topics[name]
	tv := Topic{Name: name, ID: t.ID.String(), Light: !replicas}
	tv.Partitions = make([]Partition, 0, len(t.Partitions))
	lightParts := replicas && len(t.Partitions) > DetailedPartitions
	for i, ps := range t.Partitions {
		switch {
		case !replicas:
			tv.Partitions = append(tv.Partitions, Partition{Topic: name, Index: int32(i), Leader: ps.Leader, LeaderEpoch: ps.LeaderEpoch,
				PartitionEpoch: ps.PartitionEpoch, Assignment: slices.Clone(ps.Replicas), ISR: slices.Clone(ps.ISR), CommittedHW: -1})
		case lightParts:
			tv.Partitions = append(tv.Partitions, lightPartition(c, running, name, int32(i), ps.Replicas, ps.ISR, ps.Leader, ps.LeaderEpoch, ps.PartitionEpoch))
		default:
			tv.Partitions = append(tv.Partitions, partition(c, running, name, int32(i), ps))
		}
	}
	return tv
}

// lightPartition is a partition of a large topic: what the metadata says,
// the committed HW, whether it has a serving leader; no replicas.
func lightPartition(c *cluster.Cluster, running map[int32]bool, topic string, index int32, assignment, isr []int32, leader, epoch, pepoch int32) Partition {
	pv := Partition{Topic: topic, Index: index, Leader: leader, LeaderEpoch: epoch, PartitionEpoch: pepoch,
		Assignment: assignment, ISR: isr, CommittedHW: -1, Light: true}
	key := storage.TopicPartition{Topic: topic, Partition: index}
	pv.DownSince, pv.Down = c.Availability().DownSince(key.String())
	if leader >= 0 && running[leader] {
		if lp := c.Node(leader).Broker.Partition(key); lp != nil && lp.IsLeader() {
			pv.CommittedHW = lp.Log().HighWatermark()
		}
	}
	return pv
}

// PartitionDetail reads one partition with its replicas, as Take reads
// those of a smaller topic: the diagram asks for the partitions in view
// of a topic Take reads Light.
func PartitionDetail(c *cluster.Cluster, topic string, index int32) (Partition, bool) {
	running := map[int32]bool{}
	for _, id := range c.NodeIDs() {
		running[id] = c.State(id) == cluster.NodeRunning
	}
	img := agreedImage(c, c.Controller(), running)
	if img == nil || img.Topics[topic] == nil || index < 0 || int(index) >= len(img.Topics[topic].Partitions) {
		return Partition{}, false
	}
	ps := img.Topics[topic].Partitions[index]
	return partition(c, running, topic, index, ps), true
}

// TopicDetail reads one topic with its replicas, as Take reads the user's
// topics: the diagram asks for an internal topic's (Take leaves them
// Light) only while the viewer has it unfolded.
func TopicDetail(c *cluster.Cluster, name string) (Topic, bool) {
	running := map[int32]bool{}
	for _, id := range c.NodeIDs() {
		running[id] = c.State(id) == cluster.NodeRunning
	}
	img := agreedImage(c, c.Controller(), running)
	if img == nil || img.Topics[name] == nil {
		return Topic{}, false
	}
	return topic(c, running, img, name, true), true
}

func partition(c *cluster.Cluster, running map[int32]bool, topic string, index int32, ps *metadata.PartitionState) Partition {
	assignment, isr, leader := ps.Replicas, ps.ISR, ps.Leader
	pv := Partition{Topic: topic, Index: index, Leader: leader, LeaderEpoch: ps.LeaderEpoch, PartitionEpoch: ps.PartitionEpoch,
		Assignment: slices.Clone(assignment), ISR: slices.Clone(isr), ELR: slices.Clone(ps.ELR), LastKnownElr: slices.Clone(ps.LastKnownElr), CommittedHW: -1}
	key := storage.TopicPartition{Topic: topic, Partition: index}
	pv.DownSince, pv.Down = c.Availability().DownSince(key.String())
	for _, l := range c.Losses() {
		if l.Partition == key.String() {
			lr := LostRange{From: l.From, To: l.To, Leader: l.Leader, Epoch: l.Epoch, At: l.At}
			for _, v := range l.Values {
				lr.Values = append(lr.Values, string(v))
			}
			pv.Lost = append(pv.Lost, lr)
		}
	}
	var leaderPart *broker.Partition
	if leader >= 0 && running[leader] {
		if lp := c.Node(leader).Broker.Partition(key); lp != nil && lp.IsLeader() {
			leaderPart = lp
			pv.CommittedHW = lp.Log().HighWatermark()
		}
	}
	for _, id := range assignment {
		rv := Replica{Broker: id, InISR: slices.Contains(isr, id), InELR: slices.Contains(ps.ELR, id), LeaderViewLEO: -1, Role: "offline"}
		n := c.Node(id)
		if n == nil {
			pv.Replicas = append(pv.Replicas, rv)
			continue
		}
		p := n.Broker.Partition(key) // the last incarnation's state, even when down
		if p != nil {
			log := p.Log()
			rv.Present = true
			rv.LogStart, rv.LEO, rv.HW, rv.LeaderEpoch = log.LogStartOffset(), log.LogEndOffset(), log.HighWatermark(), p.LeaderEpoch()
			rv.LSO = lastStableOffset(log)
			if running[id] {
				rv.Role = "follower"
				if p.IsLeader() {
					rv.Role = "leader"
				}
			}
			rv.Cells = cells(log, pv.CommittedHW)
		}
		if leaderPart != nil && id != leader {
			rv.LeaderViewLEO = leaderPart.FollowerLogEndOffset(id)
		}
		pv.Replicas = append(pv.Replicas, rv)
	}
	return pv
}

// cells lists the last MaxCells offsets of a log with their batch epochs,
// from the segments' batch index, and what their batches' headers say of
// transactions (markTxns: no data record is decoded).
func cells(log *storage.Log, committedHW int64) []Cell {
	from := max(log.LogStartOffset(), log.LogEndOffset()-MaxCells)
	// The newest batches hold the last offsets: find the first batch that
	// reaches from, walking back from the end (a log of 100000 records
	// has thousands of batches; reading them all every frame was most of
	// Take for a large topic).
	segs := log.Segments()
	si, bi := len(segs), 0
	for si > 0 {
		s := segs[si-1]
		j := s.NumBatches()
		for j > 0 && s.Batch(j-1).LastOffset >= from {
			j--
		}
		if j > 0 {
			si, bi = si-1, j
			break
		}
		si--
	}
	var out []Cell
	var txns []txnBatch // the window's batches with a producer's transaction
	for ; si < len(segs); si, bi = si+1, 0 {
		for j := bi; j < segs[si].NumBatches(); j++ {
			b := segs[si].Batch(j)
			if b.LastOffset < from {
				continue
			}
			first := len(out)
			for o := max(b.BaseOffset, from); o <= b.LastOffset; o++ {
				out = append(out, Cell{Offset: o, Epoch: b.Epoch, Committed: o < committedHW})
			}
			if h, err := segs[si].Header(b); err == nil && (h.IsTransactional() || h.IsControl()) && len(out) > first {
				txns = append(txns, txnBatch{from: first, to: len(out), producerID: h.ProducerID, control: h.IsControl(), txn: h.IsTransactional()})
			}
		}
	}
	if len(txns) > 0 {
		markTxns(log, out, txns)
	}
	return out
}

func isolated(c *cluster.Cluster, id int32) bool {
	net := c.World.Net()
	h := cluster.Host(id)
	others := 0
	for _, o := range c.NodeIDs() {
		if o == id {
			continue
		}
		others++
		if !net.IsCut(h, cluster.Host(o)) || !net.IsCut(cluster.Host(o), h) {
			return false
		}
	}
	return others > 0
}

func nodeID(host string) (int32, bool) {
	s, ok := strings.CutPrefix(host, "kafka-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return int32(n), err == nil
}

// category groups messages for the diagram's filters; a ZooKeeper
// session's pings are its heartbeats.
func category(m sim.Message) string {
	switch m := m.(type) {
	case *protocol.ProduceRequest, *protocol.ProduceResponse, *protocol.FetchRequest, *protocol.FetchResponse,
		*protocol.ListOffsetsRequest, *protocol.ListOffsetsResponse:
		return "data"
	case *protocol.BrokerHeartbeatRequest, *protocol.BrokerHeartbeatResponse:
		return "heartbeat"
	case *raft.VoteRequest, *raft.VoteResponse, *raft.BeginQuorumEpochRequest, *raft.BeginQuorumEpochResponse,
		*raft.EndQuorumEpochRequest, *raft.EndQuorumEpochResponse:
		return "quorum"
	case *raft.FetchRequest, *raft.FetchResponse, *raft.FetchSnapshotRequest, *raft.FetchSnapshotResponse,
		*protocol.MetadataRequest, *protocol.MetadataResponse,
		*protocol.BrokerRegistrationRequest, *protocol.BrokerRegistrationResponse:
		return "metadata"
	case *zookeeper.Request:
		if m.Type == zookeeper.OpPing {
			return "heartbeat" // a session's keep-alive
		}
		return "zookeeper"
	case *zookeeper.Reply:
		if m.Type == zookeeper.OpPing {
			return "heartbeat"
		}
		return "zookeeper"
	case *zookeeper.ConnectRequest, *zookeeper.ConnectResponse, *zookeeper.Notification,
		*zookeeper.Vote, *zookeeper.Packet:
		return "zookeeper"
	}
	return "admin"
}

// label is the short text drawn on a message.
func label(m sim.Message) string {
	switch r := m.(type) {
	case *protocol.FetchRequest:
		if len(r.Topics) == 1 && len(r.Topics[0].Partitions) == 1 {
			p := r.Topics[0].Partitions[0]
			return "Fetch @" + strconv.FormatInt(p.FetchOffset, 10)
		}
		return "Fetch"
	case *protocol.FetchResponse:
		if len(r.Topics) == 1 && len(r.Topics[0].Partitions) == 1 {
			return "HW " + strconv.FormatInt(r.Topics[0].Partitions[0].HighWatermark, 10)
		}
		return "Fetch response"
	case *raft.VoteRequest:
		if r.PreVote {
			return "PreVote e" + strconv.Itoa(int(r.CandidateEpoch))
		}
		return "Vote e" + strconv.Itoa(int(r.CandidateEpoch))
	case *raft.VoteResponse:
		if r.VoteGranted {
			return "Vote ✓"
		}
		return "Vote ✗"
	case *raft.BeginQuorumEpochRequest:
		return "BeginQuorumEpoch e" + strconv.Itoa(int(r.LeaderEpoch))
	case *raft.EndQuorumEpochRequest:
		return "EndQuorumEpoch e" + strconv.Itoa(int(r.LeaderEpoch))
	case *raft.FetchRequest:
		return "Fetch metadata @" + strconv.FormatInt(r.FetchOffset, 10)
	case *zookeeper.Request:
		if r.Path != "" {
			return r.Type.String() + " " + r.Path
		}
	case *zookeeper.Notification:
		return r.Event.Type.String() + " " + r.Event.Path
	case *protocol.EndTxnRequest, *protocol.WriteTxnMarkersRequest, *protocol.AddPartitionsToTxnRequest:
		if l := txnLabel(m); l != "" {
			return l
		}
	case *protocol.ProduceResponse:
		if len(r.Topics) == 1 && len(r.Topics[0].Partitions) == 1 {
			p := r.Topics[0].Partitions[0]
			if p.ErrorCode != protocol.NONE {
				return p.ErrorCode.String()
			}
			return "ack @" + strconv.FormatInt(p.BaseOffset, 10)
		}
	}
	return m.Kind()
}

// Feed returns the newest feed entries (at most limit).
func Feed(c *cluster.Cluster, limit int) []feed.Entry {
	return feed.Recent(c.World.Trace(), 0, limit)
}
