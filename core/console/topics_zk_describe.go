package console

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
)

// list is ZookeeperTopicService.listTopics (TopicCommand.scala:397-405,
// tag 2.8.0): the topics in name order, each checked for a deletion
// marker (/admin/delete_topics/T) one after another.
func (p *zkTopicsProc) list(env *sim.Env) {
	p.getTopics(env, func(env *sim.Env, topics []string) {
		var next func(env *sim.Env, i int)
		next = func(env *sim.Env, i int) {
			if i == len(topics) {
				p.tc.finish(0)
				return
			}
			p.pathExists(env, kafkazk.DeleteTopicPath(topics[i]), func(env *sim.Env, marked bool) {
				if marked {
					p.tc.t.println(topics[i] + " - marked for deletion")
				} else {
					p.tc.t.println(topics[i])
				}
				next(env, i+1)
			})
		}
		next(env, 0)
	})
}

// zkTopicDescription is what describeTopic reads for one topic.
type zkTopicDescription struct {
	name    string
	topic   kafkazk.TopicZNodeData
	marked  bool     // /admin/delete_topics/T exists
	configs []string // name=value, in the order Kafka prints them
}

// describe is ZookeeperTopicService.describeTopic (TopicCommand.scala:
// 445-496): the registered brokers, then per topic, one read after
// another: its znode, its deletion marker, its config overrides (unless a
// partition report is asked for) and each partition's state znode.
// Configs are the znode's overrides only (no broker defaults), the topic
// id shows once the znode has one, and a partition without a leader says
// "none"; a leader that is not registered still shows its id.
func (p *zkTopicsProc) describe(env *sim.Env) {
	p.getTopics(env, func(env *sim.Env, topics []string) {
		if !p.ensureTopicExists(topics) {
			return
		}
		p.liveBrokers(env, func(env *sim.Env, brokers []kafkazk.BrokerInfo) {
			live := map[int32]bool{}
			for _, b := range brokers {
				live[b.ID] = true
			}
			var next func(env *sim.Env, i int)
			next = func(env *sim.Env, i int) {
				if i == len(topics) {
					p.tc.finish(0)
					return
				}
				p.describeTopic(env, topics[i], live, func(env *sim.Env) { next(env, i+1) })
			}
			next(env, 0)
		})
	})
}

// reporting tells whether a partition report --zookeeper offers was asked
// for (the ISR ones are refused with it).
func (p *zkTopicsProc) reporting() bool {
	o := p.tc.p
	return o.Has("under-replicated-partitions") || o.Has("unavailable-partitions")
}

func (p *zkTopicsProc) describeTopic(env *sim.Env, name string, live map[int32]bool, k func(env *sim.Env)) {
	d := &zkTopicDescription{name: name}
	p.getData(env, kafkazk.TopicPath(name), func(env *sim.Env, data []byte, _ bool) {
		// TopicZNode.decode reads what does not parse as no partitions;
		// a missing znode is no partitions too.
		d.topic, _ = kafkazk.DecodeTopic(data)
		p.pathExists(env, kafkazk.DeleteTopicPath(name), func(env *sim.Env, marked bool) {
			d.marked = marked
			if p.reporting() {
				p.describePartitions(env, d, live, k)
				return
			}
			p.getData(env, kafkazk.ConfigEntityPath(kafkazk.ConfigTypeTopic, name), func(env *sim.Env, data []byte, ok bool) {
				if ok {
					// A value that is not a string (no writer here makes
					// one) is read as no overrides.
					entries, _ := kafkazk.DecodeEntityConfigEntries(data)
					d.configs = zkDescribedConfigs(entries)
				}
				if !p.tc.p.Has("topics-with-overrides") || len(d.configs) > 0 {
					if len(d.topic.Partitions) == 0 {
						// assignment.head of an empty map.
						p.tc.fail("java.util.NoSuchElementException", "next on empty iterator")
						return
					}
					p.tc.t.println(d.header())
				}
				if p.tc.p.Has("topics-with-overrides") {
					k(env)
					return
				}
				p.describePartitions(env, d, live, k)
			})
		})
	})
}

// zkDescribedConfigs orders a config znode's overrides as TopicCommand
// prints them: read into a Properties (its JDK 11 order), each made a
// ConfigEntry into a new Config, whose HashMap<String, ConfigEntry> is
// what Config.entries iterates (clients/.../admin/Config.java, tag 2.8.0).
// None is a default, so all show.
func zkDescribedConfigs(entries []kafkazk.ConfigEntry) []string {
	value := map[string]string{}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if _, ok := value[e.Name]; !ok {
			names = append(names, e.Name)
		}
		value[e.Name] = e.Value
	}
	names = kafkazk.JavaPropertiesOrder(names)
	hashes := make([]int32, len(names))
	for i, n := range names {
		hashes[i] = jdk.StringHashCode(n)
	}
	out := make([]string, 0, len(names))
	for _, i := range jdk.HashOrder(hashes) {
		out = append(out, names[i]+"="+value[names[i]])
	}
	return out
}

// header is TopicDescription.printDescription (TopicCommand.scala:114-123).
// The replication factor is the first partition's replica count (Kafka
// takes the assignment map's head, whichever partition that is; every
// partition has as many replicas here).
func (d *zkTopicDescription) header() string {
	var b strings.Builder
	b.WriteString("Topic: " + d.name)
	if d.topic.TopicID != metadata.ZeroUuid {
		b.WriteString("\tTopicId: " + d.topic.TopicID.String())
	}
	parts := d.partitions()
	fmt.Fprintf(&b, "\tPartitionCount: %d\tReplicationFactor: %d\tConfigs: %s", len(parts), len(d.topic.Partitions[parts[0]]), strings.Join(d.configs, ","))
	if d.marked {
		b.WriteString("\tMarkedForDeletion: true")
	}
	return b.String()
}

func (d *zkTopicDescription) partitions() []int32 {
	parts := make([]int32, 0, len(d.topic.Partitions))
	for pn := range d.topic.Partitions {
		parts = append(parts, pn)
	}
	slices.Sort(parts)
	return parts
}

// describePartitions reads each partition's state znode in partition
// order and prints the partition as PartitionDescription.printDescription
// does (TopicCommand.scala:156-168), when DescribeOptions shows it: always
// without a report, else when it is under-replicated (fewer ISR than
// replicas) or unavailable (no leader, or one that is not registered).
func (p *zkTopicsProc) describePartitions(env *sim.Env, d *zkTopicDescription, live map[int32]bool, k func(env *sim.Env)) {
	parts := d.partitions()
	var next func(env *sim.Env, i int)
	next = func(env *sim.Env, i int) {
		if i == len(parts) {
			k(env)
			return
		}
		pn := parts[i]
		p.getData(env, kafkazk.TopicPartitionStatePath(d.name, pn), func(env *sim.Env, data []byte, ok bool) {
			leader, isr := int32(-1), []int32(nil)
			if ok {
				if st, err := kafkazk.DecodePartitionState(data); err == nil {
					leader, isr = st.Leader, st.ISR
				}
			}
			replicas := d.topic.Partitions[pn]
			o := p.tc.p
			show := !p.reporting() ||
				o.Has("under-replicated-partitions") && len(replicas)-len(isr) > 0 ||
				o.Has("unavailable-partitions") && (leader < 0 || !live[leader])
			if show {
				l := "none"
				if leader >= 0 {
					l = strconv.Itoa(int(leader))
				}
				line := fmt.Sprintf("\tTopic: %s\tPartition: %d\tLeader: %s\tReplicas: %s\tIsr: %s", d.name, pn, l, sim.FormatIDs(replicas), sim.FormatIDs(isr))
				if d.marked {
					line += "\tMarkedForDeletion: true"
				}
				p.tc.t.println(line)
			}
			next(env, i+1)
		})
	}
	next(env, 0)
}
