package client

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/group"
	"kafkascope/core/protocol"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// memberState is AbstractCoordinator.MemberState.
type memberState uint8

const (
	unjoined            memberState = iota // not in a group
	preparingRebalance                     // JoinGroup sent
	completingRebalance                    // JoinGroup answered, SyncGroup sent
	stable                                 // assignment received
)

// coordinator is the consumer's group membership (Kafka's
// ConsumerCoordinator over AbstractCoordinator, classic protocol): it finds
// the group coordinator, joins and syncs, heartbeats, commits offsets, and
// rejoins when the coordinator, a heartbeat, a poll timeout or a metadata
// change asks it to. It talks to the coordinator over its own connection
// (Kafka uses a separate connection id for the coordinator), so a parked
// JoinGroup does not hold up fetches to the same broker.
type coordinator struct {
	c         *Consumer
	net       *rpc.Client
	assignors []Assignor
	protocol  RebalanceProtocol
	topics    []string // the subscription, sorted
	// groupTopics are the topics of the group subscription this member
	// tracks as leader beyond its own (SubscriptionState's
	// groupSubscription), until it prepares to join again.
	groupTopics []string

	coord       sim.Addr
	coordID     int32
	known       bool
	finding     bool
	findRR      int
	findBackoff *exponentialBackoff
	findTries   int

	state        memberState
	memberID     string
	generation   int32
	protocolName string
	rejoin       bool
	rejoinReason string
	joining      bool // onJoinPrepare's commit or a JoinGroup/SyncGroup in flight
	preparing    bool // onJoinPrepare's commit is in flight

	hbTimer     *sim.Timer
	hbInFlight  bool
	lastHBRecv  sim.Time
	lastHBSent  sim.Time
	nextCommit  sim.Time
	snapshot    *metadataSnapshot // what the leader assigned with; nil on other members
	closed      bool
	leftOnClose bool
	// asyncFenced: an auto-commit was answered FENCED_INSTANCE_ID
	// (ConsumerCoordinator.asyncCommitFenced); every later commit fails
	// with fencedCommitError.
	asyncFenced bool
	// feed is what the event feed has been told of the coordinator
	// (consumer_coordinator_feed.go).
	feed coordinatorFeed
	// manual: the consumer assigned its partitions itself and uses the
	// group only for committed offsets (no JoinGroup).
	manual bool
	// cp is the consumer-protocol membership (group.protocol=consumer),
	// which uses this coordinator's discovery, connection and OffsetFetch
	// and replaces the rest; nil for a classic member.
	cp *membership
}

func newCoordinator(c *Consumer, self sim.Addr, assignors []Assignor, proto RebalanceProtocol) *coordinator {
	return &coordinator{c: c, net: rpc.NewClient(self, c.cfg.ClientID).Reconnecting(), assignors: assignors, protocol: proto, generation: -1,
		findBackoff: newExponentialBackoff(c.cfg.RetryBackoff, c.cfg.RetryBackoffMax, 0.2, nil)}
}

func (g *coordinator) log(level Level, msg string) { g.c.log(level, msg, loggerCoordinator) }

const (
	loggerCoordinator         = "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator"
	joinGroupTimeoutLapse     = 5 * time.Second
	coordinatorRetryBackoffMs = 100 * time.Millisecond
)

// poll is the coordinator's share of KafkaConsumer.poll: find the
// coordinator, (re)join when needed, and auto-commit when due. It does
// nothing while the application is busy between polls.
func (g *coordinator) poll(env *sim.Env) {
	if g.closed || g.c.stopped {
		return
	}
	if g.cp != nil {
		g.cp.background(env)
		return
	}
	if !g.known {
		// The heartbeat thread looks the coordinator up even while the
		// application is busy between polls.
		g.lookup(env)
		return
	}
	if g.c.busy || g.manual {
		return
	}
	if (g.state == unjoined || g.rejoin) && !g.joining {
		g.prepareJoin(env)
		return
	}
	if g.state == stable && g.c.cfg.EnableAutoCommit && env.Now() >= g.nextCommit {
		g.nextCommit = env.Now().Add(g.c.cfg.AutoCommitInterval)
		offsets := g.c.consumed()
		g.commit(env, offsets, func(env *sim.Env, err *Error) {
			switch {
			case err == nil:
			case err.retriable:
				g.nextCommit = env.Now().Add(g.c.cfg.RetryBackoff) // retried at the next poll
			case err.Class == protocol.FENCED_INSTANCE_ID.Exception():
				// The failed commit marks the coordinator fenced, and the
				// next poll throws before any callback runs (so the
				// warning below is never logged).
				g.asyncFenced = true
				g.fenced(env, g.fencedCommitError().Message)
			default:
				g.log(LevelWarn, fmt.Sprintf("Asynchronous auto-commit of offsets %s failed: %s", formatOffsets(offsets), err.Message))
			}
		})
	}
}

// lookup sends FindCoordinator to the next known broker.
func (g *coordinator) lookup(env *sim.Env) {
	if g.finding {
		return
	}
	nodes := g.c.meta.nodes()
	to := nodes[g.findRR%len(nodes)]
	g.findRR++
	g.finding = true
	req := &protocol.FindCoordinatorRequest{KeyType: protocol.CoordinatorKeyTypeGroup, CoordinatorKeys: []string{g.c.cfg.GroupID}}
	g.c.net.Send(env, to, req, g.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		g.finding = false
		if g.closed {
			return
		}
		if err == nil {
			co := resp.(*protocol.FindCoordinatorResponse).Coordinators[0]
			if co.ErrorCode != protocol.NONE {
				g.c.stuck.stuck(env, scopeCoordinator(), co.Cause)
			}
			if co.ErrorCode == protocol.NONE {
				g.coord, g.coordID, g.known, g.findTries = sim.Addr(fmt.Sprintf("%s:%d", co.Host, co.Port)), co.NodeID, true, 0
				// A new coordinator gets a full session before the
				// heartbeat gives up on it (Kafka's FindCoordinator
				// handler: heartbeat.resetSessionTimeout()). Without it a
				// member whose last answered heartbeat was long ago
				// dropped every coordinator it found at once, and never
				// heard of the rebalance it had to join.
				g.lastHBRecv = env.Now()
				g.found(env, co)
				g.startHeartbeats(env)
				g.poll(env)
				return
			}
		}
		d := g.findBackoff.backoff(g.findTries)
		g.findTries++
		env.After(d, "consumer-find-coordinator-backoff", g.poll)
	})
}

// markUnknown forgets the coordinator (it moved, or stopped answering):
// the next poll looks it up again. The membership stays: a member that
// reaches the new coordinator within its session keeps its generation.
func (g *coordinator) markUnknown(env *sim.Env, cause string) {
	if !g.known {
		return
	}
	g.known = false
	g.lost(env, cause)
	env.After(0, "consumer-rediscover", g.poll)
}

// prepareJoin is onJoinPrepare: commit what was consumed (auto-commit),
// give up the partitions (all of them with the eager protocol), then send
// JoinGroup.
func (g *coordinator) prepareJoin(env *sim.Env) {
	g.joining = true
	g.resetGroupSubscription()
	join := func(env *sim.Env) {
		switch {
		case g.generation < 0:
			// The generation was reset: what it held is lost.
			g.c.lose(env, g.c.assignment())
		case g.protocol == Eager:
			g.c.invokeRevoked(env, g.c.assignment())
		}
		g.sendJoin(env)
	}
	if g.c.cfg.EnableAutoCommit && g.state == stable && g.generation >= 0 && len(g.c.assigned) > 0 {
		// onJoinPrepare: an asynchronous auto-commit, waited for (and
		// retried while retriable) up to the rebalance timeout.
		offsets := g.c.consumed()
		g.preparing = true
		deadline := env.Now().Add(g.c.cfg.MaxPollInterval)
		g.commitUntil(env, offsets, deadline, func(env *sim.Env, err *Error) {
			g.preparing = false
			switch {
			case err == nil:
			case err.retriable:
				g.log(LevelError, "Asynchronous auto-commit of offsets failed: joinPrepare timeout. Will continue to join group")
			default:
				g.log(LevelWarn, fmt.Sprintf("Asynchronous auto-commit of offsets %s failed: %s", formatOffsets(offsets), err.Message))
				g.log(LevelError, fmt.Sprintf("Asynchronous auto-commit of offsets failed: %s. Will continue to join group.", err.Message))
			}
			join(env)
		})
		return
	}
	join(env)
}

func (g *coordinator) subscription() protocol.ConsumerProtocolSubscription {
	s := protocol.ConsumerProtocolSubscription{Topics: g.topics, GenerationID: g.generation}
	if g.c.cfg.Release.AtLeast(3, 5) {
		s.RackID = g.c.cfg.ClientRack // KIP-881: the assignor matches it with the replicas' racks
	}
	for _, tp := range g.c.assigned {
		if n := len(s.OwnedPartitions); n > 0 && s.OwnedPartitions[n-1].Topic == tp.topic {
			s.OwnedPartitions[n-1].Partitions = append(s.OwnedPartitions[n-1].Partitions, tp.partition)
		} else {
			s.OwnedPartitions = append(s.OwnedPartitions, protocol.TopicPartitions{Topic: tp.topic, Partitions: []int32{tp.partition}})
		}
	}
	return s
}

func (g *coordinator) sendJoin(env *sim.Env) {
	if !g.known {
		g.joining = false
		g.poll(env)
		return
	}
	g.state = preparingRebalance
	g.c.metrics.coordinated = true
	g.c.metrics.rebalanceStarted(env.Now())
	reason := g.rejoinReason
	g.rejoin, g.rejoinReason = false, ""
	req := &protocol.JoinGroupRequest{GroupID: g.c.cfg.GroupID, SessionTimeoutMs: int32(g.c.cfg.SessionTimeout.Milliseconds()),
		RebalanceTimeoutMs: int32(g.c.cfg.MaxPollInterval.Milliseconds()), MemberID: g.memberID, GroupInstanceID: g.c.cfg.GroupInstanceID,
		ProtocolType: protocol.ConsumerProtocolType, Reason: reason}
	owned := g.c.assignedTPs()
	for _, a := range g.assignors {
		s := g.subscription()
		s.UserData = a.UserData(owned, g.generation)
		req.Protocols = append(req.Protocols, protocol.JoinGroupRequestProtocol{Name: a.Name(), Metadata: s.Encode()})
	}
	timeout := max(g.c.cfg.RequestTimeout, g.c.cfg.MaxPollInterval+joinGroupTimeoutLapse)
	to := g.coord
	sent := g.generationString()
	at := env.Now()
	g.net.Send(env, to, req, timeout, func(env *sim.Env, resp protocol.Response, err error) {
		if g.closed {
			return
		}
		if err != nil {
			g.c.metrics.rebalanceFailed(env.Now())
			g.joinFailed(env)
			g.markUnknown(env, err.Error())
			return
		}
		// JoinGroupResponseHandler: the join's time when it succeeded;
		// any error fails the join future, a failed rebalance
		// (MEMBER_ID_REQUIRED too: the member joins again with its id).
		if r := resp.(*protocol.JoinGroupResponse); r.ErrorCode == protocol.NONE {
			g.c.metrics.join.Record(env.Now(), latency(at, env.Now()))
		} else {
			g.c.metrics.rebalanceFailed(env.Now())
		}
		g.handleJoin(env, resp.(*protocol.JoinGroupResponse), sent)
	})
}

func (g *coordinator) joinFailed(env *sim.Env) {
	g.joining = false
	g.state = unjoined
}

// generationString is the member's generation as AbstractCoordinator's
// Generation.toString renders it in log lines.
func (g *coordinator) generationString() string {
	proto := g.protocolName
	if proto == "" {
		proto = "null"
	}
	return fmt.Sprintf("Generation{generationId=%d, memberId='%s', protocol='%s'}", g.generation, g.memberID, proto)
}

// instanceOption is group.instance.id as the client's log lines show it:
// Java's Optional.toString of GroupRebalanceConfig.groupInstanceId.
func (g *coordinator) instanceOption() string {
	if g.c.cfg.GroupInstanceID == "" {
		return "Optional.empty"
	}
	return "Optional[" + g.c.cfg.GroupInstanceID + "]"
}

// fenced ends a static member whose group.instance.id another process
// took: FENCED_INSTANCE_ID is fatal (FencedInstanceIdException from
// poll()).
func (g *coordinator) fenced(env *sim.Env, msg string) {
	g.c.fatal(env, &Error{Class: protocol.FENCED_INSTANCE_ID.Exception(), Message: msg})
}

func (g *coordinator) handleJoin(env *sim.Env, r *protocol.JoinGroupResponse, sent string) {
	switch r.ErrorCode {
	case protocol.NONE:
		g.memberID, g.generation, g.protocolName = r.MemberID, r.GenerationID, r.ProtocolName
		g.state = completingRebalance
		g.lastHBRecv = env.Now()
		if r.Leader == r.MemberID && r.SkipAssignment {
			g.skipAssignment(env, r)
			return
		}
		if r.Leader == r.MemberID {
			g.assign(env, r, g.sendSync)
			return
		}
		g.snapshot = nil // only the leader watches the metadata (onJoinComplete)
		g.sendSync(env, nil)
		return
	case protocol.MEMBER_ID_REQUIRED:
		g.memberID = r.MemberID
		g.sendJoin(env) // right away, with the id
		return
	case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION:
		g.resetGeneration(env, true)
	case protocol.COORDINATOR_LOAD_IN_PROGRESS:
		g.joinFailed(env)
		env.After(g.c.cfg.RetryBackoff, "consumer-join-backoff", g.poll)
		return
	case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR:
		g.joinFailed(env)
		g.markUnknown(env, r.ErrorCode.String())
		return
	case protocol.REBALANCE_IN_PROGRESS:
	case protocol.FENCED_INSTANCE_ID:
		// Fatal whatever the generation (JoinGroupResponseHandler).
		g.log(LevelError, "JoinGroup failed: The group instance id "+g.instanceOption()+" has been fenced by another instance. Sent generation was "+sent)
		g.fenced(env, r.ErrorCode.Message())
		return
	default:
		g.joinFailed(env)
		msg := r.ErrorCode.Message()
		if r.ErrorCode == protocol.POLICY_VIOLATION {
			msg = protocol.GroupLimitMessage(g.c.cfg.GroupID) // the simulator's group limit
		}
		g.log(LevelError, "JoinGroup failed due to fatal error: "+msg)
		if r.ErrorCode == protocol.GROUP_MAX_SIZE_REACHED {
			// AbstractCoordinator raises its own message for this one.
			msg = "Consumer group " + g.c.cfg.GroupID + " already has the configured maximum number of members."
		}
		g.c.fatal(env, &Error{Class: r.ErrorCode.Exception(), Message: msg})
		return
	}
	g.joinFailed(env)
	g.rejoin = true
	env.After(0, "consumer-rejoin", g.poll)
}

// assign is onLeaderElected: the leader tracks every topic some member
// subscribes to (the group subscription), brings its metadata up to date
// when that added topics or an update is due (updateGroupSubscription's
// ensureFreshMetadata), then runs the chosen assignor with the members'
// subscriptions and the partition counts it now knows, and hands the
// result to done. Kafka's warning about subscribed topics left unassigned
// is only for custom assignors (ASSIGN_FROM_SUBSCRIBED_ASSIGNORS lists the
// four built-in ones), so none is logged here.
func (g *coordinator) assign(env *sim.Env, r *protocol.JoinGroupResponse, done func(env *sim.Env, assignments []protocol.SyncGroupRequestAssignment)) {
	var members []AssignorMember
	var topics []string // the group subscription, sorted
	for _, m := range r.Members {
		s, err := protocol.DecodeConsumerProtocolSubscription(m.Metadata)
		if err != nil {
			continue
		}
		members = append(members, AssignorMember{ID: m.MemberID, InstanceID: m.GroupInstanceID, Subscription: s})
		for _, t := range s.Topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	slices.Sort(topics)
	stale := g.c.meta.UpdateRequested()
	for _, t := range topics {
		if !slices.Contains(g.topics, t) && !slices.Contains(g.groupTopics, t) {
			g.groupTopics = append(g.groupTopics, t)
		}
		if g.c.meta.Add(t) {
			stale = true
		}
	}
	run := func(env *sim.Env) {
		g.snapshot = g.metadataSnapshot(topics)
		racks := g.snapshot.racks // the assignors read the racks whether or not the snapshot keeps them
		if racks == nil {
			racks = g.c.meta.PartitionRacks(topics)
		}
		done(env, g.performAssignment(r.ProtocolName, members, g.snapshot.counts, racks))
	}
	if !stale {
		run(env)
		return
	}
	gen := g.generation
	g.c.meta.Await(env, func(env *sim.Env) {
		if g.closed || g.generation != gen || g.state != completingRebalance {
			return // the member left or lost this generation meanwhile
		}
		run(env)
	})
}

// skipAssignment is onLeaderElected with SkipAssignment: a static leader
// that came back to a Stable group (JoinGroup v9, KIP-814) keeps the
// group's assignment. It tracks the group subscription as a leader does
// and keeps watching the metadata from what it knows now, then syncs
// with no assignments and gets its own partitions back.
func (g *coordinator) skipAssignment(env *sim.Env, r *protocol.JoinGroupResponse) {
	var topics []string
	for _, m := range r.Members {
		if s, err := protocol.DecodeConsumerProtocolSubscription(m.Metadata); err == nil {
			for _, t := range s.Topics {
				if !slices.Contains(topics, t) {
					topics = append(topics, t)
				}
			}
		}
	}
	slices.Sort(topics)
	for _, t := range topics {
		if !slices.Contains(g.topics, t) && !slices.Contains(g.groupTopics, t) {
			g.groupTopics = append(g.groupTopics, t)
		}
		if g.c.meta.Add(t) {
			g.c.meta.RequestUpdate(env)
		}
	}
	g.snapshot = g.metadataSnapshot(topics)
	g.sendSync(env, nil)
}

// performAssignment runs the assignor the coordinator chose.
func (g *coordinator) performAssignment(name string, members []AssignorMember, counts map[string]int32, racks group.PartitionRacks) []protocol.SyncGroupRequestAssignment {
	var a Assignor
	for _, x := range g.assignors {
		if x.Name() == name {
			a = x
		}
	}
	var out []protocol.SyncGroupRequestAssignment
	if a == nil {
		return out
	}
	result := a.Assign(members, counts, racks)
	for _, m := range members {
		out = append(out, protocol.SyncGroupRequestAssignment{MemberID: m.ID, Assignment: encodeAssignment(result[m.ID])})
	}
	return out
}

// resetGroupSubscription is onJoinPrepare's: the member stops tracking
// the topics only other members subscribe to; if it leads again it adds
// them back.
func (g *coordinator) resetGroupSubscription() {
	for _, t := range g.groupTopics {
		g.c.meta.Remove(t)
	}
	g.groupTopics = nil
}

func encodeAssignment(tps []group.TopicPartition) []byte {
	var a protocol.ConsumerProtocolAssignment
	for _, tp := range tps {
		if n := len(a.AssignedPartitions); n > 0 && a.AssignedPartitions[n-1].Topic == tp.Topic {
			a.AssignedPartitions[n-1].Partitions = append(a.AssignedPartitions[n-1].Partitions, tp.Partition)
		} else {
			a.AssignedPartitions = append(a.AssignedPartitions, protocol.TopicPartitions{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
		}
	}
	return a.Encode()
}

func (g *coordinator) sendSync(env *sim.Env, assignments []protocol.SyncGroupRequestAssignment) {
	req := &protocol.SyncGroupRequest{GroupID: g.c.cfg.GroupID, GenerationID: g.generation, MemberID: g.memberID, GroupInstanceID: g.c.cfg.GroupInstanceID,
		ProtocolType: protocol.ConsumerProtocolType, ProtocolName: g.protocolName, Assignments: assignments}
	gen := g.generation
	sent := g.generationString()
	at := env.Now()
	g.net.Send(env, g.coord, req, g.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if g.closed {
			return
		}
		if err != nil {
			g.c.metrics.rebalanceFailed(env.Now())
			g.joinFailed(env)
			g.rejoin = true
			g.markUnknown(env, err.Error())
			return
		}
		r := resp.(*protocol.SyncGroupResponse)
		if r.ErrorCode != protocol.NONE {
			g.c.metrics.rebalanceFailed(env.Now())
		}
		switch r.ErrorCode {
		case protocol.NONE:
			g.c.metrics.sync.Record(env.Now(), latency(at, env.Now()))
			if gen != g.generation || g.state != completingRebalance {
				g.c.metrics.rebalanceFailed(env.Now()) // raised as REBALANCE_IN_PROGRESS
				g.joinFailed(env)
				g.rejoin = true
				g.poll(env)
				return
			}
			a, _ := protocol.DecodeConsumerProtocolAssignment(r.Assignment)
			g.joining = false
			g.state = stable
			g.c.metrics.rebalanceDone(env.Now())
			g.complete(env, a)
			return
		case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION:
			g.resetGeneration(env, r.ErrorCode == protocol.UNKNOWN_MEMBER_ID)
		case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR:
			g.markUnknown(env, r.ErrorCode.String())
		case protocol.REBALANCE_IN_PROGRESS:
		case protocol.FENCED_INSTANCE_ID:
			// Fatal whatever the generation (SyncGroupResponseHandler).
			g.log(LevelError, "SyncGroup failed: The group instance id "+g.instanceOption()+" has been fenced by another instance. Sent generation was "+sent)
			g.fenced(env, r.ErrorCode.Message())
			return
		default:
			g.joinFailed(env)
			g.c.fatal(env, &Error{Class: r.ErrorCode.Exception(), Message: r.ErrorCode.Message()})
			return
		}
		g.joinFailed(env)
		g.rejoin = true
		env.After(0, "consumer-rejoin", g.poll)
	})
}

// complete is onJoinComplete: take the new assignment. Eager members own
// nothing at this point; cooperative ones give up what they lost and, if
// they lost anything, rejoin so it can be handed on.
func (g *coordinator) complete(env *sim.Env, a protocol.ConsumerProtocolAssignment) {
	var assigned []topicPartition
	for _, tp := range a.AssignedPartitions {
		for _, p := range tp.Partitions {
			assigned = append(assigned, topicPartition{tp.Topic, p})
		}
	}
	var revoked, added []topicPartition
	for _, tp := range g.c.assigned {
		if !slices.Contains(assigned, tp) {
			revoked = append(revoked, tp)
		}
	}
	for _, tp := range assigned {
		if !slices.Contains(g.c.assigned, tp) {
			added = append(added, tp)
		}
	}
	if len(revoked) > 0 {
		g.c.revokeWithListener(env, revoked)
		if g.protocol == Cooperative {
			g.requestRejoin(env, "need to revoke partitions and re-join")
		}
	}
	// onJoinComplete tells the assignor the group chose what this member
	// now owns, so a sticky assignor reports it as its previous assignment
	// at the next join (an eager member has revoked everything by then).
	for _, x := range g.assignors {
		if l, ok := x.(AssignmentListener); ok && x.Name() == g.protocolName {
			owned := make([]group.TopicPartition, len(assigned))
			for i, tp := range assigned {
				owned[i] = group.TopicPartition{Topic: tp.topic, Partition: tp.partition}
			}
			l.OnAssignment(owned, g.generation)
		}
	}
	env.Note(event.PartitionsAssigned{Client: g.c.cfg.ClientID, Group: g.c.cfg.GroupID, Generation: g.generation, Partitions: len(assigned)})
	g.c.addAssigned(env, assigned)
	g.c.invokeAssigned(env, added)
	g.nextCommit = env.Now().Add(g.c.cfg.AutoCommitInterval)
	g.poll(env)
	g.c.run(env)
}

func (g *coordinator) requestRejoin(env *sim.Env, reason string) {
	if !g.rejoin {
		g.rejoin, g.rejoinReason = true, reason
	}
	env.After(0, "consumer-rejoin", g.poll)
}

// resetGeneration forgets the generation (and member id when the
// coordinator no longer knows the member): the member lost its
// partitions without committing (onPartitionsLost) and must join anew.
func (g *coordinator) resetGeneration(env *sim.Env, memberID bool) {
	g.generation, g.protocolName = -1, ""
	if memberID {
		g.memberID = ""
	}
	g.state = unjoined
	g.c.lose(env, g.c.assignment())
}

// startHeartbeats runs the heartbeat thread's loop while the consumer is
// open: heartbeats every heartbeat.interval.ms once joined, and the
// session and poll timeouts.
func (g *coordinator) startHeartbeats(env *sim.Env) {
	if g.cp != nil {
		g.cp.tick(env)
		return
	}
	if g.hbTimer.Pending() {
		return
	}
	g.hbTimer = env.After(0, "consumer-heartbeat", g.heartbeatTick)
}

func (g *coordinator) heartbeatTick(env *sim.Env) {
	if g.closed || g.c.stopped {
		return
	}
	next := g.c.cfg.RetryBackoff
	now := env.Now()
	switch {
	case g.state != stable && g.state != completingRebalance:
		next = g.c.cfg.HeartbeatInterval
	case !g.known:
		g.poll(env)
	case now.Sub(g.lastHBRecv) > g.c.cfg.SessionTimeout:
		g.markUnknown(env, "session timed out without receiving a heartbeat response")
	case g.c.busy && now.Sub(g.c.lastPoll) > g.c.cfg.MaxPollInterval:
		g.log(LevelWarn, "consumer poll timeout has expired. This means the time between subsequent calls to poll() was longer than the configured max.poll.interval.ms, which typically implies that the poll loop is spending too much time processing messages. You can address this either by increasing max.poll.interval.ms or by reducing the maximum size of batches returned in poll() with max.poll.records.")
		g.leave(env, "consumer poll timeout has expired.", nil)
	case g.hbInFlight || now.Sub(g.lastHBSent) < g.c.cfg.HeartbeatInterval:
		if !g.hbInFlight {
			next = g.c.cfg.HeartbeatInterval - now.Sub(g.lastHBSent)
		}
	default:
		g.sendHeartbeat(env)
		next = g.c.cfg.HeartbeatInterval
	}
	g.hbTimer = env.After(next, "consumer-heartbeat", g.heartbeatTick)
}

func (g *coordinator) sendHeartbeat(env *sim.Env) {
	g.hbInFlight = true
	g.lastHBSent = env.Now()
	gen, member := g.generation, g.memberID
	req := &protocol.HeartbeatRequest{GroupID: g.c.cfg.GroupID, GenerationID: g.generation, MemberID: g.memberID, GroupInstanceID: g.c.cfg.GroupInstanceID}
	at := env.Now()
	g.net.Send(env, g.coord, req, g.c.cfg.RequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		g.hbInFlight = false
		if g.closed {
			return
		}
		if err != nil {
			g.markUnknown(env, err.Error())
			return
		}
		g.c.metrics.heartbeat.Record(env.Now(), latency(at, env.Now())) // whatever the answer says
		switch code := resp.(*protocol.HeartbeatResponse).ErrorCode; code {
		case protocol.NONE:
			g.lastHBRecv = env.Now()
		case protocol.REBALANCE_IN_PROGRESS:
			// Heartbeats go on during the rebalance; the next poll rejoins.
			g.lastHBRecv = env.Now()
			if g.state == stable {
				g.requestRejoin(env, "group is already rebalancing")
			}
		case protocol.FENCED_INSTANCE_ID:
			// HeartbeatResponseHandler: with the generation unchanged the
			// member forgets it (keeping its partitions until it would
			// rejoin) and the heartbeat thread fails, which poll() throws;
			// an answer to an older generation is ignored.
			if gen != g.generation || member != g.memberID {
				return
			}
			g.state, g.generation, g.memberID, g.protocolName = unjoined, -1, "", ""
			g.log(LevelError, "Caught fenced group.instance.id "+g.instanceOption()+" error in heartbeat thread")
			g.fenced(env, code.Message())
		case protocol.ILLEGAL_GENERATION, protocol.UNKNOWN_MEMBER_ID:
			if gen == g.generation && g.state == stable {
				g.resetGeneration(env, code == protocol.UNKNOWN_MEMBER_ID)
				g.requestRejoin(env, "encountered "+code.String()+" from HEARTBEAT response")
			}
		case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR:
			g.markUnknown(env, code.String())
		case protocol.COORDINATOR_LOAD_IN_PROGRESS:
		}
	})
}

// leave sends LeaveGroup (on close, or when the poll timeout expired) and
// forgets the membership; done runs when the coordinator answered.
//
// A static member sends no LeaveGroup: its session timeout alone ends its
// membership, so a restart within it keeps its partitions (3.8's
// maybeLeaveGroup requires isDynamicMember; 4.x's
// shouldSendLeaveGroupRequest too, unless close(CloseOptions) asks to
// leave, which no tool does). It forgets its generation all the same.
func (g *coordinator) leave(env *sim.Env, reason string, done func(env *sim.Env)) {
	if g.memberID == "" || !g.known || g.state == unjoined && g.generation < 0 || g.c.cfg.GroupInstanceID != "" {
		g.resetGeneration(env, true)
		if done != nil {
			done(env)
		}
		return
	}
	req := &protocol.LeaveGroupRequest{GroupID: g.c.cfg.GroupID, Members: []protocol.MemberIdentity{{MemberID: g.memberID, Reason: "the consumer is being closed"}}}
	if done == nil {
		req.Members[0].Reason = reason
	}
	env.Note(event.ConsumerLeavingGroup{Client: g.c.cfg.ClientID, Group: g.c.cfg.GroupID, Member: g.memberID, Reason: reason})
	g.resetGeneration(env, true)
	g.joining = false
	g.rejoin = true
	g.net.Send(env, g.coord, req, g.c.cfg.RequestTimeout, func(env *sim.Env, _ protocol.Response, _ error) {
		if done != nil {
			done(env)
		}
	})
}

// close is ConsumerCoordinator.close: commit what was consumed (with
// auto-commit) and leave the group, then done.
func (g *coordinator) close(env *sim.Env, done func(env *sim.Env)) {
	if g.cp != nil {
		g.cp.close(env, func(env *sim.Env) {
			g.closed = true
			done(env)
		})
		return
	}
	finish := func(env *sim.Env) {
		g.closed = true
		g.hbTimer.Stop()
		done(env)
	}
	leave := func(env *sim.Env) {
		// onLeavePrepare: the partitions go through the listener first,
		// as lost when the member is not in a stable generation.
		if g.generation < 0 || g.state != stable {
			g.c.lose(env, g.c.assignment())
		} else {
			g.c.revokeWithListener(env, g.c.assignment())
		}
		g.leave(env, "the consumer is being closed", finish)
	}
	// Partitions still assigned outside a generation (a fenced static
	// member keeps them until it would rejoin) are committed too, which
	// fails at once (commit).
	if g.c.cfg.EnableAutoCommit && g.known && (g.state == stable && len(g.c.assigned) > 0 || g.state != stable && len(g.c.consumed()) > 0) {
		// maybeAutoCommitOffsetsSync: retriable failures are retried until
		// the close timeout, which ends quietly (Kafka logs it at DEBUG).
		offsets := g.c.consumed()
		g.commitUntil(env, offsets, env.Now().Add(commitTimeout), func(env *sim.Env, err *Error) {
			if err != nil && !err.retriable {
				g.log(LevelWarn, fmt.Sprintf("Synchronous auto-commit of offsets %s failed: %s", formatOffsets(offsets), err.Message))
			}
			leave(env)
		})
		return
	}
	leave(env)
}

// metadataSnapshot is ConsumerCoordinator.MetadataSnapshot: the
// partition count of each topic of the group subscription the metadata
// has (a topic without metadata is absent from counts) and, when the
// member has a client.rack (Kafka 3.5+), each partition's replica racks
// (PartitionRackInfo): then a replica's broker leaving the metadata, or
// coming back, changes the snapshot and the leader rebalances.
type metadataSnapshot struct {
	topics []string
	counts map[string]int32
	racks  group.PartitionRacks // kept by a leader with a client.rack (3.5+)
}

func (g *coordinator) metadataSnapshot(topics []string) *metadataSnapshot {
	s := &metadataSnapshot{topics: topics, counts: map[string]int32{}}
	for _, t := range topics {
		if info := g.c.meta.Topic(t); info != nil {
			s.counts[t] = int32(len(info.Partitions))
		}
	}
	if g.c.cfg.ClientRack != "" && g.c.cfg.Release.AtLeast(3, 5) {
		s.racks = g.c.meta.PartitionRacks(topics)
	}
	return s
}

func (s *metadataSnapshot) equal(o *metadataSnapshot) bool {
	sameParts := func(a, b [][]string) bool { return slices.EqualFunc(a, b, slices.Equal[[]string]) }
	return maps.Equal(s.counts, o.counts) && maps.EqualFunc(s.racks, o.racks, sameParts)
}

// checkMetadata is the leader's check that the metadata it assigned with
// still holds (rejoinNeededOrPending): a topic grew, appeared or went away,
// and the group rebalances.
func (g *coordinator) checkMetadata(env *sim.Env) {
	if g.snapshot == nil || g.state != stable {
		return
	}
	if now := g.metadataSnapshot(g.snapshot.topics); !now.equal(g.snapshot) {
		g.snapshot = nil
		g.requestRejoin(env, "cached metadata has changed")
	}
}
