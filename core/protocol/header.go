package protocol

import "kafkascope/core/sim"

// RequestHeader is carried by every request: the correlation id the
// response will echo, and the client id (Kafka's request header).
type RequestHeader struct {
	CorrelationID int32
	ClientID      string
}

// ResponseHeader echoes the request's correlation id.
type ResponseHeader struct {
	CorrelationID int32
}

// Header gives access to a request's header.
func (h *RequestHeader) Header() *RequestHeader { return h }

// Correlation is the correlation id a response answers.
func (h *ResponseHeader) Correlation() int32 { return h.CorrelationID }

// Request is any request message.
type Request interface {
	sim.Message
	Header() *RequestHeader
}

// Response is any response message.
type Response interface {
	sim.Message
	Correlation() int32
}
