package protocol

// DescribeLogDirsRequest (API key 35) asks a broker which of its log
// directories hold the named partitions. Only the fields kafkascope reads
// are modelled: no sizes, offset lags or volume totals.
type DescribeLogDirsRequest struct {
	RequestHeader
	Topics []DescribableLogDirTopic
}

// DescribableLogDirTopic names partitions of one topic.
type DescribableLogDirTopic struct {
	Topic      string
	Partitions []int32
}

// DescribeLogDirsResponse lists, per log directory, the asked-for
// partitions it holds.
type DescribeLogDirsResponse struct {
	ResponseHeader
	ErrorCode ErrorCode
	Results   []DescribeLogDirsResult
}

// DescribeLogDirsResult is one log directory.
type DescribeLogDirsResult struct {
	ErrorCode ErrorCode
	LogDir    string
	Topics    []DescribeLogDirsTopic
}

// DescribeLogDirsTopic is one topic's partitions in a log directory.
type DescribeLogDirsTopic struct {
	Name       string
	Partitions []DescribeLogDirsPartition
}

// DescribeLogDirsPartition is one replica in a log directory; IsFutureKey
// marks the future replica of a move between directories (never, here).
type DescribeLogDirsPartition struct {
	PartitionIndex int32
	IsFutureKey    bool
}

func (*DescribeLogDirsRequest) Kind() string  { return "DescribeLogDirs" }
func (*DescribeLogDirsResponse) Kind() string { return "DescribeLogDirsResponse" }
