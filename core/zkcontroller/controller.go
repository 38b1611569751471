package zkcontroller

import (
	"fmt"

	"kafkascope/core/config"
	"kafkascope/core/kafkazk"
	"kafkascope/core/release"
	"kafkascope/core/rpc"
	"kafkascope/core/sim"
)

// Config is what a broker starts its controller with.
type Config struct {
	BrokerID int32
	ZK       *kafkazk.Client // the broker's client: one session for both
	// Conf is the broker's configs as they stand (read at each use).
	Conf    func() config.Layers
	Release release.Release
	// Register re-registers the broker under /brokers/ids after its
	// session expired (processRegisterBrokerAndReelect).
	Register func(env *sim.Env, done func(env *sim.Env))
}

// Controller is one broker's controller: active when it won /controller.
//
// Invariants: at most one event runs at a time (running); while active,
// epoch and epochZkVersion are what its election wrote to
// /controller_epoch, and ctx holds the cluster as it loaded and changed
// it; inactive, ctx is empty.
type Controller struct {
	cfg Config
	net *rpc.Client

	queue   []controllerEvent
	running bool

	activeID       int32 // the broker /controller names, -1 if none known
	active         bool
	epoch          int32
	epochZkVersion int32
	ctx            *context
	channel        *channel
	rebalance      *sim.Timer // the auto leader rebalance task's next run
	stopped        bool
	stats          *controllerStats // metrics.go
}

// controllerEvent is one ControllerEvent: run does its work and calls done once,
// when its last ZooKeeper batch is back.
type controllerEvent struct {
	name string
	run  func(env *sim.Env, done func(env *sim.Env))
}

// New makes a controller; Start runs when the broker has registered.
func New(cfg Config) *Controller {
	return &Controller{cfg: cfg, activeID: -1}
}

// Active reports whether this controller is the active one.
func (c *Controller) Active() bool { return c.active }

// Epoch is the controller epoch it won (0 if it never led).
func (c *Controller) Epoch() int32 { return c.epoch }

// ActiveID is the controller broker as this one last read /controller.
func (c *Controller) ActiveID() int32 { return c.activeID }

// LiveBrokerIDs is the brokers the active controller knows as alive
// (registered, shutting down or not), nil when it is not active.
func (c *Controller) LiveBrokerIDs() []int32 {
	if !c.active || c.ctx == nil {
		return nil
	}
	return c.ctx.liveIDs()
}

// Handle takes the answers to the controller's requests to brokers.
func (c *Controller) Handle(env *sim.Env, e *sim.Envelope) bool {
	return c.net != nil && c.net.Handle(env, e)
}

// Start is KafkaController.startup: watch /controller, then try to win it.
func (c *Controller) Start(env *sim.Env) {
	c.initStats(env)
	c.net = rpc.NewClient(env.EphemeralPort(), fmt.Sprintf("controller-%d", c.cfg.BrokerID))
	zk := c.cfg.ZK
	zk.RegisterStateHandler(kafkazk.StateHandler{
		Name:                      "controller-state-change-handler",
		BeforeInitializingSession: func(env *sim.Env) { c.enqueue(env, "Expire", c.expire) },
		AfterSession: func(env *sim.Env) {
			c.enqueue(env, "RegisterBrokerAndReelect", func(env *sim.Env, done func(*sim.Env)) {
				c.cfg.Register(env, func(env *sim.Env) { c.reelect(env, done) })
			})
		},
	})
	zk.RegisterNodeHandler(kafkazk.ControllerPath, kafkazk.NodeHandler{
		Created:     func(env *sim.Env) { c.enqueue(env, "ControllerChange", c.controllerChange) },
		DataChanged: func(env *sim.Env) { c.enqueue(env, "ControllerChange", c.controllerChange) },
		Deleted:     func(env *sim.Env) { c.enqueue(env, "Reelect", c.reelect) },
	})
	c.enqueue(env, "Startup", func(env *sim.Env, done func(*sim.Env)) {
		zk.One(env, kafkazk.Req{Type: opExists, Path: kafkazk.ControllerPath}, func(env *sim.Env, _ kafkazk.Resp) {
			c.elect(env, done)
		})
	})
}

// Stop ends the controller with its broker's process (a clean shutdown
// resigns first: Shutdown).
func (c *Controller) Stop() {
	c.stopped = true
	c.queue = nil
	c.rebalance.Stop()
	if c.channel != nil {
		c.channel.stop()
	}
}

// enqueue adds an event; it runs after those before it.
func (c *Controller) enqueue(env *sim.Env, name string, run func(env *sim.Env, done func(env *sim.Env))) {
	if c.stopped {
		return
	}
	c.queue = append(c.queue, controllerEvent{name: name, run: run})
	if !c.running {
		c.next(env)
	}
}

// next runs the next queued event.
func (c *Controller) next(env *sim.Env) {
	if c.running || len(c.queue) == 0 || c.stopped {
		return
	}
	ev := c.queue[0]
	c.queue = c.queue[1:]
	c.running = true
	finished := false
	started := env.Now()
	c.eventStarted(ev.name)
	ev.run(env, func(env *sim.Env) {
		if finished {
			panic("zkcontroller: event " + ev.name + " finished twice")
		}
		finished = true
		c.running = false
		c.eventDone(env, ev.name, started)
		// The next event starts in an event of its own, as the event
		// thread takes it from its queue.
		env.After(0, "controller-event", c.next)
	})
}
