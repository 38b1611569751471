package simulate

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSeeds bounds one sweep (--seeds A-B).
const MaxSeeds = 1_000_000

// ParseSeeds reads --seeds A-B (or a single seed N).
func ParseSeeds(s string) (uint64, uint64, error) {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		b = a
	}
	from, err1 := strconv.ParseUint(a, 10, 64)
	to, err2 := strconv.ParseUint(b, 10, 64)
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("--seeds %q: expected A-B with whole numbers, e.g. 1-200", s)
	case from == 0 || to < from:
		return 0, 0, fmt.Errorf("--seeds %q: seeds start at 1 and the range must not be empty", s)
	case to-from >= MaxSeeds:
		return 0, 0, fmt.Errorf("--seeds %q: at most %d seeds per sweep", s, MaxSeeds)
	}
	return from, to, nil
}

// FailureLine is the one line a failing seed prints: the seed, the first
// violated invariant, when, what, and how many violations in all.
func (run *Run) FailureLine() string {
	v := run.Violations[0]
	more := ""
	if n := len(run.Violations); n > 1 {
		more = fmt.Sprintf(" (+%d more)", n-1)
	}
	detail, _, _ := strings.Cut(v.Detail, "\n")
	return fmt.Sprintf("seed %d: %s at t=%s: %s%s", run.Plan.Seed, v.Invariant, v.At, detail, more)
}
