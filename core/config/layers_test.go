package config

import (
	"fmt"
	"testing"
)

func synText(ss []Synonym) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s:%s=%s", s.Source, s.Name, s.Value)
	}
	return "{" + out + "}"
}

func TestLayersPrecedence(t *testing.T) {
	l := Layers{
		Static:         Static{"min.insync.replicas": "1", "log.retention.hours": "168"},
		ClusterDefault: map[string]string{"min.insync.replicas": "2", "log.retention.ms": "60000"},
		PerBroker:      map[string]string{"min.insync.replicas": "3"},
	}
	if got := l.BrokerInt("min.insync.replicas"); got != 3 {
		t.Errorf("per-broker value must win: got %d", got)
	}
	if e := l.Topic(nil, MinInsyncReplicas); e.Value != "3" || e.Source != SourceDynamicBroker {
		t.Errorf("topic min.insync.replicas = %+v", e)
	}
	// log.retention.ms (dynamic default) beats log.retention.hours (static)
	// because ms is the first synonym, whatever layer it is in.
	if e := l.Topic(nil, RetentionMs); e.Value != "60000" || e.Source != SourceDynamicDefaultBroker {
		t.Errorf("retention.ms = %+v", e)
	}
	if e := l.Topic(map[string]string{RetentionMs: "5"}, RetentionMs); e.Value != "5" || e.Source != SourceDynamicTopic {
		t.Errorf("topic override lost: %+v", e)
	}
}

func TestTopicSynonymsAsKafkaListsThem(t *testing.T) {
	l := Layers{Static: Static{"log.retention.hours": "168"}}
	cases := []struct {
		over map[string]string
		name string
		want string
	}{
		// Entries before the first one named log.retention.ms are dropped,
		// so the static hours setting does not show.
		{map[string]string{RetentionMs: "1000"}, RetentionMs, "{DYNAMIC_TOPIC_CONFIG:retention.ms=1000}"},
		{map[string]string{CleanupPolicy: "compact"}, CleanupPolicy, "{DYNAMIC_TOPIC_CONFIG:cleanup.policy=compact, DEFAULT_CONFIG:log.cleanup.policy=delete}"},
		{nil, MinInsyncReplicas, "{DEFAULT_CONFIG:min.insync.replicas=1}"},
	}
	for _, c := range cases {
		if got := synText(l.TopicSynonyms(c.over, c.name)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	l.ClusterDefault = map[string]string{"min.insync.replicas": "2"}
	want := "{DYNAMIC_TOPIC_CONFIG:min.insync.replicas=3, DYNAMIC_DEFAULT_BROKER_CONFIG:min.insync.replicas=2, DEFAULT_CONFIG:min.insync.replicas=1}"
	if got := synText(l.TopicSynonyms(map[string]string{MinInsyncReplicas: "3"}, MinInsyncReplicas)); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestBrokerEntries(t *testing.T) {
	l := Layers{
		Static:         Static{"log.retention.hours": "168"},
		ClusterDefault: map[string]string{"unclean.leader.election.enable": "true"},
		PerBroker:      map[string]string{"my.custom": "x"},
	}
	def := l.BrokerAll(false)
	if len(def) != 1 || def[0].Name != "unclean.leader.election.enable" || def[0].Source != SourceDynamicDefaultBroker ||
		synText(def[0].Synonyms) != "{DYNAMIC_DEFAULT_BROKER_CONFIG:unclean.leader.election.enable=true}" {
		t.Fatalf("default entries = %+v", def)
	}
	byName := map[string]BrokerEntry{}
	for _, e := range l.BrokerAll(true) {
		byName[e.Name] = e
	}
	if e := byName["my.custom"]; e.Value != "x" || e.Source != SourceDynamicBroker || !e.ReadOnly {
		t.Errorf("custom entry = %+v", e)
	}
	if e := byName["log.retention.ms"]; !e.Null || e.Source != SourceDefault || e.ReadOnly {
		t.Errorf("log.retention.ms = %+v (null default, dynamic)", e)
	}
	if e := byName["log.retention.hours"]; e.Value != "168" || e.Source != SourceStaticBroker || !e.ReadOnly ||
		synText(e.Synonyms) != "{STATIC_BROKER_CONFIG:log.retention.hours=168, DEFAULT_CONFIG:log.retention.hours=168}" {
		t.Errorf("log.retention.hours = %+v %s", e, synText(e.Synonyms))
	}
	for name, ro := range map[string]bool{"log.retention.ms": false, "log.retention.hours": true, "auto.create.topics.enable": true,
		"broker.id": true, "my.custom": false, "unclean.leader.election.enable": false, "min.insync.replicas": false} {
		if IsReadOnlyBrokerConfig(name, v38) != ro {
			t.Errorf("IsReadOnlyBrokerConfig(%s, v38) = %v", name, !ro)
		}
	}
}
