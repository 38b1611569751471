package broker

import (
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// handleControllerAPIZk answers, on a ZooKeeper-era broker, the admin
// requests a KRaft broker forwards to its controller (DeleteTopics:
// zkdelete.go; ElectLeaders: zkelect.go): in 2.8 the admin
// client sends them to the controller broker its metadata names, and any
// other broker answers NOT_CONTROLLER (KafkaApis checks
// controller.isActive). Feature updates are not simulated; the tools say
// so before they get here (UNKNOWN_SERVER_ERROR otherwise).
// CreatePartitions: zkcreatepartitions.go; reassignments: zkreassign.go.
func (b *Broker) handleControllerAPIZk(env *sim.Env, from sim.Addr, req protocol.Request) {
	if !b.zk.controller.Active() {
		b.respond(env, from, protocol.ErrorResponse(req, protocol.NOT_CONTROLLER))
		return
	}
	switch m := req.(type) {
	case *protocol.ListPartitionReassignmentsRequest:
		b.handleListPartitionReassignmentsZk(env, from, m)
		return
	case *protocol.AlterPartitionReassignmentsRequest:
		b.handleAlterPartitionReassignmentsZk(env, from, m)
		return
	case *protocol.DeleteTopicsRequest:
		b.handleDeleteTopicsZk(env, from, m)
		return
	case *protocol.ElectLeadersRequest:
		b.handleElectLeadersZk(env, from, m)
		return
	case *protocol.CreatePartitionsRequest:
		b.handleCreatePartitionsZk(env, from, m)
		return
	}
	b.respond(env, from, protocol.ErrorResponse(req, protocol.UNKNOWN_SERVER_ERROR))
}
