package config

import (
	"fmt"
	"testing"

	"kafkascope/core/release"
)

// 3.8's MetadataVersion.fromVersionString: a release name means its last
// production version, extra dotted parts are dropped, and a version past
// LATEST_PRODUCTION (3.8-IV0) answers only to its full name.
func TestMetadataVersion38(t *testing.T) {
	for in, want := range map[string]string{
		"0.8.0": "0.8.0", "0.10.2": "0.10.2-IV0", "0.10.2.1": "0.10.2-IV0", "0.11.0": "0.11.0-IV2",
		"2.8": "2.8-IV1", "2.8.1": "2.8-IV1", "3.0": "3.0-IV1", "3.0-IV0": "3.0-IV0",
		"3.8": "3.8-IV0", "3.9-IV0": "3.9-IV0",
		"3.9": "", "0.10": "", "4.0": "", "3.8-IV1": "", "x": "", "": "",
	} {
		got, ok := MetadataVersion38(in)
		if got != want || ok != (want != "") {
			t.Errorf("MetadataVersion38(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// The three topic configs 4.0 removed and their broker defaults: defined
// on 3.8 with Kafka's defaults and validators, unknown on 4.x.
func TestRemovedIn40(t *testing.T) {
	v41, v43 := release.Version{Major: 4, Minor: 1}, release.Version{Major: 4, Minor: 3}
	for _, c := range []struct {
		name, value string
		v           release.Version
		want        string
	}{
		{MessageFormatVersion, "0.10.2", v38, ""},
		{MessageFormatVersion, "2.8-IV1", v38, ""},
		{MessageFormatVersion, "3.9", v38, "Invalid value 3.9 for configuration message.format.version: Version 3.9 is not a valid version"},
		{MessageTimestampDiffMaxMs, "3600000", v38, ""},
		{MessageTimestampDiffMaxMs, "-1", v38, "Invalid value -1 for configuration message.timestamp.difference.max.ms: Value must be at least 0"},
		{MessageDownConversionEnable, "false", v38, ""},
		{MessageDownConversionEnable, "no", v38, "Invalid value no for configuration message.downconversion.enable: Expected value to be either true or false"},
		{MessageFormatVersion, "3.0", v41, "Unknown topic config name: message.format.version"},
		{MessageTimestampDiffMaxMs, "1", v43, "Unknown topic config name: message.timestamp.difference.max.ms"},
		{MessageDownConversionEnable, "true", v43, "Unknown topic config name: message.downconversion.enable"},
	} {
		err := ValidateTopic(c.name, c.value, c.v)
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("%s=%s on %s: %v, want %q", c.name, c.value, c.v, err, c.want)
		}
	}
	for _, name := range []string{"log.message.format.version", "log.message.timestamp.difference.max.ms", "log.message.downconversion.enable"} {
		if _, ok := BrokerDef(name, v38); !ok {
			t.Errorf("3.8 lacks %s", name)
		}
		if gone, ok := RemovedIn(name); !ok || gone != (release.Version{Major: 4, Minor: 0}) {
			t.Errorf("%s removed in %v, %v", name, gone, ok)
		}
	}
	if err := ValidateStatic(Static{"log.message.format.version": "2.9"}, v38); err == nil || err.Error() != "Invalid value 2.9 for configuration log.message.format.version: Version 2.9 is not a valid version" {
		t.Errorf("log.message.format.version=2.9: %v", err)
	}
	// DynamicLogConfig.ExcludedConfigs: the only read-only topic default.
	if !IsReadOnlyBrokerConfig("log.message.format.version", v38) || IsReadOnlyBrokerConfig("log.message.timestamp.difference.max.ms", v38) {
		t.Error("3.8 dynamic log configs exclude log.message.format.version and only it")
	}
	// On 4.x the names are nobody's: a topic name's broker hint names no
	// broker config that no longer exists.
	if err := ValidateStatic(Static{"message.format.version": "3.0"}, v43); err == nil || err.Error() != "unknown broker config message.format.version" {
		t.Errorf("4.3 static message.format.version: %v", err)
	}
}

// A topic's message.format.version is 3.0-IV1 whatever the broker sets
// once inter.broker.protocol.version is 3.0-IV1 or newer
// (KafkaConfig.logMessageFormatVersion, 3.8), and the broker's setting in
// full otherwise; its source and synonym are the broker's.
func TestMessageFormatVersionIgnored(t *testing.T) {
	cases := []struct {
		ibp, lmfv, want string
		src             Source
	}{
		{"", "", "3.0-IV1", SourceDefault},
		{"", "2.8", "3.0-IV1", SourceStaticBroker},
		{"3.0-IV0", "2.8", "2.8-IV1", SourceStaticBroker},
		{"2.7", "0.10.2", "0.10.2-IV0", SourceStaticBroker},
	}
	for _, c := range cases {
		s := Static{}
		if c.ibp != "" {
			s["inter.broker.protocol.version"] = c.ibp
		}
		if c.lmfv != "" {
			s["log.message.format.version"] = c.lmfv
		}
		l := Layers{Static: s, Release: v38}
		if e := l.Topic(nil, MessageFormatVersion); e.Value != c.want || e.Source != c.src {
			t.Errorf("ibp %q, log.message.format.version %q: %+v, want %s from %s", c.ibp, c.lmfv, e, c.want, c.src)
		}
		if syn := l.TopicSynonyms(nil, MessageFormatVersion); c.lmfv != "" && (len(syn) == 0 || syn[0].Value != c.lmfv) {
			t.Errorf("synonyms %+v, want the broker's %s first", syn, c.lmfv)
		}
	}
	if e := (Layers{Release: v38}).Topic(map[string]string{MessageFormatVersion: "0.10.2"}, MessageFormatVersion); e.Value != "0.10.2" || e.Source != SourceDynamicTopic {
		t.Errorf("a topic's own value: %+v", e)
	}
}
