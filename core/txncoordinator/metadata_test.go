package txncoordinator

import (
	"slices"
	"testing"

	"kafkascope/core/protocol"
	"kafkascope/core/storage"
)

func must(tr transit, err error) transit {
	if err != nil {
		panic(err)
	}
	return tr
}

func complete(t *testing.T, m *txnMetadata, tr transit) {
	t.Helper()
	if err := m.completeTransitionTo(tr); err != nil {
		t.Fatal(err)
	}
}

// A transactional id's life: the first InitProducerId takes epoch 0, a
// transaction adds partitions (starting it), commits through
// PrepareCommit to CompleteCommit (no partitions left); a second
// InitProducerId bumps the epoch, remembering the previous one so that a
// retry of it succeeds while any older epoch is fenced; a transition
// cannot start while another is pending.
func TestMetadataTransitions(t *testing.T) {
	m := newMetadata("tx", 1000, 60000, 1)
	tr, code, err := m.prepareIncrementProducerEpoch(60000, nil, 2)
	if err != nil || code != protocol.NONE || tr.epoch != 0 || tr.state != Empty {
		t.Fatalf("first init: %+v %v %v", tr, code, err)
	}
	if _, err := m.prepareAddPartitions(nil, 2, 0); err == nil {
		t.Fatal("a second transition prepared while one is pending")
	}
	complete(t, m, tr)
	tps := []storage.TopicPartition{{Topic: "orders", Partition: 0}, {Topic: "orders", Partition: 1}}
	complete(t, m, must(m.prepareAddPartitions(tps[:1], 10, 0)))
	complete(t, m, must(m.prepareAddPartitions(tps, 11, 0)))
	if m.state != Ongoing || m.startMs != 10 || !slices.Equal(m.partitions, tps) {
		t.Fatalf("ongoing: %+v", m)
	}
	if _, err := m.prepareAbortOrCommit(CompleteCommit, 12, 0, false, -1); err == nil {
		t.Fatal("Ongoing to CompleteCommit prepared")
	}
	prep := must(m.prepareAbortOrCommit(PrepareCommit, 12, 0, false, -1))
	if v := prep.logValue(0); len(v.Partitions) != 2 || v.State != PrepareCommit {
		t.Fatalf("PrepareCommit record %+v", v)
	}
	complete(t, m, prep)
	done := must(m.prepareComplete(13))
	if v := done.logValue(0); v.State != CompleteCommit || v.Partitions != nil || v.TxnStartMs != 10 {
		t.Fatalf("CompleteCommit record %+v", v)
	}
	complete(t, m, done)
	expected := int16(0)
	bump, code, err := m.prepareIncrementProducerEpoch(60000, &expected, 20)
	if err != nil || code != protocol.NONE || bump.epoch != 1 || bump.lastEpoch != 0 {
		t.Fatalf("second init: %+v %v %v", bump, code, err)
	}
	complete(t, m, bump)
	retry, code, _ := m.prepareIncrementProducerEpoch(60000, &expected, 21)
	if code != protocol.NONE || retry.epoch != 1 {
		t.Fatalf("a retried init with the previous epoch: %+v %v", retry, code)
	}
	m.pending = nil
	stale := int16(-5)
	if _, code, _ := m.prepareIncrementProducerEpoch(60000, &stale, 22); code != protocol.PRODUCER_FENCED {
		t.Fatalf("an old epoch's init: %v", code)
	}
	if !isEpochExhausted(32766) || isEpochExhausted(32765) {
		t.Error("exhaustion at 32766")
	}
}
