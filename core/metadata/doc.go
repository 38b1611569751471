// Package metadata holds the cluster's metadata as KRaft keeps it: a log of
// typed records (RegisterBrokerRecord, TopicRecord, PartitionRecord,
// PartitionChangeRecord, ConfigRecord, ...) and the Image that replaying them
// produces. The controller appends records; every broker replays the same
// records into its own Image, so "what a broker knows" is always an offset in
// that log.
//
// The package is pure data: it decides nothing (elections and placement live
// in core/controller) and must never import another kafkascope package.
package metadata
