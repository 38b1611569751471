package broker

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/config"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
	"kafkascope/core/zookeeper"
)

// Topic config changes in the ZooKeeper era (Kafka 2.8.0): any broker
// takes an IncrementalAlterConfigs for a topic (ZkAdminManager
// .incrementalAlterConfigs): it reads /config/topics/T, applies the
// operations (prepareIncrementalConfigs), validates (alterTopicConfigs,
// AdminZkClient.validateTopicConfig, LogConfig.validate), writes the
// znode back and creates a change notification
// /config/changes/config_change_N (AdminZkClient.changeEntityConfig),
// then answers. Every broker watches /config/changes (DynamicConfigManager
// with ZkNodeChangeNotificationListener) and re-reads the topic's
// znode for each new notification. A broker resource goes the same way
// (zkbrokerconfigs.go): kafka-reassign-partitions.sh clears throttles so.

// configChangeExpiration is ZkNodeChangeNotificationListener's
// changeExpirationMs: a notification older than 15 minutes is deleted by
// the next broker that processes notifications.
const configChangeExpiration = 15 * 60 * 1000

// handleIncrementalAlterConfigsZk answers an IncrementalAlterConfigs on a
// ZooKeeper-era broker.
func (b *Broker) handleIncrementalAlterConfigsZk(env *sim.Env, from sim.Addr, req *protocol.IncrementalAlterConfigsRequest) bool {
	changes := make([]zkConfigChange, len(req.Resources))
	for i, res := range req.Resources {
		changes[i] = zkConfigChange{res.ResourceType, res.ResourceName, func(env *sim.Env, done func(*sim.Env, protocol.ErrorCode, string)) {
			b.alterTopicConfigZk(env, res, req.ValidateOnly, done)
		}}
	}
	b.runConfigChangesZk(env, changes, func(env *sim.Env, results []protocol.AlterConfigsResourceResponse) {
		b.answerLater(env, from, &protocol.IncrementalAlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}, Responses: results})
	})
	return false
}

// zkConfigChange is one resource of a config change request.
type zkConfigChange struct {
	typ  int8
	name string
	run  func(env *sim.Env, done func(*sim.Env, protocol.ErrorCode, string))
}

// runConfigChangesZk runs the changes one after the other (the request
// handler thread blocks on each ZooKeeper call), then answers with each
// resource's outcome in request order.
func (b *Broker) runConfigChangesZk(env *sim.Env, changes []zkConfigChange, answer func(*sim.Env, []protocol.AlterConfigsResourceResponse)) {
	var results []protocol.AlterConfigsResourceResponse
	var next func(env *sim.Env, i int)
	next = func(env *sim.Env, i int) {
		if i == len(changes) {
			answer(env, results)
			return
		}
		c := changes[i]
		c.run(env, func(env *sim.Env, code protocol.ErrorCode, msg string) {
			results = append(results, protocol.AlterConfigsResourceResponse{ErrorCode: code, ErrorMessage: msg, ResourceType: c.typ, ResourceName: c.name})
			next(env, i+1)
		})
	}
	next(env, 0)
}

// alterTopicConfigZk is one resource of incrementalAlterConfigs.
func (b *Broker) alterTopicConfigZk(env *sim.Env, res protocol.AlterConfigsResource, validateOnly bool, done func(*sim.Env, protocol.ErrorCode, string)) {
	if res.ResourceType != metadata.ResourceTopic && res.ResourceType != metadata.ResourceBroker {
		done(env, protocol.UNKNOWN_SERVER_ERROR, "")
		return
	}
	var dup []string
	seen := map[string]bool{}
	var nulls []string
	for _, op := range res.Configs {
		if seen[op.Name] && !slices.Contains(dup, op.Name) {
			dup = append(dup, op.Name)
		}
		seen[op.Name] = true
		if op.Value == nil && op.ConfigOperation != protocol.OpDelete {
			nulls = append(nulls, protocol.AlterConfigOpName(op.ConfigOperation)+":"+op.Name)
		}
	}
	if len(dup) > 0 {
		done(env, protocol.INVALID_REQUEST, "Error due to duplicate config keys : "+strings.Join(dup, ","))
		return
	}
	if len(nulls) > 0 {
		done(env, protocol.INVALID_REQUEST, "Null value not supported for : "+strings.Join(nulls, ","))
		return
	}
	if res.ResourceType == metadata.ResourceBroker {
		b.alterBrokerConfigIncrementalZk(env, res, validateOnly, done)
		return
	}
	topic := res.ResourceName
	b.readEntityConfigZk(env, kafkazk.ConfigTypeTopic, topic, func(env *sim.Env, props []kafkazk.ConfigEntry) {
		props, code, msg := b.prepareIncrementalConfigs(kafkazk.ConfigTypeTopic, res.Configs, props)
		if code != protocol.NONE {
			done(env, code, msg)
			return
		}
		if _, ok := b.image.Topics[topic]; !ok {
			done(env, protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("The topic '%s' does not exist.", topic))
			return
		}
		if code, msg := b.validateTopicConfigZk(topic, props); code != protocol.NONE {
			done(env, code, msg)
			return
		}
		if validateOnly {
			done(env, protocol.NONE, "")
			return
		}
		b.changeEntityConfigZk(env, "topics", topic, props, func(env *sim.Env) { done(env, protocol.NONE, "") })
	})
}

// readEntityConfigZk reads /config/<type>/<name> as Properties, in their
// order (AdminZkClient.fetchEntityConfig: none if it is missing).
func (b *Broker) readEntityConfigZk(env *sim.Env, entityType, name string, k func(env *sim.Env, props []kafkazk.ConfigEntry)) {
	b.zk.client.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.ConfigEntityPath(entityType, name)}, func(env *sim.Env, r kafkazk.Resp) {
		var props []kafkazk.ConfigEntry
		if r.Rc == zookeeper.OK {
			props, _ = kafkazk.DecodeEntityConfigEntries(r.Data)
		}
		k(env, props)
	})
}

// prepareIncrementalConfigs applies the operations to the Properties read
// from the znode, as 2.8 does: APPEND adds the values to the list as they
// are (duplicates kept), SUBTRACT removes one occurrence of each.
// entityType says whose config keys (and defaults) APPEND and SUBTRACT
// use: "topics" (LogConfig.configKeys) or "brokers" (KafkaConfig.configKeys).
func (b *Broker) prepareIncrementalConfigs(entityType string, ops []protocol.AlterableConfig, props []kafkazk.ConfigEntry) ([]kafkazk.ConfigEntry, protocol.ErrorCode, string) {
	get := func(name string) (string, bool) {
		for _, e := range props {
			if e.Name == name {
				return e.Value, true
			}
		}
		return "", false
	}
	set := func(name, value string) {
		for i := range props {
			if props[i].Name == name {
				props[i].Value = value
				return
			}
		}
		props = append(props, kafkazk.ConfigEntry{Name: name, Value: value})
	}
	rel := b.cfg.Release.Version
	for _, op := range ops {
		switch op.ConfigOperation {
		case protocol.OpSet:
			set(op.Name, *op.Value)
		case protocol.OpDelete:
			props = slices.DeleteFunc(props, func(e kafkazk.ConfigEntry) bool { return e.Name == op.Name })
		case protocol.OpAppend, protocol.OpSubtract:
			d, ok := config.TopicDef(op.Name, rel)
			if entityType == kafkazk.ConfigTypeBroker {
				d, ok = config.BrokerDef(op.Name, rel)
			}
			if !ok {
				// configKeys(name): a Scala Map's apply.
				return nil, protocol.UNKNOWN_SERVER_ERROR, "key not found: " + op.Name
			}
			verb := "append"
			if op.ConfigOperation == protocol.OpSubtract {
				verb = "subtract"
			}
			if d.Type != config.List {
				return nil, protocol.INVALID_REQUEST, fmt.Sprintf("Config value %s is not allowed for config key: %s", verb, op.Name)
			}
			old, ok := get(op.Name)
			if !ok && entityType == kafkazk.ConfigTypeBroker {
				old = b.conf().Broker(op.Name)
			} else if !ok {
				old = b.conf().Topic(nil, op.Name).Value
			}
			list := strings.Split(old, ",")
			for _, v := range strings.Split(*op.Value, ",") {
				if op.ConfigOperation == protocol.OpAppend {
					list = append(list, v)
				} else if i := slices.Index(list, v); i >= 0 {
					list = slices.Delete(list, i, i+1)
				}
			}
			set(op.Name, strings.Join(list, ","))
		default:
			return nil, protocol.INVALID_REQUEST, fmt.Sprintf("Unknown alter config operation %d", op.ConfigOperation)
		}
	}
	return props, protocol.NONE, ""
}

// validateTopicConfigZk is AdminZkClient.validateTopicConfig's
// LogConfig.validate: names first (InvalidConfigurationException), then
// values (a ConfigException, which incrementalAlterConfigs reports as an
// invalid request about the resource), then the compaction lags.
func (b *Broker) validateTopicConfigZk(topic string, props []kafkazk.ConfigEntry) (protocol.ErrorCode, string) {
	rel := b.cfg.Release.Version
	over := map[string]string{}
	for _, e := range props {
		if _, ok := config.TopicDef(e.Name, rel); !ok {
			return protocol.INVALID_CONFIG, "Unknown topic config name: " + e.Name
		}
		over[e.Name] = e.Value
	}
	for _, e := range props {
		if err := config.ValidateTopic(e.Name, e.Value, rel); err != nil {
			return protocol.INVALID_REQUEST, invalidConfigValue(metadata.ResourceTopic, topic, err.Error())
		}
	}
	conf := b.conf()
	minLag, maxLag := conf.TopicInt(over, config.MinCompactionLagMs), conf.TopicInt(over, config.MaxCompactionLagMs)
	if minLag > maxLag {
		return protocol.INVALID_CONFIG, fmt.Sprintf("conflict topic config setting %s (%d) > %s (%d)", config.MinCompactionLagMs, minLag, config.MaxCompactionLagMs, maxLag)
	}
	return protocol.NONE, ""
}

// changeEntityConfigZk is AdminZkClient.changeEntityConfig: set the
// entity's znode (or create it), then make sure /config/changes exists
// and create the sequential notification naming "<type>/<name>".
func (b *Broker) changeEntityConfigZk(env *sim.Env, entityType, name string, props []kafkazk.ConfigEntry, done func(*sim.Env)) {
	zk := b.zk.client
	path := kafkazk.ConfigEntityPath(entityType, name)
	data := kafkazk.EncodeEntityConfigEntries(props)
	notify := func(env *sim.Env) {
		b.createRecursive(env, kafkazk.ConfigChangesPath, nil, func(env *sim.Env, _ zookeeper.Code) {
			zk.One(env, kafkazk.Req{Type: zookeeper.OpCreate, Path: kafkazk.ConfigChangeCreatePath(), Mode: zookeeper.PersistentSequential,
				Data: kafkazk.EncodeConfigChangeNotification(entityType + "/" + name)}, func(env *sim.Env, _ kafkazk.Resp) { done(env) })
		})
	}
	zk.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: data, Version: -1}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.NoNode {
			notify(env)
			return
		}
		b.createRecursive(env, path, data, func(env *sim.Env, rc zookeeper.Code) {
			if rc == zookeeper.NodeExists {
				zk.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: path, Data: data, Version: -1}, func(env *sim.Env, _ kafkazk.Resp) { notify(env) })
				return
			}
			notify(env)
		})
	})
}

// startConfigChangeListener is DynamicConfigManager.startup: watch
// /config/changes and process what is there already.
func (b *Broker) startConfigChangeListener(env *sim.Env) {
	b.zk.lastConfigChange = -1
	b.zk.client.RegisterChildHandler(kafkazk.ConfigChangesPath, b.processConfigChanges)
	b.processConfigChanges(env)
}

// processConfigChanges is ZkNodeChangeNotificationListener
// .processNotifications: list the notifications (re-arming the watch),
// process each newer than the last one processed in order, then delete
// those older than 15 minutes.
func (b *Broker) processConfigChanges(env *sim.Env) {
	zk := b.zk.client
	zk.One(env, kafkazk.Req{Type: zookeeper.OpGetChildren2, Path: kafkazk.ConfigChangesPath, RegisterWatch: true}, func(env *sim.Env, r kafkazk.Resp) {
		if b.state == StateStopped || r.Rc != zookeeper.OK || len(r.Children) == 0 {
			return
		}
		names := slices.Clone(r.Children)
		slices.Sort(names)
		now := env.Now().UnixMilli()
		var newer []string
		for _, n := range names {
			if id, ok := configChangeNumber(n); ok && id > b.zk.lastConfigChange {
				newer = append(newer, n)
				b.zk.lastConfigChange = id
			}
		}
		b.processConfigNotifications(env, newer, func(env *sim.Env) { b.purgeConfigChanges(env, names, now) })
	})
}

func (b *Broker) processConfigNotifications(env *sim.Env, names []string, done func(*sim.Env)) {
	if len(names) == 0 {
		done(env)
		return
	}
	zk := b.zk.client
	zk.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.ConfigChangesPath + "/" + names[0]}, func(env *sim.Env, r kafkazk.Resp) {
		rest := func(env *sim.Env) { b.processConfigNotifications(env, names[1:], done) }
		if r.Rc != zookeeper.OK {
			rest(env)
			return
		}
		entityType, name, ok := kafkazk.DecodeConfigChangeNotification(r.Data)
		if ok && entityType == "brokers" && slices.Contains(b.ownBrokerConfigs(), name) {
			b.readBrokerConfigsZk(env, []string{name}, rest)
			return
		}
		if !ok || entityType != "topics" {
			rest(env)
			return
		}
		b.readTopicConfigs(env, map[string]bool{name: true}, func(env *sim.Env) {
			for key := range b.partitions {
				if key.Topic == name {
					b.reconcile(env, key)
				}
			}
			rest(env)
		})
	})
}

// purgeConfigChanges is purgeObsoleteNotifications.
func (b *Broker) purgeConfigChanges(env *sim.Env, names []string, now int64) {
	zk := b.zk.client
	for _, n := range names {
		path := kafkazk.ConfigChangesPath + "/" + n
		zk.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: path}, func(env *sim.Env, r kafkazk.Resp) {
			if r.Rc == zookeeper.OK && now-r.Stat.Ctime > configChangeExpiration {
				zk.One(env, kafkazk.Req{Type: zookeeper.OpDelete, Path: path, Version: -1}, func(*sim.Env, kafkazk.Resp) {})
			}
		})
	}
}

// configChangeNumber reads N from config_change_N.
func configChangeNumber(name string) (int64, bool) {
	s, ok := strings.CutPrefix(name, kafkazk.ConfigChangeSequencePrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
