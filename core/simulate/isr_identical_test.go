package simulate

import (
	"strconv"
	"strings"
	"testing"

	"kafkascope/core/release"
	"kafkascope/core/storage"
)

var kafka43 = release.Version{Major: 4, Minor: 3}

// TestISRIdenticalAcrossSegmentBoundaries: seed 53 (Kafka 4.3) ends with
// ISR members of sim0-0 whose segments start at other offsets than the
// leader's (a power loss and restarts in between), while their records
// below the HW are the same. isr-identical compares the whole log below
// the HW, not the first segment's read, so the seed holds every
// guarantee.
func TestISRIdenticalAcrossSegmentBoundaries(t *testing.T) {
	run := mustSimulate(t, 53, Options{Version: kafka43})
	if len(run.Violations) > 0 {
		t.Fatalf("seed 53:\n%s", run.Report())
	}
	tp := storage.TopicPartition{Topic: "sim0", Partition: 0}
	bases := func(id int32) string {
		p := run.C.Node(id).Broker.Partition(tp)
		if p == nil {
			return ""
		}
		var out []string
		for _, s := range p.Log().Segments() {
			out = append(out, strconv.FormatInt(s.BaseOffset, 10))
		}
		return strings.Join(out, ",")
	}
	st := run.C.Controller().Image().Partition(tp.Topic, tp.Partition)
	if st == nil {
		t.Fatal("no state for sim0-0")
	}
	differ := false
	for _, m := range st.ISR {
		if m != st.Leader && bases(m) != bases(st.Leader) {
			differ = true
			t.Logf("leader %d segments at %s, ISR member %d at %s", st.Leader, bases(st.Leader), m, bases(m))
		}
	}
	if !differ {
		t.Fatal("seed 53 no longer ends with differing segment boundaries: pin another seed")
	}
}
