// Package group is the consumer-group side of Kafka that does not depend on
// the network: the classic protocol's partition assignors that the group
// leader runs — range and round-robin (with Kafka's member order), and
// Kafka 3.8's sticky and cooperative-sticky (AbstractStickyAssignor's
// constrained and general builders, the sticky user data, the cooperative
// hand-over in two rebalances) — behind the Assignor interface a consumer
// configures by partition.assignment.strategy class name.
//
// It also holds the pure parts of the consumer rebalance protocol
// (KIP-848) that Kafka 4.3's group coordinator runs server-side: the
// server assignors uniform (homogeneous and heterogeneous builders,
// uniform*.go) and range (range_server.go) behind ServerAssignor, the
// target assignment builder with the preferred-assignor and
// subscription-type rules (target_assignment.go), and the per-member
// reconciliation of CurrentAssignmentBuilder, with 4.1.0's variant
// (reconcile.go). Their inputs and outputs keep Java's HashMap/HashSet
// iteration orders (server_spec.go, javahash.go), on which Kafka's
// results depend.
//
// The consumer's membership state machine (core/client) builds on it; the
// group coordinator (core/groupcoordinator) only carries the assignors'
// bytes between the members of a classic group. Nothing here reads a clock or a random source; where Kafka's
// result depends on a java.util.HashMap's iteration order, that order is
// reproduced (javaorder.go).
package group
