package event

import (
	"slices"
	"testing"

	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The controller's and clients' notes render the fields the feed's
// sentences and the transcripts were written for: these are the text
// fields the notes had before they were types.
func TestControllerAndClientNoteFields(t *testing.T) {
	tp := storage.TopicPartition{Topic: "orders", Partition: 3}
	for _, c := range []struct {
		n    sim.Note
		key  string
		want []string
	}{
		{ControllerActivated{Node: 1, Epoch: 7}, "controller.active", []string{"node", "1", "epoch", "7"}},
		{ControllerDeactivated{Node: 2, Epoch: 8}, "controller.inactive", []string{"node", "2", "epoch", "8"}},
		{ConfigChanged{ResourceType: metadata.ResourceTopic, ResourceName: "t", Name: "retention.ms", Value: "1000"}, "config.changed",
			[]string{"resource", "topic t", "name", "retention.ms", "value", "1000"}},
		{ConfigChanged{ResourceType: metadata.ResourceBroker, ResourceName: "2", Name: "x", Value: ""}, "config.changed",
			[]string{"resource", "broker 2", "name", "x", "value", ""}},
		{ConfigDeleted{ResourceType: metadata.ResourceBroker, Name: "log.retention.ms"}, "config.deleted",
			[]string{"resource", "every broker (cluster default)", "name", "log.retention.ms"}},
		{BrokerRegistered{Broker: 3, Epoch: 1 << 40}, "broker.registered", []string{"broker", "3", "epoch", "1099511627776"}},
		{BrokerFenced{Broker: 3, Reason: "session"}, "broker.fenced", []string{"broker", "3", "reason", "session"}},
		{BrokerUnfenced{Broker: 3}, "broker.unfenced", []string{"broker", "3"}},
		{ControlledShutdownStarted{Broker: 3}, "broker.shutdown.controlled", []string{"broker", "3"}},
		{TopicCreated{Topic: "t", Partitions: 6, ReplicationFactor: 3}, "topic.created", []string{"topic", "t", "partitions", "6", "rf", "3"}},
		{TopicDeleted{Topic: "t"}, "topic.deleted", []string{"topic", "t"}},
		{PartitionsIncreased{Topic: "t", Count: 4}, "partitions.increased", []string{"topic", "t", "count", "4"}},
		{ReassignmentsAltered{Partitions: 2}, "reassignment.changed", []string{"partitions", "2"}},
		{LeadersRebalanced{Count: 5}, "leaders.rebalanced", []string{"count", "5"}},
		{ProducerIDsAllocated{Broker: 1, First: 1000, Size: 1000}, "producerids.allocated", []string{"broker", "1", "first", "1000", "last", "1999"}},

		{ProducerStuck{Client: "p", Cause: "produce.not-enough-replicas", CauseFields: []string{"broker", "1", "isr", "1,2"}}, "producer.stuck",
			[]string{"client", "p", "cause", "produce.not-enough-replicas", "broker", "1", "isr", "1,2"}},
		{ConsumerStuck{Client: "c", Cause: "topic.no-controller", CauseFields: []string{"broker", "1", "topic", "t"}}, "consumer.stuck",
			[]string{"client", "c", "group", "", "cause", "topic.no-controller", "broker", "1", "topic", "t"}},
		{ProducerRecovered{Client: "p", TP: tp}, "producer.recovered", []string{"client", "p", "tp", "orders-3"}},
		{CoordinatorDiscovered{Client: "c", Group: "g", Coordinator: 2}, "consumer.coordinator", []string{"client", "c", "group", "g", "coordinator", "2"}},
		{CoordinatorUnknown{Client: "c", Cause: "disconnected"}, "consumer.coordinator-unknown", []string{"client", "c", "cause", "disconnected"}},
		{PartitionsAssigned{Client: "c", Group: "g", Generation: 4, Partitions: 3}, "consumer.assigned",
			[]string{"client", "c", "group", "g", "generation", "4", "partitions", "3"}},
		{ConsumerLeavingGroup{Client: "c", Group: "g", Member: "c-1", Reason: "closing"}, "consumer.leave",
			[]string{"client", "c", "group", "g", "member", "c-1", "reason", "closing"}},
		{OffsetCommitSent{Client: "c", Group: "g", Offsets: []PartitionOffset{{TP: tp, Offset: 5, LeaderEpoch: 2}, {TP: tp, Offset: 0, LeaderEpoch: -1}}}, "consumer.commit",
			[]string{"client", "c", "group", "g", "offsets",
				"{orders-3=OffsetAndMetadata{offset=5, leaderEpoch=2, metadata=''}, orders-3=OffsetAndMetadata{offset=0, leaderEpoch=null, metadata=''}}"}},
	} {
		if got := c.n.Key(); got != c.key {
			t.Errorf("%T: key %q, want %q", c.n, got, c.key)
		}
		if got := sim.NoteFields(c.n); !slices.Equal(got, c.want) {
			t.Errorf("%T: fields %q, want %q", c.n, got, c.want)
		}
	}
}
