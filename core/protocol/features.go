package protocol

// UpdateFeaturesRequest (API key 57, KIP-584) asks the controller to
// finalize feature levels. Brokers forward it to the controller. Version
// is the one the client and broker agreed on: 1 for a 3.8 client
// (per-feature results), 2 from Kafka 4.0 (one top-level error that fails
// every feature; UpdateFeaturesResponse.json drops Results at v2).
type UpdateFeaturesRequest struct {
	RequestHeader
	Version        int16
	TimeoutMs      int32
	FeatureUpdates []FeatureUpdateKey
	ValidateOnly   bool // v1+
}

// FeatureUpdateKey is one feature's new level and how it may move
// (FeatureUpdate.UpgradeType's codes: 1 upgrade, 2 safe downgrade, 3
// unsafe downgrade).
type FeatureUpdateKey struct {
	Feature         string
	MaxVersionLevel int16
	UpgradeType     int8
}

// UpgradeType codes (FeatureUpdate.UpgradeType).
const (
	UpgradeTypeUpgrade         int8 = 1
	UpgradeTypeSafeDowngrade   int8 = 2
	UpgradeTypeUnsafeDowngrade int8 = 3
)

// UpdateFeaturesResponse answers it: a top-level error, and up to v1 a
// result per feature.
type UpdateFeaturesResponse struct {
	ResponseHeader
	ErrorCode    ErrorCode
	ErrorMessage *string
	Results      []UpdatableFeatureResult // v0-1
}

// UpdatableFeatureResult is one feature's outcome (v0-1).
type UpdatableFeatureResult struct {
	Feature      string
	ErrorCode    ErrorCode
	ErrorMessage *string
}

func (*UpdateFeaturesRequest) Kind() string  { return "UpdateFeatures" }
func (*UpdateFeaturesResponse) Kind() string { return "UpdateFeaturesResponse" }
