package client

import (
	"fmt"
	"slices"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// heartbeatState is the timing of ConsumerGroupHeartbeat
// (HeartbeatRequestState.java, RequestState.java) and what the last
// request carried (ConsumerHeartbeatRequestManager.HeartbeatState's
// SentFields).
type heartbeatState struct {
	// interval starts at 0, so the first heartbeat goes at once
	// (AbstractHeartbeatRequestManager:117-118), then is the server's
	// HeartbeatIntervalMs.
	interval time.Duration
	due      sim.Time // the heartbeat timer: reset at each send
	inFlight bool
	attempts int      // failed attempts since the last success or reset
	backoff  sim.Time // no regular heartbeat before this
	retry    *exponentialBackoff
	timer    *sim.Timer

	sent sentFields
}

// sentFields: a field goes in a heartbeat when joining or when it changed
// since it was last sent; any error resets it, so the next heartbeat is a
// full one (CHRM:251-343, AHRM:330, 361).
type sentFields struct {
	rebalanceTimeout int32
	topics           []string
	topicsSent       bool
	assignor         string
	local            localAssignment
	localSent        bool
}

func (h *heartbeatState) init(cfg ConsumerConfig) {
	// retry.backoff.ms doubling to retry.backoff.max.ms, jitter 0.2
	// (AHRM:115-118).
	h.retry = newExponentialBackoff(cfg.RetryBackoff, cfg.RetryBackoffMax, 0.2, nil)
	h.sent.reset()
}

func (s *sentFields) reset() { *s = sentFields{rebalanceTimeout: -1} }

// failed is onFailedAttempt: the timer expires now and the next regular
// heartbeat waits for the backoff.
func (h *heartbeatState) failed(now sim.Time) {
	h.due = now
	h.backoff = now.Add(h.retry.backoff(h.attempts))
	h.attempts++
}

// resetBackoff is RequestState.reset: the next heartbeat may go at once.
func (h *heartbeatState) resetBackoff(now sim.Time) { h.attempts, h.backoff = 0, now }

func (m *membership) hbLog(level Level, msg string) {
	logger := loggerHeartbeat848
	if m.kafka38 {
		logger = loggerHeartbeat38
	}
	m.c.log(level, msg, logger)
}

// requestName is how the heartbeat manager names its request in log
// lines.
func (m *membership) requestName() string {
	if m.kafka38 {
		return "GroupHeartbeatRequest"
	}
	return "ConsumerGroupHeartbeatRequest"
}

// skipHeartbeat: no heartbeats outside the group (AMM.shouldSkipHeartbeat).
func (m *membership) skipHeartbeat() bool {
	return m.state == mUnsubscribed || m.state == mFatal || m.state == mStale || m.state == mFenced
}

// tick is AbstractHeartbeatRequestManager.poll: the poll timeout, then a
// heartbeat if one is due, else a wake-up when the next one will be.
func (m *membership) tick(env *sim.Env) {
	if m.closing {
		return
	}
	h := &m.hb
	if !m.g.known || m.skipHeartbeat() {
		if m.state == mLeaving {
			// AMM.onHeartbeatRequestSkipped.
			m.log(LevelWarn, fmt.Sprintf("Heartbeat to leave group cannot be sent (most probably due to coordinator not known/available). Member %s with epoch %d will transition to %s.", m.memberID, m.epoch, mUnsubscribed))
			m.transitionTo(env, mUnsubscribed)
			m.completeLeave(env)
		}
		return
	}
	now := env.Now()
	if m.c.busy && m.lastAppPoll > 0 && now >= m.lastAppPoll.Add(m.c.cfg.MaxPollInterval) && m.state != mPrepareLeaving && m.state != mLeaving {
		m.hbLog(LevelWarn, "Consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time processing messages. You can address this either by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in poll() with max.poll.records.")
		m.transitionTo(env, mPrepareLeaving)
		m.pollExpired = true
		m.epoch = m.leaveEpoch()
		m.current = noAssignment
		m.transitionTo(env, mLeaving)
		m.send(env, true)
		h.resetBackoff(now)
		h.sent.reset()
		return
	}
	now2 := now
	heartbeatNow := m.state == mLeaving || (m.state == mJoining || m.state == mAcknowledging) && !h.inFlight
	canSend := !h.inFlight && now2 >= h.due && now2 >= h.backoff
	if heartbeatNow || canSend {
		m.send(env, m.state == mLeaving && m.pollExpired)
		return
	}
	if h.inFlight {
		return // the answer ticks again
	}
	at := max(h.due, h.backoff)
	if h.timer.Pending() && h.timer.At() == at {
		return
	}
	h.timer.Stop()
	h.timer = env.After(at.Sub(now), "consumer-heartbeat", m.tick)
}

// build is HeartbeatState.buildRequestData.
func (m *membership) build() *protocol.ConsumerGroupHeartbeatRequest {
	cfg := m.c.cfg
	s := &m.hb.sent
	req := &protocol.ConsumerGroupHeartbeatRequest{GroupID: cfg.GroupID, MemberID: m.memberID, MemberEpoch: m.epoch,
		InstanceID: cfg.GroupInstanceID, RebalanceTimeoutMs: -1}
	all := m.state == mJoining
	if all && cfg.ClientRack != "" {
		// client.rack, sent when joining only (it cannot change); the
		// coordinator keeps it for the group's description, and Kafka's
		// built-in server assignors do not read it (KAFKA-16694).
		req.RackID = cfg.ClientRack
	}
	if rt := int32(cfg.MaxPollInterval.Milliseconds()); all || s.rebalanceTimeout != rt {
		req.RebalanceTimeoutMs, s.rebalanceTimeout = rt, rt
	}
	topics := []string{}
	if !m.unsubscribed {
		topics = slices.Clone(m.g.topics)
	}
	if all || !s.topicsSent || !slices.Equal(s.topics, topics) {
		req.SubscribedTopicNames, s.topics, s.topicsSent = topics, topics, true
	}
	if a := cfg.GroupRemoteAssignor; a != "" && (all || s.assignor != a) {
		req.ServerAssignor, s.assignor = a, a
	}
	if all || !s.localSent || !s.local.equal(m.current) {
		req.TopicPartitions, s.local, s.localSent = m.current.list(), m.current, true
	}
	return req
}

// send sends one heartbeat; ignore: the poll-timeout leave, whose answer
// only gets logged (AHRM.logResponse).
func (m *membership) send(env *sim.Env, ignore bool) {
	h := &m.hb
	now := env.Now()
	req := m.build()
	h.timer.Stop()
	h.due = now.Add(h.interval) // resetTimer at send (AHRM:286-293)
	if !ignore {
		h.inFlight = true
	}
	m.onHeartbeatGenerated(env)
	m.c.metrics.member848, m.c.metrics.hbSent = true, now // recordHeartbeatSentMs
	m.g.net.Send(env, m.g.coord, req, m.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if err == nil {
			m.c.metrics.heartbeat.Record(env.Now(), latency(now, env.Now())) // recordRequestLatency, any answer
		}
		if ignore {
			if err == nil {
				if r := resp.(*protocol.ConsumerGroupHeartbeatResponse); r.ErrorCode != protocol.NONE {
					m.hbLog(LevelError, fmt.Sprintf("%s failed because of %s: %s", m.requestName(), r.ErrorCode, r.Summary()))
				}
			}
			return
		}
		h.inFlight = false
		if m.closing {
			return
		}
		if err != nil {
			// A disconnect or timeout is retriable: find the coordinator
			// again and back off (AHRM.onFailure).
			h.failed(env.Now())
			h.sent.reset()
			m.g.markUnknown(env, err.Error())
			if m.state == mUnsubscribed {
				m.completeLeave(env)
			}
			m.tick(env)
			return
		}
		r := resp.(*protocol.ConsumerGroupHeartbeatResponse)
		if r.ErrorCode == protocol.NONE {
			if iv := time.Duration(r.HeartbeatIntervalMs) * time.Millisecond; iv != h.interval {
				// updateHeartbeatIntervalMs resets the timer on a change
				// (HRS:98-105).
				h.interval, h.due = iv, env.Now().Add(iv)
			}
			h.attempts = 0
			m.onHeartbeatSuccess(env, r)
		} else {
			m.onErrorResponse(env, r)
			m.c.metrics.rebalance848Failed(env.Now()) // onHeartbeatFailure(false)
		}
		m.tick(env)
	})
}

// onHeartbeatGenerated: ACKNOWLEDGING and LEAVING end once their heartbeat
// is sent (AMM.onHeartbeatRequestGenerated).
func (m *membership) onHeartbeatGenerated(env *sim.Env) {
	switch m.state {
	case mAcknowledging:
		if m.reconciled() {
			m.transitionTo(env, mStable)
		} else {
			m.transitionTo(env, mReconciling)
		}
	case mLeaving:
		if m.pollExpired {
			// transitionToStale: the partitions are lost; the member
			// rejoins at its next poll.
			m.transitionTo(env, mStale)
			m.onApp(env, func(env *sim.Env) {
				m.c.lose(env, m.c.assignment())
				m.clearAssignment()
			})
			return
		}
		m.transitionTo(env, mUnsubscribed)
	}
}

// onHeartbeatSuccess is ConsumerMembershipManager.onHeartbeatSuccess.
func (m *membership) onHeartbeatSuccess(env *sim.Env, r *protocol.ConsumerGroupHeartbeatResponse) {
	switch {
	case m.state == mLeaving:
		return
	case m.state == mUnsubscribed && r.MemberEpoch < 0:
		m.completeLeave(env)
		return
	case m.notInGroup():
		return
	case r.MemberEpoch < 0:
		m.completeLeave(env)
		return
	}
	if m.kafka38 && r.MemberID != "" {
		m.memberID = r.MemberID
	}
	m.epoch = r.MemberEpoch
	if r.Assignment == nil {
		return // unchanged
	}
	if m.state == mPrepareLeaving || m.state == mLeaving {
		return // MemberState.canHandleNewAssignment
	}
	// processAssignmentReceived.
	if t, changed := m.target.updateWith(r.Assignment.TopicPartitions); changed {
		m.target = t
	}
	if !m.reconciled() {
		m.transitionTo(env, mReconciling)
		// The application reconciles in poll(): wake it if it waits there.
		env.After(0, "consumer-poll", m.c.run)
		return
	}
	if m.state == mReconciling || m.state == mJoining {
		m.transitionTo(env, mStable)
	}
}

// onErrorResponse is AHRM.onErrorResponse with CHRM's specific errors.
func (m *membership) onErrorResponse(env *sim.Env, r *protocol.ConsumerGroupHeartbeatResponse) {
	h := &m.hb
	now := env.Now()
	h.sent.reset()
	h.failed(now)
	name, code, msg := m.requestName(), r.ErrorCode, r.ErrorMessage
	msgOrNull := msg
	if msgOrNull == "" {
		msgOrNull = "null"
	}
	fatal := func(text string) {
		if text == "" {
			text = code.Message() // Errors.exception(null): the default message
		}
		m.transitionToFatal(env, &Error{Class: code.Exception(), Message: text})
	}
	switch code {
	case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
		// INFO; find the coordinator again and heartbeat at once.
		m.g.markUnknown(env, code.String())
		h.resetBackoff(now)
	case protocol.COORDINATOR_LOAD_IN_PROGRESS:
		// INFO; retried after the backoff.
	case protocol.GROUP_AUTHORIZATION_FAILED:
		text := "Not authorized to access group: " + m.c.cfg.GroupID
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to group authorization failure: %s", name, text))
		fatal(text)
	case protocol.TOPIC_AUTHORIZATION_FAILED:
		// The member keeps its state; poll throws.
		m.hbLog(LevelError, fmt.Sprintf("%s failed for member %s with state %s due to %s: %s", name, m.memberID, m.state, code, msgOrNull))
		m.c.fatal(env, &Error{Class: code.Exception(), Message: code.Message()})
	case protocol.INVALID_REQUEST, protocol.GROUP_MAX_SIZE_REACHED, protocol.UNSUPPORTED_ASSIGNOR:
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to %s: %s", name, code, msgOrNull))
		fatal(msg)
	case protocol.FENCED_MEMBER_EPOCH, protocol.UNKNOWN_MEMBER_ID:
		// INFO; lose the partitions and rejoin at once with epoch 0.
		m.transitionToFenced(env)
		h.resetBackoff(now)
	case protocol.INVALID_REGULAR_EXPRESSION:
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to %s: %s", name, code, msgOrNull))
		fatal("Invalid RE2J SubscriptionPattern provided in the call to subscribe. " + msg)
	case protocol.GROUP_ID_NOT_FOUND:
		if m.state == mUnsubscribed {
			m.completeLeave(env) // a leave to a group that is gone: done
			break
		}
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to unexpected error %s: %s", name, code, msgOrNull))
		fatal(msg)
	case protocol.UNSUPPORTED_VERSION:
		if m.kafka38 {
			// 3.8 groups it with INVALID_REQUEST; its brokers answer
			// without a message (HeartbeatRequestManager.java@3.8:403-409).
			m.hbLog(LevelError, fmt.Sprintf("%s failed due to %s: %s", name, code, msgOrNull))
			fatal(msg)
			break
		}
		// CHRM:128-133: the protocol is off on the cluster.
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to unsupported version response on broker side: %s", name, consumerProtocolNotSupported))
		fatal(consumerProtocolNotSupported)
	case protocol.UNRELEASED_INSTANCE_ID:
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to unreleased instance id %s: %s", name, m.instanceOrNull(), msgOrNull))
		fatal(msg)
	case protocol.FENCED_INSTANCE_ID:
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to fenced instance id %s: %s. This is expected in the case that the member was removed from the group by an admin client, and another member joined using the same group instance id.", name, m.instanceOrNull(), msgOrNull))
		fatal(msg)
	default:
		m.hbLog(LevelError, fmt.Sprintf("%s failed due to unexpected error %s: %s", name, code, msgOrNull))
		fatal(msg)
	}
}

func (m *membership) instanceOrNull() string {
	if m.c.cfg.GroupInstanceID == "" {
		return "null"
	}
	return m.c.cfg.GroupInstanceID
}

// consumerProtocolNotSupported is AbstractHeartbeatRequestManager's
// CONSUMER_PROTOCOL_NOT_SUPPORTED_MSG (L100-102).
const consumerProtocolNotSupported = "The cluster does not support the new CONSUMER group protocol. Set group.protocol=classic on the consumer configs to revert to the CLASSIC protocol until the cluster is upgraded."
