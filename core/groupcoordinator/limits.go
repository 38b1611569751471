package groupcoordinator

import "kafkascope/core/protocol"

// atGroupLimit reports whether a new group in __consumer_offsets partition p
// would exceed protocol.MaxGroupsPerOffsetsPartition (the simulator's own
// limit; Kafka has none). Deleted groups are gone from c.groups and free
// their place; Empty groups keep theirs (they hold committed offsets).
func (c *Coordinator) atGroupLimit(p int32) bool {
	n := 0
	for _, g := range c.groups {
		if g.partition == p && g.state != groupDead {
			n++
		}
	}
	return n >= protocol.MaxGroupsPerOffsetsPartition
}
