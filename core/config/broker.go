package config

import "kafkascope/core/release"

// BrokerDefs are the broker configs the simulator uses (a subset of Kafka's),
// with Kafka's defaults. What Kafka 2.8 defines differently is from its
// KafkaConfig.scala at tag 2.8.0 (the Defaults object and the ConfigDef);
// the first release of a key 2.8 lacks, from the tags 3.0.0 to 3.8.0.
var BrokerDefs = []*Def{
	// The leader's retries when it adds a partition to a transaction
	// (transactions v2; AddPartitionsToTxnConfig, 4.0).
	{Name: "add.partitions.to.txn.retry.backoff.max.ms", Type: Int, Default: "100", Validate: Check{Kind: AtLeast, Min: 0}, Since: v40},
	{Name: "add.partitions.to.txn.retry.backoff.ms", Type: Int, Default: "20", Validate: Check{Kind: AtLeast, Min: 1}, Since: v40},
	{Name: "auto.create.topics.enable", Type: Boolean, Default: "true"},
	{Name: "auto.leader.rebalance.enable", Type: Boolean, Default: "true"},
	// 2.8's early-access KRaft defines these two internal, unlisted
	// (KafkaConfig.scala:1080-1081 at 2.8.0); 3.0 lists them (3.0.0 L1083-1084).
	{Name: "broker.heartbeat.interval.ms", Type: Int, Default: "2000", InternalBefore: v30},
	// The broker's rack (availability zone), read-only: cluster create
	// --racks sets it per broker.
	{Name: "broker.rack", Type: String, NullDefault: true},
	{Name: "broker.session.timeout.ms", Type: Int, Default: "9000", InternalBefore: v30},
	// 2.8's ConfigDef has no validator (KafkaConfig.scala:1208 at 2.8.0):
	// KafkaConfig.validateValues requires a valid name instead, ignoring
	// case (L1926-1927; see ValidateStatic). 3.3 added the ConfigDef's
	// (3.3.0 L1281).
	{Name: "compression.type", Type: String, Default: "producer", Raised: &Raise{From: v33, Validate: Check{Kind: OneOf, Valid: []string{"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"}}}},
	{Name: "controlled.shutdown.enable", Type: Boolean, Default: "true"},
	// The ZooKeeper era's controlled shutdown (KafkaConfig.scala at tag
	// 2.8.0, Defaults) and, below, its ZooKeeper session. Kafka 3.x still
	// defines them for its ZooKeeper mode; kafkascope runs 3.x in KRaft
	// mode only, so they are 2.8's here.
	{Name: "controlled.shutdown.max.retries", Type: Int, Default: "3", Until: v30},
	{Name: "controlled.shutdown.retry.backoff.ms", Type: Long, Default: "5000", Until: v30},
	{Name: "default.replication.factor", Type: Int, Default: "1"},
	{Name: "delete.topic.enable", Type: Boolean, Default: "true"},
	// The consumer rebalance protocol's (KIP-848) broker configs, Kafka's
	// GroupCoordinatorConfig (4.3 L182-257, 413-424). 3.8 defines the
	// numeric ones with the same defaults; its assignors (class names)
	// and migration policy (disabled) differ and are left out, since 3.8
	// answers every ConsumerGroupHeartbeat UNSUPPORTED_VERSION. 2.8 has
	// none of them: 3.5 defined the first, internal (KafkaConfig.scala
	// L1326-1333 at 3.5.0).
	{Name: "group.consumer.assignment.interval.ms", Type: Int, Default: "1000", Validate: Check{Kind: AtLeast, Min: 0}, Since: v43}, // KIP-1263
	{Name: "group.consumer.assignors", Type: List, Default: "uniform,range", Since: v40},
	{Name: "group.consumer.heartbeat.interval.ms", Type: Int, Default: "5000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.max.assignment.interval.ms", Type: Int, Default: "15000", Validate: Check{Kind: AtLeast, Min: 0}, Since: v43},
	{Name: "group.consumer.max.heartbeat.interval.ms", Type: Int, Default: "15000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.max.session.timeout.ms", Type: Int, Default: "60000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.max.size", Type: Int, Default: "2147483647", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.migration.policy", Type: String, Default: "bidirectional", Validate: Check{Kind: OneOf, Valid: []string{"disabled", "upgrade", "downgrade", "bidirectional"}}, Since: v40},
	{Name: "group.consumer.min.assignment.interval.ms", Type: Int, Default: "0", Validate: Check{Kind: AtLeast, Min: 0}, Since: v43},
	{Name: "group.consumer.min.heartbeat.interval.ms", Type: Int, Default: "5000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.min.session.timeout.ms", Type: Int, Default: "45000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.consumer.session.timeout.ms", Type: Int, Default: "45000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v35},
	{Name: "group.initial.rebalance.delay.ms", Type: Int, Default: "3000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "group.max.session.timeout.ms", Type: Int, Default: "1800000"},
	{Name: "group.max.size", Type: Int, Default: "2147483647", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "group.min.session.timeout.ms", Type: Int, Default: "6000"},
	// 2.8 defaults to its latest version, 2.8-IV1 (KafkaConfig.scala:167,
	// ApiVersion.scala:115,133 at 2.8.0), and validates with ApiVersion
	// (KafkaConfig.scala:1181). Each of 3.0 to 3.7 defaulted to its own
	// latest version; kafkascope runs none of them.
	{Name: "inter.broker.protocol.version", Type: String, Default: "3.8-IV0", Validate: Check{Kind: KnownAPIVersion28}, Raised: &Raise{From: v30, Validate: Check{Kind: ValidVersion}}, Older: &OlderDefault{Before: v30, Value: "2.8-IV1"}, Until: v40}, // KAFKA-18360
	// No validator in 2.8 (KafkaConfig.scala:1178 at 2.8.0); 3.2.0's L1229 has it.
	{Name: "leader.imbalance.check.interval.seconds", Type: Long, Default: "300", Raised: &Raise{From: v32, Validate: Check{Kind: AtLeast, Min: 1}}},
	{Name: "leader.imbalance.per.broker.percentage", Type: Int, Default: "10", Until: v40}, // KAFKA-18743
	{Name: "log.cleaner.backoff.ms", Type: Long, Default: "15000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.cleaner.dedupe.buffer.size", Type: Long, Default: "134217728"},
	// 2.8 validates none of the cleaner's delete.retention, compaction lags
	// and min.cleanable.ratio (KafkaConfig.scala:1136-1140 at 2.8.0); 3.3
	// does (3.3.0 L1209-1213).
	{Name: "log.cleaner.delete.retention.ms", Type: Long, Default: "86400000", Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 0}}},
	{Name: "log.cleaner.enable", Type: Boolean, Default: "true"},
	{Name: "log.cleaner.io.buffer.load.factor", Type: Double, Default: "0.9"},
	{Name: "log.cleaner.max.compaction.lag.ms", Type: Long, Default: maxLong, Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 1}}},
	{Name: "log.cleaner.min.cleanable.ratio", Type: Double, Default: "0.5", Raised: &Raise{From: v33, Validate: Check{Kind: Between, Min: 0, Max: 1}}},
	{Name: "log.cleaner.min.compaction.lag.ms", Type: Long, Default: "0", Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 0}}},
	{Name: "log.cleaner.threads", Type: Int, Default: "1", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.cleanup.policy", Type: List, Default: "delete", Validate: Check{Kind: ListIn, Valid: []string{"compact", "delete"}}},
	{Name: "log.dirs", Type: String, Default: "/tmp/kafka-logs"},
	{Name: "log.flush.interval.messages", Type: Long, Default: maxLong, Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "log.flush.interval.ms", Type: Long, NullDefault: true},
	{Name: "log.flush.offset.checkpoint.interval.ms", Type: Int, Default: "60000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.flush.scheduler.interval.ms", Type: Long, Default: maxLong},
	{Name: "log.flush.start.offset.checkpoint.interval.ms", Type: Int, Default: "60000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.index.interval.bytes", Type: Int, Default: "4096", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.index.size.max.bytes", Type: Int, Default: "10485760", Validate: Check{Kind: AtLeast, Min: 4}},
	// The broker defaults of the three topic configs 4.0 removed (see
	// TopicDefs); 3.8's KafkaConfig defines them with the same defaults and
	// validators (LOG_MESSAGE_FORMAT_VERSION_DEFAULT is 3.0-IV1). 2.8's
	// log.message.format.version defaults to its inter.broker.protocol.version
	// default, 2.8-IV1 (KafkaConfig.scala:137,167 at 2.8.0), validated by
	// ApiVersion (L1153); 3.0 fixed it at 3.0-IV1 (3.0.0 L142). 2.8 does not
	// validate log.message.timestamp.difference.max.ms (L1155); 3.3 does
	// (3.3.0 L1228).
	{Name: "log.message.downconversion.enable", Type: Boolean, Default: "true", Until: v40},
	{Name: "log.message.format.version", Type: String, Default: "3.0-IV1", Validate: Check{Kind: KnownAPIVersion28}, Raised: &Raise{From: v30, Validate: Check{Kind: KnownMetadataVersion}}, Older: &OlderDefault{Before: v30, Value: "2.8-IV1"}, Until: v40},
	{Name: "log.message.timestamp.difference.max.ms", Type: Long, Default: maxLong, Raised: &Raise{From: v33, Validate: Check{Kind: AtLeast, Min: 0}}, Until: v40},
	{Name: "log.message.timestamp.type", Type: String, Default: "CreateTime", Validate: Check{Kind: OneOf, Valid: []string{"CreateTime", "LogAppendTime"}}},
	{Name: "log.preallocate", Type: Boolean, Default: "false"},
	{Name: "log.retention.bytes", Type: Long, Default: "-1"},
	{Name: "log.retention.check.interval.ms", Type: Long, Default: "300000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "log.retention.hours", Type: Int, Default: "168"},
	{Name: "log.retention.minutes", Type: Int, NullDefault: true},
	{Name: "log.retention.ms", Type: Long, NullDefault: true},
	{Name: "log.roll.hours", Type: Int, Default: "168", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "log.roll.jitter.hours", Type: Int, Default: "0", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "log.roll.jitter.ms", Type: Long, NullDefault: true},
	{Name: "log.roll.ms", Type: Long, NullDefault: true},
	{Name: "log.segment.bytes", Type: Int, Default: "1073741824", Validate: Check{Kind: AtLeast, Min: 14}, Raised: &Raise{From: v40, Validate: Check{Kind: AtLeast, Min: 1048576}}}, // KIP-1030
	{Name: "log.segment.delete.delay.ms", Type: Long, Default: "60000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "message.max.bytes", Type: Int, Default: "1048588", Validate: Check{Kind: AtLeast, Min: 0}},
	// The metadata log's snapshots and retention: 2.8's early-access KRaft
	// has none of these (its KafkaConfig.scala at 2.8.0 defines only
	// metadata.log.dir, L1082). 3.0 added three (3.0.0 L385, 391-392),
	// 3.3 the idle interval (3.3.0 L407), 3.4 the snapshot interval
	// (3.4.0 L405).
	{Name: "metadata.log.max.record.bytes.between.snapshots", Type: Long, Default: "20971520", Validate: Check{Kind: AtLeast, Min: 1}, Since: v30},
	{Name: "metadata.log.max.snapshot.interval.ms", Type: Long, Default: "3600000", Validate: Check{Kind: AtLeast, Min: 0}, Since: v34},
	{Name: "metadata.max.idle.interval.ms", Type: Int, Default: "500", Validate: Check{Kind: AtLeast, Min: 0}, Since: v33},
	{Name: "metadata.max.retention.bytes", Type: Long, Default: "104857600", Since: v30},
	{Name: "metadata.max.retention.ms", Type: Long, Default: "604800000", Since: v30},
	{Name: "min.insync.replicas", Type: Int, Default: "1", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "num.partitions", Type: Int, Default: "1", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "offsets.commit.required.acks", Type: Short, Default: "-1", Until: v40}, // KIP-1041
	{Name: "offsets.commit.timeout.ms", Type: Int, Default: "5000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "offsets.retention.minutes", Type: Int, Default: "10080", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "offsets.topic.compression.codec", Type: Int, Default: "0"},
	{Name: "offsets.topic.num.partitions", Type: Int, Default: "50", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "offsets.topic.replication.factor", Type: Short, Default: "3", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "offsets.topic.segment.bytes", Type: Int, Default: "104857600", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "replica.fetch.backoff.ms", Type: Int, Default: "1000", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "replica.fetch.max.bytes", Type: Int, Default: "1048576", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "replica.fetch.min.bytes", Type: Int, Default: "1"},
	{Name: "replica.fetch.response.max.bytes", Type: Int, Default: "10485760", Validate: Check{Kind: AtLeast, Min: 0}},
	{Name: "replica.fetch.wait.max.ms", Type: Int, Default: "500"},
	{Name: "replica.high.watermark.checkpoint.interval.ms", Type: Long, Default: "5000"},
	{Name: "replica.lag.time.max.ms", Type: Long, Default: "30000"},
	// KIP-392: the leader may send a consumer to a replica near it. Kafka
	// loads the class named; the simulator has Kafka's one selector.
	{Name: "replica.selector.class", Type: String, NullDefault: true, Validate: Check{Kind: OneOf, Valid: []string{RackAwareReplicaSelector}}},
	{Name: "replica.socket.timeout.ms", Type: Int, Default: "30000"},
	{Name: "request.timeout.ms", Type: Int, Default: "30000"},
	// The transaction coordinator's (TransactionLogConfigs and
	// TransactionStateManagerConfigs, 3.8.0; the same names and defaults
	// in KafkaConfig at 2.8.0).
	{Name: "transaction.abort.timed.out.transaction.cleanup.interval.ms", Type: Int, Default: "10000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.max.timeout.ms", Type: Int, Default: "900000", Validate: Check{Kind: AtLeast, Min: 1}},
	// KIP-890 part 1: a leader verifies a transaction's first batch with
	// the coordinator (TransactionLogConfigs, 3.8.0; since 3.6, dynamic).
	{Name: "transaction.partition.verification.enable", Type: Boolean, Default: "true", Since: v36},
	{Name: "transaction.remove.expired.transaction.cleanup.interval.ms", Type: Int, Default: "3600000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.state.log.load.buffer.size", Type: Int, Default: "5242880", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.state.log.min.isr", Type: Int, Default: "2", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.state.log.num.partitions", Type: Int, Default: "50", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.state.log.replication.factor", Type: Short, Default: "3", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transaction.state.log.segment.bytes", Type: Int, Default: "104857600", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "transactional.id.expiration.ms", Type: Int, Default: "604800000", Validate: Check{Kind: AtLeast, Min: 1}},
	{Name: "unclean.leader.election.enable", Type: Boolean, Default: "false"},
	{Name: "unclean.leader.election.interval.ms", Type: Long, Default: "300000", Validate: Check{Kind: AtLeast, Min: 1}, Since: v39, Internal: true}, // KAFKA-12670
	{Name: "zookeeper.connection.timeout.ms", Type: Int, NullDefault: true, Until: v30},
	{Name: "zookeeper.max.in.flight.requests", Type: Int, Default: "10", Validate: Check{Kind: AtLeast, Min: 1}, Until: v30},
	{Name: "zookeeper.session.timeout.ms", Type: Int, Default: "18000", Until: v30},
}

var brokerDefByName = func() map[string]*Def {
	m := map[string]*Def{}
	for _, d := range BrokerDefs {
		m[d.Name] = d
	}
	return m
}()

// RemovedIn is the release that removed broker config name (false: no
// release did).
func RemovedIn(name string) (release.Version, bool) {
	d, ok := brokerDefByName[name]
	if !ok || d.Until == (release.Version{}) {
		return release.Version{}, false
	}
	return d.Until, true
}

// BrokerDef returns the definition of a broker config in release rel.
func BrokerDef(name string, rel release.Version) (*Def, bool) {
	d, ok := brokerDefByName[name]
	if !ok || !d.In(rel) {
		return nil, false
	}
	return d, true
}

// dynamicBrokerConfigs are the broker configs that can change at runtime
// through kafka-configs.sh (DynamicBrokerConfig.AllDynamicConfigs, limited to
// the configs the simulator defines). For a topic config's broker synonyms
// only the highest-precedence name is dynamic: log.retention.ms is,
// log.retention.hours is not.
var dynamicBrokerConfigs = func() map[string]bool {
	// The log cleaner's reconfigurable configs (LogCleaner.ReconfigurableConfigs).
	m := map[string]bool{"log.cleaner.backoff.ms": true, "message.max.bytes": true,
		"log.cleaner.threads": true, "log.cleaner.dedupe.buffer.size": true, "log.cleaner.io.buffer.load.factor": true}
	for _, syns := range topicSynonyms {
		m[syns[0].Name] = true
	}
	// DynamicLogConfig.ExcludedConfigs (3.8): the one topic default that
	// is read-only.
	delete(m, "log.message.format.version")
	return m
}()

// RackAwareReplicaSelector is the replica selector Kafka ships
// (org.apache.kafka.common.replica): a consumer in a rack with a replica
// in sync fetches from it.
const RackAwareReplicaSelector = "org.apache.kafka.common.replica.RackAwareReplicaSelector"

// staticOnlyBrokerConfigs are Kafka broker configs the simulator does not
// model but knows to be read-only, so that setting them dynamically fails
// as in Kafka instead of being taken as a custom config.
var staticOnlyBrokerConfigs = map[string]bool{
	"broker.id": true, "node.id": true, "process.roles": true, "controller.quorum.voters": true,
	"controller.listener.names": true, "inter.broker.listener.name": true, "security.inter.broker.protocol": true,
	"log.dir": true, "metadata.log.dir": true, "zookeeper.connect": true,
}

// IsDynamicBrokerConfig says whether a broker config can be updated at
// runtime.
func IsDynamicBrokerConfig(name string) bool { return dynamicBrokerConfigs[name] }

// IsReadOnlyBrokerConfig says whether a name is a broker config of release
// rel that cannot be updated at runtime. Names it does not know are custom
// configs, which Kafka accepts and stores.
func IsReadOnlyBrokerConfig(name string, rel release.Version) bool {
	if staticOnlyBrokerConfigs[name] {
		return true
	}
	_, known := BrokerDef(name, rel)
	return known && !dynamicBrokerConfigs[name]
}
