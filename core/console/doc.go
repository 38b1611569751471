// Package console is kafkascope's command language: the Kafka command-line
// tools (kafka-topics.sh, kafka-console-producer.sh, ...) with their flags,
// output formats and error messages, the simulator's own commands (cluster,
// broker, network, time, jobs), and shell helpers over a broker's disk.
//
// A Session owns one cluster and one terminal. Every command runs the
// simulation for as long as the real tool would block, so output depends
// only on the seed and the commands typed. The package formats and drives;
// Kafka's behaviour lives in the engine packages, the Java libraries the
// tools are built on in core/javacli (their command lines) and core/jdk
// (properties files, String.split, Formatter, ...). A transcript
// (core/transcript) runs in a fresh Session with RunTranscript.
package console
