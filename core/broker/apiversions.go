package broker

import (
	"cmp"
	"slices"

	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleApiVersions answers with the broker's features (KIP-584): the
// ranges its release supports, and the levels finalized in the metadata
// image it has applied, with that image's offset as the epoch (Kafka:
// KRaftMetadataCache.features, whose epoch is the image's highest offset).
func (b *Broker) handleApiVersions(env *sim.Env, from sim.Addr, req *protocol.ApiVersionsRequest) {
	resp := &protocol.ApiVersionsResponse{FinalizedFeaturesEpoch: b.image.Offset}
	resp.CorrelationID = req.CorrelationID
	for _, f := range b.cfg.Release.Features {
		resp.SupportedFeatures = append(resp.SupportedFeatures, protocol.SupportedFeature{Name: f.Name, MinLevel: f.MinLevel, MaxLevel: f.MaxLevel})
	}
	for name, level := range b.image.Features {
		if level > 0 {
			resp.FinalizedFeatures = append(resp.FinalizedFeatures, protocol.FinalizedFeature{Name: name, MaxLevel: level})
		}
	}
	// Map order is not an order: the answer lists features by name.
	slices.SortFunc(resp.FinalizedFeatures, func(a, b protocol.FinalizedFeature) int {
		return cmp.Compare(a.Name, b.Name)
	})
	b.respond(env, from, resp)
}
