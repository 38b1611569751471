package console

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/metadata"
	"kafkascope/core/release"
)

// applyConsumerProps sets the consumer configs the simulator implements
// from --consumer.config and --consumer-property, checking values as
// ConsumerConfig of release rel does; it returns the ConfigException line
// for a bad one.
func applyConsumerProps(cfg *client.ConsumerConfig, props map[string]string, rel release.Version) string {
	cfg.Release = rel
	durations := []struct {
		name string
		dst  *time.Duration
	}{
		{"session.timeout.ms", &cfg.SessionTimeout},
		{"heartbeat.interval.ms", &cfg.HeartbeatInterval},
		{"max.poll.interval.ms", &cfg.MaxPollInterval},
		{"auto.commit.interval.ms", &cfg.AutoCommitInterval},
		{"retry.backoff.ms", &cfg.RetryBackoff},
		{"metadata.max.age.ms", &cfg.MetadataMaxAge},
		{"request.timeout.ms", &cfg.RequestTimeout},
		{"fetch.max.wait.ms", &cfg.FetchMaxWait},
		{"kafkascope.record.processing.ms", &cfg.ProcessingTime},
	}
	for _, d := range durations {
		v, ok := props[d.name]
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %s for configuration %s: Not a number of type INT", v, d.name)
		}
		if n < 0 {
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %d for configuration %s: Value must be at least 0", n, d.name)
		}
		*d.dst = time.Duration(n) * time.Millisecond
	}
	if v, ok := props["client.rack"]; ok {
		cfg.ClientRack = v
	}
	if v, ok := props["isolation.level"]; ok {
		// ConfigDef's in(read_committed, read_uncommitted), case-sensitive
		// as ConsumerConfig's validator is.
		if v != "read_committed" && v != "read_uncommitted" {
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %s for configuration isolation.level: String must be one of: read_committed, read_uncommitted", v)
		}
		cfg.IsolationLevel = v
	}
	if v, ok := props["max.poll.records"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %s for configuration max.poll.records: Not a number of type INT", v)
		}
		if n < 1 {
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %d for configuration max.poll.records: Value must be at least 1", n)
		}
		cfg.MaxPollRecords = int(n)
	}
	if v, ok := props["enable.auto.commit"]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			cfg.EnableAutoCommit = true
		case "false":
			cfg.EnableAutoCommit = false
		default:
			return fmt.Sprintf("org.apache.kafka.common.config.ConfigException: Invalid value %s for configuration enable.auto.commit: Expected value to be either true or false", v)
		}
	}
	if v, ok := props["group.instance.id"]; ok {
		// GroupRebalanceConfig: JoinGroupRequest.validateGroupInstanceId,
		// first in the consumer's constructor (a topic name's rules).
		if why := metadata.TopicNameProblem(v); why != "" {
			return "org.apache.kafka.common.errors.InvalidConfigurationException: Group instance id is invalid: " + why
		}
		cfg.GroupInstanceID = v
	}
	if msg := applyGroupProtocol(cfg, props, rel); msg != "" {
		return msg
	}
	if v, ok := props["partition.assignment.strategy"]; ok {
		classes := trimList(v)
		for i, c := range classes {
			// Class names, as Kafka loads them; this build knows the ones
			// registered with client.RegisterAssignor.
			if _, ok := client.LookupAssignor(c); !ok {
				// ConsumerPartitionAssignor.getAssignorInstances.
				return fmt.Sprintf("org.apache.kafka.common.KafkaException: %s ClassNotFoundException exception occurred", c)
			}
			classes[i] = c
		}
		cfg.AssignmentStrategy = classes
	}
	if cfg.GroupProtocol != "consumer" && cfg.HeartbeatInterval >= cfg.SessionTimeout {
		// Kafka's Heartbeat, made with the group coordinator in the
		// consumer's constructor (the console consumer always has a group).
		return "java.lang.IllegalArgumentException: Heartbeat must be set lower than the session timeout"
	}
	return ""
}
