// Package group is the consumer-group side of Kafka that does not depend on
// the network: the classic protocol's partition assignors that the group
// leader runs — range and round-robin (with Kafka's member order), and
// Kafka 3.8's sticky and cooperative-sticky (AbstractStickyAssignor's
// constrained and general builders, the sticky user data, the cooperative
// hand-over in two rebalances) — behind the Assignor interface a consumer
// configures by partition.assignment.strategy class name.
//
// The consumer's membership state machine (core/client) builds on it; the
// group coordinator (core/groupcoordinator) only carries the assignors'
// bytes between the members. Nothing here reads a clock or a random source; where Kafka's
// result depends on a java.util.HashMap's iteration order, that order is
// reproduced (javaorder.go).
package group
