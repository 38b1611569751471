package groupcoordinator

import (
	kgroup "kafkascope/core/group"
	"kafkascope/core/protocol"
)

// Offset commit and fetch validation for consumer groups:
// ConsumerGroup.validateOffsetCommit, createAssignmentEpochValidator and
// validateOffsetFetch (4.3 CG:649-727, 865-911; 4.1 CG:646-673). The
// "OffsetCommit version 9 or above" check has no version to read here
// (kafkascope's messages carry none). The per-partition messages have no
// field in OffsetCommitResponse's partitions; the codes are Kafka's.

// validateConsumerCommit gives the commit's group-level error, or a
// per-partition check: NONE for a partition that may be committed.
func (c *Coordinator) validateConsumerCommit(cg *consumerGroup, req *protocol.OffsetCommitRequest) (protocol.ErrorCode, func(string, int32) protocol.ErrorCode) {
	ok := func(string, int32) protocol.ErrorCode { return protocol.NONE }
	epoch := req.GenerationIDOrMemberEpoch
	// An admin client or a consumer outside the group management commits
	// with epoch -1, only while the group has no members.
	if epoch < 0 && len(cg.members) == 0 {
		return protocol.NONE, ok
	}
	m := cg.members[req.MemberID]
	if m == nil {
		return protocol.UNKNOWN_MEMBER_ID, ok
	}
	// A classic member's errors are ILLEGAL_GENERATION ("Received
	// generation id ...", CG:683-689, 891-908).
	stale := protocol.STALE_MEMBER_EPOCH
	if m.useClassicProtocol() {
		stale = protocol.ILLEGAL_GENERATION
	}
	switch {
	case epoch == m.epoch:
		return protocol.NONE, ok
	case epoch > m.epoch || !c.v43():
		// "Received member epoch R is newer than current member epoch S."
		// (4.1: "The received member epoch R does not match the expected
		// member epoch S.")
		return stale, ok
	}
	// 4.3 (KIP-1251): an older epoch may commit a partition the member has
	// assigned or pending revocation since that epoch or before.
	view := c.topicView()
	member := *m
	return protocol.NONE, func(topic string, p int32) protocol.ErrorCode {
		t, known := view.byName[topic]
		if !known {
			return stale // not assigned to the member
		}
		for _, list := range [][]kgroup.PartitionEpoch{member.assigned, member.pending} {
			for _, pe := range list {
				if pe.TopicID == t.ID && pe.Partition == p {
					if epoch < pe.Epoch {
						return stale // older than the partition's assignment epoch
					}
					return protocol.NONE
				}
			}
		}
		return stale // "Partition t-p is not assigned or pending revocation for member."
	}
}

// validateConsumerFetch is validateOffsetFetch: a fetch naming a member
// must name one of the group with its current epoch.
func validateConsumerFetch(cg *consumerGroup, rg protocol.OffsetFetchRequestGroup) protocol.ErrorCode {
	if rg.MemberID == "" && rg.MemberEpoch < 0 {
		return protocol.NONE
	}
	m := cg.members[rg.MemberID]
	switch {
	case m == nil:
		return protocol.UNKNOWN_MEMBER_ID
	case m.epoch != rg.MemberEpoch:
		return protocol.STALE_MEMBER_EPOCH
	}
	return protocol.NONE
}
