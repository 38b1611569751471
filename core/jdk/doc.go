// Package jdk reproduces the Java standard library's behaviour where Kafka's
// tools print its results, or Kafka's own code depends on it, so that the
// simulator prints and decides what Java would. It is the one home of these
// look-alikes; other packages call them rather than keep their own.
//
//   - java.util.Properties.load: LoadProperties (the tools' config files);
//   - java.lang.String: split with a literal separator (Split) and with a
//     regular expression (SplitRegex), trim (Trim), compareTo (Less),
//     length() (StringLength), hashCode() (StringHashCode);
//   - java.util.HashMap and HashSet: the iteration order of a default map
//     filled by put (HashOrder for any keys' hashCodes, HashSetOrder for
//     Strings) and the table rules it follows (HashCapacity, HashBucket);
//     StringHashSet follows a HashSet<String> through adds and removes
//     (its table never shrinks, so what is left iterates by its history);
//   - java.util.Date.toString: DateToString, in UTC;
//   - Kafka's org.apache.kafka.timeline.TimelineHashMap (not the JDK's,
//     but a Java table whose order Kafka's group coordinator exposes): the
//     slot order of its BaseHashTable (BaseHashTable);
//   - java.lang.Double.toString: DoubleToString, as JDK 19 and later;
//   - java.lang.Long.parseLong and Integer.parseInt: ParseInt, with
//     Character.digit's decimal digits of every script;
//   - java.util.Formatter's %.Nf: FormatFixed, the shortest decimal that
//     identifies the double rounded half-up (Go's fmt rounds the binary
//     value half-to-even);
//   - java.nio.file.Paths.get(p).toString(): Path;
//   - java.util.SplittableRandom: SplittableRandom.
//
// Invariants: every function is pure (no clock, no I/O, no state but a
// SplittableRandom's seed) and gives the JDK's result for the same input,
// or says in its comment where it does not. Strings are Go strings read as
// UTF-8; where Java counts, compares, hashes or indexes UTF-16 code units,
// so do these functions. Nothing here knows Kafka: Kafka's own hashes
// (murmur2, Utils.abs, TopicPartition.hashCode) are core/hashing's.
package jdk
