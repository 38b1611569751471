package client

import (
	"fmt"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Offsets of a consumer-protocol member (CommitRequestManager.java): an
// OffsetCommit carries the member id and, while the member has one, its
// member epoch in GenerationIdOrMemberEpoch (L819-829); an OffsetFetch
// carries both when the member has an epoch (L1181-1183). The
// coordinator checks the epoch (STALE_MEMBER_EPOCH when it is not the
// member's).

// commit sends one OffsetCommit; done gets nil or the error, retriable
// ones marked (OffsetCommitRequestState.onResponse, L860-920).
func (m *membership) commit(env *sim.Env, offsets []commitOffset, done func(env *sim.Env, err *Error)) {
	g := m.g
	if len(offsets) == 0 {
		done(env, nil)
		return
	}
	if !g.known {
		done(env, errRetriableCommit)
		return
	}
	req := &protocol.OffsetCommitRequest{GroupID: m.c.cfg.GroupID, GenerationIDOrMemberEpoch: -1, MemberID: m.memberID,
		GroupInstanceID: m.c.cfg.GroupInstanceID, RetentionTimeMs: -1}
	if m.epoch > 0 {
		req.GenerationIDOrMemberEpoch = m.epoch
	}
	sentEpoch := req.GenerationIDOrMemberEpoch
	g.sendOffsetCommit(env, req, offsets, func(env *sim.Env, _ topicPartition, _ int64, code protocol.ErrorCode) *Error {
		return m.commitError(env, code, sentEpoch)
	}, done)
}

// commitError maps one partition's error as OffsetCommitRequestState does.
func (m *membership) commitError(env *sim.Env, code protocol.ErrorCode, sentEpoch int32) *Error {
	cause := &Error{Class: code.Exception(), Message: code.Message()}
	switch code {
	case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR, protocol.REQUEST_TIMED_OUT:
		m.g.markUnknown(env, code.String())
		cause.retriable = true
		return cause
	case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.UNKNOWN_TOPIC_OR_PARTITION:
		cause.retriable = true
		return cause
	case protocol.GROUP_AUTHORIZATION_FAILED:
		return &Error{Class: code.Exception(), Message: "Not authorized to access group: " + m.c.cfg.GroupID}
	case protocol.UNKNOWN_MEMBER_ID:
		m.c.log(LevelError, "OffsetCommit failed with "+code.String(), loggerCommit848)
		return &Error{Class: errCommitFailed.Class, Message: "OffsetCommit failed with unknown member ID. " + code.Message()}
	case protocol.STALE_MEMBER_EPOCH:
		last := "undefined"
		if sentEpoch > 0 {
			last = fmt.Sprint(sentEpoch)
		}
		m.c.log(LevelError, fmt.Sprintf("OffsetCommit failed for member %s with stale member epoch error. Last epoch sent: %s", m.memberID, last), loggerCommit848)
		// Retried while the member has an epoch to retry with
		// (isStaleEpochErrorAndValidEpochAvailable, L653-655).
		cause.retriable = m.epoch > 0
		return cause
	case protocol.OFFSET_METADATA_TOO_LARGE, protocol.INVALID_COMMIT_OFFSET_SIZE:
		return cause
	}
	return &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Unexpected error in commit: " + code.Message()}
}

// commitUntil commits, retrying retriable failures until deadline
// (autoCommitSyncBeforeRevocationWithRetries: the caller's offsets, so a
// retry does not commit past what was handed to the revocation).
func (m *membership) commitUntil(env *sim.Env, offsets []commitOffset, deadline sim.Time, done func(env *sim.Env, err *Error)) {
	m.g.retryCommit(env, m.commit, offsets, deadline, done)
}

// maybeAutoCommit is the auto-commit timer: every auto.commit.interval.ms
// the consumed positions go out, asynchronously; failures are only logged
// at DEBUG (CommitRequestManager.maybeAutoCommitAsync, L265-305), and a
// retriable one is tried again after the backoff.
func (m *membership) maybeAutoCommit(env *sim.Env) {
	if !m.c.cfg.EnableAutoCommit || m.epoch <= 0 || m.reconciling || env.Now() < m.nextCommit || m.notInGroup() {
		return
	}
	m.nextCommit = env.Now().Add(m.c.cfg.AutoCommitInterval)
	m.commit(env, m.c.consumed(), func(env *sim.Env, err *Error) {
		if err != nil && err.retriable {
			m.nextCommit = env.Now().Add(m.c.cfg.RetryBackoff)
		}
	})
}
