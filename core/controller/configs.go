package controller

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/config"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// configChange is one resource's requested changes: key → new value (nil
// deletes), in request order.
type configChange struct {
	keys   []string
	values map[string]*string
}

func (ch *configChange) put(key string, v *string) {
	if _, seen := ch.values[key]; !seen {
		ch.keys = append(ch.keys, key)
	}
	ch.values[key] = v
}

// handleIncrementalAlterConfigs applies per-key SET / DELETE / APPEND /
// SUBTRACT operations (ConfigurationControlManager.incrementalAlterConfig).
// Each resource is validated as a whole and either all its ConfigRecords
// are written or none.
func (c *Controller) handleIncrementalAlterConfigs(env *sim.Env, from sim.Addr, req *protocol.IncrementalAlterConfigsRequest) {
	resp := &protocol.IncrementalAlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var recs []metadata.Record
	for _, res := range req.Resources {
		out := protocol.AlterConfigsResourceResponse{ResourceType: res.ResourceType, ResourceName: res.ResourceName}
		current := c.image.Configs[metadata.ConfigResource{Type: res.ResourceType, Name: res.ResourceName}]
		ch := &configChange{values: map[string]*string{}}
		for _, op := range res.Configs {
			if code, msg := c.applyOp(ch, res.ResourceType, current, op); code != protocol.NONE {
				out.ErrorCode, out.ErrorMessage = code, msg
				break
			}
		}
		if out.ErrorCode == protocol.NONE {
			var r []metadata.Record
			r, out.ErrorCode, out.ErrorMessage = c.configRecords(res.ResourceType, res.ResourceName, current, ch)
			if !req.ValidateOnly {
				recs = append(recs, r...)
			}
		}
		resp.Responses = append(resp.Responses, out)
	}
	c.appendRecords(env, append(recs, c.clearElrRecords(recs)...)...)
	c.reply(env, from, resp)
}

// applyOp folds one operation into ch, reading the value it builds on from
// ch itself (an earlier op on the same key) or the current configs.
func (c *Controller) applyOp(ch *configChange, resType int8, current map[string]string, op protocol.AlterableConfig) (protocol.ErrorCode, string) {
	switch op.ConfigOperation {
	case protocol.OpSet:
		ch.put(op.Name, op.Value)
	case protocol.OpDelete:
		ch.put(op.Name, nil)
	case protocol.OpAppend, protocol.OpSubtract:
		opName := protocol.AlterConfigOpName(op.ConfigOperation)
		d, ok := config.TopicDef(op.Name, c.cfg.Release.Version)
		if resType == metadata.ResourceBroker {
			d, ok = config.BrokerDef(op.Name, c.cfg.Release.Version)
		}
		if !ok || d.Type != config.List {
			return protocol.INVALID_CONFIG, fmt.Sprintf("Can't %s to key %s because its type is not LIST.", opName, op.Name)
		}
		var parts []string
		if v, set := ch.values[op.Name]; set {
			if v != nil {
				parts = splitList(*v)
			}
		} else if v, ok := current[op.Name]; ok {
			parts = splitList(v)
		} else if resType == metadata.ResourceTopic {
			parts = splitList(c.conf().Topic(nil, op.Name).Value)
		}
		arg := ""
		if op.Value != nil {
			arg = *op.Value
		}
		for _, v := range strings.Split(arg, ",") {
			if op.ConfigOperation == protocol.OpAppend && !slices.Contains(parts, v) {
				parts = append(parts, v)
			}
			if op.ConfigOperation == protocol.OpSubtract {
				if i := slices.Index(parts, v); i >= 0 {
					parts = slices.Delete(parts, i, i+1)
				}
			}
		}
		joined := strings.Join(parts, ",")
		ch.put(op.Name, &joined)
	default:
		return protocol.INVALID_REQUEST, fmt.Sprintf("Unknown alter config operation %d", op.ConfigOperation)
	}
	return protocol.NONE, ""
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// handleAlterConfigs applies the legacy API: each resource's dynamic configs
// are replaced by the request's set; keys left out are deleted.
func (c *Controller) handleAlterConfigs(env *sim.Env, from sim.Addr, req *protocol.AlterConfigsRequest) {
	resp := &protocol.AlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	var recs []metadata.Record
	for _, res := range req.Resources {
		out := protocol.AlterConfigsResourceResponse{ResourceType: res.ResourceType, ResourceName: res.ResourceName}
		current := c.image.Configs[metadata.ConfigResource{Type: res.ResourceType, Name: res.ResourceName}]
		ch := &configChange{values: map[string]*string{}}
		for _, e := range res.Configs {
			ch.put(e.Name, e.Value)
		}
		for _, k := range sortedKeys(current) {
			if _, kept := ch.values[k]; !kept {
				ch.put(k, nil)
			}
		}
		var r []metadata.Record
		r, out.ErrorCode, out.ErrorMessage = c.configRecords(res.ResourceType, res.ResourceName, current, ch)
		if !req.ValidateOnly {
			recs = append(recs, r...)
		}
		resp.Responses = append(resp.Responses, out)
	}
	c.appendRecords(env, append(recs, c.clearElrRecords(recs)...)...)
	c.reply(env, from, resp)
}

// configRecords validates a resource's change as the controller's
// ControllerConfigurationValidator and existence check do, and returns the
// ConfigRecords that make it. Topic keys that do not change produce no
// record; broker keys always do, so that brokers reload them.
func (c *Controller) configRecords(resType int8, name string, current map[string]string, ch *configChange) ([]metadata.Record, protocol.ErrorCode, string) {
	switch resType {
	case metadata.ResourceTopic:
		if msg := metadata.TopicNameProblem(name); msg != "" {
			return nil, protocol.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: " + msg
		}
		after := map[string]string{}
		for k, v := range current {
			after[k] = v
		}
		for _, k := range ch.keys {
			if v := ch.values[k]; v != nil {
				after[k] = *v
			} else {
				delete(after, k)
			}
		}
		for _, k := range sortedKeys(after) {
			if err := config.ValidateTopic(k, after[k], c.cfg.Release.Version); err != nil {
				return nil, protocol.INVALID_CONFIG, err.Error()
			}
		}
		if msg := compactionLagConflict(c.conf(), after); msg != "" {
			return nil, protocol.INVALID_CONFIG, msg
		}
		if _, ok := c.image.Topics[name]; !ok {
			return nil, protocol.UNKNOWN_TOPIC_OR_PARTITION, fmt.Sprintf("The topic '%s' does not exist.", name)
		}
	case metadata.ResourceBroker:
		if name != "" {
			id, err := strconv.ParseInt(name, 10, 32)
			if err != nil {
				return nil, protocol.INVALID_REQUEST, "Unable to parse broker name as a base 10 number."
			}
			if id < 0 {
				return nil, protocol.INVALID_REQUEST, "Invalid negative broker ID."
			}
		}
	default:
		return nil, protocol.INVALID_REQUEST, fmt.Sprintf("Unknown resource type %d", resType)
	}
	var recs []metadata.Record
	for _, k := range ch.keys {
		v := ch.values[k]
		old, had := current[k]
		unchanged := (v == nil && !had) || (v != nil && had && *v == old)
		if unchanged && resType != metadata.ResourceBroker {
			continue
		}
		if msg := c.elrMinISRProblem(resType, name, k, v); msg != "" {
			return nil, protocol.INVALID_CONFIG, msg
		}
		recs = append(recs, &metadata.ConfigRecord{ResourceType: resType, ResourceName: name, Name: k, Value: v})
	}
	return recs, protocol.NONE, ""
}

// clearElrRecords are the ClearElrRecords that follow a request's config
// records while eligible leader replicas are on
// (ConfigurationControlManager.createClearElrRecordsAsNeeded): each
// min.insync.replicas that is set or removed invalidates the ELRs chosen
// against it, of its topic or, for a broker-level value, of every topic.
func (c *Controller) clearElrRecords(recs []metadata.Record) []metadata.Record {
	if !c.elrEnabled() {
		return nil
	}
	var out []metadata.Record
	for _, r := range recs {
		if cr, ok := r.(*metadata.ConfigRecord); ok && cr.Name == "min.insync.replicas" {
			topic := ""
			if cr.ResourceType == metadata.ResourceTopic {
				topic = cr.ResourceName
			}
			out = append(out, &metadata.ClearElrRecord{TopicName: topic})
		}
	}
	return out
}

// elrMinISRProblem is what ConfigurationControlManager refuses while
// eligible leader replicas are on: ELR's safety rests on one cluster-wide
// min.insync.replicas (KAFKA-16540), so a broker may not have its own and
// the cluster-level one may not be removed.
func (c *Controller) elrMinISRProblem(resType int8, name, key string, value *string) string {
	if key != "min.insync.replicas" || resType != metadata.ResourceBroker || !c.elrEnabled() {
		return ""
	}
	switch {
	case name != "":
		return "Broker-level min.insync.replicas cannot be altered while ELR is enabled."
	case value == nil:
		return "Cluster-level min.insync.replicas cannot be removed while ELR is enabled."
	}
	return ""
}

// compactionLagConflict is LogConfig's check that a topic's
// min.compaction.lag.ms is not above its max.compaction.lag.ms.
func compactionLagConflict(conf config.Layers, overrides map[string]string) string {
	minLag := conf.TopicInt(overrides, config.MinCompactionLagMs)
	maxLag := conf.TopicInt(overrides, config.MaxCompactionLagMs)
	if minLag > maxLag {
		return fmt.Sprintf("conflict topic config setting %s (%d) > %s (%d)", config.MinCompactionLagMs, minLag, config.MaxCompactionLagMs, maxLag)
	}
	return ""
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
