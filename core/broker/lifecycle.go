package broker

import (
	"slices"
	"time"

	"kafkascope/core/event"
	"kafkascope/core/jdk"
	"kafkascope/core/metadata"
	"kafkascope/core/protocol"
	"kafkascope/core/release"
	"kafkascope/core/sim"
)

const controllerRequestTimeout = 2 * time.Second // controller.quorum.request.timeout.ms

// register sends BrokerRegistration, retrying with exponential backoff
// (100 ms doubling up to broker.session.timeout.ms) while the controller
// refuses, e.g. with DUPLICATE_BROKER_REGISTRATION while the previous
// incarnation's session is still alive.
func (b *Broker) register(env *sim.Env) {
	req := &protocol.BrokerRegistrationRequest{
		BrokerID: b.cfg.NodeID, ClusterID: b.cfg.ClusterID, IncarnationID: b.incarnation,
		Listeners:           []metadata.Endpoint{{Name: "PLAINTEXT", Host: b.cfg.Host, Port: BrokerPort}},
		PreviousBrokerEpoch: b.previousBrokerEpoch, Features: b.features,
		Rack: b.cfg.Static.Broker("broker.rack"),
	}
	if dir, err := metadata.ParseUuid(b.cfg.DirectoryID); err == nil {
		req.LogDirs = []metadata.Uuid{dir} // one log directory: log.dirs=/tmp/kafka-logs
	}
	b.sendToController(env, req, controllerRequestTimeout, func(env *sim.Env, resp protocol.Response, err error) {
		if b.state == StateStopped {
			return
		}
		r, _ := resp.(*protocol.BrokerRegistrationResponse)
		if err != nil || r.ErrorCode != protocol.NONE {
			b.registerBackoff = min(max(2*b.registerBackoff, 100*time.Millisecond), b.ms("broker.session.timeout.ms"))
			if r != nil {
				env.Note(event.BrokerRegistrationRefused{Broker: b.cfg.NodeID, Error: r.ErrorCode, Backoff: b.registerBackoff})
			}
			env.After(b.registerBackoff, "broker-registration-retry", b.register)
			return
		}
		b.registerBackoff = 0
		b.registered = true
		b.brokerEpoch = r.BrokerEpoch
		b.sendHeartbeat(env)
	})
}

// sendHeartbeat sends one BrokerHeartbeat and schedules the next: every
// broker.heartbeat.interval.ms, sooner while starting up or shutting down.
func (b *Broker) sendHeartbeat(env *sim.Env) {
	if b.heartbeatInFlight || !b.registered || b.state == StateStopped {
		return
	}
	b.heartbeatTimer.Stop()
	b.heartbeatInFlight = true
	b.heartbeatCall = b.sendToController(env, b.heartbeatRequest(), b.heartbeatTimeout(), b.heartbeatAnswered)
}

// heartbeatRequest is the heartbeat the broker sends now. A 4.3 broker
// reports its cordoned log directories (cordoned.log.dirs: none here)
// from the first heartbeat after it caught up with the metadata log
// (BrokerLifecycleManager, KIP-1066): here, from the one that asks to be
// unfenced, which the controller answers with one batch (the unfence,
// its elections, the cordoned directories).
func (b *Broker) heartbeatRequest() *protocol.BrokerHeartbeatRequest {
	req := &protocol.BrokerHeartbeatRequest{
		BrokerID: b.cfg.NodeID, BrokerEpoch: b.brokerEpoch, CurrentMetadataOffset: b.image.Offset,
		WantFence: !b.readyToUnfence(), WantShutDown: b.wantShutdown,
	}
	if b.cfg.Release.MetadataLevel >= metadata.LevelCordonedLogDirs && (b.state != StateStarting || !req.WantFence) {
		req.CordonedLogDirs = []metadata.Uuid{}
	}
	return req
}

// registrationFeatures is what a broker of rel registers as supported.
// A 3.8 broker's default (metadata.version 1-20) is nil. From 4.0 it is
// every feature of the release (BrokerRegistrationRequest v4 keeps those
// whose minimum is 0), in the order the broker's map iterates: a HashMap
// in 4.1's BrokerLifecycleManager, and in 4.3's Map.copyOf, whose order
// changes with every JVM: rnd, drawn per incarnation, stands for that.
func registrationFeatures(rel release.Release, rnd *sim.Rand) []metadata.BrokerFeature {
	if !rel.Version.AtLeast(4, 0) {
		return nil
	}
	names := make([]string, 0, len(rel.Features))
	byName := map[string]release.Feature{}
	for _, f := range rel.Features {
		names = append(names, f.Name)
		byName[f.Name] = f
	}
	slices.Sort(names)
	if rel.Version.AtLeast(4, 3) {
		rnd.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	} else {
		names = jdk.HashSetOrder(names)
	}
	out := make([]metadata.BrokerFeature, len(names))
	for i, n := range names {
		f := byName[n]
		out[i] = metadata.BrokerFeature{Name: n, MinSupportedVersion: f.MinLevel, MaxSupportedVersion: f.MaxLevel}
	}
	return out
}

// heartbeatTimeout is how long a heartbeat waits for an answer, across
// the channel's tries: half the session timeout.
func (b *Broker) heartbeatTimeout() time.Duration { return b.ms("broker.session.timeout.ms") / 2 }

// heartbeatAnswered takes a heartbeat's answer (or its failure) and arms
// the next one.
func (b *Broker) heartbeatAnswered(env *sim.Env, resp protocol.Response, err error) {
	b.heartbeatInFlight, b.heartbeatCall = false, nil
	if b.state == StateStopped {
		return
	}
	next := b.ms("broker.heartbeat.interval.ms")
	r, _ := resp.(*protocol.BrokerHeartbeatResponse)
	if err != nil {
		b.heartbeatFailures++
	} else {
		b.heartbeatFailures = 0
	}
	switch {
	case err != nil:
		// No controller answered within half the session timeout: try
		// again after 100 ms, doubling up to the session timeout
		// (BrokerLifecycleManager's backoff, without its 2 % jitter).
		// The broker keeps serving with the metadata it has.
		next = min(100*time.Millisecond<<min(b.heartbeatFailures-1, 20), b.ms("broker.session.timeout.ms"))
	case r.ErrorCode == protocol.STALE_BROKER_EPOCH || r.ErrorCode == protocol.BROKER_ID_NOT_REGISTERED:
		// The controller no longer knows this incarnation: register again.
		b.registered = false
		b.register(env)
		return
	case r.ErrorCode != protocol.NONE:
		next = 100 * time.Millisecond
	default:
		b.onHeartbeatResponse(env, r)
		if b.state == StateStarting || b.state == StatePendingControlledShutdown {
			next = 10 * time.Millisecond
		}
	}
	if b.state != StateStopped {
		b.heartbeatTimer = &sim.Timer{}
		env.Arm(b.heartbeatTimer, next, heartbeatTimerName, heartbeatTick{b})
	}
}

// heartbeatTimerName names the timer of the next heartbeat.
const heartbeatTimerName = "broker-heartbeat"

// heartbeatTick is the heartbeat timer's task (a Task rather than a
// closure: a leap arms the timer a stepped run would have).
type heartbeatTick struct{ b *Broker }

func (t heartbeatTick) Fire(env *sim.Env) { t.b.sendHeartbeat(env) }

func (b *Broker) readyToUnfence() bool { return b.published && !b.wantShutdown }

func (b *Broker) onHeartbeatResponse(env *sim.Env, r *protocol.BrokerHeartbeatResponse) {
	switch b.state {
	case StateStarting:
		if r.IsCaughtUp {
			b.state = StateRecovery
		}
	case StateRecovery:
		if !r.IsFenced {
			b.startServing(env)
		}
	case StatePendingControlledShutdown:
		if r.ShouldShutDown {
			b.finishShutdown(env)
		}
	}
}

// BeginControlledShutdown starts a graceful stop (SIGTERM with
// controlled.shutdown.enable=true): the broker asks the controller to move
// its leaderships away, then flushes and exits. Without controlled shutdown
// it flushes and exits at once.
func (b *Broker) BeginControlledShutdown(env *sim.Env) {
	if b.state == StateStopped || b.wantShutdown {
		return
	}
	b.wantShutdown = true
	if !b.registered || !b.conf().BrokerBool("controlled.shutdown.enable") {
		b.finishShutdown(env)
		return
	}
	b.state = StatePendingControlledShutdown
	env.Note(event.BrokerShutdownStarted{Broker: b.cfg.NodeID})
	if b.zk != nil {
		b.zk.shutdownTries = int(b.conf().BrokerInt("controlled.shutdown.max.retries"))
		b.zkControlledShutdown(env)
		return
	}
	b.sendHeartbeat(env)
	// Do not wait forever for a controller that cannot answer.
	env.After(b.ms("broker.session.timeout.ms"), "controlled-shutdown-timeout", func(env *sim.Env) {
		if b.state == StatePendingControlledShutdown {
			b.finishShutdown(env)
		}
	})
}

// finishShutdown flushes every log, writes the checkpoints and the clean
// shutdown marker, and stops.
func (b *Broker) finishShutdown(env *sim.Env) {
	b.state = StateShuttingDown
	for _, f := range b.fetchers {
		f.stop()
	}
	for _, p := range b.Partitions() {
		p.failDelayedProduces(env, protocol.NOT_LEADER_OR_FOLLOWER)
		if err := p.log.Flush(); err != nil {
			panic(err)
		}
		if err := p.log.Close(); err != nil {
			panic(err)
		}
	}
	b.writeCheckpoints()
	b.writeCleanShutdownFile()
	b.net.Abandon()
	if b.zk != nil {
		// KafkaServer.shutdown ends with the controller and then the
		// ZooKeeper session: its close deletes /brokers/ids/N (and
		// /controller if it held it) at once.
		b.zk.controller.Stop()
		b.zk.client.Close(env, nil)
	}
	b.state = StateStopped
	env.Note(event.BrokerShutdownFinished{Broker: b.cfg.NodeID})
	if b.cfg.OnShutdown != nil {
		b.cfg.OnShutdown(env)
	}
}

// startServing makes the broker RUNNING and serves the client requests
// that arrived before it could.
func (b *Broker) startServing(env *sim.Env) {
	b.state = StateRunning
	b.readyToServe = true
	env.Note(event.BrokerServing{Broker: b.cfg.NodeID})
	held := b.held
	b.held = nil
	for _, e := range held {
		b.dispatch(env, e)
	}
}
