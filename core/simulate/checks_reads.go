package simulate

import (
	"fmt"

	"kafkascope/core/cluster"
	"kafkascope/core/protocol"
	"kafkascope/core/storage"
)

// pendingRead is a consumer fetch in flight, sent at a sample.
type pendingRead struct {
	tp     storage.TopicPartition
	broker int32
	offset int64
	res    *fetchResult
}

// checkReads checks the consumer fetches answered since the last sample
// (read-above-hw) and sends new ones: for each partition, a fetch from a
// little below the highest HW seen to the broker the controller names as
// leader, so reads race with appends, elections and truncation.
func (run *Run) checkReads() {
	if run.reader == nil {
		return
	}
	var still []pendingRead
	for _, pr := range run.pendingReads {
		if !pr.res.done {
			still = append(still, pr)
			continue
		}
		// highestHW counts every HW a replica had as it moved, a broker's
		// that stopped since the last sample too (seed 1722: the only
		// replica answered, appended and stopped between two samples).
		if v := readAboveHW(pr, max(run.maxHW[pr.tp], run.highestHW(pr.tp))); v != "" {
			run.violate("read-above-hw", "%s", v)
		}
		if v := answerLSOAboveHW(pr); v != "" {
			run.violate("lso-above-hw", "%s", v)
		}
	}
	run.pendingReads = still
	if len(still) > 0 {
		return // one round of reads at a time
	}
	img := run.C.ControllerImage()
	if img == nil {
		return
	}
	for _, tp := range run.partitions() {
		st := img.Partition(tp.Topic, tp.Partition)
		if st == nil || st.Leader < 0 || run.C.State(st.Leader) != cluster.NodeRunning {
			continue
		}
		from := max(0, run.maxHW[tp]-3)
		res, err := run.reader.fetch(st.Leader, tp, from)
		if err != nil {
			continue
		}
		run.pendingReads = append(run.pendingReads, pendingRead{tp, st.Leader, from, res})
	}
}

// readAboveHW judges one consumer fetch: a consumer may only see records
// below the high watermark the answer carries, and that HW can be no
// higher than any replica's HW has ever been (maxHW, sampled after the
// answer). It returns "" when the fetch is fine.
func readAboveHW(pr pendingRead, maxHW int64) string {
	r := pr.res
	if r.err != nil || r.code != protocol.NONE || r.decode != nil {
		return "" // a failed fetch reads nothing
	}
	for _, rec := range r.records {
		if rec.Offset >= r.hw {
			return fmtRead(pr, rec.Offset, "at or above the HW %d in the same answer", r.hw)
		}
		if rec.Offset >= maxHW {
			return fmtRead(pr, rec.Offset, "above every HW any replica has had (%d)", maxHW)
		}
	}
	return ""
}

func fmtRead(pr pendingRead, offset int64, format string, args ...any) string {
	return fmt.Sprintf("a consumer fetch of %s from broker %d at %d read offset %d, ", pr.tp, pr.broker, pr.offset, offset) + fmt.Sprintf(format, args...)
}

// answerLSOAboveHW judges one fetch answer's last stable offset: at most
// its HW (lso-above-hw, checks_txn_reads.go). "" when it is.
func answerLSOAboveHW(pr pendingRead) string {
	r := pr.res
	if r.err != nil || r.code != protocol.NONE || r.lso <= r.hw {
		return ""
	}
	return fmt.Sprintf("a consumer fetch of %s from broker %d at %d was answered with LSO %d above HW %d", pr.tp, pr.broker, pr.offset, r.lso, r.hw)
}
