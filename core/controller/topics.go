package controller

import (
	"fmt"
	"kafkascope/core/placement"
	"slices"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Limits on what a topic request may create.
const (
	MaxPartitionsPerTopic = 1000
	MaxPartitionsTotal    = 10000
	MaxTopics             = 1000
)

func (c *Controller) partitionCount() int {
	n := 0
	for _, t := range c.image.Topics {
		n += len(t.Partitions)
	}
	return n
}

// handleCreateTopics validates and creates topics, in Kafka's check order:
// name, existence, configs, then partitions, replication and placement.
func (c *Controller) handleCreateTopics(env *sim.Env, from sim.Addr, req *protocol.CreateTopicsRequest) {
	resp := &protocol.CreateTopicsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, t := range req.Topics {
		res, recs := c.createTopic(t)
		if res.ErrorCode == protocol.NONE && !req.ValidateOnly {
			c.appendRecords(env, recs...)
			env.Note(event.TopicCreated{Topic: t.Name, Partitions: res.NumPartitions, ReplicationFactor: res.ReplicationFactor})
		}
		resp.Topics = append(resp.Topics, res)
	}
	c.reply(env, from, resp)
}

func (c *Controller) createTopic(t protocol.CreatableTopic) (protocol.CreatableTopicResult, []metadata.Record) {
	res := protocol.CreatableTopicResult{Name: t.Name, NumPartitions: -1, ReplicationFactor: -1}
	fail := func(code protocol.ErrorCode, msg string) (protocol.CreatableTopicResult, []metadata.Record) {
		res.ErrorCode, res.ErrorMessage = code, msg
		return res, nil
	}
	if p := metadata.TopicNameProblem(t.Name); p != "" {
		return fail(protocol.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: "+p)
	}
	if _, ok := c.image.Topics[t.Name]; ok {
		return fail(protocol.TOPIC_ALREADY_EXISTS, fmt.Sprintf("Topic '%s' already exists.", t.Name))
	}
	if metadata.HasCollisionChars(t.Name) {
		for _, other := range c.image.TopicNames() {
			if metadata.UnifyCollisionChars(other) == metadata.UnifyCollisionChars(t.Name) {
				return fail(protocol.INVALID_TOPIC_EXCEPTION, fmt.Sprintf("Topic '%s' collides with existing topic: %s", t.Name, other))
			}
		}
	}
	var nulls []string
	for _, cfg := range t.Configs {
		if cfg.Value == nil {
			nulls = append(nulls, cfg.Name)
		}
	}
	if len(nulls) > 0 {
		return fail(protocol.INVALID_CONFIG, fmt.Sprintf("Null value not supported for topic configs: %s", joinComma(nulls)))
	}
	for _, cfg := range t.Configs {
		if err := config.ValidateTopic(cfg.Name, *cfg.Value, c.cfg.Release.Version); err != nil {
			return fail(protocol.INVALID_CONFIG, err.Error())
		}
	}
	if len(c.image.Topics) >= MaxTopics {
		return fail(protocol.POLICY_VIOLATION, fmt.Sprintf("The simulator holds at most %d topics.", MaxTopics))
	}
	var assignments [][]int32
	if t.Assignments != nil {
		if t.ReplicationFactor != -1 {
			return fail(protocol.INVALID_REQUEST, "A manual partition assignment was specified, but replication factor was not set to -1.")
		}
		if t.NumPartitions != -1 {
			return fail(protocol.INVALID_REQUEST, "A manual partition assignment was specified, but numPartitions was not set to -1.")
		}
		if len(t.Assignments) > MaxPartitionsPerTopic {
			return fail(protocol.INVALID_PARTITIONS, fmt.Sprintf("The simulator allows at most %d partitions per topic.", MaxPartitionsPerTopic))
		}
		for i, replicas := range t.Assignments {
			if msg := c.checkAssignment(replicas, t.Assignments[0]); msg != "" {
				return fail(protocol.INVALID_REPLICA_ASSIGNMENT, msg)
			}
			if !slices.ContainsFunc(replicas, c.acceptable) {
				return fail(protocol.INVALID_REPLICA_ASSIGNMENT, fmt.Sprintf("All brokers specified in the manual partition assignment for partition %d are fenced or in controlled shutdown.", i))
			}
		}
		assignments = t.Assignments
	} else {
		rf := int(t.ReplicationFactor)
		if rf == -1 {
			rf = int(c.conf().BrokerInt("default.replication.factor"))
		} else if rf <= 0 {
			return fail(protocol.INVALID_REPLICATION_FACTOR, "Replication factor must be larger than 0, or -1 to use the default value.")
		}
		n := int(t.NumPartitions)
		if n == -1 {
			n = int(c.conf().BrokerInt("num.partitions"))
		} else if n <= 0 {
			return fail(protocol.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.")
		}
		if n > MaxPartitionsPerTopic {
			return fail(protocol.INVALID_PARTITIONS, fmt.Sprintf("The simulator allows at most %d partitions per topic.", MaxPartitionsPerTopic))
		}
		var err error
		assignments, err = c.placer.PlaceBrokers(c.usableBrokers(), n, rf)
		if err != nil {
			return fail(protocol.INVALID_REPLICATION_FACTOR, fmt.Sprintf("Unable to replicate the partition %d time(s): %s", rf, err.Error()))
		}
	}
	if c.partitionCount()+len(assignments) > MaxPartitionsTotal {
		return fail(protocol.POLICY_VIOLATION, fmt.Sprintf("The simulator holds at most %d partitions in total.", MaxPartitionsTotal))
	}
	id := metadata.RandomUuid(c.ids.Uint64)
	recs := []metadata.Record{&metadata.TopicRecord{Name: t.Name, TopicID: id}}
	for _, cfg := range t.Configs {
		v := *cfg.Value
		recs = append(recs, &metadata.ConfigRecord{ResourceType: metadata.ResourceTopic, ResourceName: t.Name, Name: cfg.Name, Value: &v})
	}
	// The topic's own min.insync.replicas clears its (still empty) ELRs,
	// between its configs and its partitions, as createTopic's
	// incrementalAlterConfig writes it.
	recs = append(recs, c.clearElrRecords(recs)...)
	for i, replicas := range assignments {
		recs = append(recs, c.newPartitionRecord(id, int32(i), replicas))
	}
	res.TopicID = id
	res.NumPartitions = int32(len(assignments))
	res.ReplicationFactor = int16(len(assignments[0]))
	return res, recs
}

// newPartitionRecord starts a partition: the ISR is the acceptable replicas
// in assignment order and the first of them leads, at epoch 0.
func (c *Controller) newPartitionRecord(topicID metadata.Uuid, index int32, replicas []int32) *metadata.PartitionRecord {
	var isr []int32
	for _, r := range replicas {
		if c.acceptable(r) {
			isr = append(isr, r)
		}
	}
	leader := metadata.NoLeader
	if len(isr) > 0 {
		leader = isr[0]
	}
	return &metadata.PartitionRecord{
		PartitionID: index, TopicID: topicID, Replicas: slices.Clone(replicas), ISR: isr, Leader: leader,
		LeaderRecoveryState: metadata.LeaderRecovered,
	}
}

// checkAssignment validates one manual replica list against the first one.
func (c *Controller) checkAssignment(replicas, first []int32) string {
	if len(replicas) == 0 {
		return "The manual partition assignment includes an empty replica list."
	}
	sorted := slices.Clone(replicas)
	slices.Sort(sorted)
	for i, id := range sorted {
		if _, ok := c.image.Brokers[id]; !ok {
			return fmt.Sprintf("The manual partition assignment includes broker %d, but no such broker is registered.", id)
		}
		if i > 0 && sorted[i-1] == id {
			return fmt.Sprintf("The manual partition assignment includes the broker %d more than once.", id)
		}
	}
	if len(replicas) != len(first) {
		return fmt.Sprintf("The manual partition assignment includes a partition with %d replica(s), but this is not consistent with previous partitions, which have %d replica(s).", len(replicas), len(first))
	}
	return ""
}

// usableBrokers are the registered brokers as the placer sees them
// (ClusterDescriber.usableBrokers): each with its rack, and fenced unless
// it may take new replicas now.
func (c *Controller) usableBrokers() []placement.Broker {
	ids := c.image.BrokerIDs()
	out := make([]placement.Broker, 0, len(ids))
	for _, id := range ids {
		out = append(out, placement.Broker{ID: id, Rack: c.image.Brokers[id].Rack, Fenced: !c.acceptable(id)})
	}
	return out
}

func (c *Controller) handleDeleteTopics(env *sim.Env, from sim.Addr, req *protocol.DeleteTopicsRequest) {
	resp := &protocol.DeleteTopicsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, name := range req.TopicNames {
		res := protocol.DeletableTopicResult{Name: name}
		t, ok := c.image.Topics[name]
		if !ok {
			res.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
		} else {
			res.TopicID = t.ID
			c.appendRecords(env, &metadata.RemoveTopicRecord{TopicID: t.ID})
			env.Note(event.TopicDeleted{Topic: name})
		}
		resp.Responses = append(resp.Responses, res)
	}
	c.reply(env, from, resp)
}

func (c *Controller) handleCreatePartitions(env *sim.Env, from sim.Addr, req *protocol.CreatePartitionsRequest) {
	resp := &protocol.CreatePartitionsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	for _, t := range req.Topics {
		res := protocol.CreatePartitionsTopicResult{Name: t.Name}
		recs, code, msg := c.createPartitions(t)
		res.ErrorCode, res.ErrorMessage = code, msg
		if code == protocol.NONE && !req.ValidateOnly {
			c.appendRecords(env, recs...)
			env.Note(event.PartitionsIncreased{Topic: t.Name, Count: t.Count})
		}
		resp.Results = append(resp.Results, res)
	}
	c.reply(env, from, resp)
}

func (c *Controller) createPartitions(t protocol.CreatePartitionsTopic) ([]metadata.Record, protocol.ErrorCode, string) {
	topic, ok := c.image.Topics[t.Name]
	if !ok {
		return nil, protocol.UNKNOWN_TOPIC_OR_PARTITION, ""
	}
	cur := int32(len(topic.Partitions))
	switch {
	case t.Count < cur:
		return nil, protocol.INVALID_PARTITIONS, fmt.Sprintf("The topic %s currently has %d partition(s); %d would not be an increase.", t.Name, cur, t.Count)
	case t.Count == cur:
		return nil, protocol.INVALID_PARTITIONS, fmt.Sprintf("Topic already has %d partition(s).", cur)
	case t.Count > MaxPartitionsPerTopic:
		return nil, protocol.INVALID_PARTITIONS, fmt.Sprintf("The simulator allows at most %d partitions per topic.", MaxPartitionsPerTopic)
	}
	add := int(t.Count - cur)
	if c.partitionCount()+add > MaxPartitionsTotal {
		return nil, protocol.POLICY_VIOLATION, fmt.Sprintf("The simulator holds at most %d partitions in total.", MaxPartitionsTotal)
	}
	rf := len(topic.Partitions[0].Replicas)
	var assignments [][]int32
	if t.Assignments != nil {
		if len(t.Assignments) != add {
			return nil, protocol.INVALID_REPLICA_ASSIGNMENT, fmt.Sprintf("Attempted to add %d additional partition(s), but only %d assignment(s) were specified.", add, len(t.Assignments))
		}
		for _, r := range t.Assignments {
			if msg := c.checkAssignment(r, topic.Partitions[0].Replicas); msg != "" {
				return nil, protocol.INVALID_REPLICA_ASSIGNMENT, msg
			}
		}
		assignments = t.Assignments
	} else {
		var err error
		assignments, err = c.placer.PlaceBrokers(c.usableBrokers(), add, rf)
		if err != nil {
			return nil, protocol.INVALID_REPLICATION_FACTOR, fmt.Sprintf("Unable to replicate the partition %d time(s): %s", rf, err.Error())
		}
	}
	var recs []metadata.Record
	for i, r := range assignments {
		recs = append(recs, c.newPartitionRecord(topic.ID, cur+int32(i), r))
	}
	return recs, protocol.NONE, ""
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
