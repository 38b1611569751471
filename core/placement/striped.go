// Package placement is Kafka's replica placement
// (org.apache.kafka.metadata.placement): the StripedReplicaPlacer that the
// KRaft controller uses for new topics and partitions, and that
// kafka-reassign-partitions.sh --generate uses from Kafka 4.0
// (ReassignPartitionsCommand.java's REPLICA_PLACER).
package placement

import (
	"fmt"
	"slices"

	"kafkascope/core/sim"
)

// Striped places replicas as Kafka's StripedReplicaPlacer does without
// racks: partitions walk the sorted list of unfenced brokers from a random
// start, each one starting one broker after the previous, so leaders spread
// round-robin; after a full cycle the list is reshuffled. Fenced brokers are
// used only when there are not enough unfenced ones, and never as leader.
//
// Kafka's placer draws from a java.util.Random (the controller's own; the
// 4.x reassign tool's is a static new Random() per run); here Rand is a
// stream of the simulation's seed. kafkascope's brokers have no
// broker.rack, so there is one rack and the rack list plays no part.
type Striped struct {
	Rand *sim.Rand
	// CordonedText: Kafka 4.3's messages, which name cordoned log
	// directories too (KIP-1066; StripedReplicaPlacer.java in 4.3).
	CordonedText bool
}

// Place returns replica lists for count partitions of replication factor
// rf. The error's message is the InvalidReplicationFactorException Kafka
// throws, checked in Kafka's order (rf not positive, no unfenced broker,
// too few brokers).
func (sp *Striped) Place(unfenced, fenced []int32, count int, rf int) ([][]int32, error) {
	if rf <= 0 {
		return nil, fmt.Errorf("Invalid replication factor %d: the replication factor must be positive.", rf)
	}
	if len(unfenced) == 0 {
		if sp.CordonedText {
			return nil, fmt.Errorf("All brokers are currently fenced, or have all their log directories cordoned.")
		}
		return nil, fmt.Errorf("All brokers are currently fenced.")
	}
	if rf > len(unfenced)+len(fenced) {
		if sp.CordonedText {
			return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered or some brokers have all their log directories cordoned.", rf, len(unfenced)+len(fenced))
		}
		return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered.", rf, len(unfenced)+len(fenced))
	}
	u := slices.Clone(unfenced)
	f := slices.Clone(fenced)
	slices.Sort(u)
	slices.Sort(f)
	n := len(u)
	start := sp.Rand.Intn(n)
	fstart := 0
	if len(f) > 0 {
		fstart = sp.Rand.Intn(len(f))
	}
	out := make([][]int32, 0, count)
	for p := 0; p < count; p++ {
		k := p % n
		if p > 0 && k == 0 && n > 1 {
			sp.Rand.Shuffle(len(u), func(i, j int) { u[i], u[j] = u[j], u[i] })
			sp.Rand.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
		}
		replicas := make([]int32, 0, rf)
		for j := 0; j < rf && j < n; j++ {
			replicas = append(replicas, u[(start+k+j)%n])
		}
		for j := 0; len(replicas) < rf; j++ {
			replicas = append(replicas, f[(fstart+p+j)%len(f)])
		}
		out = append(out, replicas)
	}
	return out, nil
}
