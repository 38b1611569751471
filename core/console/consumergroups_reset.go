package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// The --reset-offsets, --delete and --delete-offsets actions of
// kafka-consumer-groups.sh.

// parseTopicWithPartitions is parseTopicsWithPartitions: "topic:0,1,2".
func parseTopicWithPartitions(arg string) ([]group.TopicPartition, string) {
	arr := jdk.Split(arg, ":")
	if len(arr) != 2 {
		return nil, "Invalid topic arg '" + arg + "', expected topic name and partitions"
	}
	var out []group.TopicPartition
	for _, p := range jdk.Split(arr[1], ",") {
		n, err := strconv.ParseInt(p, 10, 32)
		if err != nil {
			return nil, "Invalid partition '" + p + "' specified in topic arg '" + arg + "''"
		}
		out = append(out, group.TopicPartition{Topic: arr[0], Partition: int32(n)})
	}
	return out, ""
}

func tpString(tp group.TopicPartition) string { return fmt.Sprintf("%s-%d", tp.Topic, tp.Partition) }

// resetPlan is one group's new offsets, in the order Kafka's HashMap
// lists them.
type resetPlan struct {
	group   string
	tps     []group.TopicPartition
	offsets map[group.TopicPartition]int64
}

func (c *consumerGroupCommand) resetOffsets(env *sim.Env) {
	c.groupIDs(env, func(env *sim.Env, ids []string) {
		var unique []string
		for _, id := range ids {
			if !slices.Contains(unique, id) {
				unique = append(unique, id)
			}
		}
		descs := map[string]*client.GroupDescription{}
		errs := map[string]*client.Error{}
		left := len(unique)
		order := jdk.HashSetOrder(unique)
		var plans []resetPlan
		var step func(env *sim.Env, i int)
		step = func(env *sim.Env, i int) {
			if i == len(order) {
				c.printResetPlans(plans)
				c.t.finish(0)
				return
			}
			g := order[i]
			if errs[g] != nil {
				c.failedWrapped(errs[g])
				return
			}
			switch state := descs[g].State; state {
			case "Empty", "Dead":
				c.partitionsToReset(env, g, func(env *sim.Env, tps []group.TopicPartition) {
					c.checkPartitionsValid(env, tps, func(env *sim.Env) {
						c.prepareOffsets(env, g, tps, func(env *sim.Env, plan resetPlan) {
							if c.p.Has("dry-run") || !c.p.Has("execute") {
								plans = append(plans, plan)
								step(env, i+1)
								return
							}
							c.admin.AlterConsumerGroupOffsets(env, g, plan.offsets, c.timeout, func(env *sim.Env, err *client.Error) {
								if err != nil {
									c.failedInactiveReset(err)
									return
								}
								plans = append(plans, plan)
								step(env, i+1)
							})
						})
					})
				})
			default:
				c.t.println("")
				c.t.println("Error: Assignments can only be reset if the group '" + g + "' is inactive, but the current state is " + state + ".")
				plans = append(plans, resetPlan{group: g})
				step(env, i+1)
			}
		}
		if left == 0 {
			step(env, 0)
			return
		}
		for _, id := range unique {
			c.admin.DescribeConsumerGroup(env, id, c.timeout, func(env *sim.Env, d *client.GroupDescription, err *client.Error) {
				descs[id], errs[id] = d, err
				left--
				if left == 0 {
					step(env, 0)
				}
			})
		}
	})
}

// failedInactiveReset reports a failed admin call of
// resetOffsetsForInactiveGroup: 3.8 wraps the ExecutionException in a
// RuntimeException; from Kafka 4.0 the cause (a KafkaException) is thrown
// as it is (ConsumerGroupCommand.java@4.1).
func (c *consumerGroupCommand) failedInactiveReset(err *client.Error) {
	if !c.t.rel().AtLeast(4, 0) {
		c.failedWrapped(err)
		return
	}
	c.failed(err.Message, err.Lines()...)
}

// checkPartitionsValid is Kafka 4.2's OffsetsUtils
// .checkAllTopicPartitionsValid, run before the new offsets are prepared:
// partitions that do not exist fail the command. (Its second check,
// partitions without a leader, is not modelled: ListOffsets waits for a
// leader instead.)
func (c *consumerGroupCommand) checkPartitionsValid(env *sim.Env, tps []group.TopicPartition, next func(env *sim.Env)) {
	if !c.t.rel().AtLeast(4, 2) || len(tps) == 0 {
		next(env)
		return
	}
	var topics []string
	for _, tp := range tps {
		if !slices.Contains(topics, tp.Topic) {
			topics = append(topics, tp.Topic)
		}
	}
	c.admin.TopicPartitionCounts(env, topics, c.timeout, func(env *sim.Env, counts map[string]int32, err *client.Error) {
		if err != nil {
			c.failedWrapped(err)
			return
		}
		var missing []string
		for _, tp := range tps {
			if tp.Partition < 0 || tp.Partition >= counts[tp.Topic] {
				missing = append(missing, tpString(tp))
			}
		}
		if len(missing) > 0 {
			msg := `The partitions "` + strings.Join(missing, ",") + `" do not exist`
			c.failed(msg, "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: "+msg)
			return
		}
		next(env)
	})
}

// partitionsToReset is getPartitionsToReset: the group's committed
// partitions (--all-topics), or the --topic partitions (a bare topic
// means all its partitions).
func (c *consumerGroupCommand) partitionsToReset(env *sim.Env, g string, next func(env *sim.Env, tps []group.TopicPartition)) {
	switch {
	case c.p.Has("all-topics"):
		c.admin.ListConsumerGroupOffsets(env, g, c.timeout, func(env *sim.Env, committed map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			next(env, javaTPOrder(sortedCommitted(committed)))
		})
	case c.p.Has("topic"):
		var specified []group.TopicPartition
		var bare []string
		for _, arg := range c.p.Values("topic") {
			if !strings.Contains(arg, ":") {
				bare = append(bare, arg)
				continue
			}
			tps, msg := parseTopicWithPartitions(arg)
			if msg != "" {
				c.illegalArgument(msg)
				return
			}
			specified = append(specified, tps...)
		}
		if len(bare) == 0 {
			next(env, specified)
			return
		}
		c.admin.TopicPartitionCounts(env, bare, c.timeout, func(env *sim.Env, counts map[string]int32, err *client.Error) {
			if err != nil {
				c.failedInactiveReset(err)
				return
			}
			var topics []string
			for t := range counts {
				topics = append(topics, t)
			}
			slices.Sort(topics)
			for _, t := range jdk.HashSetOrder(topics) {
				for p := int32(0); p < counts[t]; p++ {
					specified = append(specified, group.TopicPartition{Topic: t, Partition: p})
				}
			}
			next(env, specified)
		})
	case c.p.Has("from-file"):
		next(env, nil)
	default:
		c.illegalArgument("One of the reset scopes should be defined: --all-topics, --topic.")
	}
}

// prepareOffsets is prepareOffsetsToReset.
func (c *consumerGroupCommand) prepareOffsets(env *sim.Env, g string, tps []group.TopicPartition, next func(env *sim.Env, plan resetPlan)) {
	done := func(env *sim.Env, offsets map[group.TopicPartition]int64) {
		next(env, resetPlan{group: g, tps: javaTPOrder(tps), offsets: offsets})
	}
	fromLog := func(spec int64, what string) {
		c.admin.ListOffsets(env, tps, spec, c.timeout, func(env *sim.Env, got map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			for _, tp := range tps {
				if _, ok := got[tp]; !ok {
					c.illegalArgument("Error getting " + what + " offset of topic partition: " + tpString(tp))
					return
				}
			}
			done(env, got)
		})
	}
	switch {
	case c.p.Has("to-offset"):
		n, ok := c.longOpt("to-offset")
		if !ok {
			return
		}
		req := map[group.TopicPartition]int64{}
		for _, tp := range tps {
			req[tp] = n
		}
		c.checkOffsetsRange(env, tps, req, done)
	case c.p.Has("to-earliest"):
		fromLog(protocol.EarliestTimestamp, "starting")
	case c.p.Has("to-latest"):
		fromLog(protocol.LatestTimestamp, "ending")
	case c.p.Has("shift-by"):
		c.admin.ListConsumerGroupOffsets(env, g, c.timeout, func(env *sim.Env, committed map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			n, ok := c.longOpt("shift-by")
			if !ok {
				return
			}
			req := map[group.TopicPartition]int64{}
			for _, tp := range tps {
				cur, ok := committed[tp]
				if !ok || cur == -1 {
					c.illegalArgument("Cannot shift offset for partition " + tpString(tp) + " since there is no current committed offset")
					return
				}
				req[tp] = cur + n
			}
			c.checkOffsetsRange(env, tps, req, done)
		})
	case c.p.Has("to-datetime"):
		ts, msg := javaDateTime(c.p.Value("to-datetime"))
		if msg != "" {
			c.failed("java.text.ParseException: "+msg, "java.lang.RuntimeException: java.text.ParseException: "+msg, "Caused by: java.text.ParseException: "+msg)
			return
		}
		c.offsetsForTime(env, tps, ts, done)
	case c.p.Has("by-duration"):
		d, ok := javaDuration(c.p.Value("by-duration"))
		if !ok {
			msg := "Text cannot be parsed to a Duration"
			c.failed(msg, "java.time.format.DateTimeParseException: "+msg)
			return
		}
		c.offsetsForTime(env, tps, env.Now().UnixMilli()-d, done)
	case c.p.Has("from-file"):
		c.offsetsFromFile(env, g, done)
	case c.p.Has("to-current"):
		c.admin.ListConsumerGroupOffsets(env, g, c.timeout, func(env *sim.Env, committed map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			out := map[group.TopicPartition]int64{}
			var without []group.TopicPartition
			for _, tp := range tps {
				if off, ok := committed[tp]; ok && off != -1 {
					out[tp] = off
				} else {
					without = append(without, tp)
				}
			}
			if len(without) == 0 {
				done(env, out)
				return
			}
			c.admin.ListOffsets(env, without, protocol.LatestTimestamp, c.timeout, func(env *sim.Env, leo map[group.TopicPartition]int64, err *client.Error) {
				if err != nil {
					c.failedWrapped(err)
					return
				}
				for _, tp := range without {
					end, ok := leo[tp]
					if !ok {
						c.illegalArgument("Error getting ending offset of topic partition: " + tpString(tp))
						return
					}
					out[tp] = end
				}
				done(env, out)
			})
		})
	}
}

// offsetsForTime is getLogTimestampOffsets: the first offset at or after
// ts; a partition with none falls back to its log end offset, with a
// warning.
func (c *consumerGroupCommand) offsetsForTime(env *sim.Env, tps []group.TopicPartition, ts int64, done func(env *sim.Env, offsets map[group.TopicPartition]int64)) {
	c.admin.ListOffsets(env, tps, ts, c.timeout, func(env *sim.Env, got map[group.TopicPartition]int64, err *client.Error) {
		if err != nil {
			c.failedWrapped(err)
			return
		}
		out := map[group.TopicPartition]int64{}
		var empty []group.TopicPartition
		for _, tp := range javaTPOrder(tps) {
			if off, ok := got[tp]; ok && off != -1 {
				out[tp] = off
			} else {
				empty = append(empty, tp)
			}
		}
		for _, tp := range empty {
			c.t.println("")
			c.t.println(fmt.Sprintf("Warn: Partition %d from topic %s is empty. Falling back to latest known offset.", tp.Partition, tp.Topic))
		}
		if len(empty) == 0 {
			done(env, out)
			return
		}
		c.admin.ListOffsets(env, empty, protocol.LatestTimestamp, c.timeout, func(env *sim.Env, leo map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			for _, tp := range empty {
				end, ok := leo[tp]
				if !ok {
					c.illegalArgument("Error getting offset by timestamp of topic partition: " + tpString(tp))
					return
				}
				out[tp] = end
			}
			done(env, out)
		})
	})
}

// checkOffsetsRange clamps each requested offset to [log start, log end],
// logging a WARN for each it changes.
func (c *consumerGroupCommand) checkOffsetsRange(env *sim.Env, tps []group.TopicPartition, req map[group.TopicPartition]int64, done func(env *sim.Env, offsets map[group.TopicPartition]int64)) {
	c.admin.ListOffsets(env, tps, protocol.EarliestTimestamp, c.timeout, func(env *sim.Env, start map[group.TopicPartition]int64, err *client.Error) {
		if err != nil {
			c.failedWrapped(err)
			return
		}
		c.admin.ListOffsets(env, tps, protocol.LatestTimestamp, c.timeout, func(env *sim.Env, end map[group.TopicPartition]int64, err *client.Error) {
			if err != nil {
				c.failedWrapped(err)
				return
			}
			out := map[group.TopicPartition]int64{}
			logger := consumerGroupCommandLogger
			if c.t.rel().AtLeast(4, 2) {
				// Kafka 4.2 moved the check to OffsetsUtils, whose logger it
				// is.
				logger = "org.apache.kafka.tools.OffsetsUtils"
			}
			warn := func(msg string) {
				c.t.println(client.FormatLogLine(env.Now(), client.LevelWarn, msg, logger))
			}
			for _, tp := range javaTPOrder(tps) {
				off := req[tp]
				e, hasEnd := end[tp]
				s, hasStart := start[tp]
				switch {
				case !hasEnd:
					c.failed("Unexpected non-existing offset value for topic partition "+tpString(tp),
						"java.lang.IllegalStateException: Unexpected non-existing offset value for topic partition "+tpString(tp))
					return
				case off > e:
					warn(fmt.Sprintf("New offset (%d) is higher than latest offset for topic partition %s. Value will be set to %d", off, tpString(tp), e))
					off = e
				case hasStart && off < s:
					warn(fmt.Sprintf("New offset (%d) is lower than earliest offset for topic partition %s. Value will be set to %d", off, tpString(tp), s))
					off = s
				}
				out[tp] = off
			}
			done(env, out)
		})
	})
}

// offsetsFromFile reads a --from-file CSV plan: "topic,partition,offset"
// lines for a single --group, otherwise "group,topic,partition,offset".
func (c *consumerGroupCommand) offsetsFromFile(env *sim.Env, g string, done func(env *sim.Env, offsets map[group.TopicPartition]int64)) {
	path := c.p.Value("from-file")
	data, ok := c.t.s.readWorkspace(path)
	if !ok {
		c.failed("java.nio.file.NoSuchFileException: "+jdk.Path(path), "java.lang.RuntimeException: java.nio.file.NoSuchFileException: "+jdk.Path(path), "Caused by: java.nio.file.NoSuchFileException: "+jdk.Path(path))
		return
	}
	lines := jdk.Split(data, "\n")
	single := len(c.p.Values("group")) == 1 && len(lines) > 0 && len(strings.Split(lines[0], ",")) == 3
	plan := map[string]map[group.TopicPartition]int64{}
	for _, l := range lines {
		f := strings.Split(strings.TrimSpace(l), ",")
		if single && len(f) == 3 {
			f = append([]string{g}, f...)
		}
		if len(f) != 4 {
			c.failed("Too many entries for the given CSV line: "+l, "java.lang.RuntimeException: Too many entries for the given CSV line: "+l)
			return
		}
		p, err1 := strconv.ParseInt(f[2], 10, 32)
		o, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			c.failed("Cannot parse CSV line: "+l, "java.lang.RuntimeException: Cannot parse CSV line: "+l)
			return
		}
		if plan[f[0]] == nil {
			plan[f[0]] = map[group.TopicPartition]int64{}
		}
		plan[f[0]][group.TopicPartition{Topic: f[1], Partition: int32(p)}] = o
	}
	req, ok := plan[g]
	if !ok {
		c.t.println("")
		c.t.println("Error: No reset plan for group " + g + " found")
		done(env, map[group.TopicPartition]int64{})
		return
	}
	tps := sortedCommitted(req)
	c.checkOffsetsRange(env, tps, req, func(env *sim.Env, out map[group.TopicPartition]int64) { done(env, out) })
}

// printResetPlans prints the new offsets as a table (or, with --export,
// as CSV). Kafka 3.8's table puts its rows on the header's line (its
// format has no line separator) after an empty line, and prints nothing
// for no groups; Kafka 4.0 prints each line after a line break, then a
// final one (an empty line for no groups). From Kafka 4.2 (OffsetsUtils.printOffsetsToReset) GROUP and TOPIC fit the longest
// name (at least 15) and NEW-OFFSET is not padded.
func (c *consumerGroupCommand) printResetPlans(plans []resetPlan) {
	byGroup := map[string]resetPlan{}
	var ids []string
	for _, p := range plans {
		byGroup[p.group] = p
		ids = append(ids, p.group)
	}
	if c.p.Has("export") {
		single := len(c.p.Values("group")) == 1
		var sb strings.Builder
		for _, g := range jdk.HashSetOrder(ids) {
			p := byGroup[g]
			for _, tp := range javaTPOrder(keysOf(p.offsets, p.tps)) {
				if !single {
					sb.WriteString(g + ",")
				}
				fmt.Fprintf(&sb, "%s,%d,%d\n", tp.Topic, tp.Partition, p.offsets[tp])
			}
		}
		c.t.printLines(strings.Split(sb.String(), "\n"))
		return
	}
	line := func(g, t, p, o string) string {
		return padRight(g, 30) + " " + padRight(t, 30) + " " + padRight(p, 10) + " " + padRight(o, 15)
	}
	if c.t.rel().AtLeast(4, 2) {
		wg, wt := 15, 15
		for _, p := range plans {
			wg = max(wg, jdk.StringLength(p.group))
			for tp := range p.offsets {
				wt = max(wt, jdk.StringLength(tp.Topic))
			}
		}
		line = func(g, t, p, o string) string {
			return padRight(g, wg) + " " + padRight(t, wt) + " " + padRight(p, 10) + " " + o
		}
	}
	if !c.t.rel().AtLeast(4, 0) {
		if len(plans) == 0 {
			return
		}
		// One line (the tool prints no final line break; the terminal's
		// next line starts after it).
		var sb strings.Builder
		sb.WriteString(line("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"))
		for _, g := range jdk.HashSetOrder(ids) {
			p := byGroup[g]
			for _, tp := range javaTPOrder(keysOf(p.offsets, p.tps)) {
				sb.WriteString(line(g, tp.Topic, strconv.Itoa(int(tp.Partition)), strconv.FormatInt(p.offsets[tp], 10)))
			}
		}
		c.t.println("")
		c.t.println(sb.String())
		return
	}
	c.t.println("")
	if len(plans) == 0 {
		return
	}
	c.t.println(line("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"))
	for _, g := range jdk.HashSetOrder(ids) {
		p := byGroup[g]
		for _, tp := range javaTPOrder(keysOf(p.offsets, p.tps)) {
			c.t.println(line(g, tp.Topic, strconv.Itoa(int(tp.Partition)), strconv.FormatInt(p.offsets[tp], 10)))
		}
	}
}

// keysOf lists a plan's partitions: those of order first (in order), then
// any others sorted.
func keysOf(m map[group.TopicPartition]int64, order []group.TopicPartition) []group.TopicPartition {
	var out []group.TopicPartition
	for _, tp := range order {
		if _, ok := m[tp]; ok && !slices.Contains(out, tp) {
			out = append(out, tp)
		}
	}
	for _, tp := range sortedCommitted(m) {
		if !slices.Contains(out, tp) {
			out = append(out, tp)
		}
	}
	return out
}

func (c *consumerGroupCommand) deleteGroups(env *sim.Env) {
	c.groupIDs(env, func(env *sim.Env, ids []string) {
		var unique []string
		for _, id := range ids {
			if !slices.Contains(unique, id) {
				unique = append(unique, id)
			}
		}
		results := map[string]*client.Error{}
		left := len(unique)
		finish := func() {
			var ok, failed []string
			for _, g := range jdk.HashSetOrder(unique) {
				if results[g] == nil {
					ok = append(ok, g)
				} else {
					failed = append(failed, g)
				}
			}
			// Kafka 4.1 quotes each group, and reports the failure's
			// cause rather than the ExecutionException
			// (ConsumerGroupCommand.deleteGroups@4.1).
			kafka41 := c.t.rel().AtLeast(4, 1)
			quoted := func(ids []string) string {
				q := make([]string, len(ids))
				for i, id := range ids {
					q[i] = "'" + id + "'"
				}
				return strings.Join(q, ", ")
			}
			if len(failed) == 0 {
				if kafka41 {
					c.t.println("Deletion of requested consumer groups (" + quoted(jdk.HashSetOrder(ok)) + ") was successful.")
				} else {
					c.t.println("Deletion of requested consumer groups ('" + strings.Join(jdk.HashSetOrder(ok), ", ") + "') was successful.")
				}
			} else {
				c.t.println("")
				c.t.println("Error: Deletion of some consumer groups failed:")
				for _, g := range jdk.HashSetOrder(failed) {
					if kafka41 {
						c.t.println("* Group '" + g + "' could not be deleted due to: " + results[g].Error())
					} else {
						c.t.println("* Group '" + g + "' could not be deleted due to: java.util.concurrent.ExecutionException: " + results[g].Error())
					}
				}
				if len(ok) > 0 {
					c.t.println("")
					if kafka41 {
						c.t.println("These consumer groups were deleted successfully: " + quoted(jdk.HashSetOrder(ok)))
					} else {
						c.t.println("These consumer groups were deleted successfully: '" + strings.Join(jdk.HashSetOrder(ok), "'") + "', '")
					}
				}
			}
			c.t.finish(0)
		}
		if left == 0 {
			finish()
			return
		}
		for _, g := range unique {
			c.admin.DeleteConsumerGroup(env, g, c.timeout, func(env *sim.Env, err *client.Error) {
				results[g] = err
				left--
				if left == 0 {
					finish()
				}
			})
		}
	})
}

func (c *consumerGroupCommand) deleteOffsets(env *sim.Env) {
	g := c.p.Value("group")
	topics := c.p.Values("topic")
	var known []group.TopicPartition
	var bare []string
	for _, t := range topics {
		if strings.Contains(t, ":") {
			tps, msg := parseTopicWithPartitions(t)
			if msg != "" {
				c.illegalArgument(msg)
				return
			}
			known = append(known, tps...)
		} else if !slices.Contains(bare, t) {
			bare = append(bare, t)
		}
	}
	results := map[group.TopicPartition]string{} // "" = Successful
	partitions := slices.Clone(known)
	var describe func(env *sim.Env, i int)
	describe = func(env *sim.Env, i int) {
		if i < len(bare) {
			c.admin.TopicPartitionCounts(env, []string{bare[i]}, c.timeout, func(env *sim.Env, counts map[string]int32, err *client.Error) {
				if err != nil {
					results[group.TopicPartition{Topic: bare[i], Partition: -1}] = "java.util.concurrent.ExecutionException: " + err.Error()
				}
				for p := int32(0); p < counts[bare[i]]; p++ {
					tp := group.TopicPartition{Topic: bare[i], Partition: p}
					if !slices.Contains(partitions, tp) {
						partitions = append(partitions, tp)
					}
				}
				describe(env, i+1)
			})
			return
		}
		c.admin.DeleteConsumerGroupOffsets(env, g, partitions, c.timeout, func(env *sim.Env, top protocol.ErrorCode, parts map[group.TopicPartition]protocol.ErrorCode, err *client.Error) {
			topErr := ""
			if err != nil {
				top = protocol.REQUEST_TIMED_OUT
				topErr = "java.util.concurrent.ExecutionException: " + err.Error()
			} else if top != protocol.NONE {
				topErr = "java.util.concurrent.ExecutionException: " + client.Exception(top.Exception(), top.Message())
			}
			for _, tp := range partitions {
				code := parts[tp]
				switch {
				case topErr != "":
					results[tp] = topErr
				case code != protocol.NONE:
					results[tp] = "java.util.concurrent.ExecutionException: " + client.Exception(code.Exception(), code.Message())
					if top == protocol.NONE {
						top = code
					}
				default:
					results[tp] = ""
				}
			}
			if c.t.rel().AtLeast(4, 1) {
				c.printDeleteOffsets41(g, top, results)
				return
			}
			switch top {
			case protocol.NONE:
				c.t.println("Request succeed for deleting offsets with topic " + strings.Join(topics, ", ") + " group " + g)
			case protocol.INVALID_GROUP_ID:
				c.t.println("")
				c.t.println("Error: '" + g + "' is not valid.")
			case protocol.GROUP_ID_NOT_FOUND:
				c.t.println("")
				c.t.println("Error: '" + g + "' does not exist.")
			case protocol.GROUP_AUTHORIZATION_FAILED:
				c.t.println("")
				c.t.println("Error: Access to '" + g + "' is not authorized.")
			case protocol.NON_EMPTY_GROUP:
				c.t.println("")
				c.t.println("Error: Deleting offsets of a consumer group '" + g + "' is forbidden if the group is not empty.")
			case protocol.GROUP_SUBSCRIBED_TO_TOPIC, protocol.TOPIC_AUTHORIZATION_FAILED, protocol.UNKNOWN_TOPIC_OR_PARTITION:
				c.t.println("")
				c.t.println("Error: Encounter some partition level error, see the follow-up details:")
			default:
				c.t.println("")
				c.t.println("Error: Encounter some unknown error: " + top.String())
			}
			// Kafka 3.8 prints the rows on the header's line, with no
			// final line break (its format has no line separator).
			line := func(t, p, s string) string { return padRight(t, 30) + " " + padRight(p, 15) + " " + padRight(s, 15) }
			var sb strings.Builder
			sb.WriteString(line("TOPIC", "PARTITION", "STATUS"))
			var keys []group.TopicPartition
			for tp := range results {
				keys = append(keys, tp)
			}
			sorts.Func(keys, func(x, y group.TopicPartition) int {
				return strings.Compare(x.Topic+strconv.Itoa(int(x.Partition)), y.Topic+strconv.Itoa(int(y.Partition)))
			})
			for _, tp := range keys {
				p := "Not Provided"
				if tp.Partition >= 0 {
					p = strconv.Itoa(int(tp.Partition))
				}
				status := "Successful"
				if results[tp] != "" {
					status = "Error: :" + results[tp]
				}
				sb.WriteString(line(tp.Topic, p, status))
			}
			c.t.println("")
			c.t.println(sb.String())
			c.t.finish(0)
		})
	}
	describe(env, 0)
}

// printDeleteOffsets41 is Kafka 4.1's deleteOffsets report: new wording,
// the group errors' default messages, a TOPIC column that fits the longest
// name, "-" for a topic's failure, no "Error: :" (ConsumerGroupCommand
// .deleteOffsets@4.1).
func (c *consumerGroupCommand) printDeleteOffsets41(g string, top protocol.ErrorCode, results map[group.TopicPartition]string) {
	switch top {
	case protocol.NONE:
		c.t.println("Request succeeded for deleting offsets from group " + g + ".")
	case protocol.INVALID_GROUP_ID, protocol.GROUP_ID_NOT_FOUND, protocol.GROUP_AUTHORIZATION_FAILED, protocol.NON_EMPTY_GROUP:
		c.t.println("")
		c.t.println("Error: " + top.Message())
	case protocol.GROUP_SUBSCRIBED_TO_TOPIC, protocol.TOPIC_AUTHORIZATION_FAILED, protocol.UNKNOWN_TOPIC_OR_PARTITION:
		c.t.println("")
		c.t.println("Error: Encountered some partition-level error, see the follow-up details.")
	default:
		c.t.println("")
		c.t.println("Error: Encountered some unknown error: " + top.String())
	}
	wt := 15
	var keys []group.TopicPartition
	for tp := range results {
		keys = append(keys, tp)
		wt = max(wt, jdk.StringLength(tp.Topic))
	}
	sorts.Func(keys, func(x, y group.TopicPartition) int {
		return strings.Compare(x.Topic+strconv.Itoa(int(x.Partition)), y.Topic+strconv.Itoa(int(y.Partition)))
	})
	line := func(t, p, s string) string { return padRight(t, wt) + " " + padRight(p, 10) + " " + padRight(s, 15) }
	c.t.println("")
	c.t.println(line("TOPIC", "PARTITION", "STATUS"))
	for _, tp := range keys {
		p := missingColumn
		if tp.Partition >= 0 {
			p = strconv.Itoa(int(tp.Partition))
		}
		status := "Successful"
		if results[tp] != "" {
			status = "Error: " + results[tp]
		}
		c.t.println(line(tp.Topic, p, status))
	}
	c.t.finish(0)
}

// javaDateTime is Utils.getDateTime: yyyy-MM-dd'T'HH:mm:ss.SSS with an
// optional zone (Z, ±hh, ±hh:mm; none means UTC), in epoch ms.
func javaDateTime(s string) (int64, string) {
	date, clock, ok := strings.Cut(s, "T")
	if !ok || clock == "" {
		return 0, "Error parsing timestamp. It does not contain a 'T' according to ISO8601 format"
	}
	bad := `Unparseable date: "` + s + `"`
	if !strings.ContainsAny(clock, "+-Z") {
		s += "Z"
		bad = `Unparseable date: "` + s + `"`
		clock += "Z"
	}
	ymd, ok := scanfInts(date, "%4d-%2d-%2d")
	if !ok || len(date) != 10 {
		return 0, bad
	}
	if len(clock) < 13 || clock[2] != ':' || clock[5] != ':' || clock[8] != '.' {
		return 0, bad
	}
	hms, ok := scanfInts(clock[:12], "%2d:%2d:%2d.%3d")
	if !ok {
		return 0, bad
	}
	y, mo, d, h, mi, sec, ms := ymd[0], ymd[1], ymd[2], hms[0], hms[1], hms[2], hms[3]
	zone := clock[12:]
	offsetMin := 0
	switch {
	case zone == "Z":
	case len(zone) == 3 || len(zone) == 6 || len(zone) == 5:
		sign := 1
		if zone[0] == '-' {
			sign = -1
		} else if zone[0] != '+' {
			return 0, bad
		}
		zh, err := strconv.Atoi(zone[1:3])
		if err != nil {
			return 0, bad
		}
		zm := 0
		rest := zone[3:]
		rest = strings.TrimPrefix(rest, ":")
		if rest != "" {
			if zm, err = strconv.Atoi(rest); err != nil {
				return 0, bad
			}
		}
		offsetMin = sign * (zh*60 + zm)
	default:
		return 0, bad
	}
	if mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || sec > 59 {
		return 0, bad
	}
	days := daysFromCivil(y, mo, d)
	return ((days*24+int64(h))*60+int64(mi)-int64(offsetMin))*60000 + int64(sec)*1000 + int64(ms), ""
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil counts days from 1970-01-01 (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// javaDuration is java.time.Duration.parse for PnDTnHnMnS (days, hours,
// minutes, seconds with an optional fraction), in ms.
func javaDuration(s string) (int64, bool) {
	u := strings.ToUpper(s)
	neg := false
	if strings.HasPrefix(u, "-") || strings.HasPrefix(u, "+") {
		neg = u[0] == '-'
		u = u[1:]
	}
	if !strings.HasPrefix(u, "P") || len(u) < 3 {
		return 0, false
	}
	u = u[1:]
	var total float64
	inTime, any := false, false
	num := ""
	for _, r := range u {
		switch {
		case r == 'T':
			if inTime || num != "" {
				return 0, false
			}
			inTime = true
		case (r >= '0' && r <= '9') || r == '.' || r == '-' || r == '+':
			num += string(r)
		default:
			if num == "" {
				return 0, false
			}
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				return 0, false
			}
			switch {
			case r == 'D' && !inTime:
				total += v * 86400
			case r == 'H' && inTime:
				total += v * 3600
			case r == 'M' && inTime:
				total += v * 60
			case r == 'S' && inTime:
				total += v
			default:
				return 0, false
			}
			num, any = "", true
		}
	}
	if num != "" || !any {
		return 0, false
	}
	if neg {
		total = -total
	}
	return int64(total * 1000), true
}
