package groupcoordinator

import (
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleListGroups lists the groups this broker coordinates (the admin
// client asks every broker and merges), optionally filtered by state.
// Partitions still loading make the answer COORDINATOR_LOAD_IN_PROGRESS.
func (c *Coordinator) handleListGroups(env *sim.Env, from sim.Addr, req *protocol.ListGroupsRequest) {
	resp := &protocol.ListGroupsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	if len(c.loading) > 0 {
		resp.ErrorCode = protocol.COORDINATOR_LOAD_IN_PROGRESS
		c.respond(env, from, resp)
		return
	}
	ids := make([]string, 0, len(c.groups))
	for id, g := range c.groups {
		if g.state != groupDead {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := c.groups[id]
		// A consumer group lists as type "consumer", protocol type
		// "consumer", with its own state names (ModernGroup:147-153).
		state, typ, protocolType := g.state.String(), "classic", g.protocolType
		if g.consumer != nil {
			state, typ, protocolType = g.consumer.state.String(), "consumer", protocol.ConsumerProtocolType
		}
		if len(req.StatesFilter) > 0 && !slices.ContainsFunc(req.StatesFilter, func(s string) bool { return equalFoldASCII(s, state) }) {
			continue
		}
		if len(req.TypesFilter) > 0 && !slices.ContainsFunc(req.TypesFilter, func(s string) bool { return equalFoldASCII(s, typ) }) {
			continue
		}
		resp.Groups = append(resp.Groups, protocol.ListedGroup{GroupID: id, ProtocolType: protocolType, GroupState: state, GroupType: typ})
	}
	c.respond(env, from, resp)
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// handleDescribeGroups describes groups this broker coordinates. A group it
// does not know is described as Dead with no members (Kafka's answer for a
// group id that does not exist). Members' metadata and assignments are
// shown only once the group is Stable (as GroupMetadata.summary does).
func (c *Coordinator) handleDescribeGroups(env *sim.Env, from sim.Addr, req *protocol.DescribeGroupsRequest) {
	resp := &protocol.DescribeGroupsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, id := range req.Groups {
		d := protocol.DescribedGroup{GroupID: id}
		if code := c.groupError(id); code != protocol.NONE {
			d.ErrorCode = code
			resp.Groups = append(resp.Groups, d)
			continue
		}
		g := c.groups[id]
		if g != nil && g.consumer != nil {
			// Not a classic group: GROUP_ID_NOT_FOUND, Dead (GMM:769-820;
			// its message "Group G is not a classic group." has no field
			// here).
			d.ErrorCode, d.GroupState = protocol.GROUP_ID_NOT_FOUND, groupDead.String()
			resp.Groups = append(resp.Groups, d)
			continue
		}
		if g == nil || g.state == groupDead {
			d.GroupState = groupDead.String()
			resp.Groups = append(resp.Groups, d)
			continue
		}
		d.GroupState, d.ProtocolType = g.state.String(), g.protocolType
		if g.state == groupStable {
			d.ProtocolData = g.protocolName
		}
		for _, m := range g.sortedMembers() {
			dm := protocol.DescribedGroupMember{MemberID: m.id, GroupInstanceID: m.instanceID, ClientID: m.clientID, ClientHost: m.clientHost}
			if g.state == groupStable {
				dm.MemberMetadata, dm.MemberAssignment = m.metadata(g.protocolName), m.assignment
			}
			d.Members = append(d.Members, dm)
		}
		resp.Groups = append(resp.Groups, d)
	}
	c.respond(env, from, resp)
}

// handleDeleteGroups deletes empty groups: their offsets and metadata get
// tombstones; a group with members is NON_EMPTY_GROUP.
func (c *Coordinator) handleDeleteGroups(env *sim.Env, from sim.Addr, req *protocol.DeleteGroupsRequest) bool {
	resp := &protocol.DeleteGroupsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	byPartition := map[int32]groupRecords{}
	var parts []int32
	for _, id := range req.GroupsNames {
		r := protocol.DeletableGroupResult{GroupID: id}
		g := c.groups[id]
		switch code := c.groupError(id); {
		case code != protocol.NONE:
			r.ErrorCode = code
		case g == nil || g.state == groupDead:
			r.ErrorCode = protocol.GROUP_ID_NOT_FOUND
		case g.state != groupEmpty || g.consumer != nil && g.consumer.state != cgEmpty:
			r.ErrorCode = protocol.NON_EMPTY_GROUP
		default:
			var recs groupRecords
			for _, t := range g.offsetTopics() {
				for _, p := range t.PartitionIndexes {
					recs = append(recs, groupRecord{key: encodeOffsetKey(offsetKey{id, t.Name, p})})
				}
			}
			if g.consumer != nil {
				recs = append(recs, c.consumerGroupTombstones(id, g.consumer)...)
				g.consumer.stopTimers()
			} else {
				recs = append(recs, groupRecord{key: encodeGroupKey(id)})
			}
			if _, ok := byPartition[g.partition]; !ok {
				parts = append(parts, g.partition)
			}
			byPartition[g.partition] = append(byPartition[g.partition], recs...)
			g.transition(groupDead, msTime(env))
			delete(c.groups, id)
		}
		resp.Results = append(resp.Results, r)
	}
	if len(parts) == 0 {
		c.respond(env, from, resp)
		return true
	}
	// Kafka answers once the tombstones are written; a failed write still
	// leaves the group deleted in memory.
	left := len(parts)
	for _, p := range parts {
		c.host.Append(env, p, byPartition[p].records(), func(env *sim.Env, _ protocol.ErrorCode) {
			left--
			if left == 0 {
				c.respond(env, from, resp)
				c.done(env, from)
			}
		})
	}
	return false
}
