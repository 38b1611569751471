package view

import (
	"slices"

	"kafkascope/core/cluster"
	"kafkascope/core/controller"
	"kafkascope/core/raft"
	"kafkascope/core/sim"
)

// Quorum statuses (Quorum.Status).
const (
	// QuorumOK: a leader that a majority of voters can reach; metadata
	// changes commit.
	QuorumOK = "ok"
	// QuorumElecting: no leader, or one that lost its majority, while a
	// majority of voters is running and connected: an election will end
	// it. Until then nothing commits.
	QuorumElecting = "electing"
	// QuorumLost: fewer than a majority of voters is running and
	// connected: no leader can be elected and nothing commits until they
	// return.
	QuorumLost = "lost"
)

// Quorum is the KRaft controller quorum: every voter as it sees itself,
// the leader's view of their progress, and how far every node has applied
// the committed metadata log.
type Quorum struct {
	Voters []Voter
	// Majority is how many voters must hold an entry for it to commit.
	Majority int
	// Running counts the voters whose process runs; Connected the largest
	// group of running voters that can all exchange messages with one of
	// them (what an election or a commit needs).
	Running, Connected int
	// LeaderID leads Epoch (the highest epoch a running voter leads), -1
	// when no running voter leads. Without a leader, Epoch is the highest
	// epoch a running voter knows.
	LeaderID int32
	Epoch    int32
	// HighWatermark is the leader's (or, without one, the highest a
	// running voter knows): the end of the committed log; -1 unknown.
	HighWatermark int64
	Status        string
	// Nodes is every node's replay of the committed log (voters and
	// brokers alike: in combined mode a node is both).
	Nodes []MetadataReplay
}

// Frozen reports whether metadata changes are stuck: creates, leader
// elections and ISR changes all wait for the quorum. (A Quorum without a
// Status, as in a hand-made snapshot, is not.)
func (q *Quorum) Frozen() bool { return q.Status == QuorumElecting || q.Status == QuorumLost }

// Voter is one controller voter.
type Voter struct {
	ID      int32
	State   string // the node: running, killed, power-off, stopped
	Running bool
	// Role is raft's name for its state in Epoch (Leader, Follower,
	// Candidate, Voted, Unattached, Resigned, and Kafka 4.x's Prospective);
	// "" while not running.
	Role     string
	Epoch    int32
	LeaderID int32 // the leader it knows, -1 none
	// LEO is its log end offset and HW the high watermark it knows (-1
	// unknown); both -1 while it is not running.
	LEO, HW int64
	// LeaderViewLEO is its log end offset as the leader last saw it, and
	// LastFetchAgoMs how long ago (virtual ms) it last fetched from the
	// leader; -1 unknown, or no leader.
	LeaderViewLEO  int64
	LastFetchAgoMs int64
	// Active: it hosts the active controller.
	Active bool
	// CutFromLeader: it runs, a leader exists, and the network drops
	// messages between them (either way).
	CutFromLeader bool
}

// MetadataReplay is how far one node has applied __cluster_metadata.
type MetadataReplay struct {
	ID      int32
	Running bool
	Voter   bool
	// Applied is the offset of the last record its broker applied
	// (Broker.Image().Offset), -1 none.
	Applied int64
	// Lag is how many committed records it has not applied yet (against
	// Quorum.HighWatermark); -1 unknown or not running.
	Lag int64
	// CutFromLeader: the network drops messages between it and the leader.
	CutFromLeader bool
}

// takeQuorum reads the quorum. ctl is the active controller (or nil).
func takeQuorum(c *cluster.Cluster, ctl *controller.Controller, now sim.Time) (Quorum, *raft.Node) {
	q := Quorum{LeaderID: -1, HighWatermark: -1}
	voters := make([]int32, 0, len(c.Voters()))
	for id := range c.Voters() {
		voters = append(voters, id)
	}
	slices.Sort(voters)
	q.Majority = len(voters)/2 + 1
	net := c.World.Net()
	linked := func(a, b int32) bool {
		if a == b {
			return true
		}
		ha, hb := cluster.Host(a), cluster.Host(b)
		return !net.IsCut(ha, hb) && !net.IsCut(hb, ha)
	}
	running := func(id int32) bool {
		n := c.Node(id)
		return n != nil && c.State(id) == cluster.NodeRunning && n.Raft.Started()
	}

	var leader *raft.Node
	for _, id := range voters {
		n := c.Node(id)
		v := Voter{ID: id, State: string(c.State(id)), LeaderID: -1, LEO: -1, HW: -1, LeaderViewLEO: -1, LastFetchAgoMs: -1}
		if n != nil && running(id) {
			r := n.Raft
			le := r.LeaderAndEpoch()
			v.Running = true
			v.Role, v.Epoch, v.LeaderID = r.Role().String(), le.Epoch, le.LeaderID
			v.LEO, v.HW = r.LogEndOffset(), r.HighWatermark()
			q.Running++
			q.Epoch = max(q.Epoch, le.Epoch)
			q.HighWatermark = max(q.HighWatermark, v.HW)
			if r.Role() == raft.RoleLeader && (leader == nil || le.Epoch > leader.LeaderAndEpoch().Epoch) {
				leader = r
			}
		}
		v.Active = ctl != nil && ctl.NodeID() == id
		q.Voters = append(q.Voters, v)
	}
	for _, v := range q.Voters {
		if !v.Running {
			continue
		}
		group := 0
		for _, u := range q.Voters {
			if u.Running && linked(u.ID, v.ID) {
				group++
			}
		}
		q.Connected = max(q.Connected, group)
	}

	if leader != nil {
		le := leader.LeaderAndEpoch()
		q.LeaderID, q.Epoch, q.HighWatermark = le.LeaderID, le.Epoch, leader.HighWatermark()
		if info, err := leader.QuorumProgress(now); err == nil {
			for _, r := range info.CurrentVoters {
				for i := range q.Voters {
					if v := &q.Voters[i]; v.ID == r.ReplicaID {
						v.LeaderViewLEO = r.LogEndOffset
						if r.LastFetchTimestamp >= 0 {
							v.LastFetchAgoMs = max(now.UnixMilli()-r.LastFetchTimestamp, 0)
						}
					}
				}
			}
		}
		group := 0
		for i := range q.Voters {
			v := &q.Voters[i]
			if v.Running && linked(v.ID, q.LeaderID) {
				group++
			}
			v.CutFromLeader = v.Running && !linked(v.ID, q.LeaderID)
		}
		if group >= q.Majority {
			q.Status = QuorumOK
		}
	}
	if q.Status == "" {
		q.Status = QuorumLost
		if q.Connected >= q.Majority {
			q.Status = QuorumElecting
		}
	}

	for _, id := range c.NodeIDs() {
		n := c.Node(id)
		r := MetadataReplay{ID: id, Voter: c.IsVoter(id), Applied: -1, Lag: -1}
		if c.State(id) == cluster.NodeRunning {
			r.Running = true
			r.Applied = n.Broker.Image().Offset
			if q.HighWatermark >= 0 {
				r.Lag = max(q.HighWatermark-1-r.Applied, 0)
			}
			r.CutFromLeader = q.LeaderID >= 0 && !linked(id, q.LeaderID)
		}
		q.Nodes = append(q.Nodes, r)
	}

	// The metadata log is read from the leader, else from the running
	// node (voter or observer) that knows the most of it.
	src := leader
	if src == nil {
		for _, id := range c.NodeIDs() {
			if !running(id) {
				continue
			}
			r := c.Node(id).Raft
			if src == nil || r.HighWatermark() > src.HighWatermark() ||
				r.HighWatermark() == src.HighWatermark() && r.LogEndOffset() > src.LogEndOffset() {
				src = r
			}
		}
	}
	return q, src
}
