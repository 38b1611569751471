package console

import (
	"fmt"
	"slices"
	"strings"

	"kafkascope/core/hashing"
	"kafkascope/core/jdk"
	"kafkascope/core/sorts"
)

// parseTopicsJSON reads --topics-to-move-json-file:
// {"topics":[{"topic":"foo"}],"version":1}.
func parseTopicsJSON(text string) ([]string, error) {
	js, err := parseJSON(text)
	if err != nil || text == "" {
		return nil, &toolError{adminOperation, "The input string is not a valid JSON"}
	}
	obj, err := jsonObject(js)
	if err != nil {
		return nil, err
	}
	if err := checkJSONVersion(obj); err != nil {
		return nil, err
	}
	list, ok := obj.Field("topics")
	if !ok {
		return nil, nil
	}
	items, err := jsonArray(list)
	if err != nil {
		return nil, err
	}
	var topics []string
	for _, it := range items {
		o, err := jsonObject(it)
		if err != nil {
			return nil, err
		}
		f, err := jsonField(o, "topic")
		if err != nil {
			return nil, err
		}
		name, err := jsonToString(f)
		if err != nil {
			return nil, err
		}
		topics = append(topics, name)
	}
	return topics, nil
}

func checkJSONVersion(obj *jsonNode) error {
	v, ok := obj.Field("version")
	if !ok {
		return nil
	}
	n, err := jsonToInt(v)
	if err != nil {
		return err
	}
	if n != 1 {
		return &toolError{adminOperation, fmt.Sprintf("Not supported version field value %d", n)}
	}
	return nil
}

// parseReassignmentJSON reads a reassignment plan:
// {"version":1,"partitions":[{"topic":"foo","partition":1,"replicas":[1,2],"log_dirs":["any","any"]}]}.
// Syntax errors are reported in the simulator's words (Kafka prints
// Jackson's).
func parseReassignmentJSON(text string, scala bool) ([]reassignTarget, error) {
	if text == "" {
		return nil, &toolError{adminOperation, "The input string shouldn't be empty"}
	}
	js, err := parseJSON(text)
	if err != nil {
		return nil, &toolError{adminOperation, err.Error()}
	}
	obj, err := jsonObject(js)
	if err != nil {
		return nil, err
	}
	if err := checkJSONVersion(obj); err != nil {
		return nil, err
	}
	list, ok := obj.Field("partitions")
	if !ok {
		return nil, nil
	}
	items, err := jsonArray(list)
	if err != nil {
		return nil, err
	}
	var plan []reassignTarget
	for _, it := range items {
		o, err := jsonObject(it)
		if err != nil {
			return nil, err
		}
		var r reassignTarget
		f, err := jsonField(o, "topic")
		if err == nil {
			r.topic, err = jsonToString(f)
		}
		if err == nil {
			f, err = jsonField(o, "partition")
		}
		if err == nil {
			r.partition, err = jsonToInt(f)
		}
		if err == nil {
			f, err = jsonField(o, "replicas")
		}
		if err == nil {
			r.replicas, err = jsonToIntList(f)
		}
		if err != nil {
			return nil, err
		}
		if d, ok := o.Field("log_dirs"); ok {
			if r.logDirs, err = jsonToStringList(d); err != nil {
				return nil, err
			}
		} else {
			for range r.replicas {
				r.logDirs = append(r.logDirs, "any")
			}
		}
		if len(r.replicas) != len(r.logDirs) {
			replicas, dirs := javaList(r.replicas), "["+strings.Join(r.logDirs, ", ")+"]"
			if scala {
				replicas, dirs = scalaList(r.replicas), scalaList(r.logDirs)
			}
			return nil, &toolError{adminCommandFailed, fmt.Sprintf("Size of replicas list %s is different from size of log dirs list %s for partition %s",
				replicas, dirs, r.tp())}
		}
		plan = append(plan, r)
	}
	return plan, nil
}

// checkExecutePlan applies --execute's extra checks
// (parseExecuteAssignmentArgs); scala: the 2.8 tool's, whose duplicates
// come from CoreUtils.duplicates (hash trie order, joined by ",").
func checkExecutePlan(plan []reassignTarget, scala bool) error {
	if len(plan) == 0 {
		return &toolError{adminCommandFailed, "Partition reassignment list cannot be empty"}
	}
	for _, r := range plan {
		if len(r.replicas) == 0 {
			return &toolError{adminCommandFailed, "Partition replica list cannot be empty"}
		}
	}
	var seen, dups []reassignTarget
	for _, r := range plan {
		for _, s := range seen {
			if s.topic == r.topic && s.partition == r.partition && !slices.ContainsFunc(dups, func(d reassignTarget) bool { return d.tp() == r.tp() }) {
				dups = append(dups, r)
			}
		}
		seen = append(seen, r)
	}
	if len(dups) > 0 {
		names := partitionsInHashOrder(dups)
		if scala {
			names = scalaDuplicatePartitions(dups)
		}
		return &toolError{adminCommandFailed, "Partition reassignment contains duplicate topic partitions: " + strings.Join(names, ",")}
	}
	var msgs []string
	for _, r := range plan {
		if d := duplicateInts(r.replicas); len(d) > 0 {
			slices.Sort(d)
			if scala {
				d = scalaDuplicateInts(r.replicas)
			}
			msgs = append(msgs, fmt.Sprintf("%s contains multiple entries for %s", r.tp(), joinInts(d, ",")))
		}
	}
	if len(msgs) > 0 {
		return &toolError{adminCommandFailed, "Partition replica lists may not contain duplicate entries: " + strings.Join(msgs, ". ")}
	}
	return nil
}

// formatReassignmentJSON writes a plan as the tool prints it: compact,
// partitions sorted by topic then number, each replica's log dir from
// logDirs if the target has them (4.2's current assignments), else "any".
func formatReassignmentJSON(plan []reassignTarget) string {
	sorted := slices.Clone(plan)
	sorts.Func(sorted, func(a, b reassignTarget) int {
		if c := strings.Compare(a.topic, b.topic); c != 0 {
			return c
		}
		return int(a.partition - b.partition)
	})
	var b strings.Builder
	b.WriteString(`{"version":1,"partitions":[`)
	for i, r := range sorted {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"topic":`)
		writeJSONString(&b, r.topic)
		fmt.Fprintf(&b, `,"partition":%d,"replicas":[%s],"log_dirs":[`, r.partition, joinInts(r.replicas, ","))
		for j := range r.replicas {
			if j > 0 {
				b.WriteByte(',')
			}
			if len(r.logDirs) == len(r.replicas) {
				writeJSONString(&b, r.logDirs[j])
			} else {
				b.WriteString(`"any"`)
			}
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return b.String()
}

// javaList prints a List<Integer> as Java's toString does.
func javaList(xs []int32) string { return "[" + joinInts(xs, ", ") + "]" }

// partitionsInHashOrder names the targets' partitions ("t-0") in the order
// a HashSet<TopicPartition> of them iterates.
func partitionsInHashOrder(ts []reassignTarget) []string {
	hashes := make([]int32, len(ts))
	for i, r := range ts {
		hashes[i] = hashing.TopicPartitionHashCode(r.topic, r.partition)
	}
	names := make([]string, 0, len(ts))
	for _, i := range jdk.HashOrder(hashes) {
		names = append(names, ts[i].tp())
	}
	return names
}

// javaIntSetString prints ints as a Java HashSet<Integer> joined by sep.
func javaIntSetString(xs []int32, sep string) string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return joinInts(s, sep)
}
