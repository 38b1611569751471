package client

import (
	"slices"

	"kafkascope/core/sim"
)

// maybeReconcile moves the member from what it owns to the target the
// coordinator sent, from the application's poll (AMM.maybeReconcile
// L811-912, revokeAndAssign L928-976): name the topics, commit what was
// consumed (auto-commit), give up the revoked partitions
// (onPartitionsRevoked), take the added ones (onPartitionsAssigned, called
// even when nothing was added), then acknowledge in the next heartbeat.
// Partitions being revoked are not fetched or returned meanwhile.
func (m *membership) maybeReconcile(env *sim.Env) {
	if m.state != mReconciling || m.reconciled() || m.reconciling {
		return
	}
	assigned, resolvable, unknown := m.c.resolve(m.target.parts)
	if unknown {
		m.c.meta.RequestUpdate(env) // reconciled again once the metadata names them
	}
	resolved := localAssignment{epoch: m.target.epoch, parts: normalizeParts(resolvable)}
	if !m.current.none && sameParts(resolved.parts, m.current.parts) {
		// Only unknown topics differ: acknowledge the known part.
		m.current = resolved
		m.transitionTo(env, mAcknowledging)
		m.tick(env)
		return
	}
	owned := m.c.assignment()
	slices.SortFunc(owned, compareTopicPartitions)
	var added, revoked []topicPartition
	for _, tp := range assigned {
		if !slices.Contains(owned, tp) {
			added = append(added, tp)
		}
	}
	for _, tp := range owned {
		if !slices.Contains(assigned, tp) {
			revoked = append(revoked, tp)
		}
	}
	m.reconciling, m.rejoined = true, false
	m.c.pause(revoked)
	after := func(env *sim.Env, err *Error) {
		if err != nil {
			// Kafka logs the exception under the line.
			m.log(LevelError, "Auto-commit request before reconciling new assignment failed. Will proceed with the reconciliation anyway.")
		}
		m.onApp(env, func(env *sim.Env) { m.revokeAndAssign(env, resolved, revoked, added) })
	}
	if !m.c.cfg.EnableAutoCommit {
		after(env, nil)
		return
	}
	// maybeAutoCommitSyncBeforeRebalance: all consumed positions, retried
	// until the rebalance timeout (CMM:273-281, CRM:330-360).
	m.commitUntil(env, m.c.consumed(), env.Now().Add(m.c.cfg.MaxPollInterval), after)
}

// abortReconciliation: the member left RECONCILING or rejoined meanwhile
// (AMM.maybeAbortReconciliation).
func (m *membership) abortReconciliation() bool {
	if m.state != mReconciling || m.rejoined {
		m.reconciling = false
		return true
	}
	return false
}

func (m *membership) revokeAndAssign(env *sim.Env, resolved localAssignment, revoked, added []topicPartition) {
	if m.abortReconciliation() {
		m.c.unpause()
		return
	}
	if len(revoked) > 0 {
		m.c.revokeWithListener(env, revoked)
	}
	if m.abortReconciliation() {
		return
	}
	m.c.addAssigned(env, added)
	m.c.invokeAssigned(env, added)
	if !m.reconciling || m.abortReconciliation() {
		return
	}
	m.current = resolved
	m.nextCommit = env.Now().Add(m.c.cfg.AutoCommitInterval) // signalReconciliationCompleting
	m.transitionTo(env, mAcknowledging)
	m.reconciling = false
	m.tick(env)
}
