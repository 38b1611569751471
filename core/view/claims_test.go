package view

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Claims hold or fail against the cluster the page would draw: a topic on
// three brokers, then its leader killed and fenced.
func TestClaimsCheckWhatThePictureShows(t *testing.T) {
	s := session(t, "")
	if out := s.Exec("kafka-topics.sh --create --topic t --replica-assignment 2:1:3", nil); len(out) != 1 {
		t.Fatal(out)
	}
	s.Exec("kafka-console-producer.sh --topic t", []string{"a", "b"})
	advance(t, s, time.Second)
	snap := Take(s.Cluster())
	ctl := snap.Controller
	holds := []string{
		"leader t-0 2", "isr t-0 3,1,2", "epoch t-0 0", "hw t-0 2", "leo t-0@1 2", "hw t-0@3 2",
		"broker 2 running; broker 2 unfenced",
		fmt.Sprintf("controller %d", ctl.NodeID), fmt.Sprintf("controller %d epoch %d", ctl.NodeID, ctl.Epoch),
	}
	for _, c := range holds {
		if errs := snap.CheckClaims(c); len(errs) > 0 {
			t.Errorf("%q does not hold: %v", c, errs)
		}
	}
	s.Exec("broker kill 2", nil)
	advance(t, s, 15*time.Second) // broker.session.timeout.ms: fenced, a new leader
	snap = Take(s.Cluster())
	for c, why := range map[string]string{
		"leader t-0 2":      "it is 1",
		"isr t-0 1,2,3":     "it is 1,3",
		"broker 2 running":  "node 2 is killed",
		"broker 2 unfenced": "broker 2 is fenced",
		"epoch t-0 0":       "it is 1",
		"controller none":   "the active controller is",
		"leo t-0@2 3":       "it is 2", // a killed broker's log is still drawn
		"hw t-0@9 2":        "holds no replica",
		"leader nope-0 1":   "there is no partition nope-0",
		"broker 9 killed":   "there is no node 9",
		"leo t-0 2":         "leo is said of a replica",
		"leader t-0@1 1":    "said of a partition",
		"broker 2 asleep":   "not a node state",
		"the leader is 1":   "not a claim",
	} {
		errs := snap.CheckClaims(c)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), why) {
			t.Errorf("%q: %v, want one error saying %q", c, errs, why)
		}
	}
	if errs := snap.CheckClaims("leader t-0 1; isr t-0 3,1; leader t-0 3; broker 2 killed; broker 2 fenced"); len(errs) != 1 || !strings.Contains(errs[0].Error(), `"leader t-0 3"`) {
		t.Errorf("a line of claims: %v, want just the third to fail", errs)
	}
	if errs := CheckClaims(nil, "leader t-0 1"); len(errs) != 1 {
		t.Errorf("no cluster: %v", errs)
	}
}
