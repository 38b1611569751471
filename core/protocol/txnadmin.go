package protocol

// The transaction admin APIs (KIP-664, Kafka 3.0; schemas in
// clients/src/main/resources/common/message/ at 3.8.0), which
// kafka-transactions.sh uses: DescribeProducers asks a partition's replica
// for its producer state, DescribeTransactions and ListTransactions ask
// transaction coordinators for their transactional ids. The tool aborts a
// hanging transaction with WriteTxnMarkers, as a coordinator would.

// DescribeProducersRequest (API key 61) names partitions by topic.
type DescribeProducersRequest struct {
	RequestHeader
	Topics []TxnTopic // Name and PartitionIndexes
}

// DescribeProducersResponse answers per partition.
type DescribeProducersResponse struct {
	ResponseHeader
	ThrottleTimeMs int32
	Topics         []DescribeProducersTopic
}

// DescribeProducersTopic is one topic's partitions.
type DescribeProducersTopic struct {
	Name       string
	Partitions []DescribeProducersPartition
}

// DescribeProducersPartition is one partition's active producers, in the
// replica's ProducerStateManager order, or its error.
type DescribeProducersPartition struct {
	PartitionIndex  int32
	ErrorCode       ErrorCode
	ErrorMessage    string // "" for null
	ActiveProducers []ProducerState
}

// ProducerState is one producer as a replica's log knows it.
type ProducerState struct {
	ProducerID            int64
	ProducerEpoch         int32 // int32 on the wire, as the schema has it
	LastSequence          int32 // -1 when none
	LastTimestamp         int64 // -1 when none
	CoordinatorEpoch      int32 // -1 before any marker
	CurrentTxnStartOffset int64 // -1 when no transaction is open
}

// DescribeTransactionsRequest (API key 65) names transactional ids; the
// admin client sends each to its coordinator.
type DescribeTransactionsRequest struct {
	RequestHeader
	TransactionalIDs []string
}

// DescribeTransactionsResponse answers per id.
type DescribeTransactionsResponse struct {
	ResponseHeader
	ThrottleTimeMs    int32
	TransactionStates []DescribedTransaction
}

// DescribedTransaction is one id's state: Kafka's TransactionState name
// (Empty, Ongoing, PrepareCommit, ...), and the partitions of its
// transaction (while preparing, those still without a marker).
type DescribedTransaction struct {
	ErrorCode              ErrorCode
	TransactionalID        string
	TransactionState       string
	TransactionTimeoutMs   int32
	TransactionStartTimeMs int64 // -1 when no transaction started
	ProducerID             int64
	ProducerEpoch          int16
	Topics                 []TxnTopic
}

// ListTransactionsRequest (API key 66): every coordinator lists its
// transactional ids, filtered by state names, producer ids and (v1+) the
// time since the transaction started.
type ListTransactionsRequest struct {
	RequestHeader
	StateFilters      []string
	ProducerIDFilters []int64
	DurationFilter    int64 // v1+; < 0: none
}

// ListTransactionsResponse answers it.
type ListTransactionsResponse struct {
	ResponseHeader
	ThrottleTimeMs      int32
	ErrorCode           ErrorCode
	UnknownStateFilters []string
	TransactionStates   []ListedTransaction
}

// ListedTransaction is one transactional id.
type ListedTransaction struct {
	TransactionalID  string
	ProducerID       int64
	TransactionState string
}

func (*DescribeProducersRequest) Kind() string     { return "DescribeProducers" }
func (*DescribeProducersResponse) Kind() string    { return "DescribeProducersResponse" }
func (*DescribeTransactionsRequest) Kind() string  { return "DescribeTransactions" }
func (*DescribeTransactionsResponse) Kind() string { return "DescribeTransactionsResponse" }
func (*ListTransactionsRequest) Kind() string      { return "ListTransactions" }
func (*ListTransactionsResponse) Kind() string     { return "ListTransactionsResponse" }
