// Package copier is Kafka's TransactionalMessageCopier
// (org.apache.kafka.tools, 3.8.0): the consume-transform-produce loop that
// copies one input partition to an output topic exactly once. A
// read_committed consumer polls up to a transaction's worth of records, a
// transactional producer sends them to the same partition number of the
// output topic and sends the consumer's positions to the transaction
// (sendOffsetsToTransaction), then commits: the copies and the input
// position are committed together, or neither is. A failed transaction is
// aborted and the consumer goes back to the committed offsets; a fenced
// producer ends the copier.
//
// kafka-run-class.sh runs it as the tool, printing its JSON status lines
// (core/console); the simulator runs it as a copy pipeline under faults
// and checks that the output holds each input record exactly once
// (core/simulate).
package copier
