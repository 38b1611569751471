package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Source says where an effective value came from, as DescribeConfigs names
// it.
type Source uint8

const (
	SourceDefault      Source = iota + 1 // DEFAULT_CONFIG
	SourceStaticBroker                   // STATIC_BROKER_CONFIG (server.properties)
	SourceDynamicTopic                   // DYNAMIC_TOPIC_CONFIG
)

func (s Source) String() string {
	switch s {
	case SourceStaticBroker:
		return "STATIC_BROKER_CONFIG"
	case SourceDynamicTopic:
		return "DYNAMIC_TOPIC_CONFIG"
	}
	return "DEFAULT_CONFIG"
}

// Static is a broker's server.properties: the values set at start.
type Static map[string]string

// ValidateStatic checks broker configs given at cluster creation.
func ValidateStatic(s Static) error {
	for _, name := range sortedKeys(s) {
		d, ok := BrokerDef(name)
		if !ok {
			if syn := BrokerSynonym(name); syn != "" {
				return fmt.Errorf("unknown broker config %s (the broker default for the topic config %s is %s)", name, name, syn)
			}
			return fmt.Errorf("unknown broker config %s", name)
		}
		if _, err := d.Parse(s[name]); err != nil {
			return err
		}
	}
	return nil
}

// Broker returns a broker config's effective value as a string.
func (s Static) Broker(name string) string {
	if v, ok := s[name]; ok {
		return v
	}
	if d, ok := BrokerDef(name); ok {
		return d.Default
	}
	panic("config: unknown broker config " + name)
}

// BrokerInt returns a numeric broker config.
func (s Static) BrokerInt(name string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s.Broker(name)), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("config: %s is not a number: %v", name, err))
	}
	return n
}

// BrokerBool returns a boolean broker config.
func (s Static) BrokerBool(name string) bool {
	return strings.EqualFold(strings.TrimSpace(s.Broker(name)), "true")
}

// Effective is a topic config's value and where it came from.
type Effective struct {
	Name   string
	Value  string
	Source Source
}

// Topic resolves a topic config: the topic's own override, else the first
// broker synonym set in server.properties (scaled to the topic's unit), else
// the default.
func (s Static) Topic(overrides map[string]string, name string) Effective {
	if v, ok := overrides[name]; ok {
		return Effective{name, v, SourceDynamicTopic}
	}
	for _, syn := range topicSynonyms[name] {
		if v, ok := s[syn.Name]; ok {
			if syn.Scale != 1 {
				if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
					v = strconv.FormatInt(n*syn.Scale, 10)
				}
			}
			return Effective{name, v, SourceStaticBroker}
		}
	}
	d, ok := TopicDef(name)
	if !ok {
		panic("config: unknown topic config " + name)
	}
	return Effective{name, d.Default, SourceDefault}
}

// TopicInt resolves a numeric topic config.
func (s Static) TopicInt(overrides map[string]string, name string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s.Topic(overrides, name).Value), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("config: %s is not a number: %v", name, err))
	}
	return n
}

// TopicBool resolves a boolean topic config.
func (s Static) TopicBool(overrides map[string]string, name string) bool {
	return strings.EqualFold(strings.TrimSpace(s.Topic(overrides, name).Value), "true")
}

// TopicAll resolves every topic config, in name order.
func (s Static) TopicAll(overrides map[string]string) []Effective {
	out := make([]Effective, 0, len(TopicDefs))
	for _, d := range TopicDefs {
		out = append(out, s.Topic(overrides, d.Name))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ValidateTopic checks one topic config as CreateTopics / AlterConfigs do. An
// unknown name gives Kafka's InvalidConfigurationException text.
func ValidateTopic(name, value string) error {
	d, ok := TopicDef(name)
	if !ok {
		return fmt.Errorf("Unknown topic config name: %s", name)
	}
	_, err := d.Parse(value)
	return err
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
