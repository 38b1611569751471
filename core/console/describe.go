package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// describe prints topics in TopicCommand's format: a header line per topic
// (non-default configs joined with commas) and a tab-led line per partition.
// Topics are printed in name order (Kafka's order comes from a hash map).
func (tc *topicCommand) describe(env *sim.Env, md *protocol.MetadataResponse) {
	topics, ok := tc.matchTopics(md, true)
	if !ok {
		return
	}
	if len(topics) == 0 {
		tc.t.finish(0)
		return
	}
	live := map[int32]bool{}
	for _, b := range md.Brokers {
		live[b.NodeID] = true
	}
	// TopicCommand lists the reassignments in progress first, to show
	// their adding and removing replicas.
	tc.admin.Call(env, "listPartitionReassignments", func() protocol.Request {
		r := &protocol.ListPartitionReassignmentsRequest{TimeoutMs: 30000, Topics: []protocol.ListPartitionReassignmentsTopic{}}
		for _, t := range topics {
			lt := protocol.ListPartitionReassignmentsTopic{Name: t.Name}
			for _, p := range t.Partitions {
				lt.PartitionIndexes = append(lt.PartitionIndexes, p.Index)
			}
			r.Topics = append(r.Topics, lt)
		}
		return r
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			// listAllReassignments rethrows it as new RuntimeException(e).
			exec := "java.util.concurrent.ExecutionException: " + err.Error()
			tc.fail("java.lang.RuntimeException", exec, append([]string{"Caused by: " + exec}, err.CausedBy()...)...)
			return
		}
		reassigning := map[string]protocol.OngoingPartitionReassignment{}
		for _, t := range resp.(*protocol.ListPartitionReassignmentsResponse).Topics {
			for _, p := range t.Partitions {
				reassigning[fmt.Sprintf("%s-%d", t.Name, p.PartitionIndex)] = p
			}
		}
		tc.describeConfigs(env, topics, live, reassigning)
	})
}

func (tc *topicCommand) describeConfigs(env *sim.Env, topics []protocol.MetadataTopic, live map[int32]bool, reassigning map[string]protocol.OngoingPartitionReassignment) {
	tc.admin.Call(env, "describeConfigs", func() protocol.Request {
		r := &protocol.DescribeConfigsRequest{}
		for _, t := range topics {
			r.Resources = append(r.Resources, protocol.DescribeConfigsResource{ResourceType: metadata.ResourceTopic, ResourceName: t.Name})
		}
		return r
	}, func(env *sim.Env, resp protocol.Response, err *client.Error) {
		if err != nil {
			tc.failClient(err)
			return
		}
		configs := map[string][]protocol.DescribedConfig{}
		for _, r := range resp.(*protocol.DescribeConfigsResponse).Results {
			configs[r.ResourceName] = r.Configs
		}
		for _, t := range topics {
			tc.printTopic(t, configs[t.Name], live, reassigning)
		}
		tc.t.finish(0)
	})
}

// replicationFactor is TopicCommand's: while a reassignment is in progress
// it does not count the replicas being added.
func replicationFactor(mp protocol.MetadataPartition, ra *protocol.OngoingPartitionReassignment) int {
	if ra != nil {
		for _, r := range mp.Replicas {
			if slices.Contains(ra.AddingReplicas, r) || slices.Contains(ra.RemovingReplicas, r) {
				return len(ra.Replicas) - len(ra.AddingReplicas)
			}
		}
	}
	return len(mp.Replicas)
}

func (tc *topicCommand) printTopic(t protocol.MetadataTopic, cfgs []protocol.DescribedConfig, live map[int32]bool, reassigning map[string]protocol.OngoingPartitionReassignment) {
	p := tc.p
	reports := p.Has("under-replicated-partitions") || p.Has("unavailable-partitions") || p.Has("under-min-isr-partitions") || p.Has("at-min-isr-partitions")
	var nonDefault []string
	minISR := 1
	for _, c := range cfgs {
		if c.Source != protocol.SourceDefaultConfig {
			nonDefault = append(nonDefault, c.Name+"="+c.Value)
		}
		if c.Name == "min.insync.replicas" {
			minISR, _ = strconv.Atoi(c.Value)
		}
	}
	parts := slices.Clone(t.Partitions)
	sorts.Func(parts, func(a, b protocol.MetadataPartition) int { return int(a.Index - b.Index) })
	reassignment := func(mp protocol.MetadataPartition) *protocol.OngoingPartitionReassignment {
		if ra, ok := reassigning[fmt.Sprintf("%s-%d", t.Name, mp.Index)]; ok {
			return &ra
		}
		return nil
	}
	if !reports && (!p.Has("topics-with-overrides") || len(nonDefault) > 0) && len(parts) > 0 {
		tc.t.println(fmt.Sprintf("Topic: %s\tTopicId: %s\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s",
			t.Name, t.TopicID, len(parts), replicationFactor(parts[0], reassignment(parts[0])), strings.Join(nonDefault, ",")))
	}
	if p.Has("topics-with-overrides") {
		return
	}
	for _, mp := range parts {
		hasLeader := mp.LeaderID >= 0 && live[mp.LeaderID]
		show := !reports ||
			p.Has("under-replicated-partitions") && replicationFactor(mp, reassignment(mp))-len(mp.ISR) > 0 ||
			p.Has("unavailable-partitions") && !hasLeader ||
			p.Has("under-min-isr-partitions") && (!hasLeader || len(mp.ISR) < minISR) ||
			p.Has("at-min-isr-partitions") && len(mp.ISR) == minISR
		if !show {
			continue
		}
		leader := "none"
		if hasLeader {
			leader = strconv.Itoa(int(mp.LeaderID))
		}
		moving := ""
		if ra := reassignment(mp); ra != nil {
			moving = fmt.Sprintf("\tAdding Replicas: %s\tRemoving Replicas: %s", sim.FormatIDs(ra.AddingReplicas), sim.FormatIDs(ra.RemovingReplicas))
		}
		line := fmt.Sprintf("\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s%s",
			t.Name, mp.Index, leader, sim.FormatIDs(mp.Replicas), sim.FormatIDs(mp.ISR), moving)
		// 2.8's TopicCommand (tag 2.8.0) ends the line at the ISR (and a
		// reassignment); the ELR columns came with KIP-966, printed by 3.8's.
		if tc.t.rel().AtLeast(3, 8) {
			line += fmt.Sprintf("\tElr: %s\tLastKnownElr: %s", sim.FormatIDs(mp.ELR), sim.FormatIDs(mp.LastKnownElr))
		}
		tc.t.println(line)
	}
}
