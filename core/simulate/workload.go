package simulate

import (
	"fmt"

	"kafkascope/core/client"
	"kafkascope/core/cluster"
	"kafkascope/core/sim"
)

// send is one record a producer sent; every value is unique in the run, so
// a value seen twice in a log is a duplicate.
type send struct {
	producer   int
	acks       int16
	idempotent bool
	topic      string
	partition  int32
	value      string
	acked      bool
	offset     int64 // with acked (-1 for acks=0: the producer learns none)
	ackedAt    sim.Time
	failed     string
}

// producer is one producer process of the workload: it sends a uniquely
// numbered value every Gap to a partition drawn from its own stream.
type producer struct {
	run     *Run
	index   int
	plan    ProducerPlan
	p       *client.Producer
	pick    *sim.Rand
	host    string
	stopped bool
	closed  bool
	timer   *sim.Timer
}

func (run *Run) startProducer(i int, pp ProducerPlan) (*producer, error) {
	cfg := client.DefaultProducerConfig(run.C.Release().Version)
	cfg.ClientID = pp.Name
	cfg.Acks = pp.Acks
	// ProducerConfig's post-processing: idempotence needs acks=all; a plain
	// producer keeps Kafka's default retries (so it may duplicate).
	cfg.EnableIdempotence = pp.Idempotent
	pr := &producer{run: run, index: i, plan: pp, pick: sim.NewRand(run.Plan.Seed, "simulate/workload/"+pp.Name)}
	host, err := run.C.SpawnClient(pp.Name, func(host string) sim.Process {
		pr.p = client.NewProducer(sim.Addr(host+":1"), []sim.Addr{cluster.BrokerAddr(1)}, cfg, run.C.World.Rand("simulate/"+pp.Name), run.clientLog(pp.Name))
		return &client.Process{Handlers: []client.Handler{pr.p}, OnStart: pr.tick}
	})
	pr.host = host
	return pr, err
}

func (pr *producer) tick(env *sim.Env) {
	if pr.stopped {
		return
	}
	run := pr.run
	t := run.Plan.Topics[pr.pick.Intn(len(run.Plan.Topics))]
	s := &send{producer: pr.index, acks: pr.plan.Acks, idempotent: pr.plan.Idempotent, topic: t.Name,
		partition: int32(pr.pick.Intn(len(t.Assignment))), value: fmt.Sprintf("s%d-p%d-r%d", run.Plan.Seed, pr.index+1, len(run.sends))}
	run.sends = append(run.sends, s)
	pr.p.Send(env, client.ProducerRecord{Topic: s.topic, Partition: s.partition, Value: []byte(s.value)}, func(env *sim.Env, md client.RecordMetadata, err *client.Error) {
		if err != nil {
			s.failed = err.Error()
			return
		}
		s.acked, s.offset, s.ackedAt = true, md.Offset, env.Now()
	})
	pr.timer = env.After(pr.plan.Gap, "sim-send", pr.tick)
}

func (run *Run) stopSending(pr *producer) {
	_ = run.C.World.Call(pr.host, "stop", func(env *sim.Env) {
		pr.stopped = true
		if pr.timer != nil {
			pr.timer.Stop()
		}
	})
	run.note("%s stops sending", pr.plan.Name)
}

// closeProducers closes every producer and waits (bounded) until every send
// has an outcome.
func (run *Run) closeProducers() error {
	for _, pr := range run.producers {
		pr := pr
		if err := run.C.World.Call(pr.host, "close", func(env *sim.Env) {
			pr.p.Close(env, func(*sim.Env) { pr.closed = true })
		}); err != nil {
			return err
		}
	}
	allClosed := func() bool {
		for _, pr := range run.producers {
			if !pr.closed {
				return false
			}
		}
		return true
	}
	if err := run.advanceUntil(allClosed, settleLimit); err != nil {
		return err
	}
	for _, pr := range run.producers {
		if !pr.closed {
			run.violate("liveness", "%s still had %d records pending %s after the faults ended", pr.plan.Name, pr.p.Pending(), settleLimit)
		}
		run.C.StopClient(pr.host)
	}
	run.Stats.Sent = len(run.sends)
	for _, s := range run.sends {
		switch {
		case s.acked:
			run.Stats.Acked++
		case s.failed != "":
			run.Stats.Failed++
		default:
			run.Stats.Unknown++
		}
	}
	return nil
}

// clientLog routes a client's log lines to the trace (when tracing).
func (run *Run) clientLog(name string) func(client.Level, string, string) {
	return func(level client.Level, logger, msg string) {
		if run.Opts.Trace != nil {
			run.Opts.Trace(fmt.Sprintf("%s %s %v %s: %s", run.C.World.Now(), name, level, logger, msg))
		}
	}
}
