// Package protocol defines the requests and responses kafkascope's nodes send
// each other, named and shaped after Kafka's APIs (Produce, Fetch, Metadata,
// ListOffsets, CreateTopics, AlterPartition, BrokerHeartbeat, ...), and
// Kafka's error codes as a table (errors_table.go) with their names, default
// messages, client exception classes and retriability.
//
// Messages are plain data and immutable once sent. Record data travels as the
// bytes of Kafka record batches (core/record), exactly as on the wire.
// The package decides nothing; it must never import core/sim's scheduler
// internals or any node package.
package protocol
