package client

import (
	"slices"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/jdk"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/sorts"
)

// The admin client's consumer-group calls, as KafkaAdminClient 3.8 makes
// them: a group's calls go through its coordinator, found with
// FindCoordinator (AdminApiDriver's CoordinatorStrategy) on the least
// loaded broker; an answer of NOT_COORDINATOR or COORDINATOR_NOT_AVAILABLE
// sends the call back to the lookup, COORDINATOR_LOAD_IN_PROGRESS retries
// it after the backoff, and both stages share the call's one deadline
// (the options' timeoutMs, --timeout in kafka-consumer-groups.sh). Call
// names are Kafka's ("describeConsumerGroups(api=FIND_COORDINATOR)").

// Coordinator is the node FindCoordinator named.
type Coordinator struct {
	ID   int32
	Host string
	Port int32
}

// GroupMember is MemberDescription: a member and its assignment. From a
// classic group's DescribeGroups answer only the first fields are known
// (the assignment decoded from the consumer protocol, empty for a group
// that is not Stable); a consumer-protocol group's ConsumerGroupDescribe
// answer fills them all.
type GroupMember struct {
	MemberID   string
	InstanceID string // "" = none
	ClientID   string
	Host       string
	// Assignment is the current assignment (a consumer group's includes
	// the partitions pending revocation), in the order the answer lists
	// them.
	Assignment []group.TopicPartition

	// HasEpoch says MemberEpoch and TargetAssignment are known
	// (Optional.of in MemberDescription: consumer groups only).
	HasEpoch         bool
	MemberEpoch      int32
	TargetAssignment []group.TopicPartition
	// Upgraded is MemberDescription.upgraded(): nil when unknown
	// (classic groups, or MemberType -1), else whether the member uses the
	// consumer protocol (MemberType 1) rather than classic (0).
	Upgraded *bool
}

// GroupDescription is ConsumerGroupDescription.
type GroupDescription struct {
	GroupID     string
	Simple      bool   // isSimpleConsumerGroup: protocol type ""
	Type        string // GroupType: "Classic" or "Consumer"
	State       string
	Assignor    string // partitionAssignor: the protocol name ("" unless Stable), or a consumer group's server assignor
	Members     []GroupMember
	Coordinator Coordinator
	// HasEpochs says GroupEpoch and AssignmentEpoch are known (consumer
	// groups; Optional.empty for classic groups).
	HasEpochs       bool
	GroupEpoch      int32
	AssignmentEpoch int32 // targetAssignmentEpoch
}

// GroupListing is ConsumerGroupListing.
type GroupListing struct {
	GroupID      string
	Simple       bool
	State        string // "" if the broker did not say
	Type         string
	ProtocolType string // "consumer", or "" for a group only offsets were committed to
}

const classIllegalArgument = "java.lang.IllegalArgumentException"

// groupCall is one key's trip through AdminApiDriver: lookup, then the
// request to the coordinator.
type groupCall struct {
	a        *Admin
	api      string // handler.apiName()
	apiKey   string // the request's ApiKeys name
	group    string
	keyType  int8 // FindCoordinator's key type: a group (0) or a transactional id
	deadline sim.Time
	build    func() protocol.Request
	// handle reads the coordinator's answer: NONE completes the call (and
	// handle has delivered the result); the coordinator errors retry as
	// above; any other code fails the call with err (or the code's
	// default exception when err is nil).
	handle func(env *sim.Env, resp protocol.Response, coord Coordinator) (code protocol.ErrorCode, err *Error)
	fail   func(env *sim.Env, err *Error)
	// resend: set by handle after it replaced apiKey, build and handle,
	// to send the new request to the same coordinator.
	resend bool
}

func (a *Admin) groupCall(env *sim.Env, api, apiKey, groupID string, timeout time.Duration, build func() protocol.Request,
	handle func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error), fail func(env *sim.Env, err *Error)) {
	a.newGroupCall(env, api, apiKey, groupID, timeout, build, handle, fail).lookup(env)
}

func (a *Admin) newGroupCall(env *sim.Env, api, apiKey, groupID string, timeout time.Duration, build func() protocol.Request,
	handle func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error), fail func(env *sim.Env, err *Error)) *groupCall {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	return &groupCall{a: a, api: api, apiKey: apiKey, group: groupID, deadline: env.Now().Add(timeout), build: build, handle: handle, fail: fail}
}

func (g *groupCall) lookup(env *sim.Env) {
	c := g.a.newCall(env, g.api+"(api=FIND_COORDINATOR)", AnyBroker(), 0)
	c.deadline = g.deadline
	c.build = func(int32) sim.Message {
		return &protocol.FindCoordinatorRequest{KeyType: g.keyType, CoordinatorKeys: []string{g.group}}
	}
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		for _, co := range resp.(*protocol.FindCoordinatorResponse).Coordinators {
			if co.Key != g.group {
				continue
			}
			switch co.ErrorCode {
			case protocol.NONE:
				g.send(env, Coordinator{ID: co.NodeID, Host: co.Host, Port: co.Port})
				return nil
			case protocol.COORDINATOR_NOT_AVAILABLE, protocol.COORDINATOR_LOAD_IN_PROGRESS:
				return codeError(co.ErrorCode)
			}
			typ := "GROUP"
			if g.keyType == protocol.CoordinatorKeyTypeTransaction {
				typ = "TRANSACTION"
			}
			g.fail(env, &Error{Class: co.ErrorCode.Exception(), Message: "FindCoordinator request for key `CoordinatorKey(idValue='" + g.group + "', type=" + typ + ")` failed due to an unexpected error"})
			return nil
		}
		return codeError(protocol.COORDINATOR_NOT_AVAILABLE)
	}
	c.onFailure = g.fail
	g.a.enqueue(env, c)
}

func (g *groupCall) send(env *sim.Env, coord Coordinator) {
	c := g.a.newCall(env, g.api+"(api="+g.apiKey+")", BrokerNode(coord.ID), 0)
	c.deadline = g.deadline
	c.build = func(int32) sim.Message { return g.build() }
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		code, err := g.handle(env, resp.(protocol.Response), coord)
		if g.resend {
			// The handler switched the call to another request for the
			// same coordinator (the key stays mapped to it).
			g.resend = false
			g.send(env, coord)
			return nil
		}
		switch code {
		case protocol.NONE:
		case protocol.COORDINATOR_LOAD_IN_PROGRESS:
			return codeError(code)
		case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
			g.lookup(env)
		default:
			if err == nil {
				err = codeError(code)
			}
			g.fail(env, err)
		}
		return nil
	}
	c.onFailure = g.fail
	g.a.enqueue(env, c)
}

// DescribeConsumerGroup is describeConsumerGroups for one group
// (DescribeConsumerGroupsHandler). A Kafka 4.x admin client
// (AdminConfig.ConsumerGroupDescribe) asks ConsumerGroupDescribe first;
// a group it answers GROUP_ID_NOT_FOUND (not a consumer group, or no
// group) or UNSUPPORTED_VERSION is asked again with DescribeGroups, on
// the same coordinator and within the same deadline; the first answer's
// GROUP_ID_NOT_FOUND message is kept when DescribeGroups fails the same
// way (4.3 DescribeConsumerGroupsHandler.java:102-142, 357-385). A 3.8
// client asks DescribeGroups only. A group the coordinator does not know
// comes back from DescribeGroups as Dead with no members.
func (a *Admin) DescribeConsumerGroup(env *sim.Env, groupID string, timeout time.Duration, cb func(env *sim.Env, d *GroupDescription, err *Error)) {
	fail := func(env *sim.Env, err *Error) { cb(env, nil, err) }
	if !a.cfg.ConsumerGroupDescribe {
		a.newGroupCall(env, "describeConsumerGroups", "DESCRIBE_GROUPS", groupID, timeout,
			describeGroupsRequest(groupID), describeGroupsHandler(groupID, "", cb), fail).lookup(env)
		return
	}
	var g *groupCall
	g = a.newGroupCall(env, "describeConsumerGroups", "CONSUMER_GROUP_DESCRIBE", groupID, timeout,
		func() protocol.Request {
			return &protocol.ConsumerGroupDescribeRequest{GroupIDs: []string{groupID}}
		},
		func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error) {
			for _, dg := range resp.(*protocol.ConsumerGroupDescribeResponse).Groups {
				if dg.GroupID != groupID {
					continue
				}
				switch dg.ErrorCode {
				case protocol.NONE:
				case protocol.GROUP_ID_NOT_FOUND, protocol.UNSUPPORTED_VERSION:
					notFound := ""
					if dg.ErrorCode == protocol.GROUP_ID_NOT_FOUND {
						notFound = dg.ErrorMessage
					}
					g.apiKey, g.build, g.handle = "DESCRIBE_GROUPS", describeGroupsRequest(groupID), describeGroupsHandler(groupID, notFound, cb)
					g.resend = true
					return dg.ErrorCode, nil
				default:
					return dg.ErrorCode, groupError(dg.ErrorCode, dg.ErrorMessage)
				}
				cb(env, consumerGroupDescription(dg, coord), nil)
				return protocol.NONE, nil
			}
			return protocol.COORDINATOR_NOT_AVAILABLE, nil
		}, fail)
	g.lookup(env)
}

// groupError is Errors.exception(message): the code's exception with the
// answer's message, or the code's default one when it has none.
func groupError(code protocol.ErrorCode, msg string) *Error {
	err := codeError(code)
	if msg != "" {
		err.Message = msg
	}
	return err
}

// consumerGroupDescription is handledConsumerGroupResponse
// (DescribeConsumerGroupsHandler.java:193-249): type Consumer, the
// server assignor's name, both epochs, and per member its epoch, current
// and target assignment (by topic name) and whether it is upgraded.
func consumerGroupDescription(dg protocol.DescribedConsumerGroup, coord Coordinator) *GroupDescription {
	d := &GroupDescription{GroupID: dg.GroupID, Type: "Consumer", State: dg.GroupState, Assignor: dg.AssignorName, Coordinator: coord,
		HasEpochs: true, GroupEpoch: dg.GroupEpoch, AssignmentEpoch: dg.AssignmentEpoch}
	for _, m := range dg.Members {
		gm := GroupMember{MemberID: m.MemberID, InstanceID: m.InstanceID, ClientID: m.ClientID, Host: m.ClientHost,
			Assignment: namedPartitions(m.Assignment), HasEpoch: true, MemberEpoch: m.MemberEpoch, TargetAssignment: namedPartitions(m.TargetAssignment)}
		if m.MemberType != -1 {
			up := m.MemberType == 1
			gm.Upgraded = &up
		}
		d.Members = append(d.Members, gm)
	}
	return d
}

// namedPartitions is convertAssignment: the partitions by topic name.
func namedPartitions(tps []protocol.ConsumerGroupTopicPartitions) []group.TopicPartition {
	var out []group.TopicPartition
	for _, t := range tps {
		for _, p := range t.Partitions {
			out = append(out, group.TopicPartition{Topic: t.TopicName, Partition: p})
		}
	}
	return out
}

func describeGroupsRequest(groupID string) func() protocol.Request {
	return func() protocol.Request { return &protocol.DescribeGroupsRequest{Groups: []string{groupID}} }
}

// describeGroupsHandler is handledClassicGroupResponse
// (DescribeConsumerGroupsHandler.java:251-314): a classic group (or a
// simple one, protocol type ""), its members' assignments decoded from the
// consumer protocol. notFound is ConsumerGroupDescribe's
// GROUP_ID_NOT_FOUND message, reported if this answer is the same error.
func describeGroupsHandler(groupID, notFound string, cb func(env *sim.Env, d *GroupDescription, err *Error)) func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error) {
	return func(env *sim.Env, resp protocol.Response, coord Coordinator) (protocol.ErrorCode, *Error) {
		for _, dg := range resp.(*protocol.DescribeGroupsResponse).Groups {
			if dg.GroupID != groupID {
				continue
			}
			if dg.ErrorCode != protocol.NONE {
				if dg.ErrorCode == protocol.GROUP_ID_NOT_FOUND && notFound != "" {
					return dg.ErrorCode, groupError(dg.ErrorCode, notFound)
				}
				return dg.ErrorCode, nil
			}
			if dg.ProtocolType != "consumer" && dg.ProtocolType != "" {
				return protocol.UNKNOWN_SERVER_ERROR, &Error{Class: classIllegalArgument,
					Message: "GroupId " + groupID + " is not a consumer group (" + dg.ProtocolType + ")."}
			}
			d := &GroupDescription{GroupID: groupID, Simple: dg.ProtocolType == "", Type: "Classic", State: dg.GroupState, Assignor: dg.ProtocolData, Coordinator: coord}
			for _, m := range dg.Members {
				gm := GroupMember{MemberID: m.MemberID, InstanceID: m.GroupInstanceID, ClientID: m.ClientID, Host: m.ClientHost}
				if len(m.MemberAssignment) > 0 {
					if asg, err := protocol.DecodeConsumerProtocolAssignment(m.MemberAssignment); err == nil {
						for _, t := range asg.AssignedPartitions {
							for _, p := range t.Partitions {
								gm.Assignment = append(gm.Assignment, group.TopicPartition{Topic: t.Topic, Partition: p})
							}
						}
					}
				}
				d.Members = append(d.Members, gm)
			}
			cb(env, d, nil)
			return protocol.NONE, nil
		}
		return protocol.COORDINATOR_NOT_AVAILABLE, nil
	}
}

// ListConsumerGroupOffsets is listConsumerGroupOffsets for one group (all
// its partitions): the committed offsets, -1 where the coordinator has
// none. Partitions answered with an error are left out, as Kafka skips
// them.
func (a *Admin) ListConsumerGroupOffsets(env *sim.Env, groupID string, timeout time.Duration, cb func(env *sim.Env, offsets map[group.TopicPartition]int64, err *Error)) {
	a.ListConsumerGroupOffsetsWithEpochs(env, groupID, timeout, func(env *sim.Env, offsets map[group.TopicPartition]int64, _ map[group.TopicPartition]int32, err *Error) {
		cb(env, offsets, err)
	})
}

// ListConsumerGroupOffsetsWithEpochs is ListConsumerGroupOffsets with each
// committed offset's leader epoch (OffsetAndMetadata.leaderEpoch; -1 when
// the commit carried none).
func (a *Admin) ListConsumerGroupOffsetsWithEpochs(env *sim.Env, groupID string, timeout time.Duration, cb func(env *sim.Env, offsets map[group.TopicPartition]int64, epochs map[group.TopicPartition]int32, err *Error)) {
	a.groupCall(env, "offsetFetch", "OFFSET_FETCH", groupID, timeout,
		func() protocol.Request {
			return &protocol.OffsetFetchRequest{Groups: []protocol.OffsetFetchRequestGroup{{GroupID: groupID, MemberEpoch: -1}}}
		},
		func(env *sim.Env, resp protocol.Response, _ Coordinator) (protocol.ErrorCode, *Error) {
			for _, g := range resp.(*protocol.OffsetFetchResponse).Groups {
				if g.GroupID != groupID {
					continue
				}
				if g.ErrorCode != protocol.NONE {
					return g.ErrorCode, nil
				}
				out := map[group.TopicPartition]int64{}
				epochs := map[group.TopicPartition]int32{}
				for _, t := range g.Topics {
					for _, p := range t.Partitions {
						if p.ErrorCode == protocol.NONE {
							tp := group.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}
							out[tp], epochs[tp] = p.CommittedOffset, p.CommittedLeaderEpoch
						}
					}
				}
				cb(env, out, epochs, nil)
				return protocol.NONE, nil
			}
			return protocol.COORDINATOR_NOT_AVAILABLE, nil
		},
		func(env *sim.Env, err *Error) { cb(env, nil, nil, err) })
}

// DeleteConsumerGroup is deleteConsumerGroups for one group.
func (a *Admin) DeleteConsumerGroup(env *sim.Env, groupID string, timeout time.Duration, cb func(env *sim.Env, err *Error)) {
	a.groupCall(env, "deleteConsumerGroups", "DELETE_GROUPS", groupID, timeout,
		func() protocol.Request { return &protocol.DeleteGroupsRequest{GroupsNames: []string{groupID}} },
		func(env *sim.Env, resp protocol.Response, _ Coordinator) (protocol.ErrorCode, *Error) {
			for _, r := range resp.(*protocol.DeleteGroupsResponse).Results {
				if r.GroupID == groupID {
					if r.ErrorCode == protocol.NONE {
						cb(env, nil)
					}
					return r.ErrorCode, nil
				}
			}
			return protocol.COORDINATOR_NOT_AVAILABLE, nil
		},
		func(env *sim.Env, err *Error) { cb(env, err) })
}

// AlterConsumerGroupOffsets is alterConsumerGroupOffsets: an OffsetCommit
// from outside the group (generation -1, no member id), which the
// coordinator accepts only while the group has no members.
func (a *Admin) AlterConsumerGroupOffsets(env *sim.Env, groupID string, offsets map[group.TopicPartition]int64, timeout time.Duration, cb func(env *sim.Env, err *Error)) {
	tps := sortedTPs(offsets)
	a.groupCall(env, "offsetCommit", "OFFSET_COMMIT", groupID, timeout,
		func() protocol.Request {
			r := &protocol.OffsetCommitRequest{GroupID: groupID, GenerationIDOrMemberEpoch: -1, RetentionTimeMs: -1}
			for _, tp := range tps {
				r.Add(tp.Topic, protocol.OffsetCommitRequestPartition{PartitionIndex: tp.Partition, CommittedOffset: offsets[tp], CommittedLeaderEpoch: -1})
			}
			return r
		},
		func(env *sim.Env, resp protocol.Response, _ Coordinator) (protocol.ErrorCode, *Error) {
			for _, t := range resp.(*protocol.OffsetCommitResponse).Topics {
				for _, p := range t.Partitions {
					switch p.ErrorCode {
					case protocol.NONE:
					case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
						return p.ErrorCode, nil
					case protocol.POLICY_VIOLATION: // the simulator's group limit (protocol/grouplimit.go)
						err := codeError(p.ErrorCode)
						err.Message = protocol.GroupLimitMessage(groupID)
						return p.ErrorCode, err
					default:
						return p.ErrorCode, nil
					}
				}
			}
			cb(env, nil)
			return protocol.NONE, nil
		},
		func(env *sim.Env, err *Error) { cb(env, err) })
}

// DeleteConsumerGroupOffsets is deleteConsumerGroupOffsets: the group-level
// error (NONE when the request succeeded) and each partition's.
func (a *Admin) DeleteConsumerGroupOffsets(env *sim.Env, groupID string, tps []group.TopicPartition, timeout time.Duration,
	cb func(env *sim.Env, top protocol.ErrorCode, parts map[group.TopicPartition]protocol.ErrorCode, err *Error)) {
	a.groupCall(env, "offsetDelete", "OFFSET_DELETE", groupID, timeout,
		func() protocol.Request {
			r := &protocol.OffsetDeleteRequest{GroupID: groupID}
			for _, tp := range tps {
				if n := len(r.Topics); n > 0 && r.Topics[n-1].Name == tp.Topic {
					r.Topics[n-1].Partitions = append(r.Topics[n-1].Partitions, tp.Partition)
					continue
				}
				r.Topics = append(r.Topics, protocol.OffsetDeleteRequestTopic{Name: tp.Topic, Partitions: []int32{tp.Partition}})
			}
			return r
		},
		func(env *sim.Env, resp protocol.Response, _ Coordinator) (protocol.ErrorCode, *Error) {
			r := resp.(*protocol.OffsetDeleteResponse)
			switch r.ErrorCode {
			case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
				return r.ErrorCode, nil
			}
			parts := map[group.TopicPartition]protocol.ErrorCode{}
			for _, t := range r.Topics {
				for _, p := range t.Partitions {
					parts[group.TopicPartition{Topic: t.Name, Partition: p.PartitionIndex}] = p.ErrorCode
				}
			}
			cb(env, r.ErrorCode, parts, nil)
			return protocol.NONE, nil
		},
		func(env *sim.Env, err *Error) { cb(env, protocol.NONE, nil, err) })
}

// ListConsumerGroups is listConsumerGroups: the brokers from a metadata
// call ("findAllBrokers"), then ListGroups on each ("listConsumerGroups"),
// keeping groups of protocol type "consumer" or "". Kafka merges the
// answers in a HashMap keyed by group id, so they come back in that map's
// order. A broker's error is kept and reported (the first one) once every
// broker has answered.
func (a *Admin) ListConsumerGroups(env *sim.Env, states []string, timeout time.Duration, cb func(env *sim.Env, groups []GroupListing, err *Error)) {
	a.listGroups(env, "listConsumerGroups", states, func(protocolType string) bool {
		return protocolType == "consumer" || protocolType == ""
	}, timeout, cb)
}

// ListGroups is Admin.listGroups (Kafka 4.0, KIP-1043): every group of
// every type and protocol, found as ListConsumerGroups finds them (the
// per-broker call is named "listGroups").
func (a *Admin) ListGroups(env *sim.Env, timeout time.Duration, cb func(env *sim.Env, groups []GroupListing, err *Error)) {
	a.listGroups(env, "listGroups", nil, func(string) bool { return true }, timeout, cb)
}

// listGroups asks every broker for its groups, keeping those whose
// protocol type keep accepts; call names the per-broker calls.
func (a *Admin) listGroups(env *sim.Env, call string, states []string, keep func(protocolType string) bool, timeout time.Duration, cb func(env *sim.Env, groups []GroupListing, err *Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	deadline := env.Now().Add(timeout)
	c := a.newCall(env, "findAllBrokers", AnyBroker(), 0)
	c.deadline = deadline
	c.build = func(int32) sim.Message {
		return &protocol.MetadataRequest{Topics: []string{}, AllowAutoTopicCreation: true}
	}
	c.onResponse = func(env *sim.Env, resp sim.Message) *Error {
		md := resp.(*protocol.MetadataResponse)
		if len(md.Brokers) == 0 {
			return &Error{Class: "org.apache.kafka.common.errors.StaleMetadataException", Message: "Metadata fetch failed due to missing broker list", retriable: true}
		}
		listings := map[string]GroupListing{}
		var order []string
		var errs []*Error
		left := len(md.Brokers)
		done := func(env *sim.Env) {
			left--
			if left > 0 {
				return
			}
			if len(errs) > 0 {
				cb(env, nil, errs[0])
				return
			}
			var out []GroupListing
			for _, id := range jdk.HashSetOrder(order) {
				out = append(out, listings[id])
			}
			cb(env, out, nil)
		}
		for _, b := range md.Brokers {
			node := b.NodeID
			lc := a.newCall(env, call, BrokerNode(node), 0)
			lc.deadline = deadline
			lc.build = func(int32) sim.Message { return &protocol.ListGroupsRequest{StatesFilter: states} }
			lc.onResponse = func(env *sim.Env, resp sim.Message) *Error {
				r := resp.(*protocol.ListGroupsResponse)
				switch r.ErrorCode {
				case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.COORDINATOR_NOT_AVAILABLE:
					return codeError(r.ErrorCode)
				case protocol.NONE:
					for _, g := range r.Groups {
						if !keep(g.ProtocolType) {
							continue
						}
						if _, ok := listings[g.GroupID]; !ok {
							order = append(order, g.GroupID)
						}
						listings[g.GroupID] = GroupListing{GroupID: g.GroupID, Simple: g.ProtocolType == "", State: g.GroupState, Type: g.GroupType, ProtocolType: g.ProtocolType}
					}
				default:
					errs = append(errs, codeError(r.ErrorCode))
				}
				done(env)
				return nil
			}
			lc.onFailure = func(env *sim.Env, err *Error) {
				errs = append(errs, err)
				done(env)
			}
			a.enqueue(env, lc)
		}
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) {
		cb(env, nil, &Error{Class: "org.apache.kafka.common.KafkaException", Message: "Failed to find brokers to send ListGroups", Cause: err})
	}
	a.enqueue(env, c)
}

// TopicPartitionCounts is describeTopics reduced to what the group tools
// need: each topic's partition count, or the error for a topic that does
// not exist (UnknownTopicOrPartitionException).
func (a *Admin) TopicPartitionCounts(env *sim.Env, topics []string, timeout time.Duration, cb func(env *sim.Env, counts map[string]int32, err *Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	a.CallTarget(env, "describeTopics", AnyBroker(), timeout, func(int32) protocol.Request {
		return &protocol.MetadataRequest{Topics: slices.Clone(topics)}
	}, func(env *sim.Env, resp protocol.Response, err *Error) {
		if err != nil {
			cb(env, nil, err)
			return
		}
		out := map[string]int32{}
		for _, t := range resp.(*protocol.MetadataResponse).Topics {
			if t.ErrorCode != protocol.NONE {
				cb(env, nil, codeError(t.ErrorCode))
				return
			}
			out[t.Name] = int32(len(t.Partitions))
		}
		cb(env, out, nil)
	})
}

// ListOffsets is listOffsets with one OffsetSpec (protocol.LatestTimestamp,
// EarliestTimestamp or a timestamp) for every partition: the topics'
// metadata, then ListOffsets to each partition's leader. A partition whose
// answer has no offset (-1, e.g. no record at or after a timestamp) maps
// to -1. A retriable partition error (a leader moving) asks again after
// the retry backoff until the deadline; any other fails the call.
func (a *Admin) ListOffsets(env *sim.Env, tps []group.TopicPartition, spec int64, timeout time.Duration, cb func(env *sim.Env, offsets map[group.TopicPartition]int64, err *Error)) {
	if timeout <= 0 {
		timeout = a.cfg.DefaultAPITimeout
	}
	deadline := env.Now().Add(timeout)
	out := map[group.TopicPartition]int64{}
	var attempt func(env *sim.Env)
	attempt = func(env *sim.Env) {
		var want []group.TopicPartition
		var topics []string
		for _, tp := range tps {
			if _, ok := out[tp]; ok {
				continue
			}
			want = append(want, tp)
			if !slices.Contains(topics, tp.Topic) {
				topics = append(topics, tp.Topic)
			}
		}
		if len(want) == 0 {
			cb(env, out, nil)
			return
		}
		left := deadline.Sub(env.Now())
		a.CallTarget(env, "listOffsets(api=METADATA)", AnyBroker(), left, func(int32) protocol.Request {
			return &protocol.MetadataRequest{Topics: topics}
		}, func(env *sim.Env, resp protocol.Response, err *Error) {
			if err != nil {
				cb(env, nil, err)
				return
			}
			leaders := map[group.TopicPartition]int32{}
			for _, t := range resp.(*protocol.MetadataResponse).Topics {
				if t.ErrorCode != protocol.NONE && !t.ErrorCode.Retriable() {
					cb(env, nil, codeError(t.ErrorCode))
					return
				}
				for _, p := range t.Partitions {
					leaders[group.TopicPartition{Topic: t.Name, Partition: p.Index}] = p.LeaderID
				}
			}
			byLeader := map[int32][]group.TopicPartition{}
			retry := false
			for _, tp := range want {
				l, ok := leaders[tp]
				if !ok || l < 0 {
					retry = true
					continue
				}
				byLeader[l] = append(byLeader[l], tp)
			}
			pending := len(byLeader)
			var failed *Error
			finish := func(env *sim.Env) {
				pending--
				if pending > 0 {
					return
				}
				switch {
				case failed != nil:
					cb(env, nil, failed)
				case retry && env.Now() < deadline:
					env.After(a.cfg.RetryBackoff, "admin-listoffsets-retry", attempt)
				case retry:
					cb(env, nil, &Error{Class: classTimeout, Message: "Timed out waiting for a node assignment. Call: listOffsets(api=LIST_OFFSETS)", retriable: true})
				default:
					cb(env, out, nil)
				}
			}
			if pending == 0 {
				pending = 1
				finish(env)
				return
			}
			for _, leader := range sortedIDs(byLeader) {
				part := byLeader[leader]
				a.CallTarget(env, "listOffsets(api=LIST_OFFSETS)", BrokerNode(leader), deadline.Sub(env.Now()), func(int32) protocol.Request {
					r := &protocol.ListOffsetsRequest{ReplicaID: -1}
					for _, tp := range part {
						r.Add(tp.Topic, protocol.ListOffsetsPartition{Index: tp.Partition, CurrentLeaderEpoch: -1, Timestamp: spec})
					}
					return r
				}, func(env *sim.Env, resp protocol.Response, err *Error) {
					if err != nil {
						if failed == nil {
							failed = err
						}
						finish(env)
						return
					}
					for _, t := range resp.(*protocol.ListOffsetsResponse).Topics {
						for _, p := range t.Partitions {
							tp := group.TopicPartition{Topic: t.Name, Partition: p.Index}
							switch {
							case p.ErrorCode == protocol.NONE:
								out[tp] = p.Offset
							case p.ErrorCode.Retriable():
								retry = true
							case failed == nil:
								failed = codeError(p.ErrorCode)
							}
						}
					}
					finish(env)
				})
			}
		})
	}
	attempt(env)
}

func sortedTPs[V any](m map[group.TopicPartition]V) []group.TopicPartition {
	out := make([]group.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	sorts.Func(out, func(x, y group.TopicPartition) int {
		if x.Topic != y.Topic {
			if x.Topic < y.Topic {
				return -1
			}
			return 1
		}
		return int(x.Partition - y.Partition)
	})
	return out
}
