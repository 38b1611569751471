package client

import "testing"

func TestRebalanceProtocolIsTheHighestCommonOne(t *testing.T) {
	rng, _ := LookupAssignor(RangeAssignorClass)
	if p, ok := rebalanceProtocol([]Assignor{rng}); !ok || p != Eager {
		t.Fatalf("range: %v %v", p, ok)
	}
	if coop, ok := LookupAssignor(CooperativeStickyAssignorClass); ok {
		if p, _ := rebalanceProtocol([]Assignor{rng, coop}); p != Eager {
			t.Fatalf("range+cooperative-sticky: %v, want EAGER (Kafka 3.8's default list)", p)
		}
		if p, _ := rebalanceProtocol([]Assignor{coop}); p != Cooperative {
			t.Fatalf("cooperative-sticky alone: %v", p)
		}
	}
}

func TestResolveAssignors(t *testing.T) {
	if _, bad := ResolveAssignors([]string{RangeAssignorClass, "com.example.Nope"}, false); bad != "com.example.Nope" {
		t.Fatalf("unknown class not reported: %q", bad)
	}
	as, bad := ResolveAssignors([]string{" " + RoundRobinAssignorClass}, false)
	if bad != "" || len(as) != 1 || as[0].Name() != "roundrobin" {
		t.Fatalf("roundrobin: %v %q", as, bad)
	}
}

func TestFormatOffsetsIsJavaMapToString(t *testing.T) {
	got := formatOffsets([]commitOffset{{tp: topicPartition{"t", 0}, offset: 5, epoch: 2}, {tp: topicPartition{"t", 1}, offset: 0, epoch: -1}})
	want := "{t-0=OffsetAndMetadata{offset=5, leaderEpoch=2, metadata=''}, t-1=OffsetAndMetadata{offset=0, leaderEpoch=null, metadata=''}}"
	if got != want {
		t.Fatalf("got %s", got)
	}
}
