package zkcontroller

import (
	"slices"
	"testing"

	"kafkascope/core/storage"
)

// The election rules of Election.scala (2.8.0), one partition at a time.
func TestElectLeader(t *testing.T) {
	tp := storage.TopicPartition{Topic: "t", Partition: 0}
	ctxWith := func(live []int32, shutting ...int32) *Controller {
		c := &Controller{epoch: 7, ctx: newContext()}
		c.ctx.topics["t"] = &topicInfo{assignment: [][]int32{{1, 2, 3}}}
		for _, id := range live {
			c.ctx.live[id] = liveBroker{}
		}
		for _, id := range shutting {
			c.ctx.shuttingDown[id] = true
		}
		return c
	}
	for _, tc := range []struct {
		name      string
		c         *Controller
		isr       []int32
		leader    int32
		s         strategy
		unclean   bool
		want      int32 // -1: no election
		wantISR   []int32
		wantDirty bool
	}{
		// Offline: the first replica in assignment order that is live and
		// in the ISR; the new ISR is the live part of the old one.
		{"offline picks assignment order", ctxWith([]int32{2, 3}), []int32{3, 2, 1}, 1, offlineElection, false, 2, []int32{3, 2}, false},
		{"offline with no live ISR member", ctxWith([]int32{2}), []int32{1, 3}, 1, offlineElection, false, -1, nil, false},
		{"offline unclean takes a live replica alone", ctxWith([]int32{2}), []int32{1, 3}, 1, offlineElection, true, 2, []int32{2}, true},
		// A shutting-down broker is not a live replica for an election.
		{"offline skips a shutting-down broker", ctxWith([]int32{2, 3}, 2), []int32{2, 3}, 1, offlineElection, false, 3, []int32{3}, false},
		// Controlled shutdown: not the shutting-down broker; it leaves the ISR.
		{"controlled shutdown", ctxWith([]int32{1, 2, 3}, 1), []int32{1, 2, 3}, 1, controlledShutdownElection, false, 2, []int32{2, 3}, false},
		{"controlled shutdown with no other ISR member", ctxWith([]int32{1, 2, 3}, 1), []int32{1}, 1, controlledShutdownElection, false, -1, nil, false},
		// Preferred: the first replica, if live and in the ISR; the ISR stays.
		{"preferred", ctxWith([]int32{1, 2, 3}), []int32{2, 3, 1}, 2, preferredElection, false, 1, []int32{2, 3, 1}, false},
		{"preferred not in the ISR", ctxWith([]int32{1, 2, 3}), []int32{2, 3}, 2, preferredElection, false, -1, nil, false},
		{"preferred already leads", ctxWith([]int32{1, 2, 3}), []int32{1, 2, 3}, 1, preferredElection, false, -1, nil, false},
	} {
		li := &leaderIsr{leader: tc.leader, leaderEpoch: 4, isr: tc.isr, controllerEpoch: 5, zkVersion: 9}
		next, dirty := tc.c.electLeader(tp, li, tc.s, tc.unclean)
		if tc.want < 0 {
			if next != nil {
				t.Errorf("%s: elected %+v, want none", tc.name, next)
			}
			continue
		}
		if next == nil || next.leader != tc.want || !slices.Equal(next.isr, tc.wantISR) || dirty != tc.wantDirty {
			t.Errorf("%s: got %+v unclean %v, want leader %d isr %v unclean %v", tc.name, next, dirty, tc.want, tc.wantISR, tc.wantDirty)
			continue
		}
		// Every election bumps the leader epoch and stamps this
		// controller's epoch.
		if next.leaderEpoch != 5 || next.controllerEpoch != 7 {
			t.Errorf("%s: epochs %+v", tc.name, next)
		}
	}
}

// The strategies print as Kafka's case classes do in a failed election's
// message.
func TestStrategyNames(t *testing.T) {
	if got := preferredElection.String(); got != "PreferredReplicaPartitionLeaderElectionStrategy" {
		t.Error(got)
	}
	if got := uncleanElection.String(); got != "OfflinePartitionLeaderElectionStrategy(true)" {
		t.Error(got)
	}
}
