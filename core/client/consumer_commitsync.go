package client

import (
	"time"

	"kafkascope/core/group"
	"kafkascope/core/sim"
)

// CommitSync is KafkaConsumer.commitSync(Map<TopicPartition,
// OffsetAndMetadata>): commit the given offsets (no leader epoch) for the
// consumer's group. A retriable failure is tried again after
// retry.backoff.ms until default.api.timeout.ms (60 s) has passed, as
// commitSync's timer does; done gets nil or the final error.
func (c *Consumer) CommitSync(env *sim.Env, offsets map[group.TopicPartition]int64, done func(env *sim.Env, err *Error)) {
	if c.grp == nil {
		done(env, &Error{Class: "org.apache.kafka.common.errors.InvalidGroupIdException", Message: "To use the group management or offset commit APIs, you must provide a valid group.id in the consumer configuration."})
		return
	}
	var list []commitOffset
	for _, tp := range sortedGroupTPs(offsets) {
		list = append(list, commitOffset{tp: topicPartition{tp.Topic, tp.Partition}, offset: offsets[tp], epoch: -1})
	}
	deadline := env.Now().Add(60 * time.Second)
	var attempt func(env *sim.Env)
	attempt = func(env *sim.Env) {
		c.grp.commit(env, list, func(env *sim.Env, err *Error) {
			if err != nil && err.retriable && env.Now() < deadline {
				env.After(c.cfg.RetryBackoff, "consumer-commit-sync-retry", attempt)
				return
			}
			done(env, err)
		})
	}
	attempt(env)
}

func sortedGroupTPs(m map[group.TopicPartition]int64) []group.TopicPartition {
	out := make([]group.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && (out[j].Topic < out[j-1].Topic || (out[j].Topic == out[j-1].Topic && out[j].Partition < out[j-1].Partition)); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// RebalanceProtocol is the protocol the consumer's assignors agreed on
// (EAGER or COOPERATIVE); "" without a group.
func (c *Consumer) RebalanceProtocol() string {
	if c.grp == nil {
		return ""
	}
	return c.grp.protocol.String()
}
