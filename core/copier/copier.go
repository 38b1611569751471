package copier

import (
	"fmt"
	"time"

	"kafkascope/core/client"
	"kafkascope/core/group"
	"kafkascope/core/sim"
)

// positionTimeout is the consumer's default.api.timeout.ms, which
// position() waits for.
const positionTimeout = 60 * time.Second

// Config is the copier's command line.
type Config struct {
	TransactionalID string
	InputTopic      string
	InputPartition  int32
	OutputTopic     string
	Group           string // --consumer-group ("-1" by default)
	TransactionSize int64  // records per transaction (max.poll.records)
	// MaxMessages: copy at most this many of the records present at
	// launch; -1 copies them all.
	MaxMessages      int64
	GroupMode        bool // subscribe in the group instead of assigning
	RandomAborts     bool // abort about one transaction in three
	UseGroupMetadata bool // send the member's group metadata with the offsets
}

// Status is what statusAsJson reports: the stage and the counts.
type Status struct {
	Stage                               string
	TotalProcessed, Consumed, Remaining int64
}

// Copier is one run of the copier.
type Copier struct {
	cfg       Config
	c         *client.Consumer
	p         *client.Producer
	coordAddr sim.Addr
	rand      *sim.Rand
	// OnStatus sees each status the tool prints (a turn of the loop, a
	// rebalance); OnExit the end: the exit code, main's error (nil if
	// none) and the shutdown hook's status.
	OnStatus func(env *sim.Env, s Status)
	OnExit   func(env *sim.Env, code int, err *client.Error, final Status)

	remaining, total, consumed int64
	polling, rebalancing       bool
	pollTimer                  *sim.Timer
	done                       bool
	initialized                bool // initTransactions returned
}

// New makes a copier over a consumer (with coordAddr, the address its
// group coordinator client sends from) and a transactional producer;
// rand draws the random aborts.
func New(cfg Config, c *client.Consumer, coordAddr sim.Addr, p *client.Producer, rand *sim.Rand) *Copier {
	cp := &Copier{cfg: cfg, c: c, p: p, coordAddr: coordAddr, rand: rand, remaining: cfg.MaxMessages}
	if cp.remaining == -1 {
		cp.remaining = 1<<63 - 1
	}
	return cp
}

func (cp *Copier) status(env *sim.Env, stage string) {
	if cp.OnStatus != nil {
		cp.OnStatus(env, cp.snapshot(stage))
	}
}

func (cp *Copier) snapshot(stage string) Status {
	return Status{Stage: stage, TotalProcessed: cp.total, Consumed: cp.consumed, Remaining: cp.remaining}
}

// Initialized reports whether initTransactions has returned: the copier
// has its position and its producer epoch, and copies.
func (cp *Copier) Initialized() bool { return cp.initialized }

// Start is main: the consumer is assigned the input partition (or
// subscribes), the remaining count is measured, and the producer's
// initTransactions runs before the loop.
func (cp *Copier) Start(env *sim.Env) {
	cp.c.Hold()
	cp.c.OnRecords(cp.onRecords)
	cp.c.OnError(func(env *sim.Env, err *client.Error) { cp.exit(env, 1, err) })
	if cp.cfg.GroupMode {
		cp.c.OnRebalance(nil, cp.onAssigned, nil)
		cp.c.Subscribe(env, cp.coordAddr, []string{cp.cfg.InputTopic})
		cp.p.InitTransactions(env, cp.afterInit)
		return
	}
	tp := group.TopicPartition{Topic: cp.cfg.InputTopic, Partition: cp.cfg.InputPartition}
	cp.c.AssignCommitted(env, cp.coordAddr, cp.cfg.InputTopic, []int32{cp.cfg.InputPartition})
	cp.remainingOf(env, []group.TopicPartition{tp}, func(env *sim.Env, n int64) {
		cp.remaining = min(n, cp.remaining)
		cp.p.InitTransactions(env, cp.afterInit)
	})
}

// remainingOf is messagesRemaining summed: each partition's end offset
// (the LSO: the consumer reads committed) less its position, once known.
// position() gives up after default.api.timeout.ms (60 s): a read_committed
// consumer's committed offset stays unknown while a transaction holds a
// pending offset commit for it (UNSTABLE_OFFSET_COMMIT), and the copier
// then fails.
func (cp *Copier) remainingOf(env *sim.Env, tps []group.TopicPartition, done func(env *sim.Env, n int64)) {
	var total int64
	var next func(env *sim.Env, i int)
	deadline := env.Now().Add(positionTimeout)
	next = func(env *sim.Env, i int) {
		if cp.done {
			return
		}
		if i == len(tps) {
			done(env, total)
			return
		}
		pos, ok := cp.c.Position(tps[i])
		if !ok && env.Now() >= deadline {
			cp.exit(env, 1, &client.Error{Class: "org.apache.kafka.common.errors.TimeoutException",
				Message: fmt.Sprintf("Timeout of %dms expired before the position for partition %s-%d could be determined", positionTimeout.Milliseconds(), tps[i].Topic, tps[i].Partition)})
			return
		}
		if !ok {
			env.After(10*time.Millisecond, "copier-position", func(env *sim.Env) { next(env, i) })
			return
		}
		cp.c.EndOffset(env, tps[i], func(env *sim.Env, end int64) {
			total += end - pos
			next(env, i+1)
		})
	}
	next(env, 0)
}

// onAssigned is the group-mode listener: the remaining count is what the
// new partitions hold, and the loop waits (inside poll) until it is known.
func (cp *Copier) onAssigned(env *sim.Env, tps []group.TopicPartition) {
	cp.rebalancing = true
	cp.c.Hold()
	cp.remainingOf(env, tps, func(env *sim.Env, n int64) {
		cp.remaining, cp.consumed, cp.rebalancing = n, 0, false
		cp.status(env, "RebalanceComplete")
		if cp.polling {
			cp.c.Release(env)
		}
	})
}

func (cp *Copier) afterInit(env *sim.Env, err *client.Error) {
	if err != nil {
		cp.exit(env, 1, err)
		return
	}
	cp.initialized = true
	cp.loop(env)
}

// loop is one turn of runEventLoop's while: the status, then poll(200 ms).
func (cp *Copier) loop(env *sim.Env) {
	if cp.done {
		return
	}
	if cp.remaining <= 0 {
		cp.exit(env, 0, nil)
		return
	}
	cp.status(env, "ProcessLoop")
	cp.polling = true
	cp.pollTimer = env.After(200*time.Millisecond, "copier-poll", func(env *sim.Env) {
		if cp.polling {
			cp.polling = false
			cp.c.Hold()
			cp.loop(env)
		}
	})
	if !cp.rebalancing {
		cp.c.Release(env)
	}
}

// onRecords is what a poll returned: one transaction.
func (cp *Copier) onRecords(env *sim.Env, recs []client.ConsumerRecord) {
	if !cp.polling || cp.done {
		return
	}
	cp.polling = false
	cp.pollTimer.Stop()
	cp.c.Hold()
	if err := cp.p.BeginTransaction(); err != nil {
		cp.failed(env, err)
		return
	}
	for _, r := range recs {
		cp.p.Send(env, client.ProducerRecord{Topic: cp.cfg.OutputTopic, Partition: r.Partition, Key: r.Key, Value: r.Value}, nil)
	}
	n := int64(len(recs))
	md := client.ConsumerGroupMetadata{GroupID: cp.cfg.Group, GenerationID: -1}
	if cp.cfg.UseGroupMetadata {
		md = cp.c.GroupMetadata()
	}
	var offsets []client.TxnOffset
	for _, tp := range cp.c.AssignedPartitions() {
		if pos, ok := cp.c.Position(tp); ok {
			offsets = append(offsets, client.TxnOffset{TP: tp, Offset: pos, LeaderEpoch: -1})
		}
	}
	cp.p.SendOffsetsToTransaction(env, offsets, md, func(env *sim.Env, err *client.Error) {
		if err != nil {
			cp.failed(env, err)
			return
		}
		if cp.cfg.RandomAborts && javaMod(int32(cp.rand.Uint64()), 3) == 0 {
			cp.abort(env)
			return
		}
		cp.p.CommitTransaction(env, func(env *sim.Env, err *client.Error) {
			if err != nil {
				cp.failed(env, err)
				return
			}
			cp.remaining -= n
			cp.consumed += n
			cp.total += n
			cp.loop(env)
		})
	})
}

// javaMod is Java's %: the sign of the dividend.
func javaMod(a, b int32) int32 { return a % b }

// failed is the loop's catch: a fenced producer ends the copier, anything
// else aborts the transaction and rewinds the consumer.
func (cp *Copier) failed(env *sim.Env, err *client.Error) {
	if err.Class == "org.apache.kafka.common.errors.ProducerFencedException" {
		cp.exit(env, 1, &client.Error{Class: "org.apache.kafka.common.KafkaException", Message: fmt.Sprintf("The transactional.id %s has been claimed by another process", cp.cfg.TransactionalID)})
		return
	}
	cp.abort(env)
}

// abort is abortTransactionAndResetPosition.
func (cp *Copier) abort(env *sim.Env) {
	cp.p.AbortTransaction(env, func(env *sim.Env, err *client.Error) {
		if err != nil {
			cp.exit(env, 1, err) // abortTransaction threw out of the loop
			return
		}
		cp.c.SeekToCommitted(env, cp.loop)
	})
}

// exit ends the copier: main's error, if it failed, the shutdown hook's
// status, and the exit code.
func (cp *Copier) exit(env *sim.Env, code int, err *client.Error) {
	if cp.done {
		return
	}
	cp.done = true
	cp.c.Stop()
	if cp.OnExit != nil {
		cp.OnExit(env, code, err, cp.snapshot("ShutdownComplete"))
	}
}

// Terminate is SIGTERM: the shutdown hook's status, and the JVM exits
// (143).
func (cp *Copier) Terminate(env *sim.Env) {
	if cp.done {
		return
	}
	cp.done = true
	cp.c.Stop()
	if cp.OnExit != nil {
		cp.OnExit(env, 143, nil, cp.snapshot("ShutdownComplete"))
	}
}
