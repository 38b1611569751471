// Package client holds Kafka's client libraries as state machines that run
// inside a simulated process: the metadata cache every client keeps, the
// producer (partitioner, record accumulator, sender with retries and
// timeouts), the consumer's fetch loop and its classic group membership
// (ConsumerCoordinator over AbstractCoordinator, dynamic or static with
// group.instance.id: a static member sends no LeaveGroup and is fatally
// fenced by FENCED_INSTANCE_ID) or, with group.protocol=consumer, KIP-848's
// consumer protocol as AsyncKafkaConsumer runs it (ConsumerGroupHeartbeat,
// reconciliation from poll, consumer_membership.go), and the admin client
// (KafkaAdminClient's metadata manager, node providers, one call in flight
// per node, per-attempt and per-call timeouts, retry and reconnect backoff,
// and the exceptions it ends calls with).
//
// Clients report what Kafka's clients would log (WARN and ERROR lines) to a
// Logger, so the console tools print what the real tools print. The package
// knows nothing of the console or of how a cluster is built.
package client
