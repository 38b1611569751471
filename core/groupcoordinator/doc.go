// Package groupcoordinator is a broker's classic consumer group
// coordinator: it runs the groups whose __consumer_offsets partition the
// broker leads — JoinGroup, SyncGroup, Heartbeat, LeaveGroup, the
// rebalance's delayed join and sync, session expiry, OffsetCommit,
// OffsetFetch, OffsetDelete, ListGroups, DescribeGroups, DeleteGroups —
// and keeps them in that partition's log, from which a new leader loads
// them.
//
// It is Kafka 3.8's coordinator as a broker runs it with
// group.coordinator.new.enable=false: GroupCoordinator,
// GroupMetadataManager, GroupMetadata, MemberMetadata, DelayedJoin
// (with InitialDelayedJoin), DelayedSync and DelayedHeartbeat in
// core/src/main/scala/kafka/coordinator/group/, which KafkaApis reaches
// through GroupCoordinatorAdapter; its records are the schemas
// OffsetCommitKey, OffsetCommitValue, GroupMetadataKey and
// GroupMetadataValue of group-coordinator/src/main/resources/common/message/
// (records.go). The assignors the group leader runs are core/group's:
// nothing here assigns partitions.
//
// Static membership (KIP-345) is 3.8's too: a member with a
// group.instance.id joins without MEMBER_ID_REQUIRED, a known instance id
// with no member id replaces the old member (updateStaticMemberAndRebalance:
// no rebalance in a Stable group whose protocol stays), and
// validateCurrentMember fences the replaced member id with
// FENCED_INSTANCE_ID. 4.3's GroupMetadataManager and ClassicGroup follow
// the same rules; only the texts of rebalance reasons differ (Scala's
// Some(id)/None here).
//
// Consumer groups (KIP-848, group.protocol=consumer) run beside the
// classic ones, as Kafka 4.3's GroupMetadataManager runs them (4.1's
// rules where they differ, by Host.Release): ConsumerGroupHeartbeat
// (heartbeat848.go: validation, join, subscription changes that bump the
// group epoch, the target assignment of core/group's server assignors,
// the reconciliation of core/group's CurrentAssignmentBuilder), leaving,
// fencing and the session and rebalance timers (leave848.go), the records
// of types 3-8 (records848.go), replayed into memory both when a heartbeat
// makes them and when a partition loads (replay848.go), ConsumerGroupDescribe
// (describe848.go) and the member-epoch checks of offset commits and
// fetches (offsets848.go). A group id is one kind or the other: a *group
// whose consumer field is set is a consumer group; a group changes kind
// with its members in place by the online migration of migration.go
// (group.consumer.migration.policy), and classic members inside a
// consumer group are served there too. Simplified: the
// metadata hash is FNV-1a 64 where Kafka uses XXH3-64 (metadata848.go),
// regexes are not resolved, and a failed
// write is not rolled back.
//
// The broker hosts it through Host: it hands over the requests (Handle),
// calls OnElection and OnResignation as it gains and loses leadership of
// a __consumer_offsets partition, answers FindCoordinator itself (with
// PartitionFor), and serves Host's appends to the partition and their
// wait for the high watermark, as Kafka's ReplicaManager does. The
// coordinator owns its groups and their timers; it reads no other
// broker state and never imports core/broker.
//
// Invariants: a group is in memory only while its partition is loaded
// here (none while it loads); a request about a group whose partition is
// not loaded is answered NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS
// before anything changes; a load that a later election or a resignation
// overtook does not run; a stored assignment or commit takes effect only
// once Host.Append reports it replicated (a deletion takes effect at
// once, as in Kafka); a group's static map names exactly its members that
// have a group.instance.id, each by its current member id; every parked
// JoinGroup and SyncGroup is answered
// exactly once (by the rebalance, an error, or the partition's unloading
// with NOT_COORDINATOR), each answer followed by Host.Done.
package groupcoordinator
