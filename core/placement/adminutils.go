package placement

// RackUnaware is Kafka's rack-unaware replica placement
// (AdminUtils.assignReplicasToBrokers), which the ZooKeeper-era controller
// broker uses for new topics (ZkAdminManager.createTopics) and
// kafka-reassign-partitions.sh --generate uses before 4.0: partition p's first replica is broker
// (p + startIndex) mod n, and each further replica is shifted from it by
// 1 + (shift + j) mod (n - 1), where shift grows by one each time p wraps
// around the broker list. Kafka picks startIndex and the first shift at
// random; the caller passes them in (drawn from the run's seed).
func RackUnaware(brokers []int32, partitions, rf, startIndex, shift int) [][]int32 {
	return RackUnawareFrom(brokers, partitions, rf, startIndex, shift, 0)
}

// RackUnawareFrom places partitions numbered from startPartition on (its
// startPartitionId): new partitions of an existing topic
// (AdminZkClient.createNewPartitionsAssignment passes the existing count,
// and as fixedStartIndex the index of the first broker whose id is at
// least partition 0's first replica, which is also the first shift).
// The shift grows only at the wraps of the partitions placed.
func RackUnawareFrom(brokers []int32, partitions, rf, startIndex, shift, startPartition int) [][]int32 {
	n := len(brokers)
	out := make([][]int32, partitions)
	for i := 0; i < partitions; i++ {
		p := startPartition + i
		if p > 0 && p%n == 0 {
			shift++
		}
		first := (p + startIndex) % n
		replicas := []int32{brokers[first]}
		for j := 0; j < rf-1; j++ {
			s := 1 + (shift+j)%(n-1)
			replicas = append(replicas, brokers[(first+s)%n])
		}
		out[i] = replicas
	}
	return out
}
