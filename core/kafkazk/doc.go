// Package kafkazk holds what Kafka 2.8 keeps in ZooKeeper: the znode paths
// and the exact bytes of each znode's data, so that the simulated brokers
// and controller of a ZooKeeper-era cluster write what a real one writes
// and `zookeeper-shell.sh get` prints it byte for byte.
//
// The sources are Kafka's core/src/main/scala/kafka/zk/ZkData.scala (one
// object per znode: its path, encode and decode) and KafkaZkClient.scala,
// which calls them, at tag 2.8.0; the producer-id block is
// kafka/coordinator/transaction/ProducerIdManager.scala.
//
// Every JSON znode is written by kafka/utils/Json.scala's encodeAsBytes, a
// plain Jackson ObjectMapper: compact, no key sorting, so the keys come out
// in the iteration order of the Scala (or Java) map Kafka built. That order
// is part of the bytes, and it depends on the kind of map:
//   - an immutable Map literal of up to four entries (Map1..Map4) keeps
//     insertion order;
//   - an immutable Map of five or more is a CHAMP HashMap, ordered by the
//     improved hash of each key (scalacoll.ImmutableOrder);
//   - a collection.mutable.Map is a hash table, ordered by bucket and by
//     hash within a bucket (scalacoll.MutableOrder);
//   - a java.util.Properties (the config znodes) iterates its backing
//     ConcurrentHashMap (javaPropertiesOrder).
//
// The orders are those of the default Kafka 2.8.0 download, built with
// Scala 2.13.5 (gradle.properties: scalaVersion=2.13.5); the kafka_2.12
// build orders mutable maps differently and is not modelled.
//
// Decoders accept Kafka's JSON with keys in any order and return an error,
// never a panic, for anything Kafka's own decoder would throw on or cannot
// parse. Where Kafka's decoder is lenient (it ignores a key, or reads a
// missing optional one as empty), so are these.
package kafkazk
