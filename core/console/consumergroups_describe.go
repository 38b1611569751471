package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// The --list and --describe actions of kafka-consumer-groups.sh.

const missingColumn = "-"

// groupStates are ConsumerGroupState's names (without Unknown), in the
// enum's order. Kafka 4.x lists the valid ones from
// GroupState.groupStatesForType(CONSUMER), a Set.of whose order changes
// from one JVM run to the next (GroupState.java@4.1); kafkascope prints
// the enum's order there too, one of the orders Kafka can print.
var groupStates = []string{"PreparingRebalance", "CompletingRebalance", "Stable", "Dead", "Empty", "Assigning", "Reconciling"}

// groupTypes are GroupType's names in Kafka 3.8 (without Unknown).
var groupTypes = []string{"Consumer", "Classic"}

func parseEnumList(input string, valid []string) ([]string, bool) {
	var out []string
	for _, s := range strings.Split(input, ",") {
		s = strings.TrimSpace(s)
		found := ""
		for _, v := range valid {
			if strings.EqualFold(v, s) {
				found = v
			}
		}
		if found == "" {
			return nil, false
		}
		if !slices.Contains(out, found) {
			out = append(out, found)
		}
	}
	return out, true
}

func (c *consumerGroupCommand) list(env *sim.Env) {
	includeType, includeState := c.p.Has("type"), c.p.Has("state")
	var states, types []string
	if v := c.p.Value("state"); includeState && v != "" {
		var ok bool
		if states, ok = parseEnumList(v, groupStates); !ok {
			c.illegalArgument("Invalid state list '" + v + "'. Valid states are: " + strings.Join(groupStates, ", "))
			return
		}
	}
	if v := c.p.Value("type"); includeType && v != "" {
		var ok bool
		if types, ok = parseEnumList(strings.ToLower(v), groupTypes); !ok {
			c.illegalArgument("Invalid types list '" + v + "'. Valid types are: " + strings.Join(groupTypes, ", "))
			return
		}
	}
	c.admin.ListConsumerGroups(env, states, c.timeout, func(env *sim.Env, groups []client.GroupListing, err *client.Error) {
		if err != nil {
			if includeType || includeState {
				c.failedCall(err)
			} else {
				c.failedWrapped(err)
			}
			return
		}
		if !includeType && !includeState {
			for _, g := range groups {
				c.t.println(g.GroupID)
			}
			c.t.finish(0)
			return
		}
		var rows []client.GroupListing
		for _, g := range groups {
			if len(types) == 0 || slices.ContainsFunc(types, func(t string) bool { return strings.EqualFold(t, g.Type) }) {
				rows = append(rows, g)
			}
		}
		width := 15
		for _, g := range rows {
			width = max(width, jdk.StringLength(g.GroupID))
		}
		width += 10
		line := func(id, typ, state string) {
			s := padRight(id, width)
			if includeType {
				s += " " + padRight(typ, 20)
			}
			if includeState {
				s += " " + padRight(state, 20)
			}
			c.t.println(s)
		}
		line("GROUP", "TYPE", "STATE")
		for _, g := range rows {
			line(g.GroupID, enumName(g.Type, groupTypes), enumName(g.State, groupStates))
		}
		c.t.finish(0)
	})
}

// enumName is the enum's toString for a name the broker sent, Unknown for
// anything else.
func enumName(s string, valid []string) string {
	for _, v := range valid {
		if strings.EqualFold(v, s) {
			return v
		}
	}
	return "Unknown"
}

// padRight is Java's %-Ns (by UTF-16 length).
func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-jdk.StringLength(s)))
}

// groupIDs are the groups an action works on: every listed group with
// --all-groups, otherwise the --group values (the description calls take
// them as a set).
func (c *consumerGroupCommand) groupIDs(env *sim.Env, next func(env *sim.Env, ids []string)) {
	if !c.p.Has("all-groups") {
		next(env, c.p.Values("group"))
		return
	}
	c.admin.ListConsumerGroups(env, nil, c.timeout, func(env *sim.Env, groups []client.GroupListing, err *client.Error) {
		if err != nil {
			c.failedWrapped(err)
			return
		}
		var ids []string
		for _, g := range groups {
			ids = append(ids, g.GroupID)
		}
		next(env, ids)
	})
}

// describeAll is describeConsumerGroups for several groups, each through
// its coordinator; next gets the descriptions in group id order (the tool
// keeps them in a TreeMap), or the first failure in the futures' HashMap
// order.
func (c *consumerGroupCommand) describeAll(env *sim.Env, ids []string, next func(env *sim.Env, ds []*client.GroupDescription)) {
	var unique []string
	for _, id := range ids {
		if !slices.Contains(unique, id) {
			unique = append(unique, id)
		}
	}
	results := map[string]*client.GroupDescription{}
	errs := map[string]*client.Error{}
	left := len(unique)
	finish := func(env *sim.Env) {
		if c.t.rel().AtLeast(4, 0) {
			for _, id := range unique {
				if errs[id] == nil && results[id].State == "Dead" {
					errs[id] = groupNotFound(id)
				}
			}
		}
		for _, id := range jdk.HashSetOrder(unique) {
			if errs[id] != nil {
				c.failedCall(errs[id])
				return
			}
		}
		sorted := slices.Clone(unique)
		slices.Sort(sorted)
		var out []*client.GroupDescription
		for _, id := range sorted {
			out = append(out, results[id])
		}
		next(env, out)
	}
	if left == 0 {
		finish(env)
		return
	}
	for _, id := range unique {
		c.admin.DescribeConsumerGroup(env, id, c.timeout, func(env *sim.Env, d *client.GroupDescription, err *client.Error) {
			results[id], errs[id] = d, err
			left--
			if left == 0 {
				finish(env)
			}
		})
	}
}

// groupNotFound is what Kafka 4.0's admin client reports for a group the
// coordinator does not know: ConsumerGroupDescribe's GROUP_ID_NOT_FOUND
// message, kept when the DescribeGroups fallback (v6) fails the same way
// (DescribeConsumerGroupsHandler.java@4.1, GroupMetadataManager.java
// "Group %s not found."). kafkascope's coordinator answers such a group
// as Dead, as 3.8's did; from 4.0 the tool turns that into the error.
func groupNotFound(id string) *client.Error {
	return &client.Error{Class: "org.apache.kafka.common.errors.GroupIdNotFoundException", Message: "Group " + id + " not found."}
}

// javaTPOrder is a HashMap<TopicPartition, _>'s iteration order for keys
// inserted in the given order.
func javaTPOrder(tps []group.TopicPartition) []group.TopicPartition {
	hashes := make([]int32, len(tps))
	for i, tp := range tps {
		hashes[i] = hashing.TopicPartitionHashCode(tp.Topic, tp.Partition)
	}
	var out []group.TopicPartition
	for _, i := range jdk.HashOrder(hashes) {
		out = append(out, tps[i])
	}
	return out
}

// shouldPrintMemberState prints what a group's state means for the
// description and says whether its table follows (rows < 0: none known).
func (c *consumerGroupCommand) shouldPrintMemberState(g, state string, rows int) bool {
	if rows < 0 {
		c.t.println("")
		c.t.println("Error: The consumer group '" + g + "' does not exist.")
		return false
	}
	switch state {
	case "Dead":
		c.t.println("")
		c.t.println("Error: Consumer group '" + g + "' does not exist.")
	case "Empty":
		c.t.println("")
		c.t.println("Consumer group '" + g + "' has no active members.")
	case "PreparingRebalance", "CompletingRebalance", "Assigning", "Reconciling":
		c.t.println("")
		c.t.println("Warning: Consumer group '" + g + "' is rebalancing.")
	case "Stable":
	default:
		c.failed("Expected a valid consumer group state, but found '"+state+"'.",
			"org.apache.kafka.common.KafkaException: Expected a valid consumer group state, but found '"+state+"'.")
		return false
	}
	return state != "Dead" && rows > 0
}

func (c *consumerGroupCommand) describe(env *sim.Env) {
	c.groupIDs(env, func(env *sim.Env, ids []string) {
		c.describeAll(env, ids, func(env *sim.Env, ds []*client.GroupDescription) {
			switch {
			case c.p.Has("members"):
				c.printMembers(ds, c.p.Has("verbose"))
				c.t.finish(0)
			case c.p.Has("state"):
				c.printStates(ds)
				c.t.finish(0)
			default:
				c.collectOffsets(env, ds, 0, nil)
			}
		})
	})
}

// assignmentRow is PartitionAssignmentState: one row of the offsets view.
type assignmentRow struct {
	group, topic, partition, offset, logEnd, lag, consumerID, host, clientID string
	leaderEpoch                                                              string // the committed offset's (--verbose, 4.0+)
}

// groupRows is one group's state and rows.
type groupRows struct {
	id, state string
	rows      []assignmentRow
}

// collectOffsets is collectGroupsOffsets, one group after the other: the
// group's committed offsets, then for each member with partitions (most
// partitions first) and for the committed partitions nobody has, their
// log end offsets.
func (c *consumerGroupCommand) collectOffsets(env *sim.Env, ds []*client.GroupDescription, i int, done []groupRows) {
	if i == len(ds) {
		c.printOffsets(done)
		c.t.finish(0)
		return
	}
	d := ds[i]
	c.admin.ListConsumerGroupOffsetsWithEpochs(env, d.GroupID, c.timeout, func(env *sim.Env, committed map[group.TopicPartition]int64, epochs map[group.TopicPartition]int32, err *client.Error) {
		if err != nil {
			c.failedWrapped(err)
			return
		}
		members := slices.Clone(d.Members)
		members = slices.DeleteFunc(members, func(m client.GroupMember) bool { return len(m.Assignment) == 0 })
		sorts.StableFunc(members, func(a, b client.GroupMember) int { return len(b.Assignment) - len(a.Assignment) })
		var assigned []group.TopicPartition
		type block struct {
			tps                    []group.TopicPartition
			consumer, host, client string
		}
		var blocks []block
		for _, m := range members {
			assigned = append(assigned, m.Assignment...)
			blocks = append(blocks, block{javaTPOrder(m.Assignment), m.MemberID, m.Host, m.ClientID})
		}
		var unassigned []group.TopicPartition
		for _, tp := range javaTPOrder(sortedCommitted(committed)) {
			if !slices.Contains(assigned, tp) {
				unassigned = append(unassigned, tp)
			}
		}
		if len(unassigned) > 0 {
			blocks = append(blocks, block{javaTPOrder(unassigned), missingColumn, missingColumn, missingColumn})
		}
		g := groupRows{id: d.GroupID, state: d.State}
		var next func(env *sim.Env, b int)
		next = func(env *sim.Env, b int) {
			if b == len(blocks) {
				c.collectOffsets(env, ds, i+1, append(done, g))
				return
			}
			bl := blocks[b]
			// Sorted by partition, then through a HashMap (toMap).
			tps := slices.Clone(bl.tps)
			sorts.StableFunc(tps, func(x, y group.TopicPartition) int { return int(x.Partition - y.Partition) })
			tps = javaTPOrder(tps)
			c.admin.ListOffsets(env, tps, protocol.LatestTimestamp, c.timeout, func(env *sim.Env, leo map[group.TopicPartition]int64, err *client.Error) {
				if err != nil {
					c.failedWrapped(err)
					return
				}
				if c.t.rel().AtLeast(4, 2) {
					// Kafka 4.2 sorts each block's rows by topic, then
					// partition (ConsumerGroupCommand.describePartitions).
					tps = slices.Clone(tps)
					sorts.Func(tps, compareTP)
				}
				for _, tp := range tps {
					r := assignmentRow{group: d.GroupID, topic: tp.Topic, partition: strconv.Itoa(int(tp.Partition)),
						offset: missingColumn, logEnd: missingColumn, lag: missingColumn, consumerID: bl.consumer, host: bl.host, clientID: bl.client,
						leaderEpoch: missingColumn}
					off, hasOff := committed[tp]
					end, hasEnd := leo[tp]
					// The admin client maps an offset of -1 to null (none).
					hasOff = hasOff && off != -1
					if hasOff {
						r.offset = strconv.FormatInt(off, 10)
						if e := epochs[tp]; e >= 0 {
							r.leaderEpoch = strconv.Itoa(int(e))
						}
					}
					if hasEnd {
						r.logEnd = strconv.FormatInt(end, 10)
					}
					if hasOff && hasEnd {
						r.lag = strconv.FormatInt(end-off, 10)
					}
					g.rows = append(g.rows, r)
				}
				next(env, b+1)
			})
		}
		next(env, 0)
	})
}

// sortedCommitted lists the committed partitions in a stable order (the
// caller puts them in HashMap order).
func sortedCommitted(m map[group.TopicPartition]int64) []group.TopicPartition {
	out := make([]group.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	sorts.Func(out, compareTP)
	return out
}

// printOffsets is printOffsets: per group, a header and rows in a format
// whose group, topic, consumer id and host columns fit the widest value
// (at least 15). From Kafka 4.0, --verbose adds the committed offset's
// LEADER-EPOCH after PARTITION.
func (c *consumerGroupCommand) printOffsets(groups []groupRows) {
	withEpoch := c.t.rel().AtLeast(4, 0) && c.p.Has("verbose")
	for _, g := range groups {
		if !c.shouldPrintMemberState(g.id, g.state, len(g.rows)) {
			continue
		}
		wg, wt, wc, wh := 15, 15, 15, 15
		for _, r := range g.rows {
			wg = max(wg, jdk.StringLength(r.group))
			wt = max(wt, jdk.StringLength(r.topic))
			wc = max(wc, jdk.StringLength(r.consumerID))
			wh = max(wh, jdk.StringLength(r.host))
		}
		line := func(r assignmentRow) string {
			epoch := ""
			if withEpoch {
				epoch = padRight(r.leaderEpoch, 15) + " "
			}
			return padRight(r.group, wg) + " " + padRight(r.topic, wt) + " " + padRight(r.partition, 10) + " " + epoch +
				padRight(r.offset, 15) + " " + padRight(r.logEnd, 15) + " " + padRight(r.lag, 15) + " " +
				padRight(r.consumerID, wc) + " " + padRight(r.host, wh) + " " + r.clientID
		}
		c.t.println("")
		c.t.println(line(assignmentRow{"GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "CONSUMER-ID", "HOST", "CLIENT-ID", "LEADER-EPOCH"}))
		for _, r := range g.rows {
			c.t.println(line(r))
		}
	}
}

// printMembers is printMembers: the header (printed even for a group that
// does not exist), then every member in the order the description lists
// them, with its partition count and, with --verbose, its partitions:
// 3.8's ASSIGNMENT column, or from Kafka 4.0 CURRENT-EPOCH (the member's
// epoch) CURRENT-ASSIGNMENT TARGET-EPOCH (the group's target assignment
// epoch, the same on every row) TARGET-ASSIGNMENT, "-" where the
// description has no value (a classic group's members); UPGRADED follows
// when the group has both classic and consumer-protocol members
// (ConsumerGroupCommand.printMembers, 4.3 CGC:397-491, 878-905).
func (c *consumerGroupCommand) printMembers(ds []*client.GroupDescription, verbose bool) {
	kafka4 := c.t.rel().AtLeast(4, 0)
	for _, d := range ds {
		wg, wc, wi, wh, wcl, wca, wta := 15, 15, 17, 15, 15, 20, 20
		withInstance, hasClassic, hasConsumer := false, false, false
		if c.shouldPrintMemberState(d.GroupID, d.State, len(d.Members)) {
			for _, m := range d.Members {
				wg = max(wg, jdk.StringLength(d.GroupID))
				wc = max(wc, jdk.StringLength(m.MemberID))
				wi = max(wi, jdk.StringLength(m.InstanceID))
				wh = max(wh, jdk.StringLength(m.Host))
				wcl = max(wcl, jdk.StringLength(m.ClientID))
				withInstance = withInstance || m.InstanceID != ""
				wca = max(wca, jdk.StringLength(assignmentString(m.Assignment)))
				wta = max(wta, jdk.StringLength(assignmentString(m.TargetAssignment)))
				if m.Upgraded != nil {
					hasClassic = hasClassic || !*m.Upgraded
					hasConsumer = hasConsumer || *m.Upgraded
				}
			}
		}
		upgradedColumn := hasClassic && hasConsumer
		epochs := func(currentEpoch, current, targetEpoch, target, upgraded string) string {
			s := padRight(currentEpoch, 15) + " " + padRight(current, wca) + " " + padRight(targetEpoch, 15) + " " + padRight(target, wta)
			if upgradedColumn {
				s += " " + upgraded
			}
			return s
		}
		line := func(g, consumer, instance, host, clientID, parts string) string {
			s := padRight(g, wg) + " " + padRight(consumer, wc) + " "
			if withInstance {
				s += padRight(instance, wi) + " "
			}
			return s + padRight(host, wh) + " " + padRight(clientID, wcl) + " " + padRight(parts, 15) + " "
		}
		header := line("GROUP", "CONSUMER-ID", "GROUP-INSTANCE-ID", "HOST", "CLIENT-ID", "#PARTITIONS")
		switch {
		case verbose && kafka4:
			header += epochs("CURRENT-EPOCH", "CURRENT-ASSIGNMENT", "TARGET-EPOCH", "TARGET-ASSIGNMENT", "UPGRADED")
		case verbose:
			header += "ASSIGNMENT"
		}
		c.t.println("")
		c.t.println(header)
		for _, m := range d.Members {
			row := line(d.GroupID, m.MemberID, m.InstanceID, m.Host, m.ClientID, strconv.Itoa(len(m.Assignment)))
			switch {
			case verbose && kafka4:
				currentEpoch, targetEpoch, upgraded := missingColumn, missingColumn, missingColumn
				if m.HasEpoch {
					currentEpoch = strconv.Itoa(int(m.MemberEpoch))
				}
				if d.HasEpochs {
					targetEpoch = strconv.Itoa(int(d.AssignmentEpoch))
				}
				if m.Upgraded != nil {
					upgraded = strconv.FormatBool(*m.Upgraded)
				}
				row += epochs(currentEpoch, assignmentString(m.Assignment), targetEpoch, assignmentString(m.TargetAssignment), upgraded)
			case verbose:
				row += verboseAssignment(m.Assignment)
			}
			c.t.println(row)
		}
	}
}

// verboseAssignment is --members --verbose's ASSIGNMENT: the partitions
// of each topic as "(0,1,2)", numbers and groups sorted as strings (3.8's
// tool leaves the topic names out).
func verboseAssignment(tps []group.TopicPartition) string {
	if len(tps) == 0 {
		return missingColumn
	}
	byTopic := map[string][]string{}
	var topics []string
	for _, tp := range tps {
		if _, ok := byTopic[tp.Topic]; !ok {
			topics = append(topics, tp.Topic)
		}
		byTopic[tp.Topic] = append(byTopic[tp.Topic], strconv.Itoa(int(tp.Partition)))
	}
	var parts []string
	for _, t := range topics {
		ps := byTopic[t]
		slices.Sort(ps)
		parts = append(parts, "("+strings.Join(ps, ",")+")")
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

// assignmentString is Kafka 4.0's --members --verbose assignment: per
// topic "topic:0,1,2" (partitions in numeric order), topics sorted and
// joined with ";", "-" for none (ConsumerGroupCommand.getAssignmentString).
func assignmentString(tps []group.TopicPartition) string {
	if len(tps) == 0 {
		return missingColumn
	}
	byTopic := map[string][]int32{}
	for _, tp := range tps {
		byTopic[tp.Topic] = append(byTopic[tp.Topic], tp.Partition)
	}
	var parts []string
	for t, ps := range byTopic {
		slices.Sort(ps)
		s := make([]string, len(ps))
		for i, p := range ps {
			s[i] = strconv.Itoa(int(p))
		}
		parts = append(parts, t+":"+strings.Join(s, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// printStates is printStates. In 3.8, GROUP uses the coordinator column's
// width (as Kafka's format does), COORDINATOR (ID) a fixed 25. From Kafka
// 4.0, GROUP fits the group id (at least 15), COORDINATOR (ID) the
// coordinator, STATE is 20 wide, an empty assignor prints "-", and
// --verbose adds GROUP-EPOCH and TARGET-ASSIGNMENT-EPOCH ("-" for a
// classic group; a consumer group's epochs, and its server assignor as
// the strategy: 4.3 CGC:512-535, 911-925).
func (c *consumerGroupCommand) printStates(ds []*client.GroupDescription) {
	for _, d := range ds {
		if !c.shouldPrintMemberState(d.GroupID, d.State, 1) {
			continue
		}
		coord := fmt.Sprintf("%s:%d  (%d)", d.Coordinator.Host, d.Coordinator.Port, d.Coordinator.ID)
		if c.t.rel().AtLeast(4, 0) {
			wg, wco := max(15, jdk.StringLength(d.GroupID)), max(25, jdk.StringLength(coord))
			verbose := c.p.Has("verbose")
			line := func(g, co, strategy, state, groupEpoch, targetEpoch, members string) string {
				s := padRight(g, wg) + " " + padRight(co, wco) + " " + padRight(strategy, 20) + " " + padRight(state, 20) + " "
				if verbose {
					s += padRight(groupEpoch, 15) + " " + padRight(targetEpoch, 25) + " "
				}
				return s + members
			}
			strategy := d.Assignor
			if strategy == "" {
				strategy = missingColumn
			}
			c.t.println("")
			c.t.println(line("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "GROUP-EPOCH", "TARGET-ASSIGNMENT-EPOCH", "#MEMBERS"))
			groupEpoch, targetEpoch := missingColumn, missingColumn
			if d.HasEpochs {
				groupEpoch, targetEpoch = strconv.Itoa(int(d.GroupEpoch)), strconv.Itoa(int(d.AssignmentEpoch))
			}
			c.t.println(line(d.GroupID, coord, strategy, d.State, groupEpoch, targetEpoch, strconv.Itoa(len(d.Members))))
			continue
		}
		w := max(25, jdk.StringLength(coord))
		line := func(g, co, strategy, state, members string) string {
			return padRight(g, w) + " " + padRight(co, 25) + " " + padRight(strategy, 20) + " " + padRight(state, 15) + " " + members
		}
		c.t.println("")
		c.t.println(line("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"))
		c.t.println(line(d.GroupID, coord, d.Assignor, d.State, strconv.Itoa(len(d.Members))))
	}
}
