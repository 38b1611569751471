// Package broker is a Kafka broker: the replica manager (leaders and
// followers of partitions), produce and fetch handling with Kafka's acks,
// min.insync.replicas and high-watermark rules, delayed produce and long-poll
// fetch, the replica fetchers that followers use to pull from leaders, ISR
// shrink and expansion through AlterPartition, the leader-epoch handling that
// decides how a follower truncates, and the broker's lifecycle towards the
// controller (registration, heartbeats, metadata replay, fencing). It
// hosts the consumer group coordinator (core/groupcoordinator, groups.go):
// it answers FindCoordinator, hands the coordinator the group requests,
// tells it when it gains or loses a __consumer_offsets partition's
// leadership, and writes its records.
//
// A broker decides only what Kafka lets a broker decide. Leadership, ISR
// membership and topic existence come from the metadata log the controller
// writes; the broker learns them by replaying it, so its view can lag.
// The package never imports core/controller.
package broker
