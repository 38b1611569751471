// Package javacli parses command lines, and prints their help and error
// screens, as the two Java libraries behind Kafka's command-line tools do,
// so that a tool built on it answers what the real tool answers:
//
//   - jopt-simple (joptsimple.OptionParser, which Kafka's CommandLineUtils
//     and most of its tools use, with abbreviations off): OptionSpec,
//     ParseOptions and the OptionSet it returns, whose values convert when
//     they are read (Int), OptionError for an OptionException's class and
//     message, and HelpTable, the two-column table of its help formatter.
//   - argparse4j 0.7.0 (net.sourceforge.argparse4j, the version Kafka 3.8
//     ships, used by ProducerPerformance, VerifiableProducer,
//     VerifiableConsumer and MetadataQuorumCommand): a Parser of Arguments
//     with one required mutually exclusive group, titled argument groups
//     and sub-commands; ArgumentParserImpl's parse rules (unique flag
//     prefixes, "--flag=value", negative numbers as values, the order in
//     which missing arguments are reported), its usage line, help screen
//     and error screen with "Did you mean" candidates by a git-style edit
//     distance, wrapped and justified as its TextHelper does at the line
//     breaks of the JDK's java.text.BreakIterator (argwrap.go).
//
// Invariants: the output depends only on the parser and the words given.
// No terminal is read: argparse4j's width is fixed at 75 columns, what it
// computes for an 80-column terminal. Widths count UTF-16 code units and
// names sort by String.compareTo, as in Java. Help texts are the caller's
// words; the layout around them is the library's. Nothing here knows Kafka:
// a tool's options, its own checks after parsing, its messages and exit
// codes stay with the tool (core/console).
package javacli
