package broker

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

// handleDescribeConfigs reports a topic's configs, this broker's, or the
// cluster-wide dynamic defaults (resource name ""), each with its source and,
// when asked, its synonyms (ConfigHelper.describeConfigs).
func (b *Broker) handleDescribeConfigs(env *sim.Env, from sim.Addr, req *protocol.DescribeConfigsRequest) {
	resp := &protocol.DescribeConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: req.CorrelationID}}
	conf := b.conf()
	for _, res := range req.Resources {
		r := protocol.DescribeConfigsResult{ResourceType: res.ResourceType, ResourceName: res.ResourceName}
		want := func(name string) bool { return res.Keys == nil || slices.Contains(res.Keys, name) }
		switch res.ResourceType {
		case metadata.ResourceTopic:
			if msg := metadata.TopicNameProblem(res.ResourceName); msg != "" {
				r.ErrorCode, r.ErrorMessage = protocol.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: "+msg
				break
			}
			if _, ok := b.image.Topics[res.ResourceName]; !ok {
				r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
				break
			}
			overrides := b.image.TopicConfig(res.ResourceName)
			for _, e := range conf.TopicAll(overrides) {
				if want(e.Name) {
					dc := protocol.DescribedConfig{Name: e.Name, Value: e.Value, Source: sourceCode(e.Source)}
					if req.IncludeSynonyms {
						dc.Synonyms = synonymsOf(conf.TopicSynonyms(overrides, e.Name))
					}
					r.Configs = append(r.Configs, dc)
				}
			}
		case metadata.ResourceBroker:
			own := strconv.Itoa(int(b.cfg.NodeID))
			if res.ResourceName != "" && res.ResourceName != own {
				r.ErrorCode = protocol.INVALID_REQUEST
				r.ErrorMessage = fmt.Sprintf("Unexpected broker id, expected %d or empty string, but received %s", b.cfg.NodeID, res.ResourceName)
				break
			}
			for _, e := range conf.BrokerAll(res.ResourceName != "") {
				if want(e.Name) {
					dc := protocol.DescribedConfig{Name: e.Name, Value: e.Value, Null: e.Null, ReadOnly: e.ReadOnly, Source: sourceCode(e.Source)}
					if req.IncludeSynonyms {
						dc.Synonyms = synonymsOf(e.Synonyms)
					}
					r.Configs = append(r.Configs, dc)
				}
			}
		default:
			r.ErrorCode = protocol.INVALID_REQUEST
			r.ErrorMessage = fmt.Sprintf("Unsupported resource type: %d", res.ResourceType)
		}
		resp.Results = append(resp.Results, r)
	}
	b.respond(env, from, resp)
}

func synonymsOf(ss []config.Synonym) []protocol.ConfigSynonym {
	out := make([]protocol.ConfigSynonym, len(ss))
	for i, s := range ss {
		out[i] = protocol.ConfigSynonym{Name: s.Name, Value: s.Value, Source: sourceCode(s.Source)}
	}
	return out
}

func sourceCode(s config.Source) int8 {
	switch s {
	case config.SourceDynamicTopic:
		return protocol.SourceDynamicTopicConfig
	case config.SourceDynamicBroker:
		return protocol.SourceDynamicBrokerConfig
	case config.SourceDynamicDefaultBroker:
		return protocol.SourceDynamicDefaultBroker
	case config.SourceStaticBroker:
		return protocol.SourceStaticBrokerConfig
	}
	return protocol.SourceDefaultConfig
}

// checkBrokerConfigChange validates changes to a broker resource before
// they are forwarded, as ConfigAdminManager.preprocess does: the resource
// must be this broker or the cluster default, and every set key must be
// dynamically updatable and of the right type. The error is
// INVALID_REQUEST with Kafka's ConfigException message.
func (b *Broker) checkBrokerConfigChange(name string, set []protocol.ConfigEntry) (protocol.ErrorCode, string) {
	if name != "" && name != strconv.Itoa(int(b.cfg.NodeID)) {
		return protocol.INVALID_REQUEST, fmt.Sprintf("Unexpected broker id, expected %d, but received %s", b.cfg.NodeID, name)
	}
	var readOnly []string
	for _, e := range set {
		if config.IsReadOnlyBrokerConfig(e.Name, b.cfg.Release.Version) {
			readOnly = append(readOnly, e.Name)
		}
	}
	if len(readOnly) > 0 {
		if b.cfg.Release.Version.AtLeast(4, 3) {
			// DynamicBrokerConfig moved to Java in 4.3: a List prints [a, b].
			return protocol.INVALID_REQUEST, "Cannot update these configs dynamically: [" + strings.Join(readOnly, ", ") + "]"
		}
		return protocol.INVALID_REQUEST, "Cannot update these configs dynamically: " + scalaSet(readOnly)
	}
	for _, e := range set {
		if d, ok := config.BrokerDef(e.Name, b.cfg.Release.Version); ok && e.Value != nil {
			if _, err := d.Parse(*e.Value, b.cfg.Release.Version); err != nil {
				return protocol.INVALID_REQUEST, err.Error()
			}
		}
	}
	return protocol.NONE, ""
}

// scalaSet prints names as Scala's Set.toString does for a small set.
func scalaSet(names []string) string { return "Set(" + strings.Join(names, ", ") + ")" }

// handleAlterConfigs checks the broker resources of a legacy AlterConfigs
// and forwards the rest to the controller, merging the answers.
func (b *Broker) handleAlterConfigs(env *sim.Env, from sim.Addr, req *protocol.AlterConfigsRequest) bool {
	failed := map[int]protocol.AlterConfigsResourceResponse{}
	fwd := &protocol.AlterConfigsRequest{ValidateOnly: req.ValidateOnly}
	for i, res := range req.Resources {
		if res.ResourceType == metadata.ResourceBroker {
			if code, msg := b.checkBrokerConfigChange(res.ResourceName, res.Configs); code != protocol.NONE {
				failed[i] = protocol.AlterConfigsResourceResponse{ErrorCode: code, ErrorMessage: msg, ResourceType: res.ResourceType, ResourceName: res.ResourceName}
				continue
			}
		}
		fwd.Resources = append(fwd.Resources, res)
	}
	return b.forwardConfigChange(env, from, req.CorrelationID, len(req.Resources), failed, fwd, len(fwd.Resources))
}

// handleIncrementalAlterConfigs does the same for IncrementalAlterConfigs.
func (b *Broker) handleIncrementalAlterConfigs(env *sim.Env, from sim.Addr, req *protocol.IncrementalAlterConfigsRequest) bool {
	failed := map[int]protocol.AlterConfigsResourceResponse{}
	fwd := &protocol.IncrementalAlterConfigsRequest{ValidateOnly: req.ValidateOnly}
	for i, res := range req.Resources {
		if res.ResourceType == metadata.ResourceBroker {
			var set []protocol.ConfigEntry
			for _, c := range res.Configs {
				if c.ConfigOperation != protocol.OpDelete {
					set = append(set, protocol.ConfigEntry{Name: c.Name, Value: c.Value})
				}
			}
			if code, msg := b.checkBrokerConfigChange(res.ResourceName, set); code != protocol.NONE {
				failed[i] = protocol.AlterConfigsResourceResponse{ErrorCode: code, ErrorMessage: msg, ResourceType: res.ResourceType, ResourceName: res.ResourceName}
				continue
			}
		}
		fwd.Resources = append(fwd.Resources, res)
	}
	return b.forwardConfigChange(env, from, req.CorrelationID, len(req.Resources), failed, fwd, len(fwd.Resources))
}

// forwardConfigChange sends the resources that passed the broker's checks
// to the controller and answers the client with every resource's outcome,
// in request order. It reports whether the request is finished.
func (b *Broker) forwardConfigChange(env *sim.Env, from sim.Addr, corr int32, total int, failed map[int]protocol.AlterConfigsResourceResponse, fwd protocol.Request, nfwd int) bool {
	merge := func(forwarded []protocol.AlterConfigsResourceResponse) []protocol.AlterConfigsResourceResponse {
		out := make([]protocol.AlterConfigsResourceResponse, 0, total)
		for i := 0; i < total; i++ {
			if f, ok := failed[i]; ok {
				out = append(out, f)
			} else if len(forwarded) > 0 {
				out = append(out, forwarded[0])
				forwarded = forwarded[1:]
			}
		}
		return out
	}
	answer := func(env *sim.Env, forwarded []protocol.AlterConfigsResourceResponse) {
		var resp protocol.Response
		if _, ok := fwd.(*protocol.AlterConfigsRequest); ok {
			resp = &protocol.AlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}, Responses: merge(forwarded)}
		} else {
			resp = &protocol.IncrementalAlterConfigsResponse{ResponseHeader: protocol.ResponseHeader{CorrelationID: corr}, Responses: merge(forwarded)}
		}
		b.respond(env, from, resp)
	}
	if nfwd == 0 {
		answer(env, nil)
		return true
	}
	b.sendToController(env, fwd, forwardingRetryTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		forwarded := protocol.AlterConfigsResults(resp)
		if err != nil || len(forwarded) != nfwd {
			forwarded = make([]protocol.AlterConfigsResourceResponse, nfwd)
			for i := range forwarded {
				forwarded[i].ErrorCode = protocol.REQUEST_TIMED_OUT
			}
		}
		answer(env, forwarded)
		b.done(env, from)
	})
	return false
}
