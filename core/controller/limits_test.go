package controller

import (
	"fmt"
	"testing"

	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
)

// withTopics is a controller whose image holds topics of the given
// partition counts (t0, t1, ...): enough to reach the simulator's limits
// without creating them one by one.
func withTopics(counts ...int) *Controller {
	c := New(Config{}, nil)
	for i, n := range counts {
		name := fmt.Sprintf("t%d", i)
		c.image.Topics[name] = &metadata.Topic{Name: name, Partitions: make([]*metadata.PartitionState, n)}
	}
	return c
}

func TestTopicAndPartitionLimits(t *testing.T) {
	counts := make([]int, MaxTopics)
	c := withTopics(counts...)
	res, _ := c.createTopic(protocol.CreatableTopic{Name: "new", NumPartitions: 1, ReplicationFactor: 1})
	if res.ErrorCode != protocol.POLICY_VIOLATION || res.ErrorMessage != "The simulator holds at most 1000 topics." {
		t.Errorf("topic %d: %v %q", MaxTopics+1, res.ErrorCode, res.ErrorMessage)
	}

	manual := make([][]int32, MaxPartitionsPerTopic+1)
	for i := range manual {
		manual[i] = []int32{1}
	}
	res, _ = withTopics().createTopic(protocol.CreatableTopic{Name: "new", NumPartitions: -1, ReplicationFactor: -1, Assignments: manual})
	if res.ErrorCode != protocol.INVALID_PARTITIONS || res.ErrorMessage != "The simulator allows at most 1000 partitions per topic." {
		t.Errorf("manual assignment of 1001 partitions: %v %q", res.ErrorCode, res.ErrorMessage)
	}

	// 9501 partitions; growing t0 from 500 to 1000 would make 10001.
	c = withTopics(500, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1)
	_, code, msg := c.createPartitions(protocol.CreatePartitionsTopic{Name: "t0", Count: 1000})
	if code != protocol.POLICY_VIOLATION || msg != "The simulator holds at most 10000 partitions in total." {
		t.Errorf("partition %d: %v %q", MaxPartitionsTotal+1, code, msg)
	}
	_, code, msg = c.createPartitions(protocol.CreatePartitionsTopic{Name: "t0", Count: 1001})
	if code != protocol.INVALID_PARTITIONS || msg != "The simulator allows at most 1000 partitions per topic." {
		t.Errorf("alter to 1001 partitions: %v %q", code, msg)
	}
}
