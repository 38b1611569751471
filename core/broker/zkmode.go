package broker

import (
	"fmt"
	"strings"

	"kafkascope/core/config"
	"kafkascope/core/event"
	"kafkascope/core/jmx"
	"kafkascope/core/kafkazk"
	"kafkascope/core/metadata"
	"kafkascope/core/sim"
	"kafkascope/core/storage"
	"kafkascope/core/zkcontroller"
	"kafkascope/core/zookeeper"
)

// A ZooKeeper-era broker (Kafka 2.8, KafkaServer.startup at tag 2.8.0)
// keeps no metadata log. It opens a ZooKeeper session, makes sure the
// top-level paths and /cluster/id exist, registers itself under
// /brokers/ids (an ephemeral znode: the broker is alive while its session
// is), starts its controller (which races for /controller), and serves.
// What it leads and follows comes from the controller's LeaderAndIsr;
// its metadata cache (the image) from UpdateMetadata (zkrequests.go).

// ZooKeeperMode is what the process gives a ZooKeeper-era broker.
type ZooKeeperMode struct {
	Client     *kafkazk.Client
	Controller *zkcontroller.Controller
}

// zkState is the ZooKeeper-era broker's own state.
type zkState struct {
	client     *kafkazk.Client
	controller *zkcontroller.Controller
	// parts is each local replica's state as the last LeaderAndIsr gave it
	// (what the broker leads and follows), with its topic id.
	parts map[storage.TopicPartition]zkPartition
	// controllerEpoch is the highest controller epoch seen; controllerID
	// the controller the last UpdateMetadata came from (-1 none yet).
	controllerEpoch int32
	controllerID    int32
	// configsRead are the topics whose /config/topics znode was read.
	configsRead map[string]bool
	// lastConfigChange is the last /config/changes notification
	// processed (ZkNodeChangeNotificationListener.lastExecutedChange).
	lastConfigChange int64
	// shutdownTries counts the ControlledShutdown requests left.
	shutdownTries int
	// waits are CreateTopics answers waiting for their leaders (zkadmin.go).
	waits []*zkTopicWait
	// isrChanges are the partitions whose ISR this leader wrote itself
	// and has not announced yet, and when (zkisr.go).
	isrChanges          map[storage.TopicPartition]bool
	lastIsrChange       sim.Time
	lastIsrPropagation  sim.Time
	isrPropagationArmed bool
}

type zkPartition struct {
	state   metadata.PartitionState
	topicID metadata.Uuid
	// controllerEpoch is the epoch of the controller that made the
	// leadership decision (what a leader writes back with its own ISR
	// changes before AlterIsr).
	controllerEpoch int32
}

func newZkState(m *ZooKeeperMode) *zkState {
	return &zkState{client: m.Client, controller: m.Controller, parts: map[storage.TopicPartition]zkPartition{}, controllerID: -1, configsRead: map[string]bool{}}
}

// zkControllerView is the broker's "quorum" in the ZooKeeper era: the
// controller its metadata cache names (MetadataCacheControllerNodeProvider),
// which is where AlterIsr and ControlledShutdown go.
type zkControllerView struct{ b *Broker }

func (v zkControllerView) ActiveController() (sim.Addr, bool) {
	id := v.b.zk.controllerID
	r, ok := v.b.image.Brokers[id]
	if id < 0 || !ok || len(r.Endpoints) == 0 {
		return "", false
	}
	return sim.Addr(fmt.Sprintf("%s:%d", r.Endpoints[0].Host, r.Endpoints[0].Port)), true
}

func (v zkControllerView) HighWatermark() int64 { return 0 }

// SetZooKeeperController gives the broker its controller (made after the
// broker, since it reads the broker's configs).
func (b *Broker) SetZooKeeperController(c *zkcontroller.Controller) { b.zk.controller = c }

// Conf is the broker's configs as they stand now.
func (b *Broker) Conf() config.Layers { return b.conf() }

// ZooKeeperController is the broker's controller (nil on KRaft).
func (b *Broker) ZooKeeperController() *zkcontroller.Controller {
	if b.zk == nil {
		return nil
	}
	return b.zk.controller
}

// zkStart is KafkaServer.startup's ZooKeeper part, in its order.
func (b *Broker) zkStart(env *sim.Env) {
	zk := b.zk.client
	zk.Start(env)
	b.createTopLevelPaths(env, kafkazk.PersistentZkPaths, func(env *sim.Env) {
		b.zkClusterID(env, func(env *sim.Env) {
			b.readBrokerConfigsZk(env, b.ownBrokerConfigs(), func(env *sim.Env) {
				b.zkStartRegistered(env)
			})
		})
	})
}

// zkStartRegistered is the rest of startup: registration, the controller,
// the background work, serving.
func (b *Broker) zkStartRegistered(env *sim.Env) {
	b.zkRegister(env, func(env *sim.Env) {
		b.zk.controller.Start(env)
		b.maybeRequestProducerIDBlock(env)
		b.startRetention(env)
		b.startLogCleaner(env)
		b.startConfigChangeListener(env)
		b.published = true
		b.startServing(env)
	})
}

// createTopLevelPaths creates each persistent path in turn
// (KafkaZkClient.createRecursive: the leaf first; on NONODE the parent,
// recursively, then the leaf again; NODEEXISTS is fine).
func (b *Broker) createTopLevelPaths(env *sim.Env, paths []string, done func(*sim.Env)) {
	if len(paths) == 0 {
		done(env)
		return
	}
	b.createRecursive(env, paths[0], nil, func(env *sim.Env, _ zookeeper.Code) {
		b.createTopLevelPaths(env, paths[1:], done)
	})
}

func (b *Broker) createRecursive(env *sim.Env, path string, data []byte, done func(*sim.Env, zookeeper.Code)) {
	zk := b.zk.client
	zk.One(env, kafkazk.Req{Type: zookeeper.OpCreate, Path: path, Data: data}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc != zookeeper.NoNode {
			done(env, r.Rc)
			return
		}
		parent := path[:strings.LastIndexByte(path, '/')]
		b.createRecursive(env, parent, nil, func(env *sim.Env, _ zookeeper.Code) {
			zk.One(env, kafkazk.Req{Type: zookeeper.OpCreate, Path: path, Data: data}, func(env *sim.Env, r kafkazk.Resp) { done(env, r.Rc) })
		})
	})
}

// zkClusterID is getOrGenerateClusterId: read /cluster/id, or create it.
// The first broker to start generates the id; the cluster's id stands
// for the one it would have drawn.
func (b *Broker) zkClusterID(env *sim.Env, done func(*sim.Env)) {
	zk := b.zk.client
	zk.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.ClusterIdPath}, func(env *sim.Env, r kafkazk.Resp) {
		if r.Rc == zookeeper.OK {
			done(env)
			return
		}
		b.createRecursive(env, kafkazk.ClusterIdPath, kafkazk.EncodeClusterID(b.cfg.ClusterID), func(env *sim.Env, _ zookeeper.Code) { done(env) })
	})
}

// zkRegister is KafkaZkClient.registerBroker: one multi that creates the
// ephemeral /brokers/ids/N with no data and sets its data (so a live
// broker's znode has version 1); the znode's czxid is the broker epoch.
// A znode left by this broker's previous session (not expired yet) makes
// it fail with NODEEXISTS, and Kafka's broker exits: here it tries again
// until the old session is gone. A znode this session owns is ours: the
// multi was applied and its answer lost with the connection, then sent
// again (CheckedEphemeral.getAfterNodeExists: the ephemeral owner is this
// session, so the create succeeded).
func (b *Broker) zkRegister(env *sim.Env, done func(*sim.Env)) {
	path := kafkazk.BrokerIDPath(b.cfg.NodeID)
	info := kafkazk.BrokerInfo{
		// Every node serves JMX on jmx.Port, as if started with
		// JMX_PORT=9999: the broker registers the port it finds in
		// com.sun.management.jmxremote.port (KafkaServer, 2.8).
		ID: b.cfg.NodeID, JmxPort: jmx.Port, Timestamp: env.Now().UnixMilli(), Rack: b.cfg.Static.Broker("broker.rack"),
		Endpoints: []kafkazk.Endpoint{{Listener: "PLAINTEXT", Host: b.cfg.Host, Port: BrokerPort, SecurityProtocol: "PLAINTEXT"}},
	}
	ops := []zookeeper.Op{
		zookeeper.CreateOp(path, nil, zookeeper.Ephemeral),
		zookeeper.SetDataOp(path, kafkazk.EncodeBrokerInfo(info), 0),
	}
	b.zk.client.One(env, kafkazk.Req{Type: zookeeper.OpMulti, Ops: ops}, func(env *sim.Env, r kafkazk.Resp) {
		if b.state == StateStopped {
			return
		}
		switch r.Rc {
		case zookeeper.OK:
			b.registered = true
			b.brokerEpoch = r.Results[1].Stat.Czxid
			done(env)
		case zookeeper.NodeExists:
			b.zk.client.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: path}, func(env *sim.Env, g kafkazk.Resp) {
				if b.state == StateStopped {
					return
				}
				if g.Rc == zookeeper.OK && g.Stat.EphemeralOwner == b.zk.client.Session() {
					b.registered = true
					b.brokerEpoch = g.Stat.Czxid
					done(env)
					return
				}
				b.retryZkRegister(env, done)
			})
		default:
			b.retryZkRegister(env, done)
		}
	})
}

func (b *Broker) retryZkRegister(env *sim.Env, done func(*sim.Env)) {
	env.After(b.ms("zookeeper.session.timeout.ms")/6, "zk-broker-registration-retry", func(env *sim.Env) { b.zkRegister(env, done) })
}

// ZkReregister is the controller's RegisterBrokerAndReelect: a new
// session needs a new znode (and so a new broker epoch).
func (b *Broker) ZkReregister(env *sim.Env, done func(*sim.Env)) {
	b.zkRegister(env, done)
}

// claimZkProducerIDBlock is 2.8's ProducerIdManager.getNewProducerIdBlock:
// read /latest_producer_id_block, claim the next 1000 ids with a write
// conditional on its version, and read again if another broker won.
func (b *Broker) claimZkProducerIDBlock(env *sim.Env) {
	m := &b.producerIDs
	m.requestInFlight = true
	zk := b.zk.client
	zk.One(env, kafkazk.Req{Type: zookeeper.OpGetData, Path: kafkazk.ProducerIdBlockPath}, func(env *sim.Env, r kafkazk.Resp) {
		start := int64(0)
		if r.Rc == zookeeper.OK && len(r.Data) > 0 {
			if prev, err := kafkazk.DecodeProducerIDBlock(r.Data); err == nil {
				start = prev.End + 1
			}
		}
		const size = 1000 // ProducerIdManager.PidBlockSize
		block := kafkazk.ProducerIDBlock{BrokerID: b.cfg.NodeID, Start: start, End: start + size - 1}
		zk.One(env, kafkazk.Req{Type: zookeeper.OpSetData, Path: kafkazk.ProducerIdBlockPath, Data: kafkazk.EncodeProducerIDBlock(block), Version: r.Stat.Version}, func(env *sim.Env, w kafkazk.Resp) {
			if b.state == StateStopped {
				return
			}
			if w.Rc != zookeeper.OK {
				b.claimZkProducerIDBlock(env)
				return
			}
			m.requestInFlight = false
			m.nextBlock = &producerIDBlock{first: start, next: start, size: size}
			env.Note(event.ProducerIDBlockReceived{Broker: b.cfg.NodeID, First: start, Last: block.End})
		})
	})
}
