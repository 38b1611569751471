package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kafkascope/core/release"
)

// Layers is what one node knows of its broker-level configs: the static
// server.properties under the dynamic cluster-wide default under its own
// dynamic per-broker configs (the last two come from ConfigRecords in the
// metadata image). A key set in a higher layer hides the same key below it;
// synonyms (log.retention.ms over .minutes over .hours) are resolved across
// the merged layers, as KafkaConfig does after DynamicBrokerConfig merges
// its maps.
//
// The maps are read, never written: callers may pass the image's own maps.
type Layers struct {
	Static         Static
	ClusterDefault map[string]string // ConfigRecord(BROKER, "")
	PerBroker      map[string]string // ConfigRecord(BROKER, "<this node's id>")
	// Release is the Kafka release whose keys and defaults apply (zero:
	// the default release). Few defaults differ (Def.Older: 2.8's).
	Release release.Version
}

// Synonym is one place a config's value could come from, as DescribeConfigs'
// synonyms list it: most specific first.
type Synonym struct {
	Name   string
	Value  string
	Source Source
}

// lookup finds a key in the merged layers.
func (l Layers) lookup(name string) (string, Source, bool) {
	if v, ok := l.PerBroker[name]; ok {
		return v, SourceDynamicBroker, true
	}
	if v, ok := l.ClusterDefault[name]; ok {
		return v, SourceDynamicDefaultBroker, true
	}
	if v, ok := l.Static[name]; ok {
		return v, SourceStaticBroker, true
	}
	return "", 0, false
}

// Broker returns a broker config's effective value as a string.
func (l Layers) Broker(name string) string {
	if v, _, ok := l.lookup(name); ok {
		return v
	}
	if d, ok := brokerDefByName[name]; ok {
		v, _ := d.DefaultIn(l.Release) // whether or not l.Release still has the key
		return v
	}
	panic("config: unknown broker config " + name)
}

// BrokerInt returns a numeric broker config.
func (l Layers) BrokerInt(name string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(l.Broker(name)), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("config: %s is not a number: %v", name, err))
	}
	return n
}

// BrokerBool returns a boolean broker config.
func (l Layers) BrokerBool(name string) bool {
	return strings.EqualFold(strings.TrimSpace(l.Broker(name)), "true")
}

// Topic resolves a topic config: the topic's own override, else the first
// broker synonym set in any layer (scaled to the topic's unit), else the
// default.
func (l Layers) Topic(overrides map[string]string, name string) Effective {
	if v, ok := overrides[name]; ok {
		return Effective{name, v, SourceDynamicTopic}
	}
	for _, syn := range topicSynonyms[name] {
		if v, src, ok := l.lookup(syn.Name); ok {
			if syn.Scale != 1 {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
					v = strconv.FormatInt(n*syn.Scale, 10)
				}
			}
			if name == MessageFormatVersion {
				v = l.logMessageFormatVersion(v)
			}
			return Effective{name, v, src}
		}
	}
	d, ok := topicDefByName[name]
	if !ok {
		panic("config: unknown topic config " + name)
	}
	v, _ := d.DefaultIn(l.Release)
	return Effective{name, v, SourceDefault}
}

// logMessageFormatVersion is the message.format.version a topic without
// its own inherits from a broker that sets log.message.format.version to
// v (KafkaConfig.logMessageFormatVersion, 3.8): the default 3.0-IV1
// whenever inter.broker.protocol.version is 3.0-IV1 or newer, which
// ignores the setting (LogConfig.shouldIgnoreMessageFormatVersion), else
// the full name of v (2.8 is 2.8-IV1). The synonym still shows v.
func (l Layers) logMessageFormatVersion(v string) string {
	ibp := strings.TrimSpace(l.Broker("inter.broker.protocol.version"))
	if p, err := ParseProtocolVersion(ibp); err != nil || p.AtLeast(3, 0) && ibp != "3.0-IV0" {
		return "3.0-IV1"
	}
	if full, ok := MetadataVersion38(strings.TrimSpace(v)); ok {
		return full
	}
	return v
}

// TopicInt resolves a numeric topic config.
func (l Layers) TopicInt(overrides map[string]string, name string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(l.Topic(overrides, name).Value), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("config: %s is not a number: %v", name, err))
	}
	return n
}

// TopicBool resolves a boolean topic config.
func (l Layers) TopicBool(overrides map[string]string, name string) bool {
	return strings.EqualFold(strings.TrimSpace(l.Topic(overrides, name).Value), "true")
}

// TopicAll resolves every topic config, in name order.
func (l Layers) TopicAll(overrides map[string]string) []Effective {
	out := make([]Effective, 0, len(TopicDefs))
	for _, d := range TopicDefs {
		if _, set := overrides[d.Name]; d.In(l.Release) && (!d.internalIn(l.Release) || set) {
			out = append(out, l.Topic(overrides, d.Name))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// brokerNameGroup is the set of broker configs that back one another
// (DynamicBrokerConfig.brokerConfigSynonyms): the ms/minutes/hours forms of
// a duration, in precedence order.
func brokerNameGroup(name string) []string {
	switch name {
	case "log.roll.ms", "log.roll.hours":
		return []string{"log.roll.ms", "log.roll.hours"}
	case "log.roll.jitter.ms", "log.roll.jitter.hours":
		return []string{"log.roll.jitter.ms", "log.roll.jitter.hours"}
	case "log.flush.interval.ms":
		return []string{"log.flush.interval.ms", "log.flush.scheduler.interval.ms"}
	case "log.retention.ms", "log.retention.minutes", "log.retention.hours":
		return []string{"log.retention.ms", "log.retention.minutes", "log.retention.hours"}
	}
	return []string{name}
}

// brokerSynonyms lists where a broker config's value could come from: each
// layer from the most specific down to the defaults, and within a layer the
// names of its group in order. As Kafka does, entries before the first one
// named name itself are dropped (a config is not shown as backed by a
// lower-precedence name of its group).
func (l Layers) brokerSynonyms(name string) []Synonym {
	group := brokerNameGroup(name)
	var all []Synonym
	add := func(m map[string]string, src Source) {
		for _, n := range group {
			if v, ok := m[n]; ok {
				all = append(all, Synonym{n, v, src})
			}
		}
	}
	add(l.PerBroker, SourceDynamicBroker)
	add(l.ClusterDefault, SourceDynamicDefaultBroker)
	add(l.Static, SourceStaticBroker)
	for _, n := range group {
		if d, ok := BrokerDef(n, l.Release); ok {
			if v, null := d.DefaultIn(l.Release); !null {
				all = append(all, Synonym{n, v, SourceDefault})
			}
		}
	}
	for i, s := range all {
		if s.Name == name {
			return all[i:]
		}
	}
	return nil
}

// TopicSynonyms lists a topic config's synonyms for DescribeConfigs: the
// topic's own override, then the broker synonyms of its primary broker
// config (ConfigHelper.createTopicConfigEntry).
func (l Layers) TopicSynonyms(overrides map[string]string, name string) []Synonym {
	var out []Synonym
	if v, ok := overrides[name]; ok {
		out = append(out, Synonym{name, v, SourceDynamicTopic})
	}
	if primary := BrokerSynonym(name); primary != "" {
		out = append(out, l.brokerSynonyms(primary)...)
	}
	return out
}

// BrokerEntry is one broker config as DescribeConfigs reports it.
type BrokerEntry struct {
	Name     string
	Value    string
	Null     bool // no value (a null default such as log.retention.ms)
	Source   Source
	ReadOnly bool
	Synonyms []Synonym
}

// BrokerAll lists a broker's configs for DescribeConfigs. For one broker
// (perBroker) it is every known config plus any custom dynamic or static
// key; for the cluster default it is only the keys set at the default level.
// Sorted by name.
func (l Layers) BrokerAll(perBroker bool) []BrokerEntry {
	names := map[string]bool{}
	if perBroker {
		for _, d := range BrokerDefs {
			if d.In(l.Release) && !d.internalIn(l.Release) {
				names[d.Name] = true
			}
		}
		for k := range l.Static {
			names[k] = true
		}
		for k := range l.PerBroker {
			names[k] = true
		}
	}
	for k := range l.ClusterDefault {
		names[k] = true
	}
	var out []BrokerEntry
	for _, name := range sortedSet(names) {
		syns := l.brokerSynonyms(name)
		if !perBroker {
			var keep []Synonym
			for _, s := range syns {
				if s.Source == SourceDynamicDefaultBroker {
					keep = append(keep, s)
				}
			}
			syns = keep
		}
		e := BrokerEntry{Name: name, Source: SourceDefault, ReadOnly: !IsDynamicBrokerConfig(name), Synonyms: syns}
		if perBroker {
			e.Value, e.Source, _ = l.lookup(name)
			if e.Source == 0 {
				e.Source, e.Null = SourceDefault, true
				if d, known := BrokerDef(name, l.Release); known {
					e.Value, e.Null = d.DefaultIn(l.Release)
				}
			}
		} else {
			e.Value = l.ClusterDefault[name]
		}
		if len(syns) > 0 {
			e.Source = syns[0].Source
		}
		out = append(out, e)
	}
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SegmentBytes is a topic's segment size: internal.segment.bytes when the
// topic sets it (LogConfig.segmentSize, Kafka 4.1+), else segment.bytes.
func (l Layers) SegmentBytes(overrides map[string]string) int64 {
	if _, ok := overrides[InternalSegmentBytes]; ok {
		return l.TopicInt(overrides, InternalSegmentBytes)
	}
	return l.TopicInt(overrides, SegmentBytes)
}
