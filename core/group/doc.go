// Package group is the consumer-group side of Kafka that does not depend on
// the network: the classic protocol's partition assignors (range and
// round-robin, with Kafka's member order) that the group leader runs.
//
// The group coordinator and the consumer's membership state machine build
// on it.
package group
