package cluster

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"kafkascope/core/broker"
	"kafkascope/core/config"
	"kafkascope/core/controller"
	"kafkascope/core/dashboard"
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/raft"
	"kafkascope/core/release"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zookeeper"
)

// Limits on a cluster.
const (
	MaxBrokers      = 9
	startupDeadline = 60 * time.Second
)

// Config describes a cluster to create.
type Config struct {
	Brokers     int
	Controllers int // how many of the first nodes are controller voters
	Seed        uint64
	Static      config.Static // server.properties shared by every node
	// TraceContent makes the trace hash cover message contents too (for
	// determinism tests; it halves the scheduler's speed).
	TraceContent bool
	// PageCacheBytes is each machine's memory for caching files (0:
	// storage.DefaultPageCacheBytes). A simulator setting, not a Kafka
	// config: the operating system's, like the writeback timers.
	PageCacheBytes int64
	// Stepped runs every event: the cluster leaps no span in which only
	// steady loops run (leap.go). A leaped run reaches the same state as
	// a stepped one; stepping is for what reads the trace event by event
	// (the fault simulator's fingerprint, tests of the engine's
	// mechanics) and the reference the leap is tested against.
	Stepped bool
	// Racks is each broker's broker.rack, by id (Racks[0] is broker 1's);
	// nil: no broker has one.
	Racks []string
	// Dashboard keeps the on-call dashboard's history (dashboard.go): the
	// console's clusters do, the fault simulator's do not.
	Dashboard bool
	// Version is the Kafka release the cluster runs (zero:
	// release.Default); New refuses a release the engine cannot run.
	Version release.Version
	// ZooKeepers is the ZooKeeper ensemble's size for a ZooKeeper-era
	// release (1 or 3; 0: 1, Kafka's standalone zookeeper.properties).
	ZooKeepers int
	// Unfinished runs a known release that the engine does not run
	// faithfully yet (Release.Refused): for the engine's own tests while
	// that release is built. Nothing a user types sets it.
	Unfinished bool
}

// NodeState is a node's life as the user sees it.
type NodeState string

const (
	NodeRunning  NodeState = "running"
	NodeKilled   NodeState = "killed"    // process crashed; page cache kept
	NodePowerOff NodeState = "power-off" // machine lost power; unflushed data lost
	NodeStopped  NodeState = "stopped"   // shut down cleanly
)

// Cluster is a running simulated cluster.
type Cluster struct {
	World *sim.World
	// leapMisses counts the searches for a span in a row that found none
	// (busyBackoff); leapSearches all of them.
	leapMisses   int
	leapSearches uint64
	cfg          Config
	release      release.Release
	ClusterID    string
	disks        map[int32]*storage.Disk
	nodes        map[int32]*Node
	// spawns counts the processes started, naming each node incarnation's
	// JMX server (Node.jmxServer).
	spawns  uint64
	dash    *dashboard.Board // the dashboard's history, if kept (Config.Dashboard)
	state   map[int32]NodeState
	dirIDs  map[int32]string
	clients int
	avail   *Availability
	losses  []LostRange
	marks   replicaMarks // every replica's last epoch and HW, from the notes (loss.go)
	// checkSuperseded makes the loss check look at leaderships already
	// superseded too (tests only: loss_test.go pins the rule on its seed).
	checkSuperseded bool
	groups          groupLog // coordinators' notes per group (clients.go)
	onNote          func(sim.TraceEvent)
	zkServers       []*zookeeper.Server // the ensemble (zkcluster.go); none on KRaft
	zkCommitted     []func(zookeeper.Txn, *zookeeper.Tree)

	// ViewState is where a view of this cluster keeps what it computes
	// incrementally (core/view's metadata-log list); the cluster never
	// reads it. Keeping it here, not in a global cache, makes a view a
	// function of the cluster's own history.
	ViewState any
}

// New creates the cluster and runs it until every broker is registered and
// unfenced (or the startup deadline passes).
func New(cfg Config) (*Cluster, error) {
	if cfg.Brokers < 1 || cfg.Brokers > MaxBrokers {
		return nil, fmt.Errorf("--brokers must be between 1 and %d", MaxBrokers)
	}
	if cfg.Controllers == 0 {
		cfg.Controllers = min(3, cfg.Brokers) // the first three nodes are voters, as in apache/kafka's usual docker-compose
	}
	if cfg.Controllers < 1 || cfg.Controllers > cfg.Brokers {
		return nil, fmt.Errorf("--controllers must be between 1 and the number of brokers (%d)", cfg.Brokers)
	}
	if cfg.Version == (release.Version{}) {
		cfg.Version = release.Default
	}
	rel, err := release.Lookup(cfg.Version)
	if err != nil && !(cfg.Unfinished && rel.Version == cfg.Version) {
		return nil, err
	}
	zkEra := !rel.Version.AtLeast(3, 0)
	switch {
	case !zkEra && cfg.ZooKeepers != 0:
		return nil, fmt.Errorf("--zookeepers needs a ZooKeeper-era release (--version 2.8); Kafka %s runs in KRaft mode", cfg.Version)
	case zkEra && cfg.ZooKeepers == 0:
		cfg.ZooKeepers = 1
	case zkEra && cfg.ZooKeepers != 1 && cfg.ZooKeepers != MaxZooKeepers:
		return nil, fmt.Errorf("--zookeepers must be 1 or %d", MaxZooKeepers)
	}
	if zkEra {
		cfg.Controllers = 0 // no node is a KRaft voter: the controller is a broker (IsVoter)
	}
	if cfg.Static == nil {
		cfg.Static = config.Static{}
	}
	if _, ok := cfg.Static["inter.broker.protocol.version"]; ok && cfg.Version.AtLeast(4, 0) {
		// Kafka 4.0 removed it (its docs' zk2kraft.md: metadata.version,
		// set with kafka-features.sh, replaces it); a 4.x broker ignores
		// the unknown key, and the simulator will not pretend it applies.
		return nil, fmt.Errorf("inter.broker.protocol.version does not exist in Kafka %s (removed in 4.0; metadata.version replaces it); use --version 3.8 to try older protocol rules", cfg.Version)
	}
	if cfg.PageCacheBytes == 0 {
		cfg.PageCacheBytes = storage.DefaultPageCacheBytes
	}
	if cfg.PageCacheBytes < storage.MinPageCacheBytes || cfg.PageCacheBytes > storage.MaxPageCacheBytes {
		return nil, fmt.Errorf("--page-cache-bytes must be between %d and %d", storage.MinPageCacheBytes, storage.MaxPageCacheBytes)
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Static)) {
		if gone, ok := config.RemovedIn(k); ok && cfg.Version.AtLeast(gone.Major, gone.Minor) {
			// A broker of that release ignores the key; kafkascope says so
			// rather than run a config that does nothing.
			return nil, fmt.Errorf("%s does not exist in Kafka %s (removed in %s); use --version 3.8 to run it", k, cfg.Version, gone)
		}
	}
	if err := config.ValidateStatic(cfg.Static, cfg.Version); err != nil {
		return nil, err
	}
	w := sim.NewWorld(cfg.Seed)
	w.Trace().HashContent(cfg.TraceContent)
	ids := w.Rand("cluster/ids")
	c := &Cluster{
		World: w, cfg: cfg, release: rel, ClusterID: metadata.RandomUuid(ids.Uint64).String(),
		disks: map[int32]*storage.Disk{}, nodes: map[int32]*Node{}, state: map[int32]NodeState{}, dirIDs: map[int32]string{},
		avail: newAvailability(), marks: replicaMarks{},
	}
	w.SetNoteHook(c.observe)
	if zkEra {
		if err := c.spawnZooKeepers(cfg.ZooKeepers); err != nil {
			return nil, err
		}
	}
	for id := int32(1); id <= int32(cfg.Brokers); id++ {
		c.disks[id] = storage.NewDisk(w.Now)
		if err := c.disks[id].SetPageCacheBytes(cfg.PageCacheBytes); err != nil {
			return nil, err // checked above
		}
		c.dirIDs[id] = metadata.RandomUuid(ids.Uint64).String()
		if err := c.spawn(id); err != nil {
			return nil, err
		}
	}
	// Leaps know KRaft's steady loops, not ZooKeeper's pings and ticks:
	// a ZooKeeper-era cluster runs every event.
	c.SetLeaping(!cfg.Stepped && !zkEra)
	if err := c.RunUntil(c.AllUnfenced, startupDeadline); err != nil {
		return nil, err
	}
	// The dashboard's history starts with the cluster up: the seconds of
	// its first election would read as an alert nobody could act on.
	if cfg.Dashboard {
		c.startDashboard()
	}
	return c, nil
}

// observe sees every note the engine makes (sim.World.SetNoteHook).
func (c *Cluster) observe(e sim.TraceEvent) {
	c.avail.observe(e)
	c.groups.observe(e)
	c.marks.observe(e.Note)
	if n, ok := e.Note.(event.LeaderStarted); ok {
		c.checkLoss(n, e.At)
	}
	if c.onNote != nil {
		c.onNote(e)
	}
}

// OnNote registers fn to see every engine note after the cluster's own
// observers (a checker's hook; fn must not change the simulation).
func (c *Cluster) OnNote(fn func(sim.TraceEvent)) { c.onNote = fn }

// Availability is the per-partition downtime record of this run.
func (c *Cluster) Availability() *Availability { return c.avail }

// Host is node id's host name.
func Host(id int32) string { return fmt.Sprintf("kafka-%d", id) }

// BrokerAddr is node id's broker listener.
func BrokerAddr(id int32) sim.Addr {
	return sim.Addr(fmt.Sprintf("%s:%d", Host(id), broker.BrokerPort))
}

// ControllerAddr is node id's controller listener.
func ControllerAddr(id int32) sim.Addr {
	return sim.Addr(fmt.Sprintf("%s:%d", Host(id), broker.ControllerPort))
}

// Voters is controller.quorum.voters: the first Controllers nodes, each on
// its controller listener.
func (c *Cluster) Voters() map[int32]sim.Addr {
	v := map[int32]sim.Addr{}
	for id := int32(1); id <= int32(c.cfg.Controllers); id++ {
		v[id] = ControllerAddr(id)
	}
	return v
}

// DirectoryID is node id's directory.id (meta.properties of its one log
// dir, which is also its metadata log dir); "" for an unknown node.
func (c *Cluster) DirectoryID(id int32) string { return c.dirIDs[id] }

// IsVoter reports whether node id is a controller voter.
func (c *Cluster) IsVoter(id int32) bool { return id >= 1 && int(id) <= c.cfg.Controllers }

// spawn starts a fresh incarnation of node id: new processes over the same
// disk, which holds the partition logs and the metadata log.
func (c *Cluster) spawn(id int32) error {
	if c.IsZooKeeper() {
		return c.spawnZkBroker(id)
	}
	n := &Node{ID: id}
	voters := c.Voters()
	addr := BrokerAddr(id) // an observer's raft client fetches from the broker listener
	if c.IsVoter(id) {
		addr = ControllerAddr(id)
	}
	n.Raft = raft.NewNode(raft.Config{
		NodeID: id, Addr: addr, Voters: voters, ClusterID: c.ClusterID,
		Disk: c.disks[id], LogDir: c.logDir(),
		// KIP-996's pre-vote came with 4.0; every release from 4.1 on
		// elects that way (raft.Config.PreVote).
		PreVote: c.release.Version.AtLeast(4, 0),
	}, nil)
	if c.IsVoter(id) {
		n.Controller = controller.New(controller.Config{NodeID: id, Addr: ControllerAddr(id), ClusterID: c.ClusterID, Static: c.cfg.Static, Release: c.release}, n.Raft)
	}
	n.Broker = broker.New(broker.Config{
		NodeID: id, Host: Host(id), ClusterID: c.ClusterID, DirectoryID: c.dirIDs[id],
		Quorum: quorumView{rn: n.Raft, voters: voters}, Static: c.brokerStatic(id), Disk: c.disks[id],
		OnShutdown: n.resignOnShutdown, Release: c.release,
	})
	c.spawns++
	n.jmxServer = c.spawns
	n.logFlush = newLogFlushTimer(c.World.Now())
	c.disks[id].OnSegmentFlush(n.logFlush.flushed)
	c.nodes[id] = n
	c.state[id] = NodeRunning
	c.marks.forget(id)
	return c.World.Spawn(Host(id), n)
}

// brokerStatic is broker id's static configuration: the cluster's, with
// its broker.rack when it has one.
func (c *Cluster) brokerStatic(id int32) config.Static {
	r := c.Rack(id)
	if r == "" {
		return c.cfg.Static
	}
	st := maps.Clone(c.cfg.Static)
	if st == nil {
		st = config.Static{}
	}
	st["broker.rack"] = r
	return st
}

// Rack is broker id's broker.rack ("" for none).
func (c *Cluster) Rack(id int32) string {
	if id < 1 || int(id) > len(c.cfg.Racks) {
		return ""
	}
	return c.cfg.Racks[id-1]
}

// Config returns the cluster's configuration.
func (c *Cluster) Config() Config { return c.cfg }

// Release is the Kafka release the cluster runs.
func (c *Cluster) Release() release.Release { return c.release }

// NodeIDs lists node ids in order.
func (c *Cluster) NodeIDs() []int32 {
	out := make([]int32, 0, len(c.nodes))
	for id := range c.nodes {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Node returns a node (its last incarnation, even when not running).
func (c *Cluster) Node(id int32) *Node { return c.nodes[id] }

// State returns a node's state.
func (c *Cluster) State(id int32) NodeState {
	c.reapStopped()
	return c.state[id]
}

// Disk returns a node's disk.
func (c *Cluster) Disk(id int32) *storage.Disk { return c.disks[id] }

// Controller returns the active controller: the running controller that
// leads the quorum in the highest epoch, or nil when none does (no quorum,
// Close ends the cluster's world (sim.World.Close): its process goroutines
// exit and it runs no more, so a cluster no one will run again can be
// collected. What it shows stays readable.
func (c *Cluster) Close() { c.World.Close() }

// or an election under way).
func (c *Cluster) Controller() *controller.Controller {
	var best *controller.Controller
	for _, id := range c.NodeIDs() {
		n := c.nodes[id]
		if n.Controller == nil || c.state[id] != NodeRunning || !n.Controller.Active() {
			continue
		}
		if best == nil || n.Controller.Epoch() > best.Epoch() {
			best = n.Controller
		}
	}
	return best
}

// logDir is where every node keeps its logs, the metadata log included
// (metadata.log.dir defaults to the first of log.dirs).
func (c *Cluster) logDir() string {
	if d := c.cfg.Static.Broker("log.dirs"); d != "" {
		return d
	}
	return "/tmp/kafka-logs"
}

// AllUnfenced reports whether every running broker is registered and
// unfenced in the controller's metadata.
func (c *Cluster) AllUnfenced() bool {
	if c.IsZooKeeper() {
		return c.zkAllRegistered()
	}
	ctl := c.Controller()
	if ctl == nil {
		return false
	}
	for _, id := range c.NodeIDs() {
		if c.state[id] != NodeRunning {
			continue
		}
		b, ok := ctl.Image().Brokers[id]
		if !ok || b.Fenced || c.nodes[id].Broker.State() != broker.StateRunning {
			return false
		}
	}
	return true
}

// RunUntil steps the world until cond holds, for at most d of virtual time.
// Reaching the limit is not an error (the caller decides what it means).
func (c *Cluster) RunUntil(cond func() bool, d time.Duration) error {
	return c.RunUntilBudget(cond, d, -1)
}

// RunUntilBudget is RunUntil that runs at most maxSteps events' worth of
// work (sim.World.RunWhileBudget; <0: no bound).
func (c *Cluster) RunUntilBudget(cond func() bool, d time.Duration, maxSteps int) error {
	_, err := c.World.RunWhileBudget(func() bool { return !cond() }, c.World.Now().Add(d), maxSteps)
	c.reapStopped()
	return err
}

// Advance moves virtual time forward by d, running everything due.
func (c *Cluster) Advance(d time.Duration) error {
	err := c.World.RunUntil(c.World.Now().Add(d))
	c.reapStopped()
	return err
}

// AdvanceTo runs the world up to virtual time t.
func (c *Cluster) AdvanceTo(t sim.Time) error {
	err := c.World.RunUntil(t)
	c.reapStopped()
	return err
}

// reapStopped records nodes whose process ended after a clean shutdown.
func (c *Cluster) reapStopped() {
	for _, id := range c.NodeIDs() {
		if st, _ := c.World.State(Host(id)); c.state[id] == NodeRunning && st == sim.ProcDead {
			c.state[id] = NodeStopped
		}
	}
}

func (c *Cluster) checkID(id int32) error {
	if _, ok := c.nodes[id]; !ok {
		return fmt.Errorf("no broker with id %d (brokers are %s)", id, idList(c.NodeIDs()))
	}
	return nil
}

func idList(ids []int32) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(id)
	}
	return s
}

// Kill crashes node id. With powerLoss the machine loses power too: every
// write not yet flushed to disk is gone when it restarts.
func (c *Cluster) Kill(id int32, powerLoss bool) error {
	if err := c.checkID(id); err != nil {
		return err
	}
	if c.state[id] != NodeRunning && !(powerLoss && c.state[id] != NodePowerOff) {
		return fmt.Errorf("broker %d is not running", id)
	}
	if err := c.World.Kill(Host(id), powerLoss); err != nil {
		return err
	}
	c.state[id] = NodeKilled
	c.avail.brokerDied(id, c.World.Now())
	if powerLoss {
		c.state[id] = NodePowerOff
		c.disks[id].PowerLoss()
	}
	return nil
}

// Stop shuts node id down gracefully (SIGTERM): a controlled shutdown, then
// a flush and a clean exit. It returns at once; the process ends by itself
// (see Stopping and State).
func (c *Cluster) Stop(id int32) error {
	if err := c.checkID(id); err != nil {
		return err
	}
	if c.state[id] != NodeRunning {
		return fmt.Errorf("broker %d is not running", id)
	}
	return c.World.Call(Host(id), "SIGTERM", c.nodes[id].Broker.BeginControlledShutdown)
}

// Start restarts a node that was killed or stopped; its broker recovers its
// logs from disk, registers again and catches up.
func (c *Cluster) Start(id int32) error {
	if err := c.checkID(id); err != nil {
		return err
	}
	if c.state[id] == NodeRunning {
		return fmt.Errorf("broker %d is already running", id)
	}
	return c.spawn(id)
}

// Cut drops messages between two nodes (both ways, or one way from a to b).
func (c *Cluster) Cut(a, b int32, oneWay bool) error {
	if err := c.checkID(a); err != nil {
		return err
	}
	if err := c.checkID(b); err != nil {
		return err
	}
	if a == b {
		return fmt.Errorf("cannot cut broker %d from itself", a)
	}
	c.World.Net().Cut(Host(a), Host(b))
	if !oneWay {
		c.World.Net().Cut(Host(b), Host(a))
	}
	return nil
}

// Heal removes cuts: all of them, or those between a and b.
func (c *Cluster) Heal(a, b int32, all bool) error {
	if all {
		c.World.Net().HealAll()
		return nil
	}
	if err := c.checkID(a); err != nil {
		return err
	}
	if err := c.checkID(b); err != nil {
		return err
	}
	c.World.Net().Heal(Host(a), Host(b))
	c.World.Net().Heal(Host(b), Host(a))
	return nil
}

// Delay adds latency to every message to and from node id.
func (c *Cluster) Delay(id int32, d time.Duration) error {
	if err := c.checkID(id); err != nil {
		return err
	}
	c.World.Net().SetDelay(Host(id), d)
	return nil
}

// Corrupt makes the next count produce requests that reach node id arrive
// with one bit of their record data flipped (a fault TCP's checksum missed
// and the batch CRC catches: the leader answers CORRUPT_MESSAGE, a
// retriable error, without appending).
func (c *Cluster) Corrupt(id int32, count int) error {
	if err := c.checkID(id); err != nil {
		return err
	}
	c.World.Net().SetCorrupt(Host(id), count)
	return nil
}

// SpawnClient starts a client process on a fresh host named after name;
// build receives the host name (clients send from addresses on it).
func (c *Cluster) SpawnClient(name string, build func(host string) sim.Process) (string, error) {
	c.clients++
	host := fmt.Sprintf("%s-%d", name, c.clients)
	return host, c.World.Spawn(host, build(host))
}

// StopClient ends a client process.
func (c *Cluster) StopClient(host string) { _ = c.World.Exit(host) }

// BrokerIsRunning reports whether node id's process runs.
func (c *Cluster) BrokerIsRunning(id int32) bool { return c.state[id] == NodeRunning }
