// Package txncoordinator is a broker's transaction coordinator (KIP-98):
// it runs the transactions whose __transaction_state partition the
// broker leads, keeps their state in that partition's log, and has the
// partitions' leaders write the COMMIT and ABORT markers.
//
// It is Kafka 3.8's TransactionCoordinator, TransactionStateManager,
// TransactionMetadata, TransactionLog and TransactionMarkerChannelManager
// (core/src/main/scala/kafka/coordinator/transaction/). This file set
// holds, so far, the log's records and their exact bytes (records.go);
// the state machine, the requests and the markers follow.
package txncoordinator
