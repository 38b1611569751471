package kafkazk

import "strconv"

// The fixed znode paths, from ZkData.scala's *ZNode objects (Kafka 2.8.0).
const (
	ControllerPath      = "/controller"       // ControllerZNode
	ControllerEpochPath = "/controller_epoch" // ControllerEpochZNode

	BrokersPath     = "/brokers"        // BrokersZNode
	BrokerIdsPath   = "/brokers/ids"    // BrokerIdsZNode
	BrokerSeqIdPath = "/brokers/seqid"  // BrokerSequenceIdZNode
	TopicsPath      = "/brokers/topics" // TopicsZNode

	ConfigPath        = "/config"         // ConfigZNode
	ConfigChangesPath = "/config/changes" // ConfigEntityChangeNotificationZNode

	AdminPath                    = "/admin"                            // AdminZNode
	DeleteTopicsPath             = "/admin/delete_topics"              // DeleteTopicsZNode
	ReassignPartitionsPath       = "/admin/reassign_partitions"        // ReassignPartitionsZNode
	PreferredReplicaElectionPath = "/admin/preferred_replica_election" // PreferredReplicaElectionZNode

	IsrChangeNotificationPath   = "/isr_change_notification"    // IsrChangeNotificationZNode
	LogDirEventNotificationPath = "/log_dir_event_notification" // LogDirEventNotificationZNode

	ProducerIdBlockPath = "/latest_producer_id_block" // ProducerIdBlockZNode
	ClusterPath         = "/cluster"                  // ClusterZNode
	ClusterIdPath       = "/cluster/id"               // ClusterIdZNode
	FeaturePath         = "/feature"                  // FeatureZNode
	ConsumersPath       = "/consumers"                // ConsumerPathZNode (the old consumer's)
)

// The name prefixes of persistent-sequential children: ZooKeeper appends
// a 10-digit counter. ConfigEntityChangeNotificationSequenceZNode,
// IsrChangeNotificationSequenceZNode and
// LogDirEventNotificationSequenceZNode.SequenceNumberPrefix.
const (
	ConfigChangeSequencePrefix = "config_change_"
	IsrChangeSequencePrefix    = "isr_change_"
	LogDirEventSequencePrefix  = "log_dir_event_"
)

// The config entity types, ConfigType in
// kafka/server/DynamicConfigManager.scala; ConfigEntityTypes is
// ConfigType.all, in its order.
const (
	ConfigTypeTopic  = "topics"
	ConfigTypeClient = "clients"
	ConfigTypeUser   = "users"
	ConfigTypeBroker = "brokers"
	ConfigTypeIp     = "ips"
)

// ConfigEntityTypes is ConfigType.all.
var ConfigEntityTypes = []string{ConfigTypeTopic, ConfigTypeClient, ConfigTypeUser, ConfigTypeBroker, ConfigTypeIp}

// PersistentZkPaths is ZkData.PersistentZkPaths: the persistent znodes
// every broker makes sure exist at startup, in the order
// KafkaZkClient.createTopLevelPaths walks them (each created with
// createRecursive, which creates a missing parent first).
var PersistentZkPaths = []string{
	ConsumersPath,
	BrokerIdsPath,
	TopicsPath,
	ConfigChangesPath,
	DeleteTopicsPath,
	BrokerSeqIdPath,
	IsrChangeNotificationPath,
	ProducerIdBlockPath,
	LogDirEventNotificationPath,
	ConfigEntityTypePath(ConfigTypeTopic),
	ConfigEntityTypePath(ConfigTypeClient),
	ConfigEntityTypePath(ConfigTypeUser),
	ConfigEntityTypePath(ConfigTypeBroker),
	ConfigEntityTypePath(ConfigTypeIp),
}

// BrokerIDPath is BrokerIdZNode.path: /brokers/ids/<id>.
func BrokerIDPath(id int32) string { return BrokerIdsPath + "/" + strconv.Itoa(int(id)) }

// TopicPath is TopicZNode.path: /brokers/topics/<topic>.
func TopicPath(topic string) string { return TopicsPath + "/" + topic }

// TopicPartitionsPath is TopicPartitionsZNode.path:
// /brokers/topics/<topic>/partitions.
func TopicPartitionsPath(topic string) string { return TopicPath(topic) + "/partitions" }

// TopicPartitionPath is TopicPartitionZNode.path:
// /brokers/topics/<topic>/partitions/<p>.
func TopicPartitionPath(topic string, p int32) string {
	return TopicPartitionsPath(topic) + "/" + strconv.Itoa(int(p))
}

// TopicPartitionStatePath is TopicPartitionStateZNode.path:
// /brokers/topics/<topic>/partitions/<p>/state.
func TopicPartitionStatePath(topic string, p int32) string {
	return TopicPartitionPath(topic, p) + "/state"
}

// ConfigEntityTypePath is ConfigEntityTypeZNode.path: /config/<type>.
func ConfigEntityTypePath(entityType string) string { return ConfigPath + "/" + entityType }

// ConfigEntityPath is ConfigEntityZNode.path: /config/<type>/<name>.
func ConfigEntityPath(entityType, name string) string {
	return ConfigEntityTypePath(entityType) + "/" + name
}

// DeleteTopicPath is DeleteTopicsTopicZNode.path: /admin/delete_topics/<topic>.
func DeleteTopicPath(topic string) string { return DeleteTopicsPath + "/" + topic }

// ConfigChangeCreatePath is ConfigEntityChangeNotificationSequenceZNode.createPath,
// the path a sequential create under /config/changes is given.
func ConfigChangeCreatePath() string { return ConfigChangesPath + "/" + ConfigChangeSequencePrefix }

// IsrChangeCreatePath is IsrChangeNotificationSequenceZNode.path(""), the
// path a sequential create under /isr_change_notification is given.
func IsrChangeCreatePath() string { return IsrChangeNotificationPath + "/" + IsrChangeSequencePrefix }

// LogDirEventCreatePath is the path a sequential create under
// /log_dir_event_notification is given (KafkaZkClient.propagateLogDirEvent).
func LogDirEventCreatePath() string {
	return LogDirEventNotificationPath + "/" + LogDirEventSequencePrefix
}
