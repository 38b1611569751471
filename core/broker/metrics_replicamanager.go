package broker

// ReplicaManagerGauges is what the broker's kafka.server:type=ReplicaManager
// gauges read now, computed from the partitions it hosts each time they
// are read, as Kafka's gauges iterate allPartitions on every JMX read
// (ReplicaManager.scala, 3.8.0):
//   - PartitionCount: every hosted partition;
//   - LeaderCount: those this broker leads;
//   - UnderReplicatedPartitions: led ones whose committed ISR is smaller
//     than the replica set (Partition.isUnderReplicated: the pending ISR
//     of an AlterPartition in flight does not count);
//   - UnderMinIsrPartitionCount, AtMinIsrPartitionCount: led ones whose
//     ISR is below, or exactly at, min.insync.replicas capped at the
//     replication factor (Partition.isUnderMinIsr, isAtMinIsr);
//   - OfflineReplicaCount: partitions on a failed log directory, always 0
//     here (the simulator's brokers have one log directory, which never
//     fails).
type ReplicaManagerGauges struct {
	PartitionCount            int
	LeaderCount               int
	UnderReplicatedPartitions int
	UnderMinIsrPartitionCount int
	AtMinIsrPartitionCount    int
	OfflineReplicaCount       int
}

// ReplicaManagerGauges reads the gauges now.
func (b *Broker) ReplicaManagerGauges() ReplicaManagerGauges {
	var g ReplicaManagerGauges
	for _, p := range b.partitions {
		g.PartitionCount++
		if !p.isLeader {
			continue
		}
		g.LeaderCount++
		if len(p.isr) < len(p.replicas) {
			g.UnderReplicatedPartitions++
		}
		switch minISR := p.effectiveMinISR(); {
		case len(p.isr) < minISR:
			g.UnderMinIsrPartitionCount++
		case len(p.isr) == minISR:
			g.AtMinIsrPartitionCount++
		}
	}
	return g
}
