package broker

import (
	"fmt"
	"strconv"
	"strings"

	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Dynamic broker configs in the ZooKeeper era (Kafka 2.8.0): a legacy
// AlterConfigs (kafka-configs.sh --alter of a broker, or of the cluster
// default with --entity-default) replaces the entity's dynamic configs
// (ZkAdminManager.alterConfigs → alterBrokerConfigs: the broker named must
// be the one asked; DynamicBrokerConfig.validate), written to
// /config/brokers/N or /config/brokers/<default> with a /config/changes
// notification (AdminZkClient.changeBrokerConfig). Every broker's
// listener applies it (BrokerConfigHandler: the default, or its own id);
// a starting broker reads both znodes first (DynamicBrokerConfig
// .initialize). A topic resource is replaced the same way under
// /config/topics (alterTopicConfigs).

// zkDefaultEntity is ConfigEntityName.Default, the cluster default's
// znode name.
const zkDefaultEntity = "<default>"

// handleAlterConfigsZk answers a legacy AlterConfigs on a ZooKeeper-era
// broker.
func (b *Broker) handleAlterConfigsZk(env *sim.Env, from sim.Addr, req *protocol.AlterConfigsRequest) bool {
	changes := make([]zkConfigChange, len(req.Resources))
	for i, res := range req.Resources {
		changes[i] = zkConfigChange{res.ResourceType, res.ResourceName, func(env *sim.Env, done func(*sim.Env, protocol.ErrorCode, string)) {
			b.alterConfigZk(env, res, req.ValidateOnly, done)
		}}
	}
	b.runConfigChangesZk(env, changes, func(env *sim.Env, results []protocol.AlterConfigsResourceResponse) {
		b.answerLater(env, from, &protocol.AlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, Responses: results})
	})
	return false
}

func (b *Broker) alterConfigZk(env *sim.Env, res protocol.LegacyAlterConfigsResource, validateOnly bool, done func(*sim.Env, protocol.ErrorCode, string)) {
	var nulls []string
	var props []kafkazk.ConfigEntry
	for _, e := range res.Configs {
		if e.Value == nil {
			nulls = append(nulls, e.Name)
			continue
		}
		props = append(props, kafkazk.ConfigEntry{Name: e.Name, Value: *e.Value})
	}
	if len(nulls) > 0 {
		done(env, protocol.INVALID_REQUEST, "Null value not supported for : "+strings.Join(nulls, ","))
		return
	}
	switch res.ResourceType {
	case metadata.ResourceTopic:
		if _, ok := b.image.Topics[res.ResourceName]; !ok {
			done(env, protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("The topic '%s' does not exist.", res.ResourceName))
			return
		}
		if code, msg := b.validateTopicConfigZk(res.ResourceName, props); code != protocol.NONE {
			done(env, code, msg)
			return
		}
		if validateOnly {
			done(env, protocol.NONE, "")
			return
		}
		b.changeEntityConfigZk(env, "topics", res.ResourceName, props, func(env *sim.Env) { done(env, protocol.NONE, "") })
	case metadata.ResourceBroker:
		set := make([]protocol.ConfigEntry, len(res.Configs))
		copy(set, res.Configs)
		if code, msg := b.checkBrokerConfigChangeZk(res.ResourceName, set); code != protocol.NONE {
			done(env, code, msg)
			return
		}
		if validateOnly {
			done(env, protocol.NONE, "")
			return
		}
		name := res.ResourceName
		if name == "" {
			name = zkDefaultEntity
		}
		b.changeEntityConfigZk(env, "brokers", name, props, func(env *sim.Env) { done(env, protocol.NONE, "") })
	default:
		done(env, protocol.INVALID_REQUEST, fmt.Sprintf("AlterConfigs is only supported for topics and brokers, but resource type is %s", resourceTypeName(res.ResourceType)))
	}
}

// invalidConfigValue is how ZkAdminManager's alterConfigs and
// incrementalAlterConfigs report a ConfigException about a resource (an
// InvalidRequestException's message).
func invalidConfigValue(resType int8, name, msg string) string {
	return fmt.Sprintf("Invalid config value for resource ConfigResource(type=%s, name='%s'): %s", resourceTypeName(resType), name, msg)
}

// resourceTypeName is ConfigResource.Type's name.
func resourceTypeName(t int8) string {
	switch t {
	case metadata.ResourceTopic:
		return "TOPIC"
	case metadata.ResourceBroker:
		return "BROKER"
	case 8:
		return "BROKER_LOGGER"
	}
	return "UNKNOWN"
}

// readBrokerConfigsZk reads the cluster default's and this broker's
// dynamic configs into the image (DynamicBrokerConfig.initialize, and
// BrokerConfigHandler for a notification naming either).
func (b *Broker) readBrokerConfigsZk(env *sim.Env, names []string, done func(*sim.Env)) {
	b.readEntityConfigsZk(env, kafkazk.ConfigTypeBroker, names, func(n string, over map[string]string) {
		if n == zkDefaultEntity {
			n = ""
		}
		b.image.SetBrokerConfig(n, over)
	}, done)
}

// ownBrokerConfigs are the broker znodes a broker applies: the cluster
// default and its own.
func (b *Broker) ownBrokerConfigs() []string {
	return []string{zkDefaultEntity, strconv.Itoa(int(b.cfg.NodeID))}
}

// alterBrokerConfigIncrementalZk is incrementalAlterConfigs for a broker
// resource (ZkAdminManager, 2.8.0): the broker's own znode (or the
// cluster default's) is read, the operations applied to it, the result
// validated as a whole (alterBrokerConfigs) and written back with a
// notification.
func (b *Broker) alterBrokerConfigIncrementalZk(env *sim.Env, res protocol.AlterConfigsResource, validateOnly bool, done func(*sim.Env, protocol.ErrorCode, string)) {
	name := res.ResourceName
	entity := name
	if entity == "" {
		entity = zkDefaultEntity
	}
	b.readEntityConfigZk(env, kafkazk.ConfigTypeBroker, entity, func(env *sim.Env, props []kafkazk.ConfigEntry) {
		props, code, msg := b.prepareIncrementalConfigs(kafkazk.ConfigTypeBroker, res.Configs, props)
		if code != protocol.NONE {
			done(env, code, msg)
			return
		}
		set := make([]protocol.ConfigEntry, len(props))
		for i, p := range props {
			set[i] = protocol.ConfigEntry{Name: p.Name, Value: &p.Value}
		}
		if code, msg := b.checkBrokerConfigChangeZk(name, set); code != protocol.NONE {
			done(env, code, msg)
			return
		}
		if validateOnly {
			done(env, protocol.NONE, "")
			return
		}
		b.changeEntityConfigZk(env, kafkazk.ConfigTypeBroker, entity, props, func(env *sim.Env) { done(env, protocol.NONE, "") })
	})
}

// checkBrokerConfigChangeZk is checkBrokerConfigChange as ZkAdminManager
// reports it: DynamicBrokerConfig.validate's ConfigException becomes an
// invalid request about the resource; a wrong broker id stays as it is.
func (b *Broker) checkBrokerConfigChangeZk(name string, set []protocol.ConfigEntry) (protocol.ErrorCode, string) {
	code, msg := b.checkBrokerConfigChange(name, set)
	if code != protocol.NONE && !strings.HasPrefix(msg, "Unexpected broker id") {
		msg = invalidConfigValue(metadata.ResourceBroker, name, msg)
	}
	return code, msg
}
