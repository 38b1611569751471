package client

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// FeatureUpdate is one entry of Admin.updateFeatures' map: a feature, its
// new level and how it may move (protocol.UpgradeType*).
type FeatureUpdate struct {
	Name        string
	Level       int16
	UpgradeType int8
}

// UpdateFeatures is Admin.updateFeatures (KafkaAdminClient, KIP-584): one
// UpdateFeatures request of the given version, to the node the metadata
// names as controller (ControllerNodeProvider: a broker, which forwards).
// updates are in the order of the client's HashMap, the request's order.
// done gets each feature's outcome (nil: done). handleResponse: a
// NOT_CONTROLLER answer forgets the controller and retries; another
// top-level error fails every feature with it (ApiError.exception: the
// error's class with the answer's message); a clean answer completes every
// feature when it has no results (v2), else each by its result. A call
// that fails (its deadline) fails every feature.
func (a *Admin) UpdateFeatures(env *sim.Env, updates []FeatureUpdate, validateOnly bool, version int16, done func(env *sim.Env, errs map[string]*Error)) {
	c := a.newCall(env, "updateFeatures", ControllerTarget(), 0)
	c.build = func(ms int32) sim.Message {
		req := &protocol.UpdateFeaturesRequest{Version: version, TimeoutMs: ms, ValidateOnly: validateOnly}
		for _, u := range updates {
			req.FeatureUpdates = append(req.FeatureUpdates, protocol.FeatureUpdateKey{Feature: u.Name, MaxVersionLevel: u.Level, UpgradeType: u.UpgradeType})
		}
		return req
	}
	all := func(err *Error) map[string]*Error {
		out := map[string]*Error{}
		for _, u := range updates {
			out[u.Name] = err
		}
		return out
	}
	c.onResponse = func(env *sim.Env, m sim.Message) *Error {
		resp := m.(*protocol.UpdateFeaturesResponse)
		switch resp.ErrorCode {
		case protocol.NONE:
		case protocol.NOT_CONTROLLER:
			a.md.controller = -1
			a.md.requestUpdate()
			return codeError(resp.ErrorCode)
		default:
			err := codeError(resp.ErrorCode)
			if resp.ErrorMessage != nil {
				err.Message = *resp.ErrorMessage
			}
			done(env, all(err))
			return nil
		}
		out := all(nil)
		if len(resp.Results) > 0 {
			for _, u := range updates {
				// completeUnrealizedFutures: a feature the answer left out.
				out[u.Name] = &Error{Class: "org.apache.kafka.common.errors.ApiException",
					Message: "The controller response did not contain a result for feature " + u.Name}
			}
			for _, r := range resp.Results {
				if _, ok := out[r.Feature]; !ok {
					continue
				}
				out[r.Feature] = nil
				if r.ErrorCode != protocol.NONE {
					err := codeError(r.ErrorCode)
					if r.ErrorMessage != nil {
						err.Message = *r.ErrorMessage
					}
					out[r.Feature] = err
				}
			}
		}
		done(env, out)
		return nil
	}
	c.onFailure = func(env *sim.Env, err *Error) { done(env, all(err)) }
	a.enqueue(env, c)
}
