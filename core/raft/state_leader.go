package raft

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"time"

	"kafkascope/core/sim"
)

// noTime marks a timestamp that was never set (Kafka's -1).
const noTime = sim.Time(-1)

// replicaState is the leader's view of one replica (LeaderState.ReplicaState).
type replicaState struct {
	id int32
	// endOffset is the replica's log end offset as its last fetch offset
	// says (-1 until it fetches); for the leader itself, its own LEO.
	endOffset int64
	// lastFetch is when it last fetched; lastFetchLeaderLEO the leader's
	// LEO at that moment; lastCaughtUp the last time its fetch offset
	// reached the leader's LEO of its previous fetch (Kafka's
	// lastCaughtUpTimestamp semantics).
	lastFetch          sim.Time
	lastFetchLeaderLEO int64
	lastCaughtUp       sim.Time
	// acked: it answered BeginQuorumEpoch or fetched in this epoch.
	acked bool
}

func newReplicaState(id int32, acked bool) *replicaState {
	return &replicaState{id: id, endOffset: -1, lastFetch: noTime, lastFetchLeaderLEO: -1, lastCaughtUp: noTime, acked: acked}
}

// updateFollower records a fetch at fetchOffset (LeaderState.ReplicaState.updateFollowerState).
func (r *replicaState) updateFollower(now sim.Time, fetchOffset, leaderLEO int64) {
	// Caught-up time is decided before the fetch time moves, so a fetch that
	// reaches the LEO of the previous fetch credits that previous moment.
	if fetchOffset >= leaderLEO {
		r.lastCaughtUp = max(r.lastCaughtUp, now)
	} else if r.lastFetchLeaderLEO > 0 && fetchOffset >= r.lastFetchLeaderLEO {
		r.lastCaughtUp = max(r.lastCaughtUp, r.lastFetch)
	}
	r.lastFetchLeaderLEO = leaderLEO
	r.lastFetch = max(r.lastFetch, now)
	r.endOffset = fetchOffset
	r.acked = true
}

// leaderState: this voter won the epoch (LeaderState.java).
//
// Invariants:
//
//	hw == -1 until an offset above epochStartOffset (the LeaderChangeMessage
//	of this epoch) is on a majority of voters; from then on hw only grows.
//	hw is the (len(voters)/2)-th largest voter end offset (0-based, the
//	leader counting itself), so a majority holds every entry below it.
type leaderState struct {
	epochNum         int32
	localID          int32
	voters           []int32
	epochStartOffset int64
	grantingVoters   []int32
	hw               int64
	voterStates      map[int32]*replicaState
	observerStates   map[int32]*replicaState
	// fetchedVoters are the voters (not the leader) that fetched since the
	// check-quorum timer was last reset.
	fetchedVoters       map[int32]bool
	checkQuorumTimeout  time.Duration
	checkQuorumDeadline sim.Time
	resignRequested     bool
	// byEndOffset is sortedVotersScratch's storage (never kept elsewhere).
	byEndOffset []*replicaState
}

// maxObservers bounds the observers a leader tracks (brokers of the
// cluster; the simulator has at most sim.MaxProcesses hosts).
const maxObservers = 4096

func newLeaderState(now sim.Time, epoch, localID int32, voters []int32, epochStartOffset int64, granting []int32, fetchTimeout time.Duration) *leaderState {
	s := &leaderState{
		epochNum: epoch, localID: localID, voters: voters, epochStartOffset: epochStartOffset,
		grantingVoters: granting, hw: -1,
		voterStates: map[int32]*replicaState{}, observerStates: map[int32]*replicaState{},
		fetchedVoters: map[int32]bool{},
		// 1.5 × fetch timeout "to tolerate some network transition time or
		// other IO time" (LeaderState.java:93-94).
		checkQuorumTimeout: time.Duration(float64(fetchTimeout) * checkQuorumTimeoutFactor),
	}
	s.checkQuorumDeadline = now.Add(s.checkQuorumTimeout)
	for _, v := range voters {
		s.voterStates[v] = newReplicaState(v, v == localID)
	}
	return s
}

func (s *leaderState) role() Role                          { return RoleLeader }
func (s *leaderState) epoch() int32                        { return s.epochNum }
func (s *leaderState) highWatermark() int64                { return s.hw }
func (s *leaderState) canGrantVote(int32, bool, bool) bool { return false }
func (s *leaderState) election() electionState {
	return electionState{epoch: s.epochNum, leaderID: s.localID, votedID: notVoted, voters: s.voters}
}

func (s *leaderState) isVoter(id int32) bool { _, ok := s.voterStates[id]; return ok }

// timeUntilCheckQuorumExpires is 0 once a majority of voters has not
// fetched within the check-quorum timeout; a lone voter never expires.
func (s *leaderState) timeUntilCheckQuorumExpires(now sim.Time) time.Duration {
	if len(s.voterStates) == 1 {
		return time.Duration(never)
	}
	return time.Duration(remaining(s.checkQuorumDeadline, now))
}

// updateCheckQuorum notes that voter id fetched; once the voters that
// fetched (excluding the leader) make a majority together with the leader,
// the timer restarts.
func (s *leaderState) updateCheckQuorum(id int32, now sim.Time) {
	if id == s.localID {
		panic("raft: the leader received a fetch from itself")
	}
	if s.isVoter(id) {
		s.fetchedVoters[id] = true
	}
	if len(s.fetchedVoters) >= len(s.voterStates)/2 {
		clear(s.fetchedVoters)
		s.checkQuorumDeadline = now.Add(s.checkQuorumTimeout)
	}
}

// replica returns the state of a voter or observer, creating an observer's.
// It returns nil when the observer table is full.
func (s *leaderState) replica(id int32) *replicaState {
	if r, ok := s.voterStates[id]; ok {
		return r
	}
	r, ok := s.observerStates[id]
	if !ok {
		if len(s.observerStates) >= maxObservers {
			return nil
		}
		r = newReplicaState(id, false)
		s.observerStates[id] = r
	}
	return r
}

// updateLocalState records the leader's own LEO; it reports whether the
// high watermark moved.
func (s *leaderState) updateLocalState(leo int64) bool {
	r := s.voterStates[s.localID]
	if r.endOffset > leo {
		panic(fmt.Sprintf("raft: non-monotonic update of the leader's end offset %d -> %d", r.endOffset, leo))
	}
	r.endOffset = leo
	return s.maybeUpdateHighWatermark()
}

// updateReplicaState records a replica's fetch; it reports whether the high
// watermark moved (only voters move it).
func (s *leaderState) updateReplicaState(id int32, now sim.Time, fetchOffset int64) bool {
	if id < 0 {
		return false // a fetch from a non-replica
	}
	r := s.replica(id)
	if r == nil {
		return false
	}
	leaderLEO := s.voterStates[s.localID].endOffset
	r.updateFollower(now, fetchOffset, leaderLEO)
	s.updateCheckQuorum(id, now)
	return s.isVoter(id) && s.maybeUpdateHighWatermark()
}

// votersByDescendingEndOffset orders voters by end offset, largest first,
// unknown last, ties by id (ReplicaState.compareTo). Ids are unique, so
// the order is total and any sort gives the same result: slices.SortFunc,
// not sort.SliceStable, whose reflection (a swapper allocated per call) was
// 2% of an idle cluster (the leader runs this on every Fetch it answers).
func (s *leaderState) votersByDescendingEndOffset() []*replicaState {
	out := make([]*replicaState, 0, len(s.voterStates))
	for _, id := range s.voters {
		out = append(out, s.voterStates[id])
	}
	slices.SortFunc(out, compareByDescendingEndOffset)
	return out
}

// sortedVotersScratch is votersByDescendingEndOffset in s.byEndOffset,
// reused from call to call: the leader takes the median end offset on
// every Fetch it answers, and a new slice each time was a thirtieth of an
// idle cluster's allocations. The result is valid until the next call; it
// must not be kept.
func (s *leaderState) sortedVotersScratch() []*replicaState {
	out := s.byEndOffset[:0]
	for _, id := range s.voters {
		out = append(out, s.voterStates[id])
	}
	slices.SortFunc(out, compareByDescendingEndOffset)
	s.byEndOffset = out
	return out
}

// compareByDescendingEndOffset is votersByDescendingEndOffset's order.
func compareByDescendingEndOffset(a, b *replicaState) int {
	if a.endOffset != b.endOffset {
		if a.endOffset < 0 || b.endOffset < 0 {
			if b.endOffset < 0 {
				return -1 // unknown last
			}
			return 1
		}
		if a.endOffset > b.endOffset {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.id, b.id)
}

// maybeUpdateHighWatermark moves the high watermark to the largest offset a
// majority of voters has reached, but only past the epoch's start offset:
// the leader must commit an entry of its own epoch (its LeaderChangeMessage)
// before it exposes any entry of an earlier epoch
// (LeaderState.maybeUpdateHighWatermark, LeaderState.java:212-270).
func (s *leaderState) maybeUpdateHighWatermark() bool {
	sorted := s.sortedVotersScratch()
	candidate := sorted[len(s.voterStates)/2].endOffset
	if candidate < 0 || candidate <= s.epochStartOffset {
		return false
	}
	if s.hw < 0 || candidate > s.hw {
		s.hw = candidate
		return true
	}
	// candidate < hw happens only if a voter lost committed data (or the
	// voter set changed, which static voters never do): Kafka logs it and
	// keeps the high watermark.
	return false
}

// nonAcknowledgingVoters are the voters still to be sent BeginQuorumEpoch.
func (s *leaderState) nonAcknowledgingVoters() []int32 {
	var out []int32
	for _, id := range s.voters {
		if !s.voterStates[id].acked {
			out = append(out, id)
		}
	}
	return out
}

// nonLeaderVotersByDescendingFetchOffset are the preferred successors a
// resigning leader names: the most caught-up first.
func (s *leaderState) nonLeaderVotersByDescendingFetchOffset() []int32 {
	var out []int32
	for _, r := range s.votersByDescendingEndOffset() {
		if r.id != s.localID {
			out = append(out, r.id)
		}
	}
	return out
}

// ReplicaInfo is one replica in DescribeQuorum: its log end offset, and the
// wall-clock milliseconds of its last fetch and of the last time it was
// caught up (-1 if never). The leader reports itself as fetched and caught
// up now.
type ReplicaInfo struct {
	ReplicaID             int32
	LogEndOffset          int64
	LastFetchTimestamp    int64
	LastCaughtUpTimestamp int64
}

// QuorumInfo is the leader's DescribeQuorum answer for __cluster_metadata-0.
type QuorumInfo struct {
	LeaderID      int32
	LeaderEpoch   int32
	HighWatermark int64
	CurrentVoters []ReplicaInfo
	Observers     []ReplicaInfo
}

// describe builds the DescribeQuorum view (LeaderState.describeQuorum),
// first forgetting observers silent for ObserverSessionTimeout.
func (s *leaderState) describe(now sim.Time) QuorumInfo {
	for id, r := range s.observerStates {
		if r.lastFetch == noTime || now.Sub(r.lastFetch) >= ObserverSessionTimeout {
			if id != s.localID {
				delete(s.observerStates, id)
			}
		}
	}
	return s.quorumInfo(now)
}

// quorumInfo is describe's answer without its side effect: observers silent
// for ObserverSessionTimeout are left out but not forgotten, so reading it
// (a view, every frame) never changes what a later DescribeQuorum says.
func (s *leaderState) quorumInfo(now sim.Time) QuorumInfo {
	q := QuorumInfo{LeaderID: s.localID, LeaderEpoch: s.epochNum, HighWatermark: s.hw}
	for _, id := range s.voters {
		q.CurrentVoters = append(q.CurrentVoters, s.describeReplica(s.voterStates[id], now))
	}
	ids := make([]int32, 0, len(s.observerStates))
	for id := range s.observerStates {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		r := s.observerStates[id]
		if id != s.localID && (r.lastFetch == noTime || now.Sub(r.lastFetch) >= ObserverSessionTimeout) {
			continue // describe forgets it
		}
		q.Observers = append(q.Observers, s.describeReplica(r, now))
	}
	return q
}

func (s *leaderState) describeReplica(r *replicaState, now sim.Time) ReplicaInfo {
	ms := func(t sim.Time) int64 {
		if t == noTime {
			return -1
		}
		return t.UnixMilli()
	}
	info := ReplicaInfo{ReplicaID: r.id, LogEndOffset: r.endOffset, LastFetchTimestamp: ms(r.lastFetch), LastCaughtUpTimestamp: ms(r.lastCaughtUp)}
	if r.id == s.localID {
		info.LastFetchTimestamp, info.LastCaughtUpTimestamp = now.UnixMilli(), now.UnixMilli()
	}
	return info
}
