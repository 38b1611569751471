package raft

import (
	"fmt"
	"strings"

	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/sim"
)

// Voter changes (KIP-853): AddRaftVoter and RemoveRaftVoter, sent by
// kafka-metadata-quorum.sh add-controller and remove-controller through
// Admin.addRaftVoter/removeRaftVoter.
//
// This package runs a static quorum (controller.quorum.voters, kraft.version
// 0), as Kafka does when controller.quorum.voters is set. Kafka's leader
// refuses both requests there with UNSUPPORTED_VERSION, after the checks
// that come before it; the handlers below make those checks in Kafka's order
// (KafkaRaftClient.handleAddVoterRequest/handleRemoveVoterRequest, then
// AddVoterHandler/RemoveVoterHandler.handle*VoterRequest) and stop where a
// kraft.version 0 quorum stops. What Kafka checks after the kraft.version
// (an uncommitted VotersRecord, DUPLICATE_VOTER, VOTER_NOT_FOUND, the new
// voter's ApiVersions) and the VotersRecord it would then append cannot
// happen on a static quorum, so none of it is here.

// ListenerName is the controller listener's name, the first of
// controller.listener.names, which a raft client talks on
// (channel.listenerName()); kafkascope's controllers call it CONTROLLER,
// as Kafka's sample configurations do.
const ListenerName = "CONTROLLER"

// kraftVersion is the finalized kraft.version of a static quorum: 0, which
// does not support reconfiguration (KRaftVersion.isReconfigSupported).
const kraftVersion = 0

// handleAddRaftVoterRequest is KafkaRaftClient.handleAddVoterRequest and
// AddVoterHandler.handleAddVoterRequest up to the kraft.version check.
func (n *Node) handleAddRaftVoterRequest(env *sim.Env, r *AddRaftVoterRequest) *AddRaftVoterResponse {
	code, msg := n.checkVoterChange(env, r.ClusterID, r.VoterID, r.VoterDirectoryID, "Add", "adding", func() string {
		// Endpoints.fromAddVoterRequest: names are normalised (upper
		// case); the leader must be able to reach the new voter on its own
		// listener.
		eps := endpointsOf(r.Listeners)
		if _, ok := eps.addr[ListenerName]; ok {
			return ""
		}
		return fmt.Sprintf("Add voter request didn't include the endpoint (%s) for the default listener ListenerName(%s)",
			eps, ListenerName)
	})
	return &AddRaftVoterResponse{CorrelationID: r.CorrelationID, ErrorCode: code, ErrorMessage: msg}
}

// handleRemoveRaftVoterRequest is KafkaRaftClient.handleRemoveVoterRequest
// and RemoveVoterHandler.handleRemoveVoterRequest up to the kraft.version
// check.
func (n *Node) handleRemoveRaftVoterRequest(env *sim.Env, r *RemoveRaftVoterRequest) *RemoveRaftVoterResponse {
	code, msg := n.checkVoterChange(env, r.ClusterID, r.VoterID, r.VoterDirectoryID, "Remove", "removing", nil)
	return &RemoveRaftVoterResponse{CorrelationID: r.CorrelationID, ErrorCode: code, ErrorMessage: msg}
}

// checkVoterChange makes the checks both requests share, in Kafka's order;
// endpoint (AddRaftVoter only) returns the message of a missing default
// listener, or "". verb is "Add" or "Remove" as the INVALID_REQUEST
// message has it, gerund "adding" or "removing" as the UNSUPPORTED_VERSION
// one does. A static quorum always ends with an error.
func (n *Node) checkVoterChange(env *sim.Env, clusterID string, voterID int32, dir metadata.Uuid, verb, gerund string,
	endpoint func() string) (protocol.ErrorCode, *string) {
	text := func(s string) *string { return &s }
	// hasValidClusterId: a request without a cluster id is accepted.
	if !n.validClusterID(clusterID) {
		return protocol.INCONSISTENT_CLUSTER_ID, text(fmt.Sprintf("The given id \"%s\" doesn't match the cluster id \"%s\"", clusterID, n.cfg.ClusterID))
	}
	// validateLeaderOnlyRequest(quorum.epoch()): the request carries no
	// epoch, so only the leader checks remain. Their error goes back
	// without a message.
	if code := n.validateLeaderOnly(); code != protocol.NONE {
		return code, nil
	}
	// RaftUtil.add/removeVoterRequestVoterKey and ReplicaKey.of: a
	// negative id is no voter, and Uuid.ZERO_UUID is no directory id; the
	// request must name both.
	if voterID < 0 || dir == metadata.ZeroUuid {
		return protocol.INVALID_REQUEST, text(verb + " voter request didn't include a valid voter")
	}
	if endpoint != nil {
		if msg := endpoint(); msg != "" {
			return protocol.INVALID_REQUEST, &msg
		}
	}
	// LeaderState.isOperationPending: an AddVoter or RemoveVoter the leader
	// is still working on answers REQUEST_TIMED_OUT ("Request timed out
	// waiting for leader to handle previous voter change request"). Only a
	// request that passed the kraft.version check below starts one, so on
	// a static quorum none is ever pending.
	if n.quorum.state.highWatermark() < 0 {
		// The leader has not committed its epoch's first entry yet
		// (LeaderState.highWatermark is empty).
		return protocol.REQUEST_TIMED_OUT, text("Request timed out waiting for leader to establish HWM and fence previous voter changes")
	}
	// partitionState.lastKraftVersion().isReconfigSupported(): a static
	// quorum's kraft.version is 0.
	return protocol.UNSUPPORTED_VERSION, text(fmt.Sprintf("Cluster doesn't support %s voter because the kraft.version feature is %d", gerund, kraftVersion))
}

// validateLeaderOnly is KafkaRaftClient.validateLeaderOnlyRequest for a
// request in the current epoch: a node that does not lead answers
// NOT_LEADER_OR_FOLLOWER, a leader that is shutting down
// BROKER_NOT_AVAILABLE (in the moment between Shutdown and the poll that
// resigns it).
func (n *Node) validateLeaderOnly() protocol.ErrorCode {
	switch {
	case n.quorum.role() != RoleLeader:
		return protocol.NOT_LEADER_OR_FOLLOWER
	case n.shutdown != nil:
		return protocol.BROKER_NOT_AVAILABLE
	}
	return protocol.NONE
}

// voterEndpoints is Endpoints.fromAddVoterRequest: the listeners by name
// (normalised to upper case), in the order first put; a later listener of
// the same name replaces the earlier one's address, as HashMap.put does.
type voterEndpoints struct {
	names []string
	addr  map[string]string // name → InetSocketAddress.createUnresolved(host, port).toString()
}

func endpointsOf(ls []RaftVoterListener) voterEndpoints {
	e := voterEndpoints{addr: map[string]string{}}
	for _, l := range ls {
		name := strings.ToUpper(l.Name)
		if _, ok := e.addr[name]; !ok {
			e.names = append(e.names, name)
		}
		e.addr[name] = fmt.Sprintf("%s/<unresolved>:%d", l.Host, l.Port)
	}
	return e
}

// String is Endpoints.toString: its HashMap (made with the listeners'
// count as initial capacity) of ListenerName, which hashes as its name, to
// address, in HashMap order.
func (e voterEndpoints) String() string {
	parts := make([]string, 0, len(e.names))
	for _, name := range jdk.PresizedHashSetOrder(e.names) {
		parts = append(parts, fmt.Sprintf("ListenerName(%s)=%s", name, e.addr[name]))
	}
	return "Endpoints(endpoints={" + strings.Join(parts, ", ") + "})"
}
