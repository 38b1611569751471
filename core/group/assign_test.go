package group

import (
	"fmt"
	"strings"
	"testing"
)

func render(a Assignment, order ...string) string {
	var parts []string
	for _, id := range order {
		var tps []string
		for _, tp := range a[id] {
			tps = append(tps, fmt.Sprintf("%s-%d", tp.Topic, tp.Partition))
		}
		parts = append(parts, id+": "+strings.Join(tps, ", "))
	}
	return strings.Join(parts, "; ")
}

func dyn(id string, topics ...string) Member { return Member{ID: id, Topics: topics} }

// Vectors from Kafka's RangeAssignorTest and RoundRobinAssignorTest.
func TestAssignorsMatchKafkasTests(t *testing.T) {
	both := []string{"topic1", "topic2"}
	cases := []struct {
		name    string
		assign  func([]Member, map[string]int32) Assignment
		parts   map[string]int32
		members []Member
		order   []string
		want    string
	}{
		{"range two consumers one topic", Range, map[string]int32{"topic1": 2},
			[]Member{dyn("consumer2", "topic1"), dyn("consumer1", "topic1")}, []string{"consumer1", "consumer2"},
			"consumer1: topic1-0; consumer2: topic1-1"},
		{"range mixed topics", Range, map[string]int32{"topic1": 3, "topic2": 2},
			[]Member{dyn("consumer1", "topic1"), dyn("consumer2", both...), dyn("consumer3", "topic1")}, []string{"consumer1", "consumer2", "consumer3"},
			"consumer1: topic1-0; consumer2: topic1-1, topic2-0, topic2-1; consumer3: topic1-2"},
		{"range two topics six partitions", Range, map[string]int32{"topic1": 3, "topic2": 3},
			[]Member{dyn("consumer1", both...), dyn("consumer2", both...)}, []string{"consumer1", "consumer2"},
			"consumer1: topic1-0, topic1-1, topic2-0, topic2-1; consumer2: topic1-2, topic2-2"},
		{"range static members", Range, map[string]int32{"topic1": 3, "topic2": 3},
			[]Member{{ID: "consumer-b", InstanceID: "instance1", Topics: both}, {ID: "consumer-a", InstanceID: "instance2", Topics: both}}, []string{"consumer-b", "consumer-a"},
			"consumer-b: topic1-0, topic1-1, topic2-0, topic2-1; consumer-a: topic1-2, topic2-2"},
		{"roundrobin javadoc", RoundRobin, map[string]int32{"t0": 1, "t1": 2, "t2": 3},
			[]Member{dyn("C0", "t0"), dyn("C1", "t0", "t1"), dyn("C2", "t0", "t1", "t2")}, []string{"C0", "C1", "C2"},
			"C0: t0-0; C1: t1-0; C2: t1-1, t2-0, t2-1, t2-2"},
		{"roundrobin two consumers one topic", RoundRobin, map[string]int32{"topic": 2},
			[]Member{dyn("consumer1", "topic"), dyn("consumer2", "topic")}, []string{"consumer1", "consumer2"},
			"consumer1: topic-0; consumer2: topic-1"},
		{"roundrobin mixed topics", RoundRobin, map[string]int32{"topic1": 3, "topic2": 2},
			[]Member{dyn("consumer1", "topic1"), dyn("consumer2", both...), dyn("consumer3", "topic1")}, []string{"consumer1", "consumer2", "consumer3"},
			"consumer1: topic1-0; consumer2: topic1-1, topic2-0, topic2-1; consumer3: topic1-2"},
		{"roundrobin two topics six partitions", RoundRobin, map[string]int32{"topic1": 3, "topic2": 3},
			[]Member{dyn("consumer1", both...), dyn("consumer2", both...)}, []string{"consumer1", "consumer2"},
			"consumer1: topic1-0, topic1-2, topic2-1; consumer2: topic1-1, topic2-0, topic2-2"},
	}
	for _, c := range cases {
		if got := render(c.assign(c.members, c.parts), c.order...); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// More members than partitions: the extra members get nothing, and every
// partition goes to exactly one member.
func TestAssignorsCoverEveryPartitionOnce(t *testing.T) {
	members := []Member{dyn("c1", "t"), dyn("c2", "t"), dyn("c3", "t"), dyn("c4", "t")}
	for _, assign := range []func([]Member, map[string]int32) Assignment{Range, RoundRobin} {
		a := assign(members, map[string]int32{"t": 3, "unsubscribed": 5})
		seen := map[TopicPartition]int{}
		empty := 0
		for _, tps := range a {
			if len(tps) == 0 {
				empty++
			}
			for _, tp := range tps {
				seen[tp]++
			}
		}
		if len(seen) != 3 || empty != 1 {
			t.Errorf("assignment %v: want t-0..2 each once and one idle member", a)
		}
		for tp, n := range seen {
			if n != 1 || tp.Topic != "t" {
				t.Errorf("%v assigned %d times", tp, n)
			}
		}
	}
}
