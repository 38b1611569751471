package event

import (
	"slices"
	"testing"
	"time"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
)

// The broker's notes render the text the feed's sentences and the golden
// transcripts were written with when the notes were strings.
func TestBrokerNoteText(t *testing.T) {
	tp := storage.TopicPartition{Topic: "t", Partition: 2}
	for _, c := range []struct {
		n    sim.Note
		want []string
	}{
		{SegmentsDeleted{Broker: 1, TP: tp, Reason: storage.DeletedRetentionMs, Limit: 1000, Bases: []int64{0, 3}, Bytes: 140, Start: 5, Delay: time.Minute},
			[]string{"broker", "1", "tp", "t-2", "reason", "retention.ms=1000", "count", "2", "bases", "0,3", "bytes", "140", "start", "5", "delay", sim.FormatDuration(time.Minute)}},
		{SegmentsDeleted{Broker: 1, TP: tp, Reason: storage.DeletedRetentionBytes, Limit: 100, Bases: []int64{7}},
			[]string{"broker", "1", "tp", "t-2", "reason", "retention.bytes=100", "count", "1", "bases", "7", "bytes", "0", "start", "0", "delay", sim.FormatDuration(0)}},
		{SegmentsDeleted{Broker: 1, TP: tp, Reason: storage.DeletedBelowLogStart, Limit: 0},
			[]string{"broker", "1", "tp", "t-2", "reason", "below the log start offset", "count", "0", "bases", "", "bytes", "0", "start", "0", "delay", sim.FormatDuration(0)}},
		{TopicAutoCreateRequested{Broker: 3, Topics: []string{"a", "b"}}, []string{"broker", "3", "topics", "a,b"}},
		{ISRShrinkRequested{Broker: 1, TP: tp, From: []int32{1, 2, 3}, To: []int32{1}, Replicas: []int32{2, 3}},
			[]string{"broker", "1", "tp", "t-2", "from", "1,2,3", "to", "1", "replicas", "2,3"}},
		{ProduceRejected{Broker: 1, TP: tp, ISR: []int32{1}, MinISR: 2}, []string{"broker", "1", "tp", "t-2", "isr", "1", "min", "2"}},
		{ProduceSequenceRejected{Broker: 1, TP: tp, ProducerID: -1, Error: protocol.OUT_OF_ORDER_SEQUENCE_NUMBER},
			[]string{"broker", "1", "tp", "t-2", "pid", "-1", "error", "OUT_OF_ORDER_SEQUENCE_NUMBER"}},
		{BrokerRegistrationRefused{Broker: 4, Error: protocol.DUPLICATE_BROKER_REGISTRATION, Backoff: 200 * time.Millisecond},
			[]string{"broker", "4", "error", "DUPLICATE_BROKER_REGISTRATION", "backoff", sim.FormatDuration(200 * time.Millisecond)}},
	} {
		if got := sim.NoteFields(c.n); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.n.Key(), got, c.want)
		}
	}
}
