// Package scalacoll gives the iteration orders of the Scala 2.13
// collections Kafka's Scala code (2.8 and before) builds and prints or
// serialises: immutable Maps and Sets (up to four entries in insertion
// order, then a CHAMP hash trie) and mutable.HashMap and HashSet (a hash
// table). The orders are part of what Kafka writes to ZooKeeper and of
// what its tools print (a Set's toString, mkString), so the simulator
// computes them rather than sorting.
//
// Keys are given by their key.## values (an Int's is itself, a String's
// String.hashCode, a Java object's hashCode()), in the order they were
// added; the functions return indices into that list.
package scalacoll
