package placement

import "slices"

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

// AdminUtils is AdminUtils.assignReplicasToBrokers: rack-unaware when no
// broker has a rack, rack-aware (RackAwareFrom) when every one has; when
// only some have, Kafka refuses (AdminOperationException) and ok is
// false. racks[i] is brokers[i]'s broker.rack ("" for none).
func AdminUtils(brokers []int32, racks []string, partitions, rf, startIndex, shift, startPartition int) (out [][]int32, ok bool) {
	with := 0
	for _, r := range racks {
		if r != "" {
			with++
		}
	}
	switch {
	case with == 0:
		return RackUnawareFrom(brokers, partitions, rf, startIndex, shift, startPartition), true
	case with < len(brokers):
		return nil, false
	}
	return RackAwareFrom(brokers, racks, partitions, rf, startIndex, shift, startPartition), true
}

// RackAwareFrom is AdminUtils.assignReplicasToBrokersRackAware: the
// brokers are arranged alternating racks (RackAlternated); partition p's
// leader is the arranged broker (p + startIndex) mod n, and each further
// replica the next one, by the same shifts as without racks (scaled by
// the number of racks), that puts it in a rack without a replica yet and
// on a broker without one, until every rack (or every broker) has one.
func RackAwareFrom(brokers []int32, racks []string, partitions, rf, startIndex, shift, startPartition int) [][]int32 {
	rackOf := map[int32]string{}
	distinct := map[string]bool{}
	for i, id := range brokers {
		rackOf[id] = racks[i]
		distinct[racks[i]] = true
	}
	arranged := RackAlternated(brokers, racks)
	n, numRacks := len(arranged), len(distinct)
	out := make([][]int32, partitions)
	for i := range partitions {
		p := startPartition + i
		if p > 0 && p%n == 0 {
			shift++
		}
		first := (p + startIndex) % n
		leader := arranged[first]
		replicas := []int32{leader}
		racksWith := map[string]bool{rackOf[leader]: true}
		brokersWith := map[int32]bool{leader: true}
		k := 0
		for range rf - 1 {
			for {
				b := arranged[(first+1+(shift*numRacks+k)%(n-1))%n]
				r := rackOf[b]
				k++
				if (!racksWith[r] || len(racksWith) == numRacks) && (!brokersWith[b] || len(brokersWith) == n) {
					replicas = append(replicas, b)
					racksWith[r], brokersWith[b] = true, true
					break
				}
			}
		}
		out[i] = replicas
	}
	return out
}

// RackAlternated is AdminUtils.getRackAlternatedBrokerList: the racks in
// name order, taking each rack's next broker (its brokers in id order) in
// turn until every broker is listed.
func RackAlternated(brokers []int32, racks []string) []int32 {
	byRack := map[string][]int32{}
	for i, id := range brokers {
		byRack[racks[i]] = append(byRack[racks[i]], id)
	}
	names := make([]string, 0, len(byRack))
	for r, ids := range byRack {
		names = append(names, r)
		slices.Sort(ids)
	}
	slices.Sort(names)
	var out []int32
	next := map[string]int{}
	for i := 0; len(out) < len(brokers); i = (i + 1) % len(names) {
		r := names[i]
		if next[r] < len(byRack[r]) {
			out = append(out, byRack[r][next[r]])
			next[r]++
		}
	}
	return out
}
