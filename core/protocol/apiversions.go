package protocol

// ApiVersionsRequest (API key 18) is what a client sends first on every
// connection. kafkascope's clients skip it on the wire (admin_net.go counts
// its correlation id) except where a tool reads its answer: the feature
// ranges and levels of Admin.describeFeatures (kafka-features.sh
// describe, KIP-584).
type ApiVersionsRequest struct {
	RequestHeader
}

// ApiVersionsResponse carries the broker's features (KIP-584):
// SupportedFeatures are the ranges its software supports (sorted by name),
// FinalizedFeatures the levels finalized in the cluster's metadata as the
// broker's image has them, and FinalizedFeaturesEpoch that image's offset
// in __cluster_metadata (-1 before the broker has an image).
type ApiVersionsResponse struct {
	ResponseHeader
	ErrorCode              ErrorCode
	SupportedFeatures      []SupportedFeature
	FinalizedFeatures      []FinalizedFeature
	FinalizedFeaturesEpoch int64
}

// SupportedFeature is a feature's supported level range.
type SupportedFeature struct {
	Name     string
	MinLevel int16
	MaxLevel int16
}

// FinalizedFeature is a feature's finalized level.
type FinalizedFeature struct {
	Name     string
	MaxLevel int16
}

func (*ApiVersionsRequest) Kind() string  { return "ApiVersions" }
func (*ApiVersionsResponse) Kind() string { return "ApiVersionsResponse" }
