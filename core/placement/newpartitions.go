package placement

import (
	"fmt"
	"slices"
	"strings"
)

// NewPartitions is AdminZkClient.createNewPartitionsAssignment's automatic
// placement of add partitions after existing ones, partition 0 being on
// first: AdminUtils from the index of the first broker whose id is at
// least first[0] (0 when none is), that index also as the first shift,
// partition ids from existing on. brokers are the registered ids, sorted,
// and racks their broker.rack ("" none): rack-aware when all have one; ok
// is false when only some have (AdminUtils refuses).
func NewPartitions(brokers []int32, racks []string, first []int32, existing, add int) (out [][]int32, ok bool) {
	start := max(0, slices.IndexFunc(brokers, func(id int32) bool { return id >= first[0] }))
	return AdminUtils(brokers, racks, add, len(first), start, start, existing)
}

// AssignmentError is a replica assignment Kafka refuses: the exception's
// class (simple name) and message.
type AssignmentError struct {
	Class, Message string
}

// ValidateReplicaAssignment is AdminZkClient.validateReplicaAssignment for
// new partitions numbered from firstID: each list non-empty, without
// duplicates, on available brokers, and all of partition 0's replication
// factor rf (2.8.0's messages).
func ValidateReplicaAssignment(assignment [][]int32, firstID, rf int, available []int32) *AssignmentError {
	var badIDs, badRFs []string
	for i, rs := range assignment {
		id := firstID + i
		if len(rs) == 0 {
			return &AssignmentError{"InvalidReplicaAssignmentException", fmt.Sprintf("Cannot have replication factor of 0 for partition id %d.", id)}
		}
		uniq := slices.Clone(rs)
		slices.Sort(uniq)
		if len(slices.Compact(uniq)) != len(rs) {
			return &AssignmentError{"InvalidReplicaAssignmentException", fmt.Sprintf("Duplicate brokers not allowed in replica assignment: %s for partition id %d.", joinIDs(rs), id)}
		}
		for _, b := range rs {
			if !slices.Contains(available, b) {
				return &AssignmentError{"BrokerNotAvailableException", fmt.Sprintf("Some brokers specified for partition id %d are not available. Specified brokers: %s, available brokers: %s.", id, joinIDs(rs), joinIDs(available))}
			}
		}
		if len(rs) != rf {
			badIDs = append(badIDs, fmt.Sprint(id))
			badRFs = append(badRFs, fmt.Sprint(len(rs)))
		}
	}
	if len(badIDs) > 0 {
		return &AssignmentError{"InvalidReplicaAssignmentException", fmt.Sprintf("Inconsistent replication factor between partitions, partition 0 has %d while partitions [%s] have replication factors [%s], respectively.", rf, strings.Join(badIDs, ", "), strings.Join(badRFs, ", "))}
	}
	return nil
}

func joinIDs(ids []int32) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, ", ")
}
