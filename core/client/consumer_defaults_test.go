package client

import (
	"testing"
	"time"

	"kafkascope/core/release"
)

// KIP-735 (3.0) raised the consumer's session.timeout.ms from 10 s to 45 s.
func TestConsumerDefaultsByRelease(t *testing.T) {
	zk, now := DefaultConsumerConfigFor(release.Version{Major: 2, Minor: 8}), DefaultConsumerConfigFor(release.Version{Major: 3, Minor: 8})
	if zk.SessionTimeout != 10*time.Second || now.SessionTimeout != 45*time.Second {
		t.Errorf("session.timeout.ms: 2.8 %v, 3.8 %v", zk.SessionTimeout, now.SessionTimeout)
	}
}

// 2.8's consumer offers only the RangeAssignor by default; 3.0 added the
// CooperativeStickyAssignor after it.
func TestDefaultAssignmentStrategyByRelease(t *testing.T) {
	if got := DefaultAssignmentStrategyFor(release.Version{Major: 2, Minor: 8}); len(got) != 1 || got[0] != RangeAssignorClass {
		t.Errorf("2.8: %v", got)
	}
	for _, v := range []release.Version{{}, {Major: 3, Minor: 8}} {
		if got := DefaultAssignmentStrategyFor(v); len(got) != 2 {
			t.Errorf("%v: %v", v, got)
		}
	}
}
