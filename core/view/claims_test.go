package view_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kafkascope/core/view"
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
	snap := view.Take(s.Cluster())
	ctl := snap.Controller
	holds := []string{
		"leader t-0 2", "isr t-0 3,1,2", "elr t-0", "epoch t-0 0", "hw t-0 2", "leo t-0@1 2", "hw t-0@3 2",
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
	snap = view.Take(s.Cluster())
	for c, why := range map[string]string{
		"leader t-0 2":      "it is 1",
		"isr t-0 1,2,3":     "it is 1,3",
		"elr t-0 2":         "it is ",
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
	if errs := view.CheckClaims(nil, "leader t-0 1"); len(errs) != 1 {
		t.Errorf("no cluster: %v", errs)
	}
}

// Group claims read the coordinator's group as the group card draws it;
// down/up and start read the partition row and the replica strip.
func TestGroupAndPartitionClaims(t *testing.T) {
	s := session(t, "")
	s.Exec("kafka-topics.sh --create --topic g --partitions 2 --replication-factor 1", nil)
	s.Exec("kafka-console-producer.sh --topic g --property parse.key=true", []string{"a\t1", "b\t2", "c\t3"})
	s.Exec("kafka-console-consumer.sh --topic g --group readers --from-beginning --consumer-property client.id=reader-1 &", nil)
	advance(t, s, 10*time.Second)
	snap := view.Take(s.Cluster())
	if len(snap.Groups) != 1 {
		t.Fatalf("groups: %+v", snap.Groups)
	}
	g := snap.Groups[0]
	var committed []string
	total := int64(0)
	for _, gp := range g.Partitions {
		committed = append(committed, fmt.Sprintf("committed readers g-%d %d", gp.Partition, gp.Committed))
		total += gp.Committed
	}
	if total != 3 { // the consumer read all three records and auto-committed
		t.Fatalf("committed offsets %v", committed)
	}
	leader := snap.Topics[0].Partitions[0].Leader
	for _, c := range append(committed,
		"group readers state Stable", fmt.Sprintf("group readers coordinator %d", g.Coordinator), fmt.Sprintf("group readers generation %d", g.Generation),
		"group readers members reader-1", "group readers leader reader-1", "owner readers g-0 reader-1", "owner readers g-1 reader-1",
		"up g-0", fmt.Sprintf("start g-0@%d 0", leader)) {
		if errs := snap.CheckClaims(c); len(errs) > 0 {
			t.Errorf("%q does not hold: %v", c, errs)
		}
	}
	for c, why := range map[string]string{
		"group readers state Empty":    "it is Stable",
		"group readers members a,b":    "it is reader-1",
		"group readers leader nobody":  "it is reader-1",
		"group readers size 1":         "not said of a group",
		"group writers state Stable":   "no running coordinator holds group writers",
		"owner readers g-0 none":       "it is reader-1",
		"committed readers g-9 1":      "it is none",
		"down g-0":                     "it is up",
		"start g-0 0":                  "said of a replica",
		"down g-0@1":                   "said of a partition",
		"group readers members reader": "it is reader-1",
	} {
		if errs := snap.CheckClaims(c); len(errs) != 1 || !strings.Contains(errs[0].Error(), why) {
			t.Errorf("%q: %v, want one error saying %q", c, errs, why)
		}
	}
	s.Exec(fmt.Sprintf("broker kill %d", leader), nil)
	advance(t, s, 15*time.Second)
	if errs := view.Take(s.Cluster()).CheckClaims("down g-0; leader g-0 none"); len(errs) > 0 {
		t.Errorf("after its only replica's broker died: %v", errs)
	}
}
