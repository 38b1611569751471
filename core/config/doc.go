// Package config knows Kafka's configuration keys: their names, types,
// defaults, validation (with Kafka's error messages), how a topic config falls
// back to its broker synonym, and where an effective value came from
// (DYNAMIC_TOPIC_CONFIG, STATIC_BROKER_CONFIG, DEFAULT_CONFIG).
//
// It holds definitions and pure resolution functions only; it must never
// import another kafkascope package.
package config
