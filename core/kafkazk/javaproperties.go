package kafkazk

import "kafkascope/core/jdk"

// The iteration order of a java.util.Properties on JDK 11, which Jackson
// follows when Kafka writes a config znode (ConfigEntityZNode.encode
// serializes the Properties as a map, walking its entrySet).
//
// The JDK matters. On JDK 8 Properties is a Hashtable (11 buckets,
// iterated from the last bucket down); from JDK 9 it keeps its entries in
// an internal ConcurrentHashMap, new ConcurrentHashMap<>(8), and entrySet
// iterates that. This models JDK 11, which Confluent's cp-kafka 6.2 images
// (the ones shipping Kafka 2.8) run: their base image installs Azul Zulu
// OpenJDK 11 (confluentinc/common-docker, tag v6.2.0, base/Dockerfile.ubi8).
//
// ConcurrentHashMap (java/util/concurrent/ConcurrentHashMap.java, JDK 11):
//   - new ConcurrentHashMap<>(8) gets a table of 16 bins on the first put;
//   - a key's bin is spread(h) & (n - 1), spread(h) = (h ^ h >>> 16) &
//     0x7fffffff; putVal appends a new key at the tail of its bin, and a put
//     that replaces a value leaves the key where it is;
//   - after a new key, addCount doubles the table once the count reaches
//     sizeCtl = 0.75 n; transfer splits each bin into a low and a high bin,
//     keeping the bin's last run of nodes that go the same way (lastRun) as
//     it was and putting each node before it at the front of its new bin,
//     so those come out reversed;
//   - iteration walks the bins in index order, each from head to tail.
//
// Not modelled: a bin of eight or more keys (putVal's treeifyBin, which
// below 64 bins presizes the table instead), which needs that many config
// names colliding in one bin.

// javaPropertiesOrder is the order in which a new Properties iterates the
// keys set into it by setProperty in this order (a repeated key keeps its
// first place).
func javaPropertiesOrder(keys []string) []string {
	type node struct {
		hash int32
		key  string
	}
	n := 16
	bins := make([][]node, n)
	count := 0
	for _, k := range keys {
		h := jdk.StringHashCode(k)
		h = (h ^ int32(uint32(h)>>16)) & 0x7fffffff
		i := int(h) & (n - 1)
		seen := false
		for _, e := range bins[i] {
			if e.key == k {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		bins[i] = append(bins[i], node{h, k})
		count++
		if count >= n-n/4 {
			next := make([][]node, 2*n)
			for b, bin := range bins {
				if len(bin) == 0 {
					continue
				}
				// lastRun: where the tail whose nodes all go the same
				// way starts.
				lastRun := 0
				runBit := int(bin[0].hash) & n
				for j := 1; j < len(bin); j++ {
					if b := int(bin[j].hash) & n; b != runBit {
						runBit, lastRun = b, j
					}
				}
				var lo, hi []node
				if runBit == 0 {
					lo = append(lo, bin[lastRun:]...)
				} else {
					hi = append(hi, bin[lastRun:]...)
				}
				for _, p := range bin[:lastRun] {
					if int(p.hash)&n == 0 {
						lo = append([]node{p}, lo...)
					} else {
						hi = append([]node{p}, hi...)
					}
				}
				next[b], next[b+n] = lo, hi
			}
			bins, n = next, 2*n
		}
	}
	out := make([]string, 0, count)
	for _, bin := range bins {
		for _, e := range bin {
			out = append(out, e.key)
		}
	}
	return out
}

// JavaPropertiesOrder is the order in which a new java.util.Properties
// (JDK 11) iterates the keys set into it by setProperty in this order, as
// when Kafka reads a config znode into one (ConfigEntityZNode.decode).
func JavaPropertiesOrder(keys []string) []string { return javaPropertiesOrder(keys) }
