// Package console is kafkascope's command language: the Kafka command-line
// tools (kafka-topics.sh, kafka-console-producer.sh, ...) with their flags,
// output formats and error messages, the simulator's own commands (cluster,
// broker, network, time, jobs), shell helpers over a broker's disk, and the
// transcript format that turns a terminal session into a test.
//
// A Session owns one cluster and one terminal. Every command runs the
// simulation for as long as the real tool would block, so output depends
// only on the seed and the commands typed. The package formats and drives;
// Kafka's behaviour lives in the engine packages.
package console
