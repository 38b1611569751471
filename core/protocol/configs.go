package protocol

import "strconv"

// Config sources, as DescribeConfigs reports them (wire values).
const (
	SourceUnknown              int8 = 0
	SourceDynamicTopicConfig   int8 = 1
	SourceDynamicBrokerConfig  int8 = 2
	SourceDynamicDefaultBroker int8 = 3
	SourceStaticBrokerConfig   int8 = 4
	SourceDefaultConfig        int8 = 5
)

// DescribeConfigsRequest (API key 32), answered by a broker from its
// metadata image and its own configs.
type DescribeConfigsRequest struct {
	RequestHeader
	Resources       []DescribeConfigsResource
	IncludeSynonyms bool
}

// DescribeConfigsResource names a resource and (optionally) keys.
type DescribeConfigsResource struct {
	ResourceType int8
	ResourceName string
	Keys         []string // nil = all
}

// DescribeConfigsResponse answers it.
type DescribeConfigsResponse struct {
	ResponseHeader
	Results []DescribeConfigsResult
}

// DescribeConfigsResult is one resource's configs.
type DescribeConfigsResult struct {
	ErrorCode    ErrorCode
	ErrorMessage string
	ResourceType int8
	ResourceName string
	Configs      []DescribedConfig
}

// DescribedConfig is one config's value and where it came from.
type DescribedConfig struct {
	Name      string
	Value     string
	Null      bool // the value is null (sensitive, or no default)
	ReadOnly  bool
	Source    int8
	Sensitive bool
	Synonyms  []ConfigSynonym // only when IncludeSynonyms was asked
}

// ConfigSynonym is one place the value could come from, most specific
// first.
type ConfigSynonym struct {
	Name   string
	Value  string
	Source int8
}

// Operations of IncrementalAlterConfigs.
const (
	OpSet      int8 = 0
	OpDelete   int8 = 1
	OpAppend   int8 = 2
	OpSubtract int8 = 3
)

// AlterConfigOpName is AlterConfigOp.OpType's name (SET, DELETE, APPEND,
// SUBTRACT), the number for an unknown one.
func AlterConfigOpName(op int8) string {
	switch op {
	case OpSet:
		return "SET"
	case OpDelete:
		return "DELETE"
	case OpAppend:
		return "APPEND"
	case OpSubtract:
		return "SUBTRACT"
	}
	return strconv.Itoa(int(op))
}

// IncrementalAlterConfigsRequest (API key 44) sets or deletes individual
// configs of a resource. Brokers forward topic changes to the controller,
// which validates them and writes ConfigRecords.
type IncrementalAlterConfigsRequest struct {
	RequestHeader
	Resources    []AlterConfigsResource
	ValidateOnly bool
}

// AlterConfigsResource is one resource's changes.
type AlterConfigsResource struct {
	ResourceType int8
	ResourceName string
	Configs      []AlterableConfig
}

// AlterableConfig is one change.
type AlterableConfig struct {
	Name            string
	ConfigOperation int8
	Value           *string
}

// IncrementalAlterConfigsResponse answers it, per resource.
type IncrementalAlterConfigsResponse struct {
	ResponseHeader
	Responses []AlterConfigsResourceResponse
}

// AlterConfigsResourceResponse is one resource's outcome.
type AlterConfigsResourceResponse struct {
	ErrorCode    ErrorCode
	ErrorMessage string
	ResourceType int8
	ResourceName string
}

// AlterConfigsRequest (API key 33, the legacy API) replaces a resource's
// whole set of dynamic configs. kafka-configs.sh still uses it for
// brokers.
type AlterConfigsRequest struct {
	RequestHeader
	Resources    []LegacyAlterConfigsResource
	ValidateOnly bool
}

// LegacyAlterConfigsResource is one resource's complete new dynamic config.
type LegacyAlterConfigsResource struct {
	ResourceType int8
	ResourceName string
	Configs      []ConfigEntry
}

// AlterConfigsResponse answers it, per resource.
type AlterConfigsResponse struct {
	ResponseHeader
	Responses []AlterConfigsResourceResponse
}

func (*DescribeConfigsRequest) Kind() string          { return "DescribeConfigs" }
func (*DescribeConfigsResponse) Kind() string         { return "DescribeConfigsResponse" }
func (*IncrementalAlterConfigsRequest) Kind() string  { return "IncrementalAlterConfigs" }
func (*IncrementalAlterConfigsResponse) Kind() string { return "IncrementalAlterConfigsResponse" }
func (*AlterConfigsRequest) Kind() string             { return "AlterConfigs" }
func (*AlterConfigsResponse) Kind() string            { return "AlterConfigsResponse" }

// AlterConfigsResults is the per-resource results of either alter-configs
// response (the incremental API or the legacy one), nil for anything else.
func AlterConfigsResults(resp Response) []AlterConfigsResourceResponse {
	switch m := resp.(type) {
	case *IncrementalAlterConfigsResponse:
		return m.Responses
	case *AlterConfigsResponse:
		return m.Responses
	}
	return nil
}
