package protocol

import "fmt"

// InitProducerIdRequest (API key 22): an idempotent (or transactional)
// producer asks any broker's transaction coordinator for a producer id and
// epoch before its first Produce. Without a TransactionalID the broker
// hands out a fresh id with epoch 0.
type InitProducerIdRequest struct {
	RequestHeader
	TransactionalID      string // "" is null (an idempotent producer)
	TransactionTimeoutMs int32
	ProducerID           int64 // -1: a new producer
	ProducerEpoch        int16 // -1: a new producer
}

// InitProducerIdResponse answers it.
type InitProducerIdResponse struct {
	ResponseHeader
	ThrottleTimeMs int32
	ErrorCode      ErrorCode
	ProducerID     int64
	ProducerEpoch  int16
	Cause          *Cause // the simulator's account of ErrorCode, not on the wire (cause.go)
}

func (*InitProducerIdRequest) Kind() string  { return "InitProducerId" }
func (*InitProducerIdResponse) Kind() string { return "InitProducerIdResponse" }

func (r *InitProducerIdResponse) Summary() string {
	if r.ErrorCode != NONE {
		return r.ErrorCode.String()
	}
	return fmt.Sprintf("producerId %d, epoch %d", r.ProducerID, r.ProducerEpoch)
}

// AllocateProducerIdsRequest (API key 67): a broker's transaction
// coordinator asks the active controller for a block of producer ids.
type AllocateProducerIdsRequest struct {
	RequestHeader
	BrokerID    int32
	BrokerEpoch int64
}

// AllocateProducerIdsResponse gives the block [ProducerIDStart,
// ProducerIDStart+ProducerIDLen).
type AllocateProducerIdsResponse struct {
	ResponseHeader
	ThrottleTimeMs  int32
	ErrorCode       ErrorCode
	ProducerIDStart int64
	ProducerIDLen   int32
}

func (*AllocateProducerIdsRequest) Kind() string  { return "AllocateProducerIds" }
func (*AllocateProducerIdsResponse) Kind() string { return "AllocateProducerIdsResponse" }

func (r *AllocateProducerIdsResponse) Summary() string {
	if r.ErrorCode != NONE {
		return r.ErrorCode.String()
	}
	return fmt.Sprintf("producer ids %d..%d", r.ProducerIDStart, r.ProducerIDStart+int64(r.ProducerIDLen)-1)
}
