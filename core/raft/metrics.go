package raft

import (
	"math"

	"kafkascope/core/metrics"
	"kafkascope/core/sim"
)

// RaftMetrics are Kafka's raft-metrics group (KafkaRaftMetrics:
// kafka.server:type=raft-metrics) read now: the gauges, the records
// appended as leader and fetched as follower per second, the elections'
// latency and the leader's commit latency (commit.go). poll-idle-ratio-avg
// is not kept: the simulated client has no poll loop to be idle in.
type RaftMetrics struct {
	// State is current-state: leader, candidate, voted, follower,
	// observer or unattached in 3.8; Kafka 4.x (KIP-996's pre-vote) says
	// prospective, prospective-voted and unattached-voted too, and
	// unattached-voted instead of voted.
	State string
	// Leader is current-leader (-1: unknown); Vote current-vote: the
	// node itself while it leads or is a candidate, else the voter it
	// voted for in the epoch (3.8 reads it in the voted state only; 4.x
	// from the epoch's election record, so a follower that voted shows
	// its vote), -1 otherwise.
	Leader, Vote, Epoch int32
	// HighWatermark (-1 unknown), LogEndOffset and LogEndEpoch.
	HighWatermark, LogEndOffset int64
	LogEndEpoch                 int32
	// AppendRecordsRate and FetchRecordsRate are append-records-rate and
	// fetch-records-rate (Rate over a WindowedSum); ElectionLatencyAvg
	// and ElectionLatencyMax election-latency-avg/-max (NaN: none yet).
	AppendRecordsRate, FetchRecordsRate    float64
	ElectionLatencyAvg, ElectionLatencyMax float64
	// CommitLatencyAvg and CommitLatencyMax are commit-latency-avg/-max
	// (NaN: none yet).
	CommitLatencyAvg, CommitLatencyMax float64
}

// raftRates are KafkaRaftMetrics' sensors, recorded as KafkaRaftClient
// records them; a leap's NoOps are recorded one at a time at their
// instants, as the steps would.
type raftRates struct {
	// Rates alone (a WindowedSum each): a NoOp records one value, a few
	// million times a simulated week.
	appendRecords, fetchRecords *metrics.SampledStat
	election                    *metrics.Sensor
	electionStart               sim.Time // -1: none under way
	commit                      *metrics.Sensor
	pending                     []pendingCommit // the leader's appends not committed yet, in offset order
}

func (n *Node) rates() *raftRates {
	if n.rateSensors == nil {
		n.rateSensors = &raftRates{appendRecords: metrics.NewWindowedSum(), fetchRecords: metrics.NewWindowedSum(),
			election: metrics.NewSensor(), electionStart: -1, commit: metrics.NewSensor()}
	}
	return n.rateSensors
}

// appended is updateAppendRecords: records appended as leader at at.
func (n *Node) appended(at sim.Time, records int64) {
	n.rates().appendRecords.Record(at, float64(records))
}

// fetched is updateFetchedRecords: records appended as follower (or
// observer) at at.
func (n *Node) fetched(at sim.Time, records int64) {
	n.rates().fetchRecords.Record(at, float64(records))
}

// electionStarted is updateElectionStartMs: a candidate (or, from 4.0, a
// prospective voter) that did not win at once.
func (n *Node) electionStarted(at sim.Time) { n.rates().electionStart = at }

// electionEnded is maybeUpdateElectionLatency: the node leads or follows.
func (n *Node) electionEnded(at sim.Time) {
	r := n.rates()
	if r.electionStart >= 0 {
		r.election.Record(at, float64(at.UnixMilli()-r.electionStart.UnixMilli()))
		r.electionStart = -1
	}
}

// Metrics reads the raft-metrics at now.
func (n *Node) Metrics(now sim.Time) RaftMetrics {
	m := RaftMetrics{State: "unattached", Leader: -1, Vote: -1, HighWatermark: -1, ElectionLatencyAvg: math.NaN(), ElectionLatencyMax: math.NaN(),
		CommitLatencyAvg: math.NaN(), CommitLatencyMax: math.NaN()}
	if !n.started {
		return m
	}
	n.leapedCommitsBy(now)
	le := n.LeaderAndEpoch()
	m.Leader, m.Epoch = le.LeaderID, le.Epoch
	if !le.HasLeader() {
		m.Leader = -1
	}
	m.HighWatermark, m.LogEndOffset, m.LogEndEpoch = n.HighWatermark(), n.LogEndOffset(), n.LastFetchedEpoch()
	r := n.rates()
	m.AppendRecordsRate, m.FetchRecordsRate = r.appendRecords.Rate(now), r.fetchRecords.Rate(now)
	m.ElectionLatencyAvg, m.ElectionLatencyMax = r.election.Avg(now), r.election.Max(now)
	m.CommitLatencyAvg, m.CommitLatencyMax = r.commit.Avg(now), r.commit.Max(now)
	e := n.quorum.state.election()
	voted := e.votedID != notVoted
	newNames := n.cfg.PreVote
	switch n.Role() {
	case RoleLeader:
		m.State, m.Vote = "leader", n.cfg.NodeID
	case RoleCandidate:
		m.State, m.Vote = "candidate", n.cfg.NodeID
	case RoleProspective:
		m.State = "prospective"
		if voted {
			m.State, m.Vote = "prospective-voted", e.votedID
		}
	case RoleVoted:
		m.State, m.Vote = "voted", e.votedID
		if newNames {
			m.State = "unattached-voted"
		}
	case RoleFollower:
		m.State = "follower"
		if n.observer {
			m.State = "observer"
		}
	}
	if newNames && m.Vote < 0 && voted {
		m.Vote = e.votedID
	}
	return m
}
