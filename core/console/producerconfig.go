package console

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/release"
)

// parseKeyValues reads "k=v" items as CommandLineUtils.parseKeyValueArgs
// does: split at the first '=', a missing value is "".
func parseKeyValues(items []string) (map[string]string, []string) {
	m := map[string]string{}
	var order []string
	for _, it := range items {
		k, v, _ := strings.Cut(it, "=")
		if _, seen := m[k]; !seen {
			order = append(order, k)
		}
		m[k] = v
	}
	return m, order
}

// configError is a Kafka ConfigException.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

func invalidValue(name, value, reason string) error {
	return &configError{fmt.Sprintf("Invalid value %s for configuration %s: %s", value, name, reason)}
}

func intProp(props map[string]string, name string, min int64, dst func(int64)) error {
	v, ok := props[name]
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil {
		return invalidValue(name, v, "Not a number of type INT")
	}
	if n < min {
		return invalidValue(name, v, fmt.Sprintf("Value must be at least %d", min))
	}
	dst(n)
	return nil
}

func longProp(props map[string]string, name string, min int64, dst func(int64)) error {
	v, ok := props[name]
	if !ok {
		return nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return invalidValue(name, v, "Not a number of type LONG")
	}
	if n < min {
		return invalidValue(name, v, fmt.Sprintf("Value must be at least %d", min))
	}
	dst(n)
	return nil
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

// producerWarning splits a producerConfig warning into the logger that logs
// it and its message: KafkaProducer's own warning (delivery.timeout.ms)
// carries the client id, as its LogContext does; ProducerConfig's
// (idempotence, unknown configs) do not.
func producerWarning(clientID, w string) (msg, logger string) {
	if strings.HasPrefix(w, "delivery.timeout.ms should be") {
		return fmt.Sprintf("[Producer clientId=%s] %s", clientID, w), "org.apache.kafka.clients.producer.KafkaProducer"
	}
	return w, "org.apache.kafka.clients.producer.ProducerConfig"
}

// producerConfig applies producer properties to cfg, checking them as
// ProducerConfig does. explicit lists the names the user set (for the
// idempotence and delivery-timeout rules).
func producerConfig(cfg *client.ProducerConfig, props map[string]string, rel release.Version) (warnings []string, err error) {
	if v, ok := props["acks"]; ok {
		switch strings.TrimSpace(v) {
		case "all", "-1":
			cfg.Acks = -1
		case "0":
			cfg.Acks = 0
		case "1":
			cfg.Acks = 1
		default:
			return nil, invalidValue("acks", v, "String must be one of: all, -1, 0, 1")
		}
	}
	if v, ok := props["client.id"]; ok {
		cfg.ClientID = v
	}
	if v, ok := props["compression.type"]; ok && strings.TrimSpace(v) != "none" {
		switch strings.TrimSpace(v) {
		case "gzip", "snappy", "lz4", "zstd":
			return nil, &configError{fmt.Sprintf("compression.type=%s is not simulated yet; use none", v)}
		default:
			return nil, invalidValue("compression.type", v, "String must be one of: none, gzip, snappy, lz4, zstd")
		}
	}
	steps := []error{
		intProp(props, "retries", 0, func(n int64) { cfg.Retries = int(n) }),
		longProp(props, "retry.backoff.ms", 0, func(n int64) { cfg.RetryBackoff = ms(n) }),
		longProp(props, "retry.backoff.max.ms", 0, func(n int64) { cfg.RetryBackoffMax = ms(n) }),
		intProp(props, "request.timeout.ms", 0, func(n int64) { cfg.RequestTimeout = ms(n) }),
		intProp(props, "delivery.timeout.ms", math.MinInt32, func(n int64) { cfg.DeliveryTimeout = ms(n) }),
		intProp(props, "linger.ms", 0, func(n int64) { cfg.Linger = ms(n) }),
		intProp(props, "batch.size", 0, func(n int64) { cfg.BatchSize = int(n) }),
		longProp(props, "max.block.ms", 0, func(n int64) { cfg.MaxBlock = ms(n) }),
		intProp(props, "max.in.flight.requests.per.connection", 1, func(n int64) { cfg.MaxInFlight = int(n) }),
		longProp(props, "buffer.memory", 0, func(n int64) { cfg.BufferMemory = n }),
		intProp(props, "max.request.size", 0, func(n int64) { cfg.MaxRequestSize = int(n) }),
	}
	for _, e := range steps {
		if e != nil {
			return nil, e
		}
	}
	if v, ok := props["partitioner.class"]; ok {
		class := strings.TrimSpace(v)
		// Kafka 4.0 deleted the deprecated DefaultPartitioner and
		// UniformStickyPartitioner classes (KIP-1030's removals).
		gone := rel.AtLeast(4, 0) && (class == client.DefaultPartitioner || class == client.UniformStickyPartitioner)
		if !client.KnownPartitioner(class) || gone {
			return nil, invalidValue("partitioner.class", class, "Class "+class+" could not be found.")
		}
		cfg.Partitioner = class
	}
	if v, ok := props["partitioner.ignore.keys"]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			if cfg.Partitioner == "" {
				cfg.Partitioner = client.UniformStickyPartitioner
			}
		case "false":
		default:
			return nil, invalidValue("partitioner.ignore.keys", v, "Expected value to be either true or false")
		}
	}
	// ProducerConfig.postProcessAndValidateIdempotenceConfigs: idempotence
	// is on by default; conflicting settings throw if it was set
	// explicitly and otherwise switch it off (retries, acks, then
	// max.in.flight, in that order).
	explicit := false
	if v, ok := props["enable.idempotence"]; ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			explicit = true
		case "false":
			cfg.EnableIdempotence = false
		default:
			return nil, invalidValue("enable.idempotence", v, "Expected value to be either true or false")
		}
	}
	if !rel.AtLeast(3, 0) {
		// Before 3.0 idempotence is off by default, and on when set to
		// true or when a transactional.id is given and it is not set
		// (2.8's ProducerConfig.idempotenceEnabled); then retries must not
		// be 0, acks becomes all (a set value must be all), and at most 5
		// requests may be in flight (maybeOverrideAcksAndRetries,
		// KafkaProducer.configureInflightRequests).
		_, txn := props["transactional.id"]
		_, setIdem := props["enable.idempotence"]
		if explicit || txn && !setIdem {
			cfg.EnableIdempotence = true
			_, setAcks := props["acks"]
			switch {
			case cfg.Retries == 0:
				return nil, &configError{"Must set retries to non-zero when using the idempotent producer."}
			case setAcks && cfg.Acks != -1:
				return nil, &configError{"Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."}
			case cfg.MaxInFlight > 5:
				return nil, &configError{"Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer."}
			}
			cfg.Acks = -1
		}
	} else if cfg.EnableIdempotence && rel.AtLeast(4, 0) {
		// Kafka 4.0 made the 3.8 max.in.flight warning an error, checked
		// after retries and acks whether or not those switched idempotence
		// off (ProducerConfig.postProcessAndValidateIdempotenceConfigs, 4.x).
		disable := false
		if cfg.Retries == 0 {
			if explicit {
				return nil, &configError{"Must set retries to non-zero when using the idempotent producer."}
			}
			disable = true // logged at INFO
		}
		if cfg.Acks != -1 {
			if explicit {
				return nil, &configError{"Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."}
			}
			disable = true // logged at INFO
		}
		if cfg.MaxInFlight > 5 {
			return nil, &configError{fmt.Sprintf("To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is %d.", cfg.MaxInFlight)}
		}
		cfg.EnableIdempotence = !disable
	} else if cfg.EnableIdempotence {
		switch {
		case cfg.Retries == 0:
			if explicit {
				return nil, &configError{"Must set retries to non-zero when using the idempotent producer."}
			}
			cfg.EnableIdempotence = false // logged at INFO
		case cfg.Acks != -1:
			if explicit {
				return nil, &configError{"Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."}
			}
			cfg.EnableIdempotence = false // logged at INFO
		case cfg.MaxInFlight > 5:
			if explicit {
				return nil, &configError{"Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer."}
			}
			cfg.EnableIdempotence = false
			warnings = append(warnings, fmt.Sprintf("Idempotence will be disabled because max.in.flight.requests.per.connection is set to %d, which is greater than 5. Please note that in v4.0.0 and onward, this will become an error.", cfg.MaxInFlight))
		}
	}
	if id, ok := props["transactional.id"]; ok {
		if !cfg.EnableIdempotence {
			return nil, &configError{"Cannot set a transactional.id without also enabling idempotence."}
		}
		cfg.TransactionalID = id
		if _, set := props["client.id"]; !set {
			cfg.ClientID = "producer-" + id // ProducerConfig's default for a transactional producer
		}
	}
	if v, ok := props["transaction.timeout.ms"]; ok {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return nil, invalidValue("transaction.timeout.ms", v, "Not a number of type INT")
		}
		cfg.TransactionTimeout = time.Duration(n) * time.Millisecond
	}
	if min := cfg.Linger + cfg.RequestTimeout; cfg.DeliveryTimeout < min {
		if _, set := props["delivery.timeout.ms"]; set {
			return nil, &configError{"delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms"}
		}
		cfg.DeliveryTimeout = min
		warnings = append(warnings, fmt.Sprintf("delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms. Setting it to %d.", min.Milliseconds()))
	}
	// Unknown names are accepted silently: AbstractConfig.logUnused lists
	// them at INFO ("These configurations ... were supplied but are not
	// used yet."), below the tools' WARN level.
	return warnings, nil
}
