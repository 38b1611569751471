package protocol

// ErrorResponse is the response to req that carries code for everything
// req asked (per topic, per resource, or at the top level), with req's
// correlation id, or nil for a request kind a controller does not serve. Brokers use it when a forwarded request times out; a
// controller that is not the active one answers every request with
// NOT_CONTROLLER this way, as Kafka's ControllerApis do.
func ErrorResponse(req Request, code ErrorCode) Response {
	h := ResponseHeader{CorrelationID: req.Header().CorrelationID}
	switch m := req.(type) {
	case *CreateTopicsRequest:
		r := &CreateTopicsResponse{ResponseHeader: h}
		for _, t := range m.Topics {
			r.Topics = append(r.Topics, CreatableTopicResult{Name: t.Name, ErrorCode: code})
		}
		return r
	case *DeleteTopicsRequest:
		r := &DeleteTopicsResponse{ResponseHeader: h}
		for _, n := range m.TopicNames {
			r.Responses = append(r.Responses, DeletableTopicResult{Name: n, ErrorCode: code})
		}
		return r
	case *CreatePartitionsRequest:
		r := &CreatePartitionsResponse{ResponseHeader: h}
		for _, t := range m.Topics {
			r.Results = append(r.Results, CreatePartitionsTopicResult{Name: t.Name, ErrorCode: code})
		}
		return r
	case *ElectLeadersRequest:
		return &ElectLeadersResponse{ResponseHeader: h, ErrorCode: code}
	case *AlterPartitionReassignmentsRequest:
		return &AlterPartitionReassignmentsResponse{ResponseHeader: h, ErrorCode: code}
	case *ListPartitionReassignmentsRequest:
		return &ListPartitionReassignmentsResponse{ResponseHeader: h, ErrorCode: code}
	case *UpdateFeaturesRequest:
		return &UpdateFeaturesResponse{ResponseHeader: h, ErrorCode: code}
	case *BrokerRegistrationRequest:
		return &BrokerRegistrationResponse{ResponseHeader: h, ErrorCode: code}
	case *BrokerHeartbeatRequest:
		return &BrokerHeartbeatResponse{ResponseHeader: h, ErrorCode: code}
	case *AllocateProducerIdsRequest:
		return &AllocateProducerIdsResponse{ResponseHeader: h, ErrorCode: code}
	case *InitProducerIdRequest:
		return &InitProducerIdResponse{ResponseHeader: h, ErrorCode: code, ProducerID: -1, ProducerEpoch: -1}
	case *AlterPartitionRequest:
		return &AlterPartitionResponse{ResponseHeader: h, ErrorCode: code}
	case *IncrementalAlterConfigsRequest:
		return &IncrementalAlterConfigsResponse{ResponseHeader: h, Responses: configErrors(m.Resources, code)}
	case *AlterConfigsRequest:
		return &AlterConfigsResponse{ResponseHeader: h, Responses: configErrors(m.Resources, code)}
	}
	return nil
}

func configErrors[R interface{ resource() (int8, string) }](rs []R, code ErrorCode) []AlterConfigsResourceResponse {
	out := make([]AlterConfigsResourceResponse, len(rs))
	for i, r := range rs {
		t, n := r.resource()
		out[i] = AlterConfigsResourceResponse{ErrorCode: code, ResourceType: t, ResourceName: n}
	}
	return out
}

// IsNotController reports whether resp is a controller's NOT_CONTROLLER
// answer: the request went to a controller that is not (or no longer) the
// active one, and must be sent again to the new one.
func IsNotController(resp Response) bool {
	switch m := resp.(type) {
	case *CreateTopicsResponse:
		return len(m.Topics) > 0 && m.Topics[0].ErrorCode == NOT_CONTROLLER
	case *DeleteTopicsResponse:
		return len(m.Responses) > 0 && m.Responses[0].ErrorCode == NOT_CONTROLLER
	case *CreatePartitionsResponse:
		return len(m.Results) > 0 && m.Results[0].ErrorCode == NOT_CONTROLLER
	case *ElectLeadersResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *AlterPartitionReassignmentsResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *ListPartitionReassignmentsResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *UpdateFeaturesResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *BrokerRegistrationResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *BrokerHeartbeatResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *AlterPartitionResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *AlterIsrResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *ControlledShutdownResponse:
		return m.ErrorCode == NOT_CONTROLLER
	case *IncrementalAlterConfigsResponse:
		return len(m.Responses) > 0 && m.Responses[0].ErrorCode == NOT_CONTROLLER
	case *AlterConfigsResponse:
		return len(m.Responses) > 0 && m.Responses[0].ErrorCode == NOT_CONTROLLER
	}
	return false
}

func (r AlterConfigsResource) resource() (int8, string)       { return r.ResourceType, r.ResourceName }
func (r LegacyAlterConfigsResource) resource() (int8, string) { return r.ResourceType, r.ResourceName }
