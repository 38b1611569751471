package client

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/group"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// groupsBroker is a coordinator for every group: FindCoordinator names
// itself; ConsumerGroupDescribe knows the consumer groups in consumer and
// answers GROUP_ID_NOT_FOUND for the rest; DescribeGroups answers
// classic, or GROUP_ID_NOT_FOUND for a consumer group (as 4.3's
// GroupMetadataManager.describeGroups does, v6+) and Dead otherwise.
func groupsBroker(consumer map[string]protocol.DescribedConsumerGroup, classic map[string]protocol.DescribedGroup) *fakeBroker {
	b := &fakeBroker{id: 1, self: "kafka-1:9092"}
	b.answer = func(m sim.Message) sim.Message {
		switch req := m.(type) {
		case *protocol.FindCoordinatorRequest:
			resp := &protocol.FindCoordinatorResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
			for _, k := range req.CoordinatorKeys {
				resp.Coordinators = append(resp.Coordinators, protocol.Coordinator{Key: k, NodeID: 1, Host: "kafka-1", Port: 9092})
			}
			return resp
		case *protocol.ConsumerGroupDescribeRequest:
			resp := &protocol.ConsumerGroupDescribeResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
			for _, id := range req.GroupIDs {
				d, ok := consumer[id]
				if !ok {
					d = protocol.DescribedConsumerGroup{GroupID: id, ErrorCode: protocol.GROUP_ID_NOT_FOUND, ErrorMessage: "Group " + id + " is not a consumer group."}
					if _, isClassic := classic[id]; !isClassic {
						d.ErrorMessage = "Group " + id + " not found."
					}
				}
				resp.Groups = append(resp.Groups, d)
			}
			return resp
		case *protocol.DescribeGroupsRequest:
			resp := &protocol.DescribeGroupsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
			for _, id := range req.Groups {
				d, ok := classic[id]
				switch {
				case ok:
				case consumer[id].GroupID != "":
					d = protocol.DescribedGroup{GroupID: id, ErrorCode: protocol.GROUP_ID_NOT_FOUND, GroupState: "Dead"}
				default:
					d = protocol.DescribedGroup{GroupID: id, GroupState: "Dead"}
				}
				resp.Groups = append(resp.Groups, d)
			}
			return resp
		}
		return nil
	}
	return b
}

func describeOne(t *testing.T, r *adminRig, id string) (*GroupDescription, *Error) {
	t.Helper()
	var d *GroupDescription
	var e *Error
	done := false
	r.do(func(env *sim.Env) {
		r.admin.DescribeConsumerGroup(env, id, 0, func(env *sim.Env, got *GroupDescription, err *Error) {
			d, e, done = got, err, true
		})
	})
	r.run(5 * time.Second)
	if !done {
		t.Fatalf("describe %s: no answer", id)
	}
	return d, e
}

// A 4.x admin asks ConsumerGroupDescribe first, and DescribeGroups only
// for a group answered GROUP_ID_NOT_FOUND (DescribeConsumerGroupsHandler
// .java@4.3:102-142, 369-385); a 3.8 admin asks DescribeGroups only.
func TestDescribeConsumerGroupFallsBackToDescribeGroups(t *testing.T) {
	topic := metadata.Uuid{0x22, 1}
	consumer := map[string]protocol.DescribedConsumerGroup{"cg": {GroupID: "cg", GroupState: "Reconciling", GroupEpoch: 3, AssignmentEpoch: 3, AssignorName: "uniform",
		Members: []protocol.DescribedConsumerGroupMember{{MemberID: "m1", InstanceID: "host-a", ClientID: "c1", ClientHost: "/10.0.0.1", MemberEpoch: 2,
			Assignment:       []protocol.ConsumerGroupTopicPartitions{{TopicID: topic, TopicName: "orders", Partitions: []int32{0, 1, 2}}},
			TargetAssignment: []protocol.ConsumerGroupTopicPartitions{{TopicID: topic, TopicName: "orders", Partitions: []int32{0, 1}}}, MemberType: 1}}}}
	classic := map[string]protocol.DescribedGroup{"old": {GroupID: "old", GroupState: "Empty", ProtocolType: "consumer"}}

	cfg := DefaultAdminConfig()
	cfg.ConsumerGroupDescribe = true
	b := groupsBroker(consumer, classic)
	r := newAdminRig(t, cfg, []sim.Addr{b.self}, b)

	d, err := describeOne(t, r, "cg")
	if err != nil {
		t.Fatalf("cg: %v", err)
	}
	m := d.Members[0]
	if d.Type != "Consumer" || !d.HasEpochs || d.GroupEpoch != 3 || d.AssignmentEpoch != 3 || d.Assignor != "uniform" || d.State != "Reconciling" ||
		!m.HasEpoch || m.MemberEpoch != 2 || m.InstanceID != "host-a" || m.Upgraded == nil || !*m.Upgraded ||
		!slices.Equal(m.Assignment, []group.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}, {Topic: "orders", Partition: 2}}) ||
		!slices.Equal(m.TargetAssignment, []group.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}) {
		t.Errorf("cg described as %+v, member %+v", d, m)
	}
	if got := slices.DeleteFunc(slices.Clone(b.requests), func(k string) bool { return k != "ConsumerGroupDescribe" && k != "DescribeGroups" }); !slices.Equal(got, []string{"ConsumerGroupDescribe"}) {
		t.Errorf("cg requests %v", got)
	}

	b.requests = nil
	d, err = describeOne(t, r, "old")
	if err != nil || d.Type != "Classic" || d.HasEpochs || d.State != "Empty" {
		t.Errorf("old: %+v, %v", d, err)
	}
	if got := slices.DeleteFunc(slices.Clone(b.requests), func(k string) bool { return k != "ConsumerGroupDescribe" && k != "DescribeGroups" }); !slices.Equal(got, []string{"ConsumerGroupDescribe", "DescribeGroups"}) {
		t.Errorf("old requests %v", got)
	}

	// A 3.8 admin: DescribeGroups only, and a consumer group is an error
	// with the code's own message.
	cfg.ConsumerGroupDescribe = false
	b38 := groupsBroker(consumer, classic)
	r38 := newAdminRig(t, cfg, []sim.Addr{b38.self}, b38)
	if _, err := describeOne(t, r38, "cg"); err == nil || err.Message != protocol.GROUP_ID_NOT_FOUND.Message() {
		t.Errorf("3.8 cg: %v", err)
	}
	if slices.Contains(b38.requests, "ConsumerGroupDescribe") {
		t.Errorf("3.8 admin sent ConsumerGroupDescribe: %v", b38.requests)
	}
}

// When DescribeGroups also answers GROUP_ID_NOT_FOUND, the error carries
// ConsumerGroupDescribe's message (DescribeConsumerGroupsHandler.java@4.3
// :376-383).
func TestDescribeConsumerGroupKeepsFirstNotFoundMessage(t *testing.T) {
	cfg := DefaultAdminConfig()
	cfg.ConsumerGroupDescribe = true
	b := groupsBroker(nil, nil)
	inner := b.answer
	b.answer = func(m sim.Message) sim.Message {
		if req, ok := m.(*protocol.DescribeGroupsRequest); ok {
			return &protocol.DescribeGroupsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID},
				Groups: []protocol.DescribedGroup{{GroupID: "nope", ErrorCode: protocol.GROUP_ID_NOT_FOUND, GroupState: "Dead"}}}
		}
		return inner(m)
	}
	r := newAdminRig(t, cfg, []sim.Addr{b.self}, b)
	_, err := describeOne(t, r, "nope")
	if err == nil || err.Class != "org.apache.kafka.common.errors.GroupIdNotFoundException" || err.Message != "Group nope not found." {
		t.Errorf("got %v", err)
	}
}
