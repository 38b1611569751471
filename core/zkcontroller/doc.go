// Package zkcontroller is Kafka 2.8's ZooKeeper-based controller
// (kafka/controller/KafkaController.scala and its state machines, tag
// 2.8.0): one runs inside every broker of a ZooKeeper-era cluster, they
// race for the ephemeral /controller znode, and the winner drives the
// cluster.
//
//   - Events run one at a time (ControllerEventManager's single thread):
//     an event's ZooKeeper batches are waited for before the next event
//     starts, which is why a controller that is loading its state or
//     writing a thousand partition states answers nothing else meanwhile.
//   - Election (elect): a multi that creates /controller and bumps
//     /controller_epoch conditionally on its version; that version
//     (epochZkVersion) then guards every write the controller makes (a
//     check op first in each multi), so a deposed controller's writes
//     fail and it resigns.
//   - Failover (failover.go): the state load, read from ZooKeeper with
//     requests pipelined ten at a time: brokers, topics, assignments and
//     every partition's state znode; then LeaderAndIsr and UpdateMetadata
//     to every broker.
//   - Brokers (brokers.go): a child watch on /brokers/ids; a broker whose
//     session expired (its ephemeral znode gone) is a failed broker: the
//     partitions it led get a leader elected from the live ISR, written to
//     ZooKeeper partition by partition (one two-op multi each), and only
//     when every write is back does one LeaderAndIsr per broker go out.
//   - Topics (topics.go): a child watch on /brokers/topics; a new topic's
//     partitions get their state znodes created and their replicas told.
//   - Requests from brokers (apis.go): AlterIsr (KIP-497, the 2.8
//     default) and ControlledShutdown; and the admin manager's topic
//     creation (admin.go), which any broker's CreateTopics does through the
//     controller as Kafka's ZkAdminManager does.
//   - The channel (channel.go): one queue per broker, one request in
//     flight each (RequestSendThread), LeaderAndIsr before UpdateMetadata
//     before StopReplica in every batch (ControllerBrokerRequestBatch).
//
// Simplified, and said where it matters: Kafka walks its partitions in
// Scala hash-map order when it writes them, here in (topic, partition)
// order; the events not modelled yet are named in events.go.
package zkcontroller
