package controller

import (
	"fmt"
	"slices"

	"kafkascope/core/sim"
)

// stripedPlacer places replicas as Kafka's StripedReplicaPlacer does without
// racks: partitions walk the sorted list of unfenced brokers from a random
// start, each one starting one broker after the previous, so leaders spread
// round-robin; after a full cycle the list is reshuffled. Fenced brokers are
// used only when there are not enough unfenced ones, and never as leader.
type stripedPlacer struct {
	rnd *sim.Rand
	// cordonedText: Kafka 4.3's messages, which name cordoned log
	// directories too (KIP-1066; StripedReplicaPlacer.java in 4.3).
	cordonedText bool
}

// place returns replica lists for count partitions of replication factor rf.
func (sp *stripedPlacer) place(unfenced, fenced []int32, count int, rf int) ([][]int32, error) {
	if rf <= 0 {
		return nil, fmt.Errorf("Invalid replication factor %d: the replication factor must be positive.", rf)
	}
	if len(unfenced) == 0 {
		if sp.cordonedText {
			return nil, fmt.Errorf("All brokers are currently fenced, or have all their log directories cordoned.")
		}
		return nil, fmt.Errorf("All brokers are currently fenced.")
	}
	if rf > len(unfenced)+len(fenced) {
		if sp.cordonedText {
			return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered or some brokers have all their log directories cordoned.", rf, len(unfenced)+len(fenced))
		}
		return nil, fmt.Errorf("The target replication factor of %d cannot be reached because only %d broker(s) are registered.", rf, len(unfenced)+len(fenced))
	}
	u := slices.Clone(unfenced)
	f := slices.Clone(fenced)
	slices.Sort(u)
	slices.Sort(f)
	n := len(u)
	start := sp.rnd.Intn(n)
	fstart := 0
	if len(f) > 0 {
		fstart = sp.rnd.Intn(len(f))
	}
	out := make([][]int32, 0, count)
	for p := 0; p < count; p++ {
		k := p % n
		if p > 0 && k == 0 && n > 1 {
			sp.rnd.Shuffle(len(u), func(i, j int) { u[i], u[j] = u[j], u[i] })
			sp.rnd.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
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
