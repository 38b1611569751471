package console

import (
	"strings"

	"kafkascope/core/client"
	"kafkascope/core/release"
)

// applyGroupProtocol reads group.protocol and group.remote.assignor and
// applies ConsumerConfig's cross-checks between them and the classic
// protocol's keys; it returns the ConfigException line, or "".
//
// group.protocol is a CaseInsensitiveValidString of GroupProtocol's names,
// default "classic", in 3.8 and 4.x alike (ConsumerConfig.java@3.8:635-640,
// @4.3:653-658). 3.8 has no cross-check: session.timeout.ms and the others
// are silently unused with the consumer protocol. 4.0+ refuse, in
// postProcessParsedConfig, every key of the other protocol the user set to
// a non-blank value, named in list order (checkUnsupportedConfigsPostProcess,
// ConsumerConfig.java@4.3:397-413, 766-789): the message spells the
// protocol in upper case (GroupProtocol.name()).
func applyGroupProtocol(cfg *client.ConsumerConfig, props map[string]string, rel release.Version) string {
	proto, set := props["group.protocol"]
	if set {
		switch {
		case strings.EqualFold(proto, "classic"):
			cfg.GroupProtocol = "classic"
		case strings.EqualFold(proto, "consumer"):
			cfg.GroupProtocol = "consumer"
		default:
			return "org.apache.kafka.common.config.ConfigException: Invalid value " + proto +
				" for configuration group.protocol: String must be one of (case insensitive): CLASSIC, CONSUMER"
		}
	}
	if v, ok := props["group.remote.assignor"]; ok {
		cfg.GroupRemoteAssignor = v
	}
	if !rel.AtLeast(4, 0) {
		return ""
	}
	// The share consumer's keys joined the lists in 4.1 and 4.2
	// (ConsumerConfig.java@4.1:412, @4.3:397-413).
	var keys []string
	name := "CLASSIC"
	if cfg.GroupProtocol == "consumer" {
		name = "CONSUMER"
		keys = []string{"partition.assignment.strategy", "heartbeat.interval.ms", "session.timeout.ms"}
	} else {
		keys = []string{"group.remote.assignor"}
	}
	if rel.AtLeast(4, 1) {
		keys = append(keys, "share.acknowledgement.mode")
	}
	if rel.AtLeast(4, 2) {
		keys = append(keys, "share.acquire.mode")
	}
	var bad []string
	for _, k := range keys {
		if v, ok := props[k]; ok && strings.TrimSpace(v) != "" { // Utils.isBlank
			bad = append(bad, k)
		}
	}
	if len(bad) > 0 {
		return "org.apache.kafka.common.config.ConfigException: " + strings.Join(bad, ", ") + " cannot be set when group.protocol=" + name
	}
	return ""
}
