package client

import (
	"fmt"
	"slices"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

// The consumer rebalance protocol (KIP-848, group.protocol=consumer) as
// Kafka 4.3's AsyncKafkaConsumer runs it: the member heartbeats on its own
// with ConsumerGroupHeartbeat, the coordinator assigns, and the member
// reconciles what it owns with the target it was sent, acknowledging each
// step in its next heartbeat. This file holds the member's states and
// transitions (AbstractMembershipManager.java, ConsumerMembershipManager.java);
// consumer_heartbeat848.go the heartbeats, consumer_reconcile848.go the
// reconciliation and consumer_commit848.go the offsets.

// mstate is the client's MemberState (consumer/internals/MemberState.java).
type mstate uint8

const (
	mUnsubscribed mstate = iota
	mJoining
	mReconciling
	mAcknowledging
	mStable
	mFenced
	mPrepareLeaving
	mLeaving
	mFatal
	mStale
)

var mstateNames = [...]string{"UNSUBSCRIBED", "JOINING", "RECONCILING", "ACKNOWLEDGING", "STABLE", "FENCED", "PREPARE_LEAVING", "LEAVING", "FATAL", "STALE"}

func (s mstate) String() string { return mstateNames[s] }

const (
	loggerHeartbeat848  = "org.apache.kafka.clients.consumer.internals.ConsumerHeartbeatRequestManager"
	loggerMembership848 = "org.apache.kafka.clients.consumer.internals.ConsumerMembershipManager"
	// Kafka 3.8's classes of the same roles.
	loggerHeartbeat38  = "org.apache.kafka.clients.consumer.internals.HeartbeatRequestManager"
	loggerMembership38 = "org.apache.kafka.clients.consumer.internals.MembershipManagerImpl"
	loggerCommit848    = "org.apache.kafka.clients.consumer.internals.CommitRequestManager"
	loggerAsync848     = "org.apache.kafka.clients.consumer.internals.AsyncKafkaConsumer"
)

// membership is one consumer-protocol member. It borrows the classic
// coordinator's discovery, connection and OffsetFetch (g); the rest is its
// own.
type membership struct {
	g *coordinator
	c *Consumer
	// kafka38: Kafka 3.8's client, which starts with an empty member id
	// and takes the one the coordinator makes (3.8
	// MembershipManagerImpl.java:152, 443); 4.0+ make their own (KIP-1082).
	kafka38 bool

	memberID string
	epoch    int32
	state    mstate
	// current is what the member owns and acknowledged; target the latest
	// assignment the coordinator sent (AMM currentAssignment,
	// currentTargetAssignment).
	current, target localAssignment
	// reconciling: a reconciliation is between its commit and its ack;
	// rejoined: the member rejoined meanwhile, so it must not finish.
	reconciling, rejoined bool
	// subscribed: subscribe() was called and the next poll joins
	// (AMM.onSubscriptionUpdated, onConsumerPoll).
	subscribed bool
	// unsubscribed: the member gave up its subscription (leaving).
	unsubscribed bool
	// pollExpired: the member left because max.poll.interval.ms passed
	// (AMM.isPollTimerExpired).
	pollExpired bool
	lastAppPoll sim.Time
	pollTimer   *sim.Timer

	hb heartbeatState

	// appWork is what the application thread runs at its next poll (the
	// rebalance listener's callbacks, and what follows them).
	appWork []func(env *sim.Env)

	nextCommit sim.Time
	closing    bool
	leaveDone  func(env *sim.Env) // runs when the leave heartbeat is answered
}

func newMembership(c *Consumer, g *coordinator, env *sim.Env) *membership {
	m := &membership{g: g, c: c, current: noAssignment, target: noAssignment}
	rel := c.cfg.Release
	m.kafka38 = rel != (release.Version{}) && !rel.AtLeast(4, 0)
	if !m.kafka38 {
		// Uuid.randomUuid() once, when the consumer is built (AMM:80).
		m.memberID = metadata.RandomUuid(env.Rand("consumer-member-id/" + string(c.net.Addr())).Uint64).String()
	}
	m.hb.init(c.cfg)
	return m
}

func (m *membership) log(level Level, msg string) {
	logger := loggerMembership848
	if m.kafka38 {
		logger = loggerMembership38
	}
	m.c.log(level, msg, logger)
}

// transitionTo moves the member to s; a move into RECONCILING starts a
// rebalance, one out of it to STABLE or ACKNOWLEDGING completes it
// (AbstractMembershipManager.transitionTo's rebalance metrics).
func (m *membership) transitionTo(env *sim.Env, s mstate) {
	switch {
	case m.state == mReconciling && (s == mStable || s == mAcknowledging):
		m.c.metrics.rebalance848Ended(env.Now())
	case m.state != mReconciling && s == mReconciling:
		m.c.metrics.rebalance848Started(env.Now())
	}
	m.state = s
}

// notInGroup: UNSUBSCRIBED, FENCED, FATAL or STALE (AMM.isNotInGroup).
func (m *membership) notInGroup() bool {
	return m.state == mUnsubscribed || m.state == mFenced || m.state == mFatal || m.state == mStale
}

// reconciled: the target is what the member owns (AMM
// targetAssignmentReconciled, local epochs included).
func (m *membership) reconciled() bool { return m.current.equal(m.target) }

// leaveEpoch is -1, or -2 for a static member, which will come back with
// its instance id (CMM.leaveGroupEpoch).
func (m *membership) leaveEpoch() int32 {
	if m.c.cfg.GroupInstanceID != "" {
		return protocol.LeaveGroupStaticMemberEpoch
	}
	return protocol.LeaveGroupMemberEpoch
}

// onApp runs fn on the application thread: now if the application is
// inside poll(), else at its next poll (AsyncKafkaConsumer runs the
// rebalance callbacks from poll).
func (m *membership) onApp(env *sim.Env, fn func(env *sim.Env)) {
	if m.c.busy {
		m.appWork = append(m.appWork, fn)
		return
	}
	fn(env)
}

// appPoll is the membership's share of the application's poll(): the poll
// timer, the callbacks due, joining after subscribe, reconciliation and
// auto-commit (AsyncKafkaConsumer.poll's AsyncPollEvent).
func (m *membership) appPoll(env *sim.Env) {
	if m.state == mFatal || m.closing {
		return
	}
	now := env.Now()
	if m.lastAppPoll > 0 && m.pollExpired {
		// AbstractHeartbeatRequestManager.resetPollTimer.
		over := now.Sub(m.lastAppPoll.Add(m.c.cfg.MaxPollInterval))
		m.hbLog(LevelWarn, fmt.Sprintf("Time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, exceeded approximately by %d ms. Member %s will rejoin the group now.", over.Milliseconds(), m.memberID))
		m.maybeRejoinStale(env)
	}
	m.lastAppPoll = now
	work := m.appWork
	m.appWork = nil
	for _, fn := range work {
		fn(env)
	}
	if m.subscribed && m.state == mUnsubscribed {
		m.subscribed = false
		m.transitionToJoining(env)
	}
	m.maybeReconcile(env)
	m.maybeAutoCommit(env)
	if !m.g.known {
		m.g.lookup(env)
	}
	m.tick(env)
}

// armPollTimer watches max.poll.interval.ms while the application is busy
// between polls.
func (m *membership) armPollTimer(env *sim.Env) {
	m.pollTimer.Stop()
	m.pollTimer = env.After(m.lastAppPoll.Add(m.c.cfg.MaxPollInterval).Sub(env.Now()), "consumer-poll-timer", m.tick)
}

// transitionToJoining: epoch 0 and a full heartbeat at once (AMM:481-497).
func (m *membership) transitionToJoining(env *sim.Env) {
	if m.state == mFatal {
		m.log(LevelWarn, "No action taken to join the group with the updated subscription because the member is in FATAL state")
		return
	}
	if m.reconciling {
		m.rejoined = true
	}
	m.epoch = 0
	m.transitionTo(env, mJoining)
	m.target = noAssignment
	m.unsubscribed = false
	env.After(0, "consumer-heartbeat-now", m.tick)
}

// transitionToFenced: FENCED_MEMBER_EPOCH or UNKNOWN_MEMBER_ID. The member
// gives up its partitions as lost and joins again with epoch 0 and the
// same member id (AMM.transitionToFenced).
func (m *membership) transitionToFenced(env *sim.Env) {
	switch m.state {
	case mPrepareLeaving, mLeaving:
		m.transitionTo(env, mUnsubscribed)
		m.completeLeave(env)
		return
	case mUnsubscribed:
		return
	}
	m.transitionTo(env, mFenced)
	m.epoch = 0
	m.onApp(env, func(env *sim.Env) {
		m.c.lose(env, m.c.assignment())
		m.clearAssignment()
		if m.state == mFenced {
			m.transitionToJoining(env)
		}
	})
}

// transitionToFatal ends the membership: the error reaches the
// application from poll (AMM.transitionToFatal).
func (m *membership) transitionToFatal(env *sim.Env, err *Error) {
	prev := m.state
	m.transitionTo(env, mFatal)
	if m.kafka38 {
		// 3.8 tests memberId.isEmpty() the wrong way round, so a member
		// without an id prints the line with the (empty) id
		// (MembershipManagerImpl.java@3.8:573-580).
		if m.memberID == "" {
			m.log(LevelError, fmt.Sprintf("Member %s with epoch %d transitioned to FATAL state", m.memberID, m.epoch))
		} else {
			m.log(LevelError, "Non-member transitioned to FATAL state")
		}
	} else {
		m.log(LevelError, fmt.Sprintf("Member %s with epoch %d transitioned to fatal state", m.memberID, m.epoch))
	}
	if prev != mUnsubscribed && prev != mLeaving && prev != mPrepareLeaving {
		m.c.lose(env, m.c.assignment())
		m.clearAssignment()
	}
	m.c.fatal(env, err)
}

// clearAssignment forgets the partitions (AMM.clearAssignment).
func (m *membership) clearAssignment() {
	m.c.revoke(nil, m.c.assignment())
	m.current, m.target = noAssignment, noAssignment
}

// sendLeave is transitionToSendingLeaveGroup: the leave epoch, nothing
// owned, and the leave heartbeat at once.
func (m *membership) sendLeave(env *sim.Env, dueToPollTimer bool) {
	switch m.state {
	case mFatal:
		m.log(LevelWarn, fmt.Sprintf("Member %s with epoch %d won't send leave group request because it is in FATAL state", m.memberID, m.epoch))
		return
	case mUnsubscribed:
		m.log(LevelWarn, fmt.Sprintf("Member %s won't send leave group request because it is already out of the group.", m.memberID))
		return
	}
	m.pollExpired = dueToPollTimer
	m.epoch = m.leaveEpoch()
	m.current = noAssignment
	m.transitionTo(env, mLeaving)
	m.tick(env)
}

// completeLeave ends a close waiting for its leave.
func (m *membership) completeLeave(env *sim.Env) {
	if done := m.leaveDone; done != nil {
		m.leaveDone = nil
		done(env)
	}
}

// maybeRejoinStale: a member that left on a poll timeout joins again at
// the next poll, with the same member id (AMM.maybeRejoinStaleMember).
func (m *membership) maybeRejoinStale(env *sim.Env) {
	m.pollExpired = false
	if m.state == mStale {
		m.transitionToJoining(env)
	}
}

// close is AsyncKafkaConsumer.close: commit what was consumed (with
// auto-commit), release the partitions through the listener (lost when
// the member has no epoch), then the leave heartbeat; done when it is
// answered (or could not be sent).
func (m *membership) close(env *sim.Env, done func(env *sim.Env)) {
	finish := func(env *sim.Env) {
		m.closing = true
		m.hb.timer.Stop()
		m.pollTimer.Stop()
		done(env)
	}
	leave := func(env *sim.Env) {
		if m.epoch > 0 {
			m.c.revokeWithListener(env, m.c.assignment())
		} else {
			m.c.lose(env, m.c.assignment())
		}
		if m.notInGroup() {
			if m.state == mFenced {
				m.clearAssignment()
				m.transitionTo(env, mUnsubscribed)
			}
			finish(env)
			return
		}
		m.unsubscribed = true
		m.clearAssignment()
		m.leaveDone = finish
		m.sendLeave(env, false)
	}
	offsets := m.c.consumed()
	if m.c.cfg.EnableAutoCommit && len(offsets) > 0 && m.g.known {
		m.commitUntil(env, offsets, env.Now().Add(commitTimeout), func(env *sim.Env, err *Error) {
			if err != nil {
				// Logged, not thrown (AsyncKafkaConsumer.java:1747-1752);
				// Kafka prints the exception under the line, which this
				// logger cannot.
				m.c.log(LevelWarn, "Synchronous auto-commit failed", loggerAsync848)
			}
			leave(env)
		})
		return
	}
	leave(env)
}

// background is the background thread's share: find the coordinator, then
// heartbeat when due.
func (m *membership) background(env *sim.Env) {
	if m.closing || m.state == mFatal {
		return
	}
	if !m.g.known {
		m.g.lookup(env)
		return
	}
	m.tick(env)
}

// subscribe848 is subscribe() with group.protocol=consumer: the member
// joins at the next poll, which the consumer's loop makes at once.
func (c *Consumer) subscribe848(env *sim.Env, self sim.Addr, topics []string) {
	c.grp = newCoordinator(c, self, nil, Cooperative)
	c.grp.cp = newMembership(c, c.grp, env)
	c.grp.topics = slices.Sorted(slices.Values(topics))
	for _, t := range topics {
		c.meta.Add(t)
	}
	c.meta.RequestUpdate(env)
	c.refreshMetadata(env)
	c.grp.cp.subscribed = true
	c.lastPoll = env.Now()
	c.grp.lookup(env)
	env.After(0, "consumer-poll", c.run)
}
